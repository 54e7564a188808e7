// local_window.cpp — Luong's predicted position and Gaussian window, each
// with its backward (local_window.hpp).
#include "layers/local_window.hpp"

#include <cmath>

namespace attn::layers {

template <class T>
Tensor<T> predicted_positions(Graph<T>& g, Tensor<T> u, std::span<const std::int32_t> lengths) {
  const std::size_t batch = u.rows;
  Tensor<T> p = g.tensor(batch, 1);
  T* gate = g.memory(batch);  // σ(u_b)
  for (std::size_t b = 0; b < batch; ++b) {
    gate[b] = T(1) / (T(1) + std::exp(-u.value[b]));
    p.value[b] = static_cast<T>(lengths[b]) * gate[b];  // p_b = S_b σ(u_b)
  }
  const std::int32_t* length_of = lengths.data();
  g.on_backward([=] {
    if (u.grad == nullptr) return;
    for (std::size_t b = 0; b < batch; ++b)
      u.grad[b] += p.grad[b] * static_cast<T>(length_of[b]) * gate[b] * (T(1) - gate[b]);
  });
  return p;
}

template <class T>
Tensor<T> gaussian_window(Graph<T>& g, Tensor<T> a, Tensor<T> p, T sigma) {
  const std::size_t batch = a.rows, length = a.cols;
  const T inverse_variance = T(1) / (sigma * sigma);
  Tensor<T> out = g.tensor(batch, length);
  T* gauss = g.memory(batch * length);  // g_bj = exp(-(j - p_b)² / (2σ²))
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t j = 0; j < length; ++j) {
      const T distance = static_cast<T>(j) - p.value[b];
      gauss[b * length + j] = std::exp(-T(0.5) * distance * distance * inverse_variance);
      out.row(b)[j] = a.row(b)[j] * gauss[b * length + j];
    }
  g.on_backward([=] {
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t j = 0; j < length; ++j) {
        const T d_out = out.grad_row(b)[j], gj = gauss[b * length + j];
        if (a.grad) a.grad_row(b)[j] += d_out * gj;
        // d g_bj / d p_b = g_bj (j - p_b) / σ²
        if (p.grad) p.grad[b] += d_out * a.row(b)[j] * gj * (static_cast<T>(j) - p.value[b]) * inverse_variance;
      }
  });
  return out;
}

#define ATTN_INSTANTIATE(T)                                                                          \
  template Tensor<T> predicted_positions(Graph<T>&, Tensor<T>, std::span<const std::int32_t>); \
  template Tensor<T> gaussian_window(Graph<T>&, Tensor<T>, Tensor<T>, T);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)
#undef ATTN_INSTANTIATE

}  // namespace attn::layers
