// full_pipeline.hpp (internal) — attention over the whole n x m score matrix,
// five passes on the kernels this process runs. One pipeline for every path
// that holds the matrix: attn::attention (the trace: each pass into its own
// matrix), attn::attention_output_full and multi-head's heads (one matrix,
// every pass in place).
#pragma once

#include "problem.hpp"

namespace attn::detail {

// Where the passes write. With `scores` null, passes 1-4 run in place in
// `weights` (scaled and masked must then be null too).
struct FullPassBuffers {
  float* scores = nullptr;   // n x m   Q K^T
  float* scaled = nullptr;   // n x m   scale Q K^T
  float* masked = nullptr;   // n x m   -inf where the mask forbids
  float* weights = nullptr;  // n x m   row softmax (0 where masked; a fully masked row is zeros)
  float* output = nullptr;   // n x d_v weights V
};

// problem (checked) -> the buffers. Rows the float-range check does not let
// through are computed in double (float_range.hpp); with `scores` given, a
// score beyond the float range raises ValueError naming it.
void full_passes(const AttentionProblem& problem, const FullPassBuffers& out);

}  // namespace attn::detail
