// linear.hpp (internal) — the affine map of every projection and read-out.
//
//   forward    y = x W + b                 x rows x d_in, W d_in x d_out, b 1 x d_out (optional)
//   backward   dx += dy W^T                (gemm_nt)
//              dW += x^T dy                (gemm_tn)
//              db += sum_r dy_r
//
// W is stored d_in x d_out, so that y = x W reads as the articles write
// Q = X W_Q. A bias tensor with a null value means "no bias".
#pragma once

#include "layers/graph.hpp"

namespace attn::layers {

template <class T>
Tensor<T> linear(Graph<T>& g, Tensor<T> x, Tensor<T> w, Tensor<T> b = {});

}  // namespace attn::layers
