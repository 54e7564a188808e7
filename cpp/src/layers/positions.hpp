// positions.hpp (internal) — where a token is, added to what it is.
//
// x holds `sequences` sequences of `length` rows each (rows = sequences * length),
// the first of them at position `first` (decoding one token at a time: first =
// the tokens already generated):
//
//   Positions::Sinusoidal   X_i += PE_(first + i mod length)     PE of attn/positional_encoding.hpp:
//                           PE_(p, 2j) = sin(p / 10000^(2j/d)), PE_(p, 2j+1) = cos(...); fixed, so
//                           dX passes through unchanged (the residual identity)
//   Positions::Learned      X_i += P[first + i mod length]       P max_length x d, learned:
//                           dP[p] += sum of the dX_i at position p
//   Positions::None         X unchanged: attention sees a bag of tokens (article 003's
//                           order-blindness)
//
// The result is a new tensor (x is not modified).
#pragma once

#include <cstddef>

#include "layers/graph.hpp"

namespace attn::layers {

enum class Positions { None, Sinusoidal, Learned };

// table: for Sinusoidal, a constant max_length x d table of PE (sinusoid_table);
// for Learned, the parameter P; ignored for None.
template <class T>
Tensor<T> add_positions(Graph<T>& g, Tensor<T> x, Positions kind, Tensor<T> table, std::size_t length,
                        std::size_t first = 0);

// The sinusoidal table of `length` x d (attn::positional_encoding, in T).
template <class T>
std::vector<T> sinusoid_table(std::size_t length, std::size_t d);

}  // namespace attn::layers
