// gru.hpp (internal) — the gated recurrent unit of the articles' RNNs
// (Cho et al. 2014, in PyTorch's formulation), one step at a time for the
// decoders and unrolled over padded sequences for the encoders.
//
// Weights: W_i d_in x 3H, W_h H x 3H, b_i and b_h 1 x 3H, each cut into column
// blocks [r | z | n] (reset, update, candidate):
//
//   r  = σ(x W_ir + b_ir + h W_hr + b_hr)
//   z  = σ(x W_iz + b_iz + h W_hz + b_hz)
//   n  = tanh(x W_in + b_in + r ⊙ (h W_hn + b_hn))
//   h' = (1 - z) ⊙ n + z ⊙ h
//
// The input part gx = x W_i + b_i does not depend on h, so it is one product
// for every position of a sequence (gru_input), and the recurrence only
// computes hh = h W_h + b_h per step. Backward of one step, from dh':
//
//   dz = dh' ⊙ (h - n)      dn = dh' ⊙ (1 - z)      dh += dh' ⊙ z
//   da_n = dn ⊙ (1 - n²)    da_r = (da_n ⊙ hh_n) ⊙ r (1 - r)      da_z = dz ⊙ z (1 - z)
//   dgx += [da_r | da_z | da_n]                  (then linear's backward: dx, dW_i, db_i)
//   dhh  = [da_r | da_z | da_n ⊙ r]:  dh += dhh W_h^T,  dW_h += h^T dhh,  db_h += Σ_rows dhh
//
// gru_sequence runs B padded sequences of S positions (x rows (example,
// position), example-major) with per-example lengths. A position past an
// example's length leaves its state unchanged, so:
//   Direction::Forward    positions 0 .. S-1; states[b, j] = h→_j; at padding the state stays
//                         h→ of the last real token, which is also the final state;
//   Direction::Backward   positions S-1 .. 0; the padding is skipped, so the backward pass of
//                         each example starts at its own last real token (state 0 there); its
//                         states at padding are 0 and the final state is h←_0, the state of the
//                         first token (Bahdanau's h←_1, 1-based).
// Initial states are 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "layers/combine.hpp"
#include "layers/graph.hpp"
#include "layers/linear.hpp"

namespace attn::layers {

template <class T>
struct GruWeights {
  Tensor<T> w_input;   // d_in x 3H
  Tensor<T> w_hidden;  // H x 3H
  Tensor<T> b_input;   // 1 x 3H
  Tensor<T> b_hidden;  // 1 x 3H
};

// gx = x W_i + b_i for any number of rows (the part of the gates that does not depend on h).
template <class T>
Tensor<T> gru_input(Graph<T>& g, Tensor<T> x, const GruWeights<T>& w) {
  return linear(g, x, w.w_input, w.b_input);
}

// One step of B rows: h' (B x H) from gx (B x 3H, gru_input of the step's input) and h (B x H).
template <class T>
Tensor<T> gru_cell(Graph<T>& g, Tensor<T> input_gates, Tensor<T> h, const GruWeights<T>& w);

enum class Direction { Forward, Backward };

template <class T>
struct GruSequence {
  Tensor<T> states;  // B*S x H, rows (example, position)
  Tensor<T> final;   // B x H: the state after each example's last real step
};

// x: B*S x d_in with S = length and B = lengths.size(); every length in [1, S].
// `lengths` must stay valid until backward().
template <class T>
GruSequence<T> gru_sequence(Graph<T>& g, Tensor<T> x, std::span<const std::int32_t> lengths, std::size_t length,
                            const GruWeights<T>& w, Direction direction);

// Bahdanau's encoder: a forward and a backward GRU over the same inputs, the
// annotation of position j their two states side by side, h_j = [h→_j; h←_j].
template <class T>
struct BidirectionalGru {
  Tensor<T> annotations;     // B*S x 2H
  Tensor<T> forward_final;   // B x H: h→ of each example's last real token
  Tensor<T> backward_final;  // B x H: h← of its first token
};

template <class T>
BidirectionalGru<T> bidirectional_gru(Graph<T>& g, Tensor<T> x, std::span<const std::int32_t> lengths,
                                      std::size_t length, const GruWeights<T>& forward,
                                      const GruWeights<T>& backward) {
  const GruSequence<T> f = gru_sequence(g, x, lengths, length, forward, Direction::Forward);
  const GruSequence<T> b = gru_sequence(g, x, lengths, length, backward, Direction::Backward);
  return {concat_columns(g, f.states, b.states), f.final, b.final};
}

}  // namespace attn::layers
