// layer_norm.hpp (internal) — layer normalisation (Ba, Kiros and Hinton 2016),
// over the columns of each row:
//
//   forward    μ = mean_c x_c,  σ² = mean_c (x_c - μ)²,  r = 1 / sqrt(σ² + ε),  ε = 1e-5
//              x̂_c = (x_c - μ) r,   y_c = γ_c x̂_c + β_c           γ, β: 1 x cols (gain, bias)
//   backward   dβ += sum_rows dy,   dγ += sum_rows dy ⊙ x̂
//              g = dy ⊙ γ;   dx += r (g - mean_c g - x̂ mean_c(g ⊙ x̂))
//
// μ and r of each row are kept from the forward pass (x̂ is recomputed).
#pragma once

#include "layers/graph.hpp"

namespace attn::layers {

template <class T>
Tensor<T> layer_norm(Graph<T>& g, Tensor<T> x, Tensor<T> gain, Tensor<T> bias);

}  // namespace attn::layers
