// words.cpp — token ids as words (words.hpp).
#include "training/words.hpp"

#include "attn/error.hpp"

namespace attn::training {

std::vector<std::string> words_of(std::span<const std::int32_t> ids, const std::vector<std::string>& vocabulary,
                                  const char* arg) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= vocabulary.size()) {
      throw ValueError(std::string(arg) + "[" + std::to_string(i) + "]: expected a token id below " +
                       std::to_string(vocabulary.size()) + ", got " + std::to_string(ids[i]));
    }
    words.push_back(vocabulary[ids[i]]);
  }
  return words;
}

std::vector<std::string> words_or_blank(std::span<const std::int32_t> ids, const std::vector<std::string>& vocabulary) {
  std::vector<std::string> words;
  for (std::int32_t id : ids) words.push_back(id >= 0 ? vocabulary[id] : std::string());
  return words;
}

}  // namespace attn::training
