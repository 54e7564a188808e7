// attention.cpp — scaled dot-product attention with its full trace, on the
// SIMD kernels (kernels::best).
//
//   Attention(Q, K, V) = softmax(mask(scale * Q K^T)) V
//   Q n x d_k, K m x d_k, V m x d_v; scores, scaled, masked, weights n x m; output n x d_v
#include <limits>

#include "attention_passes.hpp"
#include "attn/attention.hpp"
#include "attn/kernels.hpp"
#include "validation.hpp"

namespace attn {

namespace {

// Every dimension >= 1, and the operand sizes fit. Sizes before lengths: n*d_k
// is only meaningful if it does not overflow.
void require_operand_sizes(const AttentionShape& shape) {
  detail::require_dimension("n", shape.n);
  detail::require_dimension("m", shape.m);
  detail::require_dimension("d_k", shape.d_k);
  detail::require_dimension("d_v", shape.d_v);
  detail::checked_product("n*d_k", shape.n, shape.d_k);
  detail::checked_product("m*d_k", shape.m, shape.d_k);
  detail::checked_product("m*d_v", shape.m, shape.d_v);
  detail::checked_product("n*d_v", shape.n, shape.d_v);
}

void require_operands(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape) {
  detail::require_length("q", q, "n*d_k", shape.n, shape.d_k);
  detail::require_length("k", k, "m*d_k", shape.m, shape.d_k);
  detail::require_length("v", v, "m*d_v", shape.m, shape.d_v);
  detail::require_finite("q", q);
  detail::require_finite("k", k);
  detail::require_finite("v", v);
}

}  // namespace

void validate_attention_operands(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape) {
  require_operand_sizes(shape);
  require_operands(q, k, v, shape);
}

void validate_attention_inputs(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape) {
  require_operand_sizes(shape);
  detail::checked_product("n*m", shape.n, shape.m);  // the n x m matrices of the trace
  require_operands(q, k, v, shape);
}

namespace detail {

AttentionTrace attention_passes(const float* q, const float* k, const float* v, const AttentionShape& shape,
                                float scale, const KeepRule& rule) {
  const std::size_t n = shape.n, m = shape.m;
  AttentionTrace trace;
  trace.scale = scale;

  // pass 1: S = Q K^T                                   (n x m)
  trace.scores.resize(n * m);
  kernels::best::matmul_abt(q, k, trace.scores.data(), n, m, shape.d_k);

  // pass 2: scaled = scale * S
  trace.scaled = trace.scores;
  kernels::best::scale_in_place(scale, trace.scaled.data(), n * m);

  // pass 3: masked_ij = scaled_ij where query i may see key j, else -inf
  trace.masked = trace.scaled;
  if (!rule.keeps_everything()) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < m; ++j)
        if (!rule.keeps(i, j)) trace.masked[i * m + j] = -std::numeric_limits<float>::infinity();
  }

  // pass 4: P = softmax_rows(masked)   (-inf -> 0; a fully masked row -> zeros)
  trace.weights = trace.masked;
  kernels::best::softmax_rows(trace.weights.data(), n, m);

  // pass 5: O = P V                                     (n x d_v)
  trace.output.resize(n * shape.d_v);
  kernels::best::matmul_ab(trace.weights.data(), v, trace.output.data(), n, m, shape.d_v);
  return trace;
}

}  // namespace detail

AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options) {
  validate_attention_inputs(q, k, v, shape);
  const float scale = options.scale.factor(shape.d_k);
  const detail::KeepRule rule(options.mask, shape.n, shape.m);
  return detail::attention_passes(q.data(), k.data(), v.data(), shape, scale, rule);
}

}  // namespace attn
