// activations.cpp — tanh, sigmoid, GELU and their backward (activations.hpp).
#include "layers/activations.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/kernels.hpp"

namespace attn::layers {

template <class T>
Tensor<T> tanh_of(Graph<T>& g, Tensor<T> x) {
  Tensor<T> y = g.tensor(x.rows, x.cols);
  for (std::size_t i = 0; i < x.size(); ++i) y.value[i] = tanh_value(x.value[i]);
  g.on_backward([=] {
    if (x.grad == nullptr) return;
    for (std::size_t i = 0; i < x.size(); ++i) x.grad[i] += y.grad[i] * (T(1) - y.value[i] * y.value[i]);
  });
  return y;
}

template <class T>
Tensor<T> sigmoid_of(Graph<T>& g, Tensor<T> x) {
  Tensor<T> y = g.tensor(x.rows, x.cols);
  for (std::size_t i = 0; i < x.size(); ++i) y.value[i] = sigmoid_value(x.value[i]);
  g.on_backward([=] {
    if (x.grad == nullptr) return;
    for (std::size_t i = 0; i < x.size(); ++i) x.grad[i] += y.grad[i] * y.value[i] * (T(1) - y.value[i]);
  });
  return y;
}

namespace {
constexpr double kSqrtTwoOverPi = 0.7978845608028654;  // sqrt(2/π)
constexpr double kGeluCubic = 0.044715;

// s_i = 1/2 (1 + tanh(u_i)) = σ(2 u_i), u = sqrt(2/π)(x + 0.044715 x^3).
// float: σ from the kernels' vector exp, s = 1 / (1 + e^(-2u)) (glibc's and
// musl's tanhf cost ~20 ns each, several times an exp, and made GELU most of a
// transformer's training step); double: std::tanh (the reference).
void gelu_gate(const float* x, float* s, std::size_t n) {
  const float a = static_cast<float>(kSqrtTwoOverPi), c = static_cast<float>(kGeluCubic);
  // -2u at most 60: e^60 keeps s = 1 / (1 + e^60) = 9e-27 a normal float (a subnormal s,
  // from x below -10, made every multiply with it a slow microcode assist on x86); the
  // true x σ(2u) there is below 1e-25 |x|
  for (std::size_t i = 0; i < n; ++i) s[i] = std::min(-2.0f * a * (x[i] + c * x[i] * x[i] * x[i]), 60.0f);
  kernels::exp_shifted_sum(s, n, 0.0f);  // e^(-2u)
  for (std::size_t i = 0; i < n; ++i) s[i] = 1.0f / (1.0f + s[i]);
}
void gelu_gate(const double* x, double* s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    s[i] = 0.5 * (1.0 + std::tanh(kSqrtTwoOverPi * (x[i] + kGeluCubic * x[i] * x[i] * x[i])));
}
}  // namespace

template <class T>
Tensor<T> gelu(Graph<T>& g, Tensor<T> x) {
  Tensor<T> y = g.tensor(x.rows, x.cols);
  T* const s = g.memory(x.size());  // σ(2u), kept for the backward
  gelu_gate(x.value, s, x.size());
  // y = x/2 (1 + tanh u) = x σ(2u)
  for (std::size_t i = 0; i < x.size(); ++i) y.value[i] = x.value[i] * s[i];
  g.on_backward([=] {
    if (x.grad == nullptr) return;
    // dy/dx = 1/2 (1 + tanh u) + x/2 (1 - tanh^2 u) u' = s + 2 x s (1 - s) u',  u' = sqrt(2/π)(1 + 3·0.044715 x^2)
    const T a = static_cast<T>(kSqrtTwoOverPi), c3 = static_cast<T>(3 * kGeluCubic);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const T v = x.value[i];
      x.grad[i] += y.grad[i] * (s[i] + T(2) * v * s[i] * (T(1) - s[i]) * a * (T(1) + c3 * v * v));
    }
  });
  return y;
}

#define ATTN_INSTANTIATE(T)                          \
  template Tensor<T> tanh_of(Graph<T>&, Tensor<T>);    \
  template Tensor<T> sigmoid_of(Graph<T>&, Tensor<T>); \
  template Tensor<T> gelu(Graph<T>&, Tensor<T>);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)
#undef ATTN_INSTANTIATE

}  // namespace attn::layers
