// trace_steps.hpp (internal) — the steps only the trace shows, shared by the
// fast trace (full_pipeline.cpp) and the reference (reference.cpp): which
// shift each row's exponentials take, the exponentials themselves, and the
// per-key terms weights_ij v_j. Shown, never timed: compiled for size in
// WebAssembly (cpp/CMakeLists.txt), out of line.
#pragma once

#include <cstddef>

#include "attention/problem.hpp"

namespace attn::detail {

// c_i for a row x (m entries, -inf where masked), as attn::AttentionTrace
// states it: 0 while the textbook e^(x_j) are normal floats whose sum stays
// below e^88 (every kept x_j >= ln FLT_MIN and max_j x_j + ln m <= 88), else
// max_j x_j. A fully masked row: 0.
float exp_shift(const float* x, std::size_t m);

// trace.masked (n x m) -> trace.exps_ij = e^(masked_ij - c_i), exp_sums_i and exp_shifts_i = c_i
// (exp of -inf = 0). The fast trace's: by the softmax's own vector exp (kernels::exp_shifted_sum,
// about 1 ulp; every argument is in its range by the choice of c_i), since attention() is timed
// beside the output-only path (an exp in double per score took it from 1.6x to 2.8x of that path).
void trace_exponentials(AttentionTrace& trace, std::size_t n, std::size_t m);
// trace_exponentials in double, each rounded to float once: the reference's.
void reference_exponentials(AttentionTrace& trace, std::size_t n, std::size_t m);

// How many floats the trace's terms take: 0 when Omitted, else n*m*d_v
// (SizeError "n*m*d_v: expected at most ... elements" beyond kMaxMatrixElements).
std::size_t trace_term_count(const AttentionProblem& problem, TraceTerms terms);

// trace.terms: `count` floats (trace_term_count), terms_((i*m + j)*d_v + c) = weights_ij v_jc for
// every query i, key j, column c when count > 0.
void trace_terms(const AttentionProblem& problem, std::size_t count, AttentionTrace& trace);

}  // namespace attn::detail
