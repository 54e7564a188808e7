// combine.hpp (internal) — tensors put together: the residual sum and the
// concatenation of columns ([c_t; h_t] of Luong's attentional state, [y; c] of
// Bahdanau's decoder input, [h→; h←] of a bidirectional encoder).
//
//   add              Y = A + B                       dA += dY, dB += dY
//   concat_columns   Y = [A B]  (rows x (a + b))     dA += dY[:, :a], dB += dY[:, a:]
//   columns          Y = X[:, first:first+width]     dX[:, first:first+width] += dY
#pragma once

#include "layers/graph.hpp"

namespace attn::layers {

template <class T>
Tensor<T> add(Graph<T>& g, Tensor<T> a, Tensor<T> b);
template <class T>
Tensor<T> concat_columns(Graph<T>& g, Tensor<T> a, Tensor<T> b);
template <class T>
Tensor<T> columns(Graph<T>& g, Tensor<T> x, std::size_t first, std::size_t width);

}  // namespace attn::layers
