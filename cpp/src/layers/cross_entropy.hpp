// cross_entropy.hpp (internal) — the loss of every model: softmax
// cross-entropy of each row of logits against its target id, averaged over
// the rows the loss counts.
//
//   L = (1 / Σ_i w_i) Σ_i w_i (logsumexp(z_i) - z_i[y_i])       z rows x classes, w_i ∈ {0, 1}
//   dz_i += w_i (softmax(z_i) - onehot(y_i)) / Σ_i w_i
//
// w is the per-position loss mask: padding after a short sentence, the source
// part of a decoder-only sequence, the unpredictable part of an induction
// sequence count 0. Stable: logsumexp with the row maximum subtracted. The
// loss is the graph's last step: its backward seeds the whole pass (no
// output gradient needs to be set by hand).
#pragma once

#include <cstdint>
#include <span>

#include "layers/graph.hpp"

namespace attn::layers {

struct LossCounts {
  double loss = 0.0;       // L, in nats (0 when no row counts)
  std::size_t counted = 0;  // Σ w_i
  std::size_t correct = 0;  // counted rows whose largest logit (the first on a tie) is the target
};

// mask: one entry per row (1 = counted), or empty for every row.
template <class T>
LossCounts cross_entropy(Graph<T>& g, Tensor<T> logits, std::span<const std::int32_t> targets,
                         std::span<const unsigned char> mask = {});

}  // namespace attn::layers
