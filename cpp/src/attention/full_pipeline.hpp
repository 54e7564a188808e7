// full_pipeline.hpp (internal) — attention over the whole n x m score matrix,
// five passes on the kernels this process runs. One pipeline for every path
// that holds the matrix: attn::attention (the trace: each pass into its own
// matrix), attn::attention_output_full and multi-head's heads (one matrix,
// every pass in place).
#pragma once

#include "attn/attention.hpp"
#include "problem.hpp"

namespace attn::detail {

// problem (checked) -> output (n x d_v), passes 1-4 in place in `matrix`
// (n x m; it ends as the weights). Rows the float-range check does not let
// through are computed in double (float_range.hpp).
void full_passes(const AttentionProblem& problem, float* matrix, float* output);

// problem (checked) -> every matrix of the trace and the output (and the
// terms when Included). As full_passes, and a score beyond the float range
// raises ValueError naming it.
void trace_passes(const AttentionProblem& problem, TraceTerms terms, AttentionTrace& trace);

}  // namespace attn::detail
