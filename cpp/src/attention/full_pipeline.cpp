// full_pipeline.cpp — the five passes over the n x m matrix (full_pipeline.hpp).
//
//   Attention(Q, K, V) = softmax(mask(scale * Q K^T)) V
//   Q n x d_k, K m x d_k, V m x d_v; scores, scaled, masked, weights n x m; output n x d_v
#include "full_pipeline.hpp"

#include <vector>

#include "kernels/kernels.hpp"
#include "attention/attention_row.hpp"
#include "attention/trace_steps.hpp"

// The trace is shown, never timed: where the compiler can (clang, so the
// WebAssembly builds), its glue is compiled for size; the kernels it calls are not.
#if __has_cpp_attribute(clang::minsize)
#define ATTN_FOR_SIZE [[clang::minsize]]
#else
#define ATTN_FOR_SIZE
#endif

namespace attn::detail {

namespace {

// Rows whose float intermediates could leave the float range: again, in double.
void rows_in_double(const AttentionProblem& problem, const RowOutputs& out) {
  const FloatPathCheck float_path(problem.norms, problem.scale, 2.0);  // sum_j p_ij <= 1 (+ rounding)
  if (float_path.every_row()) return;
  std::vector<double> row(problem.shape.m);
  for (std::size_t i = 0; i < problem.shape.n; ++i) {
    if (!float_path.row(problem.q + i * problem.shape.d_k, problem.shape.d_k))
      attention_row_in_double(problem, i, row.data(), out);
  }
}

}  // namespace

void full_passes(const AttentionProblem& problem, float* matrix, float* output) {
  const kernels::KernelTable& kernels = kernels::active();
  const std::size_t n = problem.shape.n, m = problem.shape.m, d_k = problem.shape.d_k, d_v = problem.shape.d_v;
  kernels.matmul_abt(problem.q, problem.k, matrix, n, m, d_k);  // pass 1: S = Q K^T    (n x m)
  kernels.scale_in_place(problem.scale, matrix, n * m);          // pass 2: scale * S
  mask_block(matrix, n, m, 0, 0, problem.rule);                  // pass 3: -inf where the mask forbids
  kernels.softmax_rows(matrix, n, m);                            // pass 4: P = softmax_rows
  kernels.matmul_ab(matrix, problem.v, output, n, m, d_v);       // pass 5: O = P V      (n x d_v)
  rows_in_double(problem, {.weights = matrix, .output = output});
}

// The same passes, each into a matrix of its own, and the steps only the trace
// shows (trace_steps.hpp). Each matrix starts as a copy of the one before,
// never as zeros that the next pass would overwrite anyway: at n = 1024 that
// saves writing 16 MiB.
ATTN_FOR_SIZE void trace_passes(const AttentionProblem& problem, TraceTerms terms, AttentionTrace& trace) {
  const kernels::KernelTable& kernels = kernels::active();
  const std::size_t n = problem.shape.n, m = problem.shape.m, d_k = problem.shape.d_k, d_v = problem.shape.d_v;
  const std::size_t term_count = trace_term_count(problem, terms);
  const float scale = problem.scale;
  trace.scale = scale;

  // pass 1: S = Q K^T                                   (n x m)
  trace.scores.resize(n * m);
  kernels.matmul_abt(problem.q, problem.k, trace.scores.data(), n, m, d_k);

  // pass 2: scaled = scale * S
  trace.scaled.assign(trace.scores.begin(), trace.scores.end());
  kernels.scale_in_place(scale, trace.scaled.data(), n * m);

  // pass 3: masked_ij = scaled_ij where query i may see key j, else -inf
  trace.masked.assign(trace.scaled.begin(), trace.scaled.end());
  mask_block(trace.masked.data(), n, m, 0, 0, problem.rule);

  // pass 4: P = softmax_rows(masked)   (-inf -> 0; a fully masked row -> zeros). Not
  // exps_ij / exp_sums_i from the exponentials below: with the textbook shift c_i = 0 the
  // product e^(x_j) * (1 / sum) rounds to 1 + 1 ulp for a dominant key (the fuzzer found
  // weights[1][0] > 1); the softmax's own shift by the row maximum keeps every weight <= 1.
  trace.weights.assign(trace.masked.begin(), trace.masked.end());
  kernels.softmax_rows(trace.weights.data(), n, m);

  // pass 5: O = P V                                     (n x d_v)
  trace.output.resize(n * d_v);
  kernels.matmul_ab(trace.weights.data(), problem.v, trace.output.data(), n, m, d_v);

  rows_in_double(problem, outputs_of(trace));

  // the exponentials shown, from the masked scores as returned (rows redone in double
  // included): exps_ij = e^(masked_ij - c_i), exp_sums_i = sum_j exps_ij (trace_steps.hpp)
  trace_exponentials(trace, n, m);

  // when asked, the terms p_ij v_j      (n x m x d_v)
  trace_terms(problem, term_count, trace);
}

}  // namespace attn::detail
