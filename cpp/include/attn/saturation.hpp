// attn/saturation.hpp — the sqrt(d_k) experiment of articles 000, 002, 003.
//
// Per trial: Q (queries x d_k) and K (keys x d_k) standard normal from Rng(seed),
// logits L = Q K^T. For the raw logits and for L / sqrt(d_k), averaged over all
// rows of all trials:
//   max_weight      mean of each row's largest softmax weight
//   entropy         mean row entropy, nats (uniform over m keys: ln m)
//   gradient        mean of sum_j p_j (1 - p_j)   (trace of the softmax Jacobian)
//   saturated_share share of rows whose largest weight exceeds 0.99
// and logit_std, the standard deviation of all raw logits (about sqrt(d_k)).
#pragma once

#include <cstdint>

#include "attn/shapes.hpp"

namespace attn {

struct SaturationOptions {
  std::size_t d_k = 64, queries = 8, keys = 8, trials = 200;
  std::uint64_t seed = 0;
};

struct RawScaled {
  double raw = 0, scaled = 0;
};

struct SaturationResult {
  double logit_std = 0;
  RawScaled max_weight, entropy, gradient, saturated_share;
};

// Q queries x d_k, K keys x d_k per trial -> statistics averaged over
// trials*queries rows. The stream: one Rng(seed); per trial Q then K, row by
// row (Rng::normal_matrix); logits summed in double. ShapeError if a
// dimension or trials is 0, SizeError if too large.
SaturationResult saturation(const SaturationOptions& options);

}  // namespace attn
