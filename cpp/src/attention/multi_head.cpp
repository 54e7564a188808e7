// multi_head.cpp — multi-head attention, self and cross, on the SIMD kernels.
//
//   Q = X W_Q (n x d_model), K = C W_K, V = C W_V (m x d_model), C = X or context
//   head_i = Attention(Q_i, K_i, V_i), Q_i = columns [i d_k, (i+1) d_k) of Q, d_k = d_model / h
//   MultiHead = Concat(head_1 .. head_h) W_O                      (n x d_model)
#include "attn/multi_head.hpp"

#include <cmath>
#include <string>

#include "attention/full_pipeline.hpp"
#include "attn/error.hpp"
#include "kernels/kernels.hpp"
#include "float_range.hpp"
#include "validation.hpp"

namespace attn {

namespace {

// The sequence keys and values come from, and its length m.
struct KeySource {
  FloatSpan tokens;
  std::size_t m;
};

KeySource validate_multi_head_inputs(const MultiHeadInputs& in) {
  const bool self_attention = in.context.empty();
  detail::require_dimension("n", in.n);
  detail::require_dimension("d_model", in.d_model);
  detail::require_dimension("heads", in.heads);
  if (in.d_model % in.heads != 0) {
    throw ShapeError("heads: expected a divisor of d_model = " + std::to_string(in.d_model) + ", got " +
                     std::to_string(in.heads));
  }
  const std::size_t m = self_attention ? in.n : in.m;
  if (self_attention && in.m != 0 && in.m != in.n) {
    throw ShapeError("m: expected n = " + std::to_string(in.n) + " (self-attention: no context), got " +
                     std::to_string(in.m));
  }
  detail::require_dimension("m", m);
  detail::checked_product("n*d_model", in.n, in.d_model);
  detail::checked_product("m*d_model", m, in.d_model);
  detail::checked_product("d_model*d_model", in.d_model, in.d_model);
  detail::checked_product("n*m", in.n, m);
  detail::require_length("x", in.x, "n*d_model", in.n, in.d_model);
  if (!self_attention) detail::require_length("context", in.context, "m*d_model", m, in.d_model);
  detail::require_length("w_q", in.w_q, "d_model*d_model", in.d_model, in.d_model);
  detail::require_length("w_k", in.w_k, "d_model*d_model", in.d_model, in.d_model);
  detail::require_length("w_v", in.w_v, "d_model*d_model", in.d_model, in.d_model);
  detail::require_length("w_o", in.w_o, "d_model*d_model", in.d_model, in.d_model);
  detail::require_finite("x", in.x);
  detail::require_finite("context", in.context);
  detail::require_finite("w_q", in.w_q);
  detail::require_finite("w_k", in.w_k);
  detail::require_finite("w_v", in.w_v);
  detail::require_finite("w_o", in.w_o);
  return {self_attention ? in.x : in.context, m};
}

// Columns [first, first + width) of a rows x cols matrix, as a rows x width matrix.
std::vector<float> column_slice(const std::vector<float>& matrix, std::size_t rows, std::size_t cols,
                                std::size_t first, std::size_t width) {
  std::vector<float> slice(rows * width);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < width; ++c) slice[r * width + c] = matrix[r * cols + first + c];
  return slice;
}

// c (rows x d_model) = x (rows x d_model) W (d_model x d_model), in float, or
// again in double when a float sum overflowed; an element beyond the float
// range raises ValueError naming it, e.g. "q[0][1]: (X W_Q)[0][1]".
void project(const detail::ElementName& name, const float* x, const float* w, float* c, std::size_t rows,
             std::size_t d_model) {
  kernels::matmul_ab(x, w, c, rows, d_model, d_model);
  if (detail::all_finite(c, rows * d_model)) return;
  detail::to_floats_or_raise(detail::product_in_double(x, w, rows, d_model, d_model), c, d_model, name);
}

}  // namespace

MultiHeadResult multi_head(const MultiHeadInputs& in) {
  const KeySource source = validate_multi_head_inputs(in);
  const std::size_t n = in.n, m = source.m, d_model = in.d_model, heads = in.heads;
  const std::size_t d_head = d_model / heads;  // d_k = d_v
  const detail::KeepRule rule(in.mask, n, m);
  const float scale = Scale::inverse_sqrt_dk().factor(d_head);

  MultiHeadResult result;
  // pass 1: projections Q = X W_Q, K = C W_K, V = C W_V
  result.q.resize(n * d_model);
  result.k.resize(m * d_model);
  result.v.resize(m * d_model);
  const bool self_attention = in.context.empty();
  project({"q", "(X W_Q)[{i}][{j}]"}, in.x.data(), in.w_q.data(), result.q.data(), n, d_model);
  project({"k", self_attention ? "(X W_K)[{i}][{j}]" : "(C W_K)[{i}][{j}]"}, source.tokens.data(), in.w_k.data(),
          result.k.data(), m, d_model);
  project({"v", self_attention ? "(X W_V)[{i}][{j}]" : "(C W_V)[{i}][{j}]"}, source.tokens.data(), in.w_v.data(),
          result.v.data(), m, d_model);

  // pass 2: head_i = Attention(Q_i, K_i, V_i), written into columns of the concat
  result.concat.resize(n * d_model);
  result.head_weights.reserve(heads);
  const AttentionShape head_shape{n, m, d_head, d_head};
  std::vector<float> head_output(n * d_head);
  for (std::size_t head = 0; head < heads; ++head) {
    const std::size_t first = head * d_head;
    const std::vector<float> q_i = column_slice(result.q, n, d_model, first, d_head);
    const std::vector<float> k_i = column_slice(result.k, m, d_model, first, d_head);
    const std::vector<float> v_i = column_slice(result.v, m, d_model, first, d_head);
    const detail::AttentionProblem problem =
        detail::checked_attention_problem(q_i.data(), k_i.data(), v_i.data(), head_shape, scale, rule);
    std::vector<float>& weights = result.head_weights.emplace_back(n * m);
    detail::full_passes(problem, weights.data(), head_output.data());
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < d_head; ++c) result.concat[r * d_model + first + c] = head_output[r * d_head + c];
  }

  // pass 3: output = Concat(head_1 .. head_h) W_O
  result.output.resize(n * d_model);
  project({"output", "(Concat W_O)[{i}][{j}]"}, result.concat.data(), in.w_o.data(), result.output.data(), n, d_model);
  return result;
}

}  // namespace attn
