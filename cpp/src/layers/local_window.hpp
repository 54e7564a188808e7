// local_window.hpp (internal) — Luong's local-p attention: the decoder
// predicts where in the source to look and a Gaussian around that position
// reweights the (global) attention weights of step_attention.hpp.
//
//   p_b   = S_b σ(u_b),  u_b = v_p^T tanh(W_p h_b)     S_b example b's source length; h B x H,
//                                                      W_p H x H', v_p H' x 1; p B x 1, in (0, S_b)
//   a'_bj = a_bj exp(-(j - p_b)² / (2σ²)),  σ = D / 2  j = 0 .. S-1 (0-based, as p is)
//
// Two choices, against the letter of Luong et al. 2015:
// - No truncation: the paper keeps only the window [p_t - D, p_t + D]; we weigh
//   every position by the Gaussian instead, which is already below e^-2 = 0.14
//   at the window's edges (|j - p| = D = 2σ) and falls as fast as that beyond.
//   A hard window would make a'_bj jump where p_b crosses an integer ± D, so the
//   loss would not be differentiable there (the finite-difference checks and the
//   trainer would see the jump); the smooth form has the same centre and width.
// - No renormalisation, as in the paper: a' sums to less than 1 (the context
//   shrinks when the predicted position misses the content).
// Padding stays exactly 0 (a_bj = 0 there). Gradients flow through p_b:
//
//   positions   dp_b:  du_b += dp_b S_b σ(u_b)(1 - σ(u_b))
//   window      g_bj = exp(-(j - p_b)² / (2σ²)):   da_bj += da'_bj g_bj,
//               dp_b += Σ_j da'_bj a_bj g_bj (j - p_b) / σ²
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "layers/activations.hpp"
#include "layers/graph.hpp"
#include "layers/linear.hpp"

namespace attn::layers {

// p_b = S_b σ(u_b) from the logits u (B x 1). `lengths` must stay valid until backward().
template <class T>
Tensor<T> predicted_positions(Graph<T>& g, Tensor<T> logits, std::span<const std::int32_t> lengths);

// a' = a ⊙ exp(-(j - p)² / (2σ²)): weights B x S, positions B x 1.
template <class T>
Tensor<T> gaussian_window(Graph<T>& g, Tensor<T> weights, Tensor<T> positions, T sigma);

// p = S σ(v_p^T tanh(W_p h)): the whole prediction from the decoder state h.
template <class T>
Tensor<T> local_position(Graph<T>& g, Tensor<T> h, Tensor<T> w_p, Tensor<T> v_p, std::span<const std::int32_t> lengths) {
  return predicted_positions(g, linear(g, tanh_of(g, linear(g, h, w_p)), v_p), lengths);
}

}  // namespace attn::layers
