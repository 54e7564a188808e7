// combine.cpp — add, concat_columns, columns and their backward (combine.hpp).
#include "layers/combine.hpp"

#include <algorithm>

#include "kernels/gemm.hpp"

namespace attn::layers {

template <class T>
Tensor<T> add(Graph<T>& g, Tensor<T> a, Tensor<T> b) {
  Tensor<T> y = g.tensor(a.rows, a.cols);
  std::copy_n(a.value, a.size(), y.value);
  kernels::axpy(T(1), b.value, y.value, y.size());
  g.on_backward([=] {
    for (Tensor<T> input : {a, b})
      if (input.grad != nullptr) kernels::axpy(T(1), y.grad, input.grad, y.size());
  });
  return y;
}

template <class T>
Tensor<T> concat_columns(Graph<T>& g, Tensor<T> a, Tensor<T> b) {
  Tensor<T> y = g.tensor(a.rows, a.cols + b.cols);
  for (std::size_t r = 0; r < a.rows; ++r) {
    std::copy_n(a.row(r), a.cols, y.row(r));
    std::copy_n(b.row(r), b.cols, y.row(r) + a.cols);
  }
  g.on_backward([=] {
    for (std::size_t r = 0; r < a.rows; ++r) {
      const T* dy = y.grad_row(r);
      if (a.grad != nullptr)
        for (std::size_t c = 0; c < a.cols; ++c) a.grad_row(r)[c] += dy[c];
      if (b.grad != nullptr)
        for (std::size_t c = 0; c < b.cols; ++c) b.grad_row(r)[c] += dy[a.cols + c];
    }
  });
  return y;
}

template <class T>
Tensor<T> columns(Graph<T>& g, Tensor<T> x, std::size_t first, std::size_t width) {
  Tensor<T> y = g.tensor(x.rows, width);
  for (std::size_t r = 0; r < x.rows; ++r) std::copy_n(x.row(r) + first, width, y.row(r));
  g.on_backward([=] {
    if (x.grad == nullptr) return;
    for (std::size_t r = 0; r < x.rows; ++r)
      for (std::size_t c = 0; c < width; ++c) x.grad_row(r)[first + c] += y.grad_row(r)[c];
  });
  return y;
}

#define ATTN_INSTANTIATE(T)                                             \
  template Tensor<T> add(Graph<T>&, Tensor<T>, Tensor<T>);              \
  template Tensor<T> concat_columns(Graph<T>&, Tensor<T>, Tensor<T>);   \
  template Tensor<T> columns(Graph<T>&, Tensor<T>, std::size_t, std::size_t);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)
#undef ATTN_INSTANTIATE

}  // namespace attn::layers
