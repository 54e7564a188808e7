// attention_backward_passes.hpp (internal) — scaled dot-product attention,
// forward and backward, on inputs already checked and into buffers the caller
// owns (no allocation): shared by attn::attention_backward (one call) and the
// multi-head backward and the training step (one call per example and head).
#pragma once

#include "attention/mask_rule.hpp"
#include "attn/attention.hpp"

namespace attn::detail {

// q n x d_k, k m x d_k, v m x d_v -> weights P n x m, and output O = P V
// n x d_v unless `output` is null (the backward pass needs only P):
//   S = scale Q K^T, -inf where the rule masks; P = softmax_rows(S); O = P V
// scratch: max(m*d_k, 2 n) floats (K^T, then the rows' max and sum).
void attention_forward_into(const float* q, const float* k, const float* v, const AttentionShape& shape, float scale,
                            const KeepRule& rule, float* weights, float* output, float* scratch);

// Floats of scratch attention_backward_from_weights needs: dP (n x m), and
// then the largest of 64 x n (blocks of a transpose), V^T (d_v x m), K^T and
// 2 n; also enough for attention_forward_into.
std::size_t attention_backward_scratch_floats(const AttentionShape& shape);

// q n x d_k, k m x d_k, v m x d_v, weights P n x m (from the forward pass),
// grad_output dO n x d_v -> grad_q n x d_k, grad_k m x d_k, grad_v m x d_v
// (overwritten). The passes of attn/backward.hpp.
void attention_backward_from_weights(const float* q, const float* k, const float* v, const float* weights,
                                     const float* grad_output, const AttentionShape& shape, float scale,
                                     float* grad_q, float* grad_k, float* grad_v, float* scratch);

// ShapeError unless `data` has rows*cols floats ("grad_output: expected
// n*d_v = 3*2 = 6 floats, got 5"), ValueError at its first non-finite entry.
void require_finite_matrix(const char* arg, FloatSpan data, const char* formula, std::size_t rows,
                           std::size_t cols);

}  // namespace attn::detail
