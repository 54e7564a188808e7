// layers.cpp — the public, checked entry points of attn/layers.hpp; the
// arithmetic is in layer_passes.cpp.
#include "attn/layers.hpp"

#include <string>

#include "validation.hpp"
#include "attention/attention_backward_passes.hpp"
#include "float_range.hpp"
#include "attn/error.hpp"
#include "attn/positional_encoding.hpp"
#include "layer_passes.hpp"

namespace attn {

namespace {

// ValueError at the first id outside [0, limit): "tokens[3]: expected a token
// id below vocabulary = 10, got 12".
void require_ids(const char* arg, TokenSpan ids, const char* what, const char* limit_name, std::size_t limit) {
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= limit) {
      throw ValueError(std::string(arg) + "[" + std::to_string(i) + "]: expected " + what + " below " + limit_name +
                       " = " + std::to_string(limit) + ", got " + std::to_string(ids[i]));
    }
  }
}

}  // namespace

std::vector<float> embed(FloatSpan table, std::size_t vocabulary, std::size_t d_model, TokenSpan tokens) {
  detail::require_dimension("vocabulary", vocabulary);
  detail::require_dimension("d_model", d_model);
  detail::require_dimension("tokens.size()", tokens.size());
  detail::checked_product("vocabulary*d_model", vocabulary, d_model);
  detail::require_finite_matrix("table", table, "vocabulary*d_model", vocabulary, d_model);
  require_ids("tokens", tokens, "a token id", "vocabulary", vocabulary);
  const std::vector<float> pe = positional_encoding(tokens.size(), d_model);  // checks len*d_model
  std::vector<float> x(tokens.size() * d_model);
  detail::embed_into(table.data(), tokens.data(), tokens.size(), pe.data(), tokens.size(), d_model, x.data());
  return x;
}

std::vector<float> embed_backward(TokenSpan tokens, FloatSpan grad_output, std::size_t vocabulary,
                                  std::size_t d_model) {
  detail::require_dimension("vocabulary", vocabulary);
  detail::require_dimension("d_model", d_model);
  detail::require_dimension("tokens.size()", tokens.size());
  detail::checked_product("vocabulary*d_model", vocabulary, d_model);
  detail::checked_product("len*d_model", tokens.size(), d_model);
  require_ids("tokens", tokens, "a token id", "vocabulary", vocabulary);
  detail::require_finite_matrix("grad_output", grad_output, "len*d_model", tokens.size(), d_model);
  std::vector<float> grad_table(vocabulary * d_model);
  detail::embed_backward_into(tokens.data(), tokens.size(), grad_output.data(), vocabulary, d_model,
                              grad_table.data());
  if (detail::all_finite(grad_table.data(), grad_table.size())) return grad_table;
  // A float sum overflowed: the sums again in double, each rounded or refused (float_range.hpp).
  std::vector<double> exact(vocabulary * d_model, 0.0);
  for (std::size_t i = 0; i < tokens.size(); ++i)
    for (std::size_t c = 0; c < d_model; ++c)
      exact[static_cast<std::size_t>(tokens[i]) * d_model + c] += grad_output[i * d_model + c];
  detail::to_floats_or_raise(exact, grad_table.data(), d_model, {"grad_table", "(sum over t_i = {i} of dX_i)[{j}]"});
  return grad_table;
}

namespace {

void check_linear(FloatSpan x, FloatSpan w, std::size_t rows, std::size_t d_in, std::size_t d_out) {
  detail::require_dimension("rows", rows);
  detail::require_dimension("d_in", d_in);
  detail::require_dimension("d_out", d_out);
  detail::checked_product("rows*d_in", rows, d_in);
  detail::checked_product("rows*d_out", rows, d_out);
  detail::checked_product("d_in*d_out", d_in, d_out);
  detail::require_finite_matrix("x", x, "rows*d_in", rows, d_in);
  detail::require_finite_matrix("w", w, "d_out*d_in", d_out, d_in);
}

}  // namespace

std::vector<float> linear(FloatSpan x, FloatSpan w, FloatSpan b, std::size_t rows, std::size_t d_in,
                          std::size_t d_out) {
  check_linear(x, w, rows, d_in, d_out);
  detail::require_length("b", b, "d_out", d_out);
  detail::require_finite("b", b);
  std::vector<float> y(rows * d_out);
  detail::linear_into(x.data(), w.data(), b.data(), rows, d_in, d_out, y.data());
  if (detail::all_finite(y.data(), y.size())) return y;
  // A float sum overflowed: Y again in double, each element rounded or refused (float_range.hpp).
  std::vector<double> exact = detail::product_abt_in_double(x.data(), w.data(), rows, d_out, d_in);
  for (std::size_t i = 0; i < exact.size(); ++i) exact[i] += b[i % d_out];
  detail::to_floats_or_raise(exact, y.data(), d_out, {"y", "(X W^T + b)[{i}][{j}]"});
  return y;
}

LinearGradients linear_backward(FloatSpan x, FloatSpan w, FloatSpan grad_output, std::size_t rows, std::size_t d_in,
                                std::size_t d_out) {
  check_linear(x, w, rows, d_in, d_out);
  detail::require_finite_matrix("grad_output", grad_output, "rows*d_out", rows, d_out);
  LinearGradients g{std::vector<float>(rows * d_in), std::vector<float>(d_out * d_in), std::vector<float>(d_out)};
  std::vector<float> scratch(rows * d_out);
  detail::linear_backward_into(x.data(), w.data(), grad_output.data(), rows, d_in, d_out, g.x.data(), g.w.data(),
                               g.b.data(), scratch.data());
  // A float sum that overflowed: that gradient again in double, rounded or refused (float_range.hpp).
  const float* dy = grad_output.data();
  if (!detail::all_finite(g.x.data(), g.x.size())) {
    detail::to_floats_or_raise(detail::product_in_double(dy, w.data(), rows, d_out, d_in), g.x.data(), d_in,
                               {"grad_x", "(dY W)[{i}][{j}]"});
  }
  if (!detail::all_finite(g.w.data(), g.w.size()) || !detail::all_finite(g.b.data(), g.b.size())) {
    std::vector<double> dy_transposed(d_out * rows), ones(rows, 1.0);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < d_out; ++c) dy_transposed[c * rows + r] = dy[r * d_out + c];
    detail::to_floats_or_raise(detail::product_in_double(dy_transposed.data(), x.data(), d_out, rows, d_in),
                               g.w.data(), d_in, {"grad_w", "(dY^T X)[{i}][{j}]"});
    detail::to_floats_or_raise(detail::product_in_double(ones.data(), dy, 1, rows, d_out), g.b.data(), d_out,
                               {"grad_b", "(1^T dY)[{i}][{j}]"});
  }
  return g;
}

CrossEntropy softmax_cross_entropy(FloatSpan logits, TokenSpan targets, std::size_t rows, std::size_t classes) {
  detail::require_dimension("rows", rows);
  detail::require_dimension("classes", classes);
  detail::checked_product("rows*classes", rows, classes);
  detail::require_finite_matrix("logits", logits, "rows*classes", rows, classes);
  if (targets.size() != rows) {
    throw ShapeError("targets: expected rows = " + std::to_string(rows) + " ids, got " +
                     std::to_string(targets.size()));
  }
  require_ids("targets", targets, "a class", "classes", classes);
  CrossEntropy result{0.0, std::vector<float>(rows * classes)};
  std::vector<float> scratch(2 * rows);
  result.loss = detail::softmax_cross_entropy_into(logits.data(), targets.data(), rows, classes,
                                                   result.grad_logits.data(), scratch.data());
  return result;
}

}  // namespace attn
