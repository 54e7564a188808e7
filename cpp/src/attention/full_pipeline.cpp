// full_pipeline.cpp — the five passes over the n x m matrix (full_pipeline.hpp).
//
//   Attention(Q, K, V) = softmax(mask(scale * Q K^T)) V
//   Q n x d_k, K m x d_k, V m x d_v; scores, scaled, masked, weights n x m; output n x d_v
#include "full_pipeline.hpp"

#include <algorithm>
#include <vector>

#include "kernels/kernels.hpp"
#include "reference/attention_row.hpp"

namespace attn::detail {

namespace {

// The matrix the next pass works on: `next` holding a copy of `previous`, or
// `previous` itself when the caller keeps no separate copy.
float* next_matrix(float* previous, float* next, std::size_t count) {
  if (next == nullptr || next == previous) return previous;
  std::copy(previous, previous + count, next);
  return next;
}

}  // namespace

void full_passes(const AttentionProblem& problem, const FullPassBuffers& out) {
  const kernels::KernelTable& kernels = kernels::active();
  const std::size_t n = problem.shape.n, m = problem.shape.m, d_k = problem.shape.d_k, d_v = problem.shape.d_v;
  const std::size_t count = n * m;

  // pass 1: S = Q K^T                                   (n x m)
  float* scores = out.scores ? out.scores : out.weights;
  kernels.matmul_abt(problem.q, problem.k, scores, n, m, d_k);

  // pass 2: scaled = scale * S
  float* scaled = next_matrix(scores, out.scaled, count);
  kernels.scale_in_place(problem.scale, scaled, count);

  // pass 3: masked_ij = scaled_ij where query i may see key j, else -inf
  float* masked = next_matrix(scaled, out.masked, count);
  mask_block(masked, n, m, 0, 0, problem.rule);

  // pass 4: P = softmax_rows(masked)   (-inf -> 0; a fully masked row -> zeros)
  float* weights = next_matrix(masked, out.weights, count);
  kernels.softmax_rows(weights, n, m);

  // pass 5: O = P V                                     (n x d_v)
  kernels.matmul_ab(weights, problem.v, out.output, n, m, d_v);

  // Rows whose float intermediates could leave the float range: again, in double.
  const FloatPathCheck float_path(problem.norms, problem.scale, 2.0);  // sum_j p_ij <= 1 (+ rounding)
  if (float_path.every_row()) return;
  std::vector<double> row(m);
  const RowOutputs row_out{out.scores, out.scaled, out.masked, out.weights, out.output};
  for (std::size_t i = 0; i < n; ++i) {
    if (!float_path.row(problem.q + i * d_k, d_k)) attention_row_in_double(problem, i, row.data(), row_out);
  }
}

}  // namespace attn::detail
