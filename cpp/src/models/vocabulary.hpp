// vocabulary.hpp (internal) — how a task's word ids become a model's token ids.
//
// Sequence to sequence models (rnn, bahdanau, luong, transformer):
//   source side    the task's source ids as they are: 0 .. V_s - 1 (padding is 0 too, never
//                  attended: Batch::source_lengths)
//   decoder side   0 = BOS (the first input), 1 = EOS (the last output), 2 + w = target word w:
//                  target_vocabulary = V_t + 2
// Decoder-only models (decoder): one vocabulary for the whole sequence
//   0 = SEP (between source and target; the first token of a sequence task without source),
//   1 = EOS, 2 + w = source word w, 2 + V_s + w = target word w, or 2 + w when the task's source
//   and target vocabularies are the same words (reverse, induction: copying keeps the id)
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::models {

inline constexpr std::int32_t kBos = 0;
inline constexpr std::int32_t kSep = 0;
inline constexpr std::int32_t kEos = 1;
inline constexpr std::int32_t kFirstWord = 2;

}  // namespace attn::models
