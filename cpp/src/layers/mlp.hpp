// mlp.hpp (internal) — the Transformer's position-wise feed-forward block:
//
//   MLP(x) = GELU(x W_1 + b_1) W_2 + b_2        W_1 d x d_ff, W_2 d_ff x d
//
// A composition of linear.hpp and activations.hpp: its backward is theirs,
// recorded by them in order.
#pragma once

#include "layers/activations.hpp"
#include "layers/linear.hpp"

namespace attn::layers {

template <class T>
struct MlpWeights {
  Tensor<T> w1, b1, w2, b2;
};

template <class T>
Tensor<T> mlp(Graph<T>& g, Tensor<T> x, const MlpWeights<T>& w) {
  return linear(g, gelu(g, linear(g, x, w.w1, w.b1)), w.w2, w.b2);
}

}  // namespace attn::layers
