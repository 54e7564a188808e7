// double_forward.hpp — forward passes in double precision written for the
// tests alone (independent of the library's code), whose finite differences
// check the analytic gradients: attention and multi-head attention.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace attn_test {

// q n x d_k, k m x d_k, v m x d_v, keep n x m (1 = may attend) -> O n x d_v,
//   O = softmax_rows(scale Q K^T, -inf where keep = 0) V, a fully masked row 0.
inline std::vector<double> attention_double(const std::vector<double>& q, const std::vector<double>& k,
                                            const std::vector<double>& v, std::size_t n, std::size_t m,
                                            std::size_t d_k, std::size_t d_v, double scale,
                                            const std::vector<std::uint8_t>& keep) {
  std::vector<double> out(n * d_v, 0.0), p(m);
  for (std::size_t i = 0; i < n; ++i) {
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < m; ++j) {
      double s = 0;
      for (std::size_t c = 0; c < d_k; ++c) s += q[i * d_k + c] * k[j * d_k + c];
      p[j] = keep[i * m + j] ? scale * s : -std::numeric_limits<double>::infinity();
      top = std::max(top, p[j]);
    }
    if (std::isinf(top)) continue;  // every key masked: a zero row
    double sum = 0;
    for (std::size_t j = 0; j < m; ++j) sum += p[j] = std::exp(p[j] - top);
    for (std::size_t j = 0; j < m; ++j)
      for (std::size_t c = 0; c < d_v; ++c) out[i * d_v + c] += p[j] / sum * v[j * d_v + c];
  }
  return out;
}

// a rows x inner times b inner x cols
inline std::vector<double> matmul_double(const std::vector<double>& a, const std::vector<double>& b, std::size_t rows,
                                         std::size_t inner, std::size_t cols) {
  std::vector<double> c(rows * cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < inner; ++i)
      for (std::size_t col = 0; col < cols; ++col) c[r * cols + col] += a[r * inner + i] * b[i * cols + col];
  return c;
}

// x n x d_model, context m x d_model (the keys' sequence; pass x for
// self-attention), W d_model x d_model each -> n x d_model:
//   Concat_h(Attention(X W_Q[:, h], C W_K[:, h], C W_V[:, h])) W_O
inline std::vector<double> multi_head_double(const std::vector<double>& x, const std::vector<double>& context,
                                             const std::vector<double>& w_q, const std::vector<double>& w_k,
                                             const std::vector<double>& w_v, const std::vector<double>& w_o,
                                             std::size_t n, std::size_t m, std::size_t d_model, std::size_t heads,
                                             double scale, const std::vector<std::uint8_t>& keep) {
  const std::size_t d_head = d_model / heads;
  const auto q = matmul_double(x, w_q, n, d_model, d_model);
  const auto k = matmul_double(context, w_k, m, d_model, d_model);
  const auto v = matmul_double(context, w_v, m, d_model, d_model);
  std::vector<double> concat(n * d_model);
  for (std::size_t h = 0; h < heads; ++h) {
    std::vector<double> qh(n * d_head), kh(m * d_head), vh(m * d_head);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < d_head; ++c) qh[r * d_head + c] = q[r * d_model + h * d_head + c];
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t c = 0; c < d_head; ++c) {
        kh[r * d_head + c] = k[r * d_model + h * d_head + c];
        vh[r * d_head + c] = v[r * d_model + h * d_head + c];
      }
    const auto out = attention_double(qh, kh, vh, n, m, d_head, d_head, scale, keep);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < d_head; ++c) concat[r * d_model + h * d_head + c] = out[r * d_head + c];
  }
  return matmul_double(concat, w_o, n, d_model, d_model);
}

// The loss of attn::Seq2SeqModel (attn/seq2seq_model.hpp) in double, from its
// flat parameters: per example C = E[s] + PE, Y = P + MultiHead(P, C),
// Z = Y W_out^T + b_out, and the mean cross-entropy over all target positions.
// `pe` is the source positional encoding (S x d_model).
struct Seq2SeqDims {
  std::size_t source_length, target_length, source_vocabulary, target_vocabulary, d_model, heads;
  std::size_t embedding, positions, w_q, w_k, w_v, w_o, w_out, b_out;  // offsets into theta
};

inline double seq2seq_loss_double(const std::vector<double>& theta, const Seq2SeqDims& d, double scale,
                                  const std::vector<double>& pe, const std::vector<std::int32_t>& sources,
                                  const std::vector<std::int32_t>& targets) {
  const std::size_t S = d.source_length, T = d.target_length, D = d.d_model, batch = sources.size() / S;
  const auto block = [&](std::size_t offset, std::size_t count) {
    return std::vector<double>(theta.begin() + offset, theta.begin() + offset + count);
  };
  const auto p = block(d.positions, T * D), w_q = block(d.w_q, D * D), w_k = block(d.w_k, D * D);
  const auto w_v = block(d.w_v, D * D), w_o = block(d.w_o, D * D);
  const std::vector<std::uint8_t> keep(T * S, 1);
  double total = 0;
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<double> c(S * D);
    for (std::size_t j = 0; j < S; ++j)
      for (std::size_t col = 0; col < D; ++col)
        c[j * D + col] = theta[d.embedding + sources[b * S + j] * D + col] + pe[j * D + col];
    auto y = multi_head_double(p, c, w_q, w_k, w_v, w_o, T, S, D, d.heads, scale, keep);
    for (std::size_t i = 0; i < T * D; ++i) y[i] += p[i];
    for (std::size_t t = 0; t < T; ++t) {
      std::vector<double> z(d.target_vocabulary);
      double top = -std::numeric_limits<double>::infinity();
      for (std::size_t v = 0; v < z.size(); ++v) {
        z[v] = theta[d.b_out + v];
        for (std::size_t col = 0; col < D; ++col) z[v] += y[t * D + col] * theta[d.w_out + v * D + col];
        top = std::max(top, z[v]);
      }
      double sum = 0;
      for (double zv : z) sum += std::exp(zv - top);
      total += top + std::log(sum) - z[targets[b * T + t]];
    }
  }
  return total / static_cast<double>(batch * T);
}

// sum_i a_i b_i
inline double dot_double(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace attn_test
