// time_steps.hpp (internal) — one time step of batched sequences, out of and
// into the example-major layout, for decoders that run step by step over a
// whole batch (the recurrent decoders under teacher forcing).
//
// X holds B sequences of `steps` rows each: row b * steps + t (batch.hpp).
//
//   step_rows      Y = X[b * steps + t, :] for b = 0 .. B-1   (B x d)      dX rows += dY
//   put_step_rows  Z[b * steps + t, :] = Y_b                  (into Z)     dY += dZ rows
//
// put_step_rows writes into a tensor Z the caller allocated (g.tensor(B *
// steps, d)) and fills with every step t before any layer reads it; its
// backward runs after the backward of every reader of Z, because those are
// recorded later.
#pragma once

#include <cstddef>

#include "layers/graph.hpp"

namespace attn::layers {

template <class T>
Tensor<T> step_rows(Graph<T>& g, Tensor<T> x, std::size_t steps, std::size_t t);

template <class T>
void put_step_rows(Graph<T>& g, Tensor<T> y, Tensor<T> z, std::size_t steps, std::size_t t);

}  // namespace attn::layers
