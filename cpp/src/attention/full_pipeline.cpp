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

// Rows whose float intermediates could leave the float range: again, in double;
// then redone(i) for each such row i.
template <class Redone>
void rows_in_double(const AttentionProblem& problem, const RowOutputs& out, Redone redone) {
  const FloatPathCheck float_path(problem.norms, problem.scale, 2.0);  // sum_j p_ij <= 1 (+ rounding)
  if (float_path.every_row()) return;
  std::vector<double> row(problem.shape.m);
  for (std::size_t i = 0; i < problem.shape.n; ++i) {
    if (!float_path.row(problem.q + i * problem.shape.d_k, problem.shape.d_k)) {
      attention_row_in_double(problem, i, row.data(), out);
      redone(i);
    }
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
  rows_in_double(problem, {.weights = matrix, .output = output}, [](std::size_t) {});
}

// The same passes, each into a matrix of its own, the softmax in the two steps
// the trace shows (its exponentials, then each divided by its row's sum), and
// the terms (trace_steps.hpp). Each matrix starts as a copy of the one before,
// never as zeros that the next pass would overwrite anyway: at n = 1024 that
// saves writing 16 MiB. (Passes 2-5 a row at a time, each row kept in the L1
// cache from one matrix to the next, measured no faster in WebAssembly: the
// matrices must then start as zeros.)
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

  // pass 4: exps_ij = e^(masked_ij - c_i), exp_sums_i = sum_j exps_ij   (trace_steps.hpp: c_i is 0
  // when the textbook e^(masked_ij) fit in a float, else max_j masked_ij; e^-inf = 0)
  trace_exponentials(trace, n, m);

  // pass 5: P_ij = exps_ij / exp_sums_i: the softmax, from the exponentials shown (one exp per
  // score, not two: attention() in WebAssembly took 0.88x the time at n = 256, the same within
  // the noise at n = 1024, where the passes wait on memory; where c_i is the row's maximum,
  // softmax_rows bit for bit). A fully masked row's exponentials and weights are zeros.
  trace.weights.assign(trace.exps.begin(), trace.exps.end());
  for (std::size_t i = 0; i < n; ++i)
    if (trace.exp_sums[i] > 0.0f) kernels.scale_in_place(1.0f / trace.exp_sums[i], trace.weights.data() + i * m, m);

  // pass 6: O = P V                                     (n x d_v)
  trace.output.resize(n * d_v);
  kernels.matmul_ab(trace.weights.data(), problem.v, trace.output.data(), n, m, d_v);

  // rows redone in double: their exponentials again, from the masked row as returned
  rows_in_double(problem, outputs_of(trace), [&](std::size_t i) { trace_exponential_row(trace, i, m); });

  // when asked, the terms p_ij v_j      (n x m x d_v)
  trace_terms(problem, term_count, trace);
}

}  // namespace attn::detail
