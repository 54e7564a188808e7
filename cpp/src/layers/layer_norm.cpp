// layer_norm.cpp — LayerNorm and its backward (layer_norm.hpp).
#include "layers/layer_norm.hpp"

#include <cmath>

namespace attn::layers {

namespace {
constexpr double kEpsilon = 1e-5;
}

template <class T>
Tensor<T> layer_norm(Graph<T>& g, Tensor<T> x, Tensor<T> gain, Tensor<T> bias) {
  const std::size_t rows = x.rows, cols = x.cols;
  Tensor<T> y = g.tensor(rows, cols);
  T* mean = g.memory(rows);
  T* rstd = g.memory(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const T* xr = x.row(r);
    double sum = 0.0;
    for (std::size_t c = 0; c < cols; ++c) sum += xr[c];
    const double mu = sum / static_cast<double>(cols);
    double squares = 0.0;
    for (std::size_t c = 0; c < cols; ++c) squares += (xr[c] - mu) * (xr[c] - mu);
    mean[r] = static_cast<T>(mu);
    rstd[r] = static_cast<T>(1.0 / std::sqrt(squares / static_cast<double>(cols) + kEpsilon));
    // y = γ x̂ + β
    T* yr = y.row(r);
    for (std::size_t c = 0; c < cols; ++c) yr[c] = gain.value[c] * ((xr[c] - mean[r]) * rstd[r]) + bias.value[c];
  }
  g.on_backward([=] {
    for (std::size_t r = 0; r < rows; ++r) {
      const T* xr = x.row(r);
      const T* dy = y.grad_row(r);
      // mean_c g and mean_c (g x̂), g = dy γ
      T g_mean = 0, gx_mean = 0;
      for (std::size_t c = 0; c < cols; ++c) {
        const T x_hat = (xr[c] - mean[r]) * rstd[r];
        const T gc = dy[c] * gain.value[c];
        g_mean += gc;
        gx_mean += gc * x_hat;
        if (gain.grad != nullptr) gain.grad[c] += dy[c] * x_hat;
        if (bias.grad != nullptr) bias.grad[c] += dy[c];
      }
      g_mean /= static_cast<T>(cols);
      gx_mean /= static_cast<T>(cols);
      if (x.grad == nullptr) continue;
      T* dx = x.grad_row(r);
      for (std::size_t c = 0; c < cols; ++c) {
        const T x_hat = (xr[c] - mean[r]) * rstd[r];
        dx[c] += rstd[r] * (dy[c] * gain.value[c] - g_mean - x_hat * gx_mean);
      }
    }
  });
  return y;
}

template Tensor<float> layer_norm(Graph<float>&, Tensor<float>, Tensor<float>, Tensor<float>);
template Tensor<double> layer_norm(Graph<double>&, Tensor<double>, Tensor<double>, Tensor<double>);

}  // namespace attn::layers
