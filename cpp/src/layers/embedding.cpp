// embedding.cpp — the token embedding and its backward (embedding.hpp).
#include "layers/embedding.hpp"

#include <algorithm>

namespace attn::layers {

template <class T>
Tensor<T> embedding(Graph<T>& g, Tensor<T> table, std::span<const std::int32_t> tokens) {
  const std::size_t d = table.cols, rows = tokens.size();
  Tensor<T> x = g.tensor(rows, d);
  // X_i = E[t_i]
  for (std::size_t i = 0; i < rows; ++i) std::copy_n(table.row(tokens[i]), d, x.row(i));
  const std::int32_t* ids = tokens.data();
  g.on_backward([=] {
    if (table.grad == nullptr) return;
    // dE[t_i] += dX_i
    for (std::size_t i = 0; i < rows; ++i) {
      T* de = table.grad_row(ids[i]);
      const T* dx = x.grad_row(i);
      for (std::size_t c = 0; c < d; ++c) de[c] += dx[c];
    }
  });
  return x;
}

template Tensor<float> embedding(Graph<float>&, Tensor<float>, std::span<const std::int32_t>);
template Tensor<double> embedding(Graph<double>&, Tensor<double>, std::span<const std::int32_t>);

}  // namespace attn::layers
