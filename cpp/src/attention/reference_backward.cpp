// reference_backward.cpp — the scalar reference of the attention backward pass:
// every formula of attn/backward.hpp as a plain loop in double (llm.c's
// attention_backward style). The ground truth the SIMD and the tiled paths are
// tested against, itself tested against finite differences.
#include "reference_backward.hpp"

#include <limits>
#include <vector>

#include "attention_backward_passes.hpp"
#include "backward_range.hpp"
#include "attention/problem.hpp"
#include "attn/backward.hpp"
#include "attn/reference.hpp"

namespace attn {

namespace detail {

void reference_attention_forward(const double* q, const double* k, const double* v, const AttentionShape& shape,
                                 double scale, const std::uint8_t* keep, double* weights, double* output) {
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  for (std::size_t i = 0; i < n; ++i) {
    double* p = weights + i * m;
    // S_ij = scale q_i . k_j, -inf where masked; P_i = softmax(S_i)
    for (std::size_t j = 0; j < m; ++j) {
      double s = 0.0;
      for (std::size_t c = 0; c < d_k; ++c) s += q[i * d_k + c] * k[j * d_k + c];
      p[j] = keep[i * m + j] ? scale * s : -std::numeric_limits<double>::infinity();
    }
    reference::softmax_row(p, m);
    // O_i = sum_j P_ij v_j
    for (std::size_t c = 0; c < d_v; ++c) {
      double o = 0.0;
      for (std::size_t j = 0; j < m; ++j) o += p[j] * v[j * d_v + c];
      output[i * d_v + c] = o;
    }
  }
}

void reference_attention_backward(const double* q, const double* k, const double* v, const double* grad_output,
                                  const AttentionShape& shape, double scale, const std::uint8_t* keep,
                                  double* grad_q, double* grad_k, double* grad_v) {
  const std::size_t n = shape.n, m = shape.m, d_k = shape.d_k, d_v = shape.d_v;
  std::vector<double> p(n * m), o(n * d_v), d_scores(m);
  reference_attention_forward(q, k, v, shape, scale, keep, p.data(), o.data());
  std::fill(grad_k, grad_k + m * d_k, 0.0);
  std::fill(grad_v, grad_v + m * d_v, 0.0);

  for (std::size_t i = 0; i < n; ++i) {
    const double* p_i = p.data() + i * m;
    const double* do_i = grad_output + i * d_v;
    // D_i = rowsum(dO_i * O_i)
    double d_i = 0.0;
    for (std::size_t c = 0; c < d_v; ++c) d_i += do_i[c] * o[i * d_v + c];
    for (std::size_t j = 0; j < m; ++j) {
      // dV_j += P_ij dO_i                     (dV = P^T dO)
      for (std::size_t c = 0; c < d_v; ++c) grad_v[j * d_v + c] += p_i[j] * do_i[c];
      // dP_ij = dO_i . v_j;  dS_ij = P_ij (dP_ij - D_i)
      double dp = 0.0;
      for (std::size_t c = 0; c < d_v; ++c) dp += do_i[c] * v[j * d_v + c];
      d_scores[j] = p_i[j] * (dp - d_i);
    }
    // dQ_i = scale sum_j dS_ij k_j;  dK_j += scale dS_ij q_i
    for (std::size_t c = 0; c < d_k; ++c) {
      double dq = 0.0;
      for (std::size_t j = 0; j < m; ++j) dq += d_scores[j] * k[j * d_k + c];
      grad_q[i * d_k + c] = scale * dq;
    }
    for (std::size_t j = 0; j < m; ++j)
      for (std::size_t c = 0; c < d_k; ++c) grad_k[j * d_k + c] += scale * d_scores[j] * q[i * d_k + c];
  }
}

}  // namespace detail

namespace reference {

AttentionGradients attention_backward(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                      const AttentionShape& shape, const AttentionOptions& options) {
  detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);
  detail::require_finite_matrix("grad_output", grad_output, "n*d_v", shape.n, shape.d_v);
  const float scale = options.scale.factor(shape.d_k);
  const std::vector<std::uint8_t> keep = keep_matrix(options.mask, shape.n, shape.m);
  return detail::gradients_in_double(q.data(), k.data(), v.data(), grad_output.data(), shape, scale, keep.data());
}

}  // namespace reference

}  // namespace attn
