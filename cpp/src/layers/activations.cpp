// activations.cpp — tanh, sigmoid, GELU and their backward (activations.hpp).
#include "layers/activations.hpp"

#include <cmath>

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
}  // namespace

template <class T>
Tensor<T> gelu(Graph<T>& g, Tensor<T> x) {
  Tensor<T> y = g.tensor(x.rows, x.cols);
  const T a = static_cast<T>(kSqrtTwoOverPi), c = static_cast<T>(kGeluCubic);
  // y = x/2 (1 + tanh(sqrt(2/π)(x + 0.044715 x^3)))
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T v = x.value[i];
    y.value[i] = T(0.5) * v * (T(1) + std::tanh(a * (v + c * v * v * v)));
  }
  g.on_backward([=] {
    if (x.grad == nullptr) return;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const T v = x.value[i];
      const T t = std::tanh(a * (v + c * v * v * v));
      const T derivative = T(0.5) * (T(1) + t) + T(0.5) * v * (T(1) - t * t) * a * (T(1) + T(3) * c * v * v);
      x.grad[i] += y.grad[i] * derivative;
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
