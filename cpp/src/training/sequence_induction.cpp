// sequence_induction.cpp — the induction task (Olsson et al. 2022): a
// sequence of `length` letters from the first `vocabulary` letters of the
// alphabet in which a segment of `segment` distinct letters appears twice.
//
//   segment      K distinct letters, found nowhere else in the sequence
//   distance     d = p2 - p1, uniform in [K, N - K] (the occurrences never overlap)
//   first        p1 uniform in [0, N - K - d]; p2 = p1 + d
//   the rest     each letter uniform among the V - K letters not in the segment
//   counted      positions p2+1 .. p2+K-1: the second occurrence after its first letter
//
// The letter at p2 + j (j >= 1) follows s_(j-1), whose only earlier occurrence
// is at p1 + j - 1: the answer is the letter after it, and nothing else
// predicts it (the distance changes from sequence to sequence, so no fixed
// offset finds it). The first letter of the second occurrence is not counted:
// nothing announces that the repeat begins. No source; the target is the
// sequence; a decoder reads it after a SEP (batching.hpp).
#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "training/sequence_generator.hpp"

namespace attn::training {

namespace {

class InductionGenerator final : public SequenceGenerator {
 public:
  InductionGenerator(std::size_t vocabulary, std::size_t length, std::size_t segment, std::vector<std::string> letters)
      : vocabulary_(vocabulary), length_(length), segment_(segment), letters_(std::move(letters)) {}

  // Draws, in order: the segment (a partial Fisher-Yates shuffle of the
  // letters: its first K), the distance, the first position, then the other
  // letters left to right.
  void draw_any(Rng& rng, SequenceExample& example) const override {
    std::int32_t letters[26];
    std::iota(letters, letters + vocabulary_, 0);
    for (std::size_t i = 0; i < segment_; ++i) std::swap(letters[i], letters[i + draw_index(rng, vocabulary_ - i)]);
    const std::size_t distance = segment_ + draw_index(rng, length_ - 2 * segment_ + 1);
    const std::size_t first = draw_index(rng, length_ - segment_ - distance + 1), second = first + distance;
    example.source.clear();
    example.target.resize(length_);
    example.alignment.assign(length_, -1);
    example.counted.assign(length_, 0);
    for (std::size_t t = 0; t < length_; ++t) {
      if (t >= first && t < first + segment_) {
        example.target[t] = letters[t - first];
      } else if (t >= second && t < second + segment_) {
        example.target[t] = letters[t - second];
        example.counted[t] = t > second ? 1 : 0;
      } else {
        example.target[t] = letters[segment_ + draw_index(rng, vocabulary_ - segment_)];
      }
    }
  }

  std::vector<std::int32_t> read_words(std::string_view sentence) const override {
    return ids_of_pieces(split_sentence(sentence, true), letters_, "character");
  }

  // A typed sequence, every position counted (a prompt: it need not repeat).
  SequenceExample example_of(std::span<const std::int32_t> letters) const override {
    if (letters.empty() || letters.size() > length_) {
      sentence_error("expected 1 to " + std::to_string(length_) + " letters, got " + std::to_string(letters.size()));
    }
    SequenceExample example;
    example.target.assign(letters.begin(), letters.end());
    example.alignment.assign(letters.size(), -1);
    return example;
  }

 private:
  std::size_t vocabulary_, length_, segment_;
  std::vector<std::string> letters_;
};

}  // namespace

SequenceTaskData make_induction_data(const SequenceTaskOptions& options) {
  const std::size_t vocabulary = options.induction_vocabulary, length = options.induction_length,
                    segment = options.induction_segment;
  require_option("induction_vocabulary", vocabulary, 4, 26);
  require_option("induction_length", length, 8, 64);
  // Two occurrences fit, and at least two letters are left for the rest.
  require_option("induction_segment", segment, 2, std::min(length / 2, vocabulary - 2));
  SequenceTaskData data;
  data.options = options;
  data.name = "induction";
  for (std::size_t i = 0; i < vocabulary; ++i) data.source_vocabulary.push_back(std::string(1, static_cast<char>('a' + i)));
  data.target_vocabulary = data.source_vocabulary;
  data.shares_vocabulary = true;
  data.max_source_length = 0;
  data.max_target_length = length;
  data.source_groups = {{"LETTER", data.source_vocabulary}};
  data.source_pattern = std::to_string(length) + " letters from a to " + data.source_vocabulary.back() + "; " +
                        "a segment of " + std::to_string(segment) + " distinct letters, found nowhere else, appears twice";
  data.generator = std::make_shared<InductionGenerator>(vocabulary, length, segment, data.source_vocabulary);
  Rng probe_rng(0x9206e);  // the probe: the first sequence of this stream
  data.generator->draw_any(probe_rng, data.probe);
  data.held_out_seed = 0x1d0c7105ULL + (vocabulary << 16) + (length << 8) + segment;  // one set per size
  return data;
}

}  // namespace attn::training
