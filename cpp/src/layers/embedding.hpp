// embedding.hpp (internal) — token embedding: a learned row per token id.
//
//   forward    X_i = E[t_i]                      E vocabulary x d_model, tokens (rows), X rows x d_model
//   backward   dE[t] += sum over i with t_i = t of dX_i
//
// Ids are checked by the caller (the tasks make them; the trainer checks typed ones).
#pragma once

#include <cstdint>
#include <span>

#include "layers/graph.hpp"

namespace attn::layers {

template <class T>
Tensor<T> embedding(Graph<T>& g, Tensor<T> table, std::span<const std::int32_t> tokens);

}  // namespace attn::layers
