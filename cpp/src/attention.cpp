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

void mask_block(float* scores, std::size_t rows, std::size_t cols, std::size_t first_query, std::size_t first_key,
                const KeepRule& rule) {
  if (rule.keeps_everything()) return;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (!rule.keeps(first_query + r, first_key + c)) scores[r * cols + c] = -std::numeric_limits<float>::infinity();
}

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
  mask_block(trace.masked.data(), n, m, 0, 0, rule);

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

namespace {

// One set of the kernels of attn/kernels.hpp, chosen at run time.
struct KernelFunctions {
  void (*matmul_abt)(const float*, const float*, float*, std::size_t, std::size_t, std::size_t) noexcept;
  void (*scale_in_place)(float, float*, std::size_t) noexcept;
  void (*softmax_rows)(float*, std::size_t, std::size_t) noexcept;
  void (*matmul_ab)(const float*, const float*, float*, std::size_t, std::size_t, std::size_t) noexcept;
};

KernelFunctions kernel_functions(KernelSet set) {
  namespace simd = kernels::simd;
  namespace scalar = kernels::scalar;
  if (set == KernelSet::Scalar)
    return {scalar::matmul_abt, scalar::scale_in_place, scalar::softmax_rows, scalar::matmul_ab};
  return {simd::matmul_abt, simd::scale_in_place, simd::softmax_rows, simd::matmul_ab};
}

}  // namespace

std::vector<float> attention_output_full(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                         const AttentionOptions& options, KernelSet kernels) {
  validate_attention_inputs(q, k, v, shape);
  const float scale = options.scale.factor(shape.d_k);
  const detail::KeepRule rule(options.mask, shape.n, shape.m);
  const KernelFunctions run = kernel_functions(kernels);
  const std::size_t n = shape.n, m = shape.m;

  std::vector<float> s(n * m);
  run.matmul_abt(q.data(), k.data(), s.data(), n, m, shape.d_k);  // pass 1: S = Q K^T
  run.scale_in_place(scale, s.data(), n * m);                      // pass 2: S = scale * S
  detail::mask_block(s.data(), n, m, 0, 0, rule);                   // pass 3: -inf where masked
  run.softmax_rows(s.data(), n, m);                                 // pass 4: P = softmax_rows(S)
  std::vector<float> output(n * shape.d_v);
  run.matmul_ab(s.data(), v.data(), output.data(), n, m, shape.d_v);  // pass 5: O = P V
  return output;
}

}  // namespace attn
