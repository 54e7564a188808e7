// attention_backward.cpp — attn::attention_backward, the full path on the SIMD
// kernels: the forward pass's weights P (n x m) are computed again, then the
// passes of attention_backward_passes.cpp (formulas in attn/backward.hpp); or,
// when float intermediates could overflow, the pass in double (backward_range.hpp).
#include "attention_backward_passes.hpp"
#include "backward_range.hpp"
#include "validation.hpp"
#include "attention/problem.hpp"
#include "attn/backward.hpp"

namespace attn {

AttentionGradients attention_backward(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                      const AttentionShape& shape, const AttentionOptions& options) {
  const detail::AttentionProblem problem =
      detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);  // also n*m, since P is held
  detail::require_length("grad_output", grad_output, "n*d_v", shape.n, shape.d_v);
  const double grad_output_norm = detail::largest_row_norm("grad_output", grad_output.data(), shape.n, shape.d_v);
  const float scale = problem.scale;
  const detail::KeepRule& rule = problem.rule;

  // Float intermediates that could leave the float range: the whole pass in double.
  const detail::BackwardNorms norms{problem.norms.query, problem.norms.key, problem.norms.value, grad_output_norm,
                                    problem.norms.value};
  if (!detail::backward_bounds(norms, scale, shape.n, shape.m, 1.0).fits_float) {
    const std::vector<std::uint8_t> keep = keep_matrix(options.mask, shape.n, shape.m);
    return detail::gradients_in_double(q.data(), k.data(), v.data(), grad_output.data(), shape, scale, keep.data());
  }

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
