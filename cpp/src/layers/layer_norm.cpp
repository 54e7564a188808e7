// layer_norm.cpp — LayerNorm and its backward (layer_norm.hpp).
#include "layers/layer_norm.hpp"

#include <cmath>

namespace attn::layers {

namespace {
constexpr double kEpsilon = 1e-5;

// Σ_c f(c) in double with four partial sums: one running sum makes every add
// wait for the previous one (a row of 64 took ~250 cycles; LayerNorm was 10%
// of a transformer's training step natively).
template <class Term>
double sum_of(std::size_t cols, Term term) {
  double partial[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t c = 0;
  for (; c + 4 <= cols; c += 4)
    for (std::size_t k = 0; k < 4; ++k) partial[k] += term(c + k);
  for (; c < cols; ++c) partial[0] += term(c);
  return (partial[0] + partial[1]) + (partial[2] + partial[3]);
}
}  // namespace

template <class T>
Tensor<T> layer_norm(Graph<T>& g, Tensor<T> x, Tensor<T> gain, Tensor<T> bias) {
  const std::size_t rows = x.rows, cols = x.cols;
  Tensor<T> y = g.tensor(rows, cols);
  T* mean = g.memory(rows);
  T* rstd = g.memory(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const T* xr = x.row(r);
    const double mu = sum_of(cols, [&](std::size_t c) { return static_cast<double>(xr[c]); }) /
                      static_cast<double>(cols);
    const double squares = sum_of(cols, [&](std::size_t c) { return (xr[c] - mu) * (xr[c] - mu); });
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
      const T g_mean = static_cast<T>(sum_of(cols, [&](std::size_t c) { return dy[c] * gain.value[c]; }) /
                                      static_cast<double>(cols));
      const T gx_mean = static_cast<T>(
          sum_of(cols, [&](std::size_t c) { return dy[c] * gain.value[c] * ((xr[c] - mean[r]) * rstd[r]); }) /
          static_cast<double>(cols));
      for (std::size_t c = 0; c < cols; ++c) {
        const T x_hat = (xr[c] - mean[r]) * rstd[r];
        if (gain.grad != nullptr) gain.grad[c] += dy[c] * x_hat;
        if (bias.grad != nullptr) bias.grad[c] += dy[c];
      }
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
