// attn/multi_head_backward.hpp — the backward pass of multi-head attention
// (attn/multi_head.hpp), self and cross, through W_Q, W_K, W_V and W_O.
//
// Forward (attn::multi_head): Q = X W_Q, K = C W_K, V = C W_V; per head i,
// H_i = Attention(Q_i, K_i, V_i) on columns [i d_k, (i+1) d_k); Y = Concat(H) W_O.
// Backward, for the upstream gradient dY (n x d_model):
//   dW_O = Concat^T dY                 dConcat = dY W_O^T
//   dQ_i, dK_i, dV_i = attention backward of head i (attn/backward.hpp) for dH_i = dConcat_i
//   dW_Q = X^T dQ      dW_K = C^T dK      dW_V = C^T dV
//   dX = dQ W_Q^T  (+ dK W_K^T + dV W_V^T for self-attention, where C = X)
//   dC = dK W_K^T + dV W_V^T           (cross-attention)
// Shapes: X n x d_model, C m x d_model, each W d_model x d_model, row-major.
#pragma once

#include <vector>

#include "attn/multi_head.hpp"

namespace attn {

struct MultiHeadGradients {
  std::vector<float> x;        // n x d_model (self-attention: through Q, K and V)
  std::vector<float> context;  // m x d_model; empty for self-attention
  std::vector<float> w_q, w_k, w_v, w_o;  // d_model x d_model each
};

// The inputs of attn::multi_head and grad_output dY (n x d_model) -> the
// gradients of L = sum(dY * Y). Raises the errors of attn::multi_head, and for
// grad_output a ShapeError "grad_output: expected n*d_model = ... floats, got
// ..." or a ValueError at its first non-finite entry. Uses the SIMD kernels.
MultiHeadGradients multi_head_backward(const MultiHeadInputs& in, FloatSpan grad_output);

namespace reference {

// The same in double, plain loops (the ground truth), rounded to float at the end.
MultiHeadGradients multi_head_backward(const MultiHeadInputs& in, FloatSpan grad_output);

}  // namespace reference

}  // namespace attn
