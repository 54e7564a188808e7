// attention_backward.cpp — attn::attention_backward, the full path on the SIMD
// kernels: the forward pass's weights P (n x m) are computed again, then the
// passes of attention_backward_passes.cpp (formulas in attn/backward.hpp).
#include "attention_backward_passes.hpp"
#include "attention/problem.hpp"
#include "attn/backward.hpp"

namespace attn {

AttentionGradients attention_backward(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                      const AttentionShape& shape, const AttentionOptions& options) {
  detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);  // also n*m, since P is held
  detail::require_finite_matrix("grad_output", grad_output, "n*d_v", shape.n, shape.d_v);
  const float scale = options.scale.factor(shape.d_k);
  const detail::KeepRule rule(options.mask, shape.n, shape.m);

  std::vector<float> weights(shape.n * shape.m);
  std::vector<float> scratch(detail::attention_backward_scratch_floats(shape));
  detail::attention_forward_into(q.data(), k.data(), v.data(), shape, scale, rule, weights.data(), nullptr,
                                 scratch.data());

  AttentionGradients gradients{std::vector<float>(shape.n * shape.d_k), std::vector<float>(shape.m * shape.d_k),
                               std::vector<float>(shape.m * shape.d_v)};
  detail::attention_backward_from_weights(q.data(), k.data(), v.data(), weights.data(), grad_output.data(), shape,
                                          scale, gradients.q.data(), gradients.k.data(), gradients.v.data(),
                                          scratch.data());
  return gradients;
}

}  // namespace attn
