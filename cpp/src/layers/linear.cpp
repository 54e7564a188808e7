// linear.cpp — y = x W + b and its backward (linear.hpp).
#include "layers/linear.hpp"

#include "kernels/gemm.hpp"

namespace attn::layers {

using kernels::Accumulate;

namespace {

// y = x W + b
template <class T>
void linear_forward(const T* x, const T* w, const T* b, T* y, std::size_t rows, std::size_t d_in,
                    std::size_t d_out) {
  kernels::gemm_nn(x, w, y, rows, d_in, d_out, Accumulate::Overwrite);
  if (b == nullptr) return;
  for (std::size_t r = 0; r < rows; ++r) kernels::axpy(T(1), b, y + r * d_out, d_out);
}

// dx += dy W^T, dW += x^T dy, db += sum_r dy_r (each only where wanted)
template <class T>
void linear_backward(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db, std::size_t rows, std::size_t d_in,
                     std::size_t d_out) {
  if (dx != nullptr) kernels::gemm_nt(dy, w, dx, rows, d_out, d_in, Accumulate::Add);
  if (dw != nullptr) kernels::gemm_tn(x, dy, dw, d_in, rows, d_out, Accumulate::Add);
  if (db != nullptr)
    for (std::size_t r = 0; r < rows; ++r) kernels::axpy(T(1), dy + r * d_out, db, d_out);
}

}  // namespace

template <class T>
Tensor<T> linear(Graph<T>& g, Tensor<T> x, Tensor<T> w, Tensor<T> b) {
  Tensor<T> y = g.tensor(x.rows, w.cols);
  linear_forward(x.value, w.value, b.value, y.value, x.rows, x.cols, w.cols);
  g.on_backward([=] {
    linear_backward(x.value, w.value, y.grad, x.grad, w.grad, b.value ? b.grad : nullptr, x.rows, x.cols, w.cols);
  });
  return y;
}

template Tensor<float> linear(Graph<float>&, Tensor<float>, Tensor<float>, Tensor<float>);
template Tensor<double> linear(Graph<double>&, Tensor<double>, Tensor<double>, Tensor<double>);

}  // namespace attn::layers
