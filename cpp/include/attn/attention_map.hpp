// attn/attention_map.hpp — one attention of a model, read on one example: the
// weights of each of its heads, as the trainer's readings return them
// (attn/trainer.hpp: probe(), translate(), generate()).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attn {

struct AttentionMap {
  // "encoder-self", "decoder-self" or "cross" (a recurrent model's attention
  // on the source is "cross"; the one-layer 'attention' model's too)
  std::string kind;
  // Which one of its kind: the transformer's layer (encoder self-attention 0 ..
  // L-1; a decoder layer l's self- and cross-attention both at l), 0 for the others.
  std::size_t layer = 0;
  std::size_t rows = 0, cols = 0;         // queries (target positions) x keys (source positions)
  std::vector<std::vector<float>> heads;  // heads[h]: rows x cols, row-major; each row sums to 1 (or is 0)
  std::vector<float> positions;           // luong's local window: the predicted source position p_t of each row
};

}  // namespace attn
