// reference_backward.hpp (internal) — attention forward and backward in double,
// plain loops: the ground truth behind attn::reference::attention_backward and
// attn::reference::multi_head_backward. No validation.
#pragma once

#include <cstdint>

#include "attn/shapes.hpp"

namespace attn::detail {

// q n x d_k, k m x d_k, v m x d_v, keep n x m (1 = query i may see key j) ->
// weights P n x m and output O n x d_v.
void reference_attention_forward(const double* q, const double* k, const double* v, const AttentionShape& shape,
                                 double scale, const std::uint8_t* keep, double* weights, double* output);

// The same inputs and grad_output dO n x d_v -> grad_q n x d_k, grad_k m x d_k,
// grad_v m x d_v (overwritten), by the formulas of attn/backward.hpp.
void reference_attention_backward(const double* q, const double* k, const double* v, const double* grad_output,
                                  const AttentionShape& shape, double scale, const std::uint8_t* keep,
                                  double* grad_q, double* grad_k, double* grad_v);

}  // namespace attn::detail
