// attn/backward.hpp — the backward pass of scaled dot-product attention.
//
// Given the upstream gradient dO (n x d_v) of a loss L with respect to the
// output O = attention(Q, K, V), the gradients of L with respect to Q, K, V.
// Equivalently: the gradients of L = sum_ij dO_ij O_ij. In the notation of
// FlashAttention-2 (Dao 2023, section 2.3 and Algorithm 2):
//
//   S   = scale Q K^T, -inf where masked     n x m
//   P   = softmax_rows(S)                    n x m   (0 where masked)
//   dV  = P^T dO                             m x d_v
//   dP  = dO V^T                             n x m
//   D_i = rowsum(dO_i * O_i)                 n       (= sum_j P_ij dP_ij)
//   dS  = P * (dP - D)                       n x m   (elementwise; row i minus D_i)
//   dQ  = scale dS K                         n x d_k
//   dK  = scale dS^T Q                       m x d_k
//
// Masked entries have P_ij = 0, so dS_ij = 0: they get exactly zero gradient.
// A fully masked row has P_i = 0 and O_i = 0: it contributes nothing, never NaN.
//
// Shapes as in attn/shapes.hpp: Q n x d_k, K m x d_k, V m x d_v, dO n x d_v.
// Three implementations, as for the forward pass:
//   reference::attention_backward   plain loops in double: the ground truth
//   attention_backward              the SIMD kernels, through the n x m matrices
//   attention_backward_tiled        by blocks (FlashAttention-2), recomputing P
//                                   from the forward's row log-sum-exp; never
//                                   holds an n x m matrix
#pragma once

#include <vector>

#include "attn/attention.hpp"

namespace attn {

// dQ n x d_k, dK m x d_k, dV m x d_v.
struct AttentionGradients {
  std::vector<float> q;
  std::vector<float> k;
  std::vector<float> v;
};

// q n x d_k, k m x d_k, v m x d_v, grad_output n x d_v -> dQ, dK, dV.
// The errors of attn::attention (validate_attention_inputs, Scale::factor,
// keep_matrix), and for grad_output a ShapeError "grad_output: expected
// n*d_v = ... floats, got ..." or a ValueError "grad_output[i]: expected a
// finite number, got NaN". Holds three n x m matrices (P, dP/dS, a transpose).
AttentionGradients attention_backward(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                      const AttentionShape& shape, const AttentionOptions& options = {});

// What the tiled forward pass keeps for the backward pass: the output and, per
// query row, the log-sum-exp of its scaled, masked scores,
//   L_i = m_i + ln(l_i) = ln sum_j exp(S_ij)          (-inf for a fully masked row)
// so that the backward pass recomputes P_ij = exp(S_ij - L_i) block by block.
// L is kept in double: scores beyond the float range (q = (1e20, 0), k_0 = q
// give S_00 = 7.07e39) have a log-sum-exp beyond it too, and the gradients of
// such a call still fit, so the tiled path must carry L to them as the full
// path and the reference do (every path gives the same answer).
struct TiledAttentionForward {
  std::vector<float> output;        // n x d_v
  std::vector<double> log_sum_exp;  // n
};

// q n x d_k, k m x d_k, v m x d_v -> output n x d_v and L (n): the online-softmax
// forward pass of attention_output itself (FlashAttention-2, Algorithm 1; the
// same output, bit for bit), which also returns the row log-sum-exp. The
// errors of attention_output, and no other: its output and L always fit.
TiledAttentionForward attention_forward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                              const AttentionOptions& options = {});

// q n x d_k, k m x d_k, v m x d_v, the forward's output (n x d_v) and L (n),
// grad_output n x d_v -> dQ, dK, dV, by blocks of the kernel variant's B_r x B_c (as attention_output)
// (FlashAttention-2, Algorithm 2): never holds an n x m matrix, so n*m may
// exceed kMaxMatrixElements. Errors of attention_output with tiles; ShapeError
// or ValueError naming grad_output, forward.output or forward.log_sum_exp
// (whose entries must be finite or -inf, and at least the row's largest score
// less 1: the forward of another call is refused).
AttentionGradients attention_backward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                            const TiledAttentionForward& forward, const AttentionShape& shape,
                                            const AttentionOptions& options = {});

namespace reference {

// The ground truth: q n x d_k, k m x d_k, v m x d_v, grad_output n x d_v ->
// dQ, dK, dV, computed in double with the formulas above written as plain
// loops (D_i = rowsum(dO_i * O_i) literally), rounded to float at the end.
// Same checks and errors as attn::attention_backward.
AttentionGradients attention_backward(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                      const AttentionShape& shape, const AttentionOptions& options = {});

}  // namespace reference

}  // namespace attn
