// scores.cpp — the score functions of Bahdanau, Luong and Vaswani, and context
// vectors. S (n x d_s) decoder states, H (m x d_h) encoder states, e (n x m).
#include "attn/scores.hpp"

#include <cmath>
#include <string>

#include "attn/error.hpp"
#include "kernels/kernels.hpp"
#include "float_range.hpp"
#include "validation.hpp"

namespace attn {

namespace {

void validate_score_inputs(const ScoreInputs& in) {
  detail::require_dimension("n", in.n);
  detail::require_dimension("m", in.m);
  detail::require_dimension("d_s", in.d_s);
  detail::require_dimension("d_h", in.d_h);
  detail::checked_product("n*d_s", in.n, in.d_s);
  detail::checked_product("m*d_h", in.m, in.d_h);
  detail::checked_product("n*m", in.n, in.m);
  detail::require_length("s", in.s, "n*d_s", in.n, in.d_s);
  detail::require_length("h", in.h, "m*d_h", in.m, in.d_h);
  detail::require_finite("s", in.s);
  detail::require_finite("h", in.h);
}

// A weight matrix `name` of rows x cols: size, length, finite.
void validate_weight(const char* name, FloatSpan w, const char* formula, std::size_t rows, std::size_t cols) {
  detail::checked_product(formula, rows, cols);
  detail::require_length(name, w, formula, rows, cols);
  detail::require_finite(name, w);
}

// e_ij = scale * s_i . h_j (d_s == d_h); in double when a float sum overflowed.
std::vector<float> dot_scores(const ScoreInputs& in, float scale, const char* formula) {
  validate_score_inputs(in);
  if (in.d_s != in.d_h) {
    throw ShapeError("d_h: expected d_s = " + std::to_string(in.d_s) + " (dot scores need equal widths), got " +
                     std::to_string(in.d_h));
  }
  std::vector<float> e(in.n * in.m);
  kernels::matmul_abt(in.s.data(), in.h.data(), e.data(), in.n, in.m, in.d_h);
  if (scale != 1.0f) kernels::scale_in_place(scale, e.data(), e.size());
  if (detail::all_finite(e.data(), e.size())) return e;
  std::vector<double> exact = detail::product_abt_in_double(in.s.data(), in.h.data(), in.n, in.m, in.d_h);
  for (double& x : exact) x *= scale;
  detail::to_floats_or_raise(exact, e.data(), in.m, {"e", formula});
  return e;
}

}  // namespace

// e_ij = s_i . h_j
std::vector<float> score_dot(const ScoreInputs& in) { return dot_scores(in, 1.0f, "s_{i} . h_{j}"); }

// e_ij = s_i . h_j / sqrt(d_h)
std::vector<float> score_scaled_dot(const ScoreInputs& in) {
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(in.d_h)));
  return dot_scores(in, scale, "s_{i} . h_{j} / sqrt(d_h)");
}

// e_ij = s_i^T W_a h_j:  T = S W_a (n x d_h), then e = T H^T
std::vector<float> score_general(const ScoreInputs& in, FloatSpan w_a) {
  validate_score_inputs(in);
  validate_weight("w_a", w_a, "d_s*d_h", in.d_s, in.d_h);
  std::vector<float> s_w(in.n * in.d_h);
  kernels::matmul_ab(in.s.data(), w_a.data(), s_w.data(), in.n, in.d_s, in.d_h);
  std::vector<float> e(in.n * in.m);
  kernels::matmul_abt(s_w.data(), in.h.data(), e.data(), in.n, in.m, in.d_h);
  if (detail::all_finite(s_w.data(), s_w.size()) && detail::all_finite(e.data(), e.size())) return e;
  // again in double: T, then e
  const std::vector<double> t = detail::product_in_double(in.s.data(), w_a.data(), in.n, in.d_s, in.d_h);
  detail::to_floats_or_raise(detail::product_abt_in_double(t.data(), in.h.data(), in.n, in.m, in.d_h), e.data(), in.m,
                             {"e", "s_{i}^T W_a h_{j}"});
  return e;
}

// e_ij = v_a . tanh(a_i + b_j), with a_i = s_i W_a (d_a) and b_j = h_j U_a (d_a)
std::vector<float> score_additive(const ScoreInputs& in, FloatSpan w_a, FloatSpan u_a, FloatSpan v_a,
                                  std::size_t d_a) {
  validate_score_inputs(in);
  detail::require_dimension("d_a", d_a);
  validate_weight("w_a", w_a, "d_s*d_a", in.d_s, d_a);
  validate_weight("u_a", u_a, "d_h*d_a", in.d_h, d_a);
  detail::require_length("v_a", v_a, "d_a", d_a);
  detail::require_finite("v_a", v_a);
  detail::checked_product("n*d_a", in.n, d_a);
  detail::checked_product("m*d_a", in.m, d_a);

  // pass 1: A = S W_a (n x d_a), B = H U_a (m x d_a)
  std::vector<float> a(in.n * d_a), b(in.m * d_a);
  kernels::matmul_ab(in.s.data(), w_a.data(), a.data(), in.n, in.d_s, d_a);
  kernels::matmul_ab(in.h.data(), u_a.data(), b.data(), in.m, in.d_h, d_a);

  // pass 2: e_ij = sum_c v_c tanh(A_ic + B_jc)
  std::vector<float> e(in.n * in.m), hidden(d_a);
  for (std::size_t i = 0; i < in.n; ++i)
    for (std::size_t j = 0; j < in.m; ++j) {
      for (std::size_t c = 0; c < d_a; ++c) hidden[c] = std::tanh(a[i * d_a + c] + b[j * d_a + c]);
      e[i * in.m + j] = kernels::dot(v_a.data(), hidden.data(), d_a);
    }
  // An overflowed A or B can hide in tanh (tanh(inf) = 1), so they are checked too.
  if (detail::all_finite(a.data(), a.size()) && detail::all_finite(b.data(), b.size()) &&
      detail::all_finite(e.data(), e.size())) {
    return e;
  }
  // again in double
  const std::vector<double> a_exact = detail::product_in_double(in.s.data(), w_a.data(), in.n, in.d_s, d_a);
  const std::vector<double> b_exact = detail::product_in_double(in.h.data(), u_a.data(), in.m, in.d_h, d_a);
  std::vector<double> exact(in.n * in.m, 0.0);
  for (std::size_t i = 0; i < in.n; ++i)
    for (std::size_t j = 0; j < in.m; ++j)
      for (std::size_t c = 0; c < d_a; ++c)
        exact[i * in.m + j] += static_cast<double>(v_a[c]) * std::tanh(a_exact[i * d_a + c] + b_exact[j * d_a + c]);
  detail::to_floats_or_raise(exact, e.data(), in.m, {"e", "v_a . tanh(s_{i} W_a + h_{j} U_a)"});
  return e;
}

// c_i = sum_j a_ij h_j
std::vector<float> context_vectors(FloatSpan alignment, FloatSpan h, std::size_t n, std::size_t m,
                                   std::size_t d_h) {
  detail::require_dimension("n", n);
  detail::require_dimension("m", m);
  detail::require_dimension("d_h", d_h);
  detail::checked_product("n*m", n, m);
  detail::checked_product("m*d_h", m, d_h);
  detail::checked_product("n*d_h", n, d_h);
  detail::require_length("alignment", alignment, "n*m", n, m);
  detail::require_length("h", h, "m*d_h", m, d_h);
  detail::require_finite("alignment", alignment);
  detail::require_finite("h", h);
  std::vector<float> c(n * d_h);
  kernels::matmul_ab(alignment.data(), h.data(), c.data(), n, m, d_h);
  if (detail::all_finite(c.data(), c.size())) return c;
  detail::to_floats_or_raise(detail::product_in_double(alignment.data(), h.data(), n, m, d_h), c.data(), d_h,
                             {"c", "sum_j alignment[{i}][j] h[j][{j}]"});
  return c;
}

}  // namespace attn
