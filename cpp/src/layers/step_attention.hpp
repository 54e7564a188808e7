// step_attention.hpp (internal) — attention for one step of a recurrent
// decoder (Bahdanau's and Luong's): B queries, one per example (the decoder
// state), each against the S annotations of its own padded source.
//
// Shapes: query q B x d_q; keys K and values V B*S x d, rows (example, source
// position), example-major; lengths B, each in [0, S]; scores and weights B x S.
//
// The score family (e_bj, the score of source position j for example b):
//   dot          e_bj = q_b · k_bj                   (Luong's dot: d_q = d_k)
//   scaled dot   e_bj = q_b · k_bj / sqrt(d)         (step_dot_scores with scale = 1/sqrt(d))
//   general      e_bj = h_bj^T W_a q_b               (Luong's h^T W_a s): step_dot_scores on the
//                                                    keys K = H W_a^T, i.e. linear(H, W) with W the
//                                                    d_k x d_q matrix W_a^T, projected once per source
//   additive     e_bj = v^T tanh(W_a s_b + U_a h_bj) (Bahdanau's, Luong's concat):
//                                                    step_additive_scores(q = s W_a, K = H U_a, v),
//                                                    K projected once per source, not per step
// Scores are computed at every position; the padding's never reach the weights:
//   softmax      a_bj = exp(e_bj - m_b) / Σ_(i < len_b) exp(e_bi - m_b)    for j < len_b, m_b = max
//                a_bj = 0 exactly for j >= len_b (an example of length 0: a row of zeros, not NaN)
//   context      c_b = Σ_j a_bj v_bj                                       (B x d)
//
// Backward:
//   dot          dq_b += scale Σ_j de_bj k_bj;   dk_bj += scale de_bj q_b
//   additive     t_bj = tanh(q_b + k_bj), u_bj = de_bj v ⊙ (1 - t_bj²):
//                dq_b += Σ_j u_bj;  dk_bj += u_bj;  dv += Σ_bj de_bj t_bj
//   softmax      de_bj += a_bj (da_bj - Σ_i a_bi da_bi)        (0 at the padding)
//   context      da_bj += dc_b · v_bj;   dv_bj += a_bj dc_b
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "layers/graph.hpp"

namespace attn::layers {

template <class T>
Tensor<T> step_dot_scores(Graph<T>& g, Tensor<T> query, Tensor<T> keys, std::size_t length, T scale = T(1));

// v: d_a x 1.
template <class T>
Tensor<T> step_additive_scores(Graph<T>& g, Tensor<T> query, Tensor<T> keys, Tensor<T> v, std::size_t length);

// `lengths` must stay valid until backward().
template <class T>
Tensor<T> step_softmax(Graph<T>& g, Tensor<T> scores, std::span<const std::int32_t> lengths);

template <class T>
Tensor<T> step_context(Graph<T>& g, Tensor<T> weights, Tensor<T> values);

}  // namespace attn::layers
