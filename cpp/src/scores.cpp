// scores.cpp — the score functions of Bahdanau, Luong and Vaswani, and context
// vectors. S (n x d_s) decoder states, H (m x d_h) encoder states, e (n x m).
#include "attn/scores.hpp"

#include <cmath>
#include <string>

#include "attn/error.hpp"
#include "kernels/kernels.hpp"
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

}  // namespace

// e_ij = s_i . h_j
std::vector<float> score_dot(const ScoreInputs& in) {
  validate_score_inputs(in);
  if (in.d_s != in.d_h) {
    throw ShapeError("d_h: expected d_s = " + std::to_string(in.d_s) + " (dot scores need equal widths), got " +
                     std::to_string(in.d_h));
  }
  std::vector<float> e(in.n * in.m);
  kernels::matmul_abt(in.s.data(), in.h.data(), e.data(), in.n, in.m, in.d_h);
  return e;
}

// e_ij = s_i . h_j / sqrt(d_h)
std::vector<float> score_scaled_dot(const ScoreInputs& in) {
  std::vector<float> e = score_dot(in);
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(in.d_h)));
  kernels::scale_in_place(scale, e.data(), e.size());
  return e;
}

// e_ij = s_i^T W_a h_j:  T = S W_a (n x d_h), then e = T H^T
std::vector<float> score_general(const ScoreInputs& in, FloatSpan w_a) {
  validate_score_inputs(in);
  validate_weight("w_a", w_a, "d_s*d_h", in.d_s, in.d_h);
  std::vector<float> s_w(in.n * in.d_h);
  kernels::matmul_ab(in.s.data(), w_a.data(), s_w.data(), in.n, in.d_s, in.d_h);
  std::vector<float> e(in.n * in.m);
  kernels::matmul_abt(s_w.data(), in.h.data(), e.data(), in.n, in.m, in.d_h);
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
  return c;
}

}  // namespace attn
