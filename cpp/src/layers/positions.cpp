// positions.cpp — adding positional encodings (positions.hpp).
#include "layers/positions.hpp"

#include <algorithm>
#include <vector>

#include "attn/positional_encoding.hpp"

namespace attn::layers {

template <class T>
Tensor<T> add_positions(Graph<T>& g, Tensor<T> x, Positions kind, Tensor<T> table, std::size_t length,
                        std::size_t first) {
  Tensor<T> y = g.tensor(x.rows, x.cols);
  const std::size_t d = x.cols;
  // Y_i = X_i + table[first + i mod length]   (None: Y = X)
  for (std::size_t i = 0; i < x.rows; ++i) {
    const T* xi = x.row(i);
    T* yi = y.row(i);
    if (kind == Positions::None) {
      std::copy_n(xi, d, yi);
      continue;
    }
    const T* p = table.row(first + i % length);
    for (std::size_t c = 0; c < d; ++c) yi[c] = xi[c] + p[c];
  }
  g.on_backward([=] {
    // dX += dY;  Learned: dP[first + i mod length] += dY_i
    for (std::size_t i = 0; i < x.rows; ++i) {
      const T* dy = y.grad_row(i);
      if (x.grad != nullptr) {
        T* dx = x.grad_row(i);
        for (std::size_t c = 0; c < d; ++c) dx[c] += dy[c];
      }
      if (kind == Positions::Learned && table.grad != nullptr) {
        T* dp = table.grad_row(first + i % length);
        for (std::size_t c = 0; c < d; ++c) dp[c] += dy[c];
      }
    }
  });
  return y;
}

template <class T>
std::vector<T> sinusoid_table(std::size_t length, std::size_t d) {
  const std::vector<float> pe = positional_encoding(length, d);
  return std::vector<T>(pe.begin(), pe.end());
}

template Tensor<float> add_positions(Graph<float>&, Tensor<float>, Positions, Tensor<float>, std::size_t, std::size_t);
template Tensor<double> add_positions(Graph<double>&, Tensor<double>, Positions, Tensor<double>, std::size_t,
                                      std::size_t);
template std::vector<float> sinusoid_table(std::size_t, std::size_t);
template std::vector<double> sinusoid_table(std::size_t, std::size_t);

}  // namespace attn::layers
