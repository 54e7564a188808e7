// activations.hpp (internal) — element-wise nonlinearities, each with its
// derivative written in terms of what the forward pass kept:
//
//   tanh_of      y = tanh(x)                          dx += dy (1 - y^2)    (in float by fast_tanh.hpp:
//   sigmoid_of   y = 1 / (1 + e^-x)                   dx += dy y (1 - y)     vectorised, no libm)
//   gelu         y = x Φ(x) ≈ x/2 (1 + tanh(u)),      the tanh form of Hendrycks and Gimpel
//                u = sqrt(2/π) (x + 0.044715 x^3)     (GPT-2's): dx += dy (1/2 (1 + tanh u)
//                                                      + x/2 (1 - tanh^2 u) sqrt(2/π)(1 + 3·0.044715 x^2))
//                computed as y = x s, s = 1/2 (1 + tanh u) = σ(2u) kept from the forward pass:
//                dx += dy (s + 2 x s (1 - s) sqrt(2/π)(1 + 3·0.044715 x^2))
#pragma once

#include "layers/fast_tanh.hpp"
#include "layers/graph.hpp"

namespace attn::layers {

template <class T>
Tensor<T> tanh_of(Graph<T>& g, Tensor<T> x);
template <class T>
Tensor<T> sigmoid_of(Graph<T>& g, Tensor<T> x);
template <class T>
Tensor<T> gelu(Graph<T>& g, Tensor<T> x);

}  // namespace attn::layers
