// words.hpp (internal) — token ids as the words of a vocabulary, for the
// tasks' texts and the trainers' readings.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace attn::training {

// ids -> their words; ValueError naming `arg`[i] for an id outside the vocabulary.
std::vector<std::string> words_of(std::span<const std::int32_t> ids, const std::vector<std::string>& vocabulary,
                                  const char* arg);

// ids -> their words, an id of -1 (no word: the end of a generated sentence,
// a position without a prediction) as "". The ids are the model's own.
std::vector<std::string> words_or_blank(std::span<const std::int32_t> ids, const std::vector<std::string>& vocabulary);

}  // namespace attn::training
