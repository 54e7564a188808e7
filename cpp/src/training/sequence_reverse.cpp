// sequence_reverse.cpp — the reverse task: L digits (source_length, 4..32)
// -> the same digits reversed; target position t translates source position
// L-1-t (the anti-diagonal). One vocabulary, the digits 0-9, on both sides.
#include <string>

#include "training/sequence_generator.hpp"

namespace attn::training {

namespace {

constexpr std::size_t kDigits = 10;
constexpr std::size_t kShortest = 4, kLongest = 32;

// The probe's digits: pi's, each digit skipped while it is already in the
// probe and not all ten are, then pi's next digits as they come (so up to ten
// digits are all distinct, and each target position has one source position
// to look at): 3 1 4 5 9 2 6 8 7 0 2 8 8 4 1 9 7 ...
std::vector<std::int32_t> probe_digits(std::size_t length) {
  static constexpr char kPi[] = "31415926535897932384626433832795028841971693993751058209749445923078164062862089";
  std::vector<std::int32_t> digits;
  std::vector<bool> taken(kDigits, false);
  std::size_t distinct = 0;
  for (const char* c = kPi; *c && digits.size() < length; ++c) {
    const std::int32_t digit = *c - '0';
    if (distinct < kDigits && taken[digit]) continue;
    if (!taken[digit]) taken[digit] = true, ++distinct;
    digits.push_back(digit);
  }
  return digits;
}

class ReverseGenerator final : public SequenceGenerator {
 public:
  ReverseGenerator(std::size_t length, std::vector<std::string> digits) : length_(length), digits_(std::move(digits)) {}

  void draw_any(Rng& rng, SequenceExample& example) const override {
    example.source.resize(length_);
    for (std::int32_t& digit : example.source) digit = static_cast<std::int32_t>(draw_index(rng, kDigits));
    reverse_into(example);
  }

  std::vector<std::int32_t> read_words(std::string_view sentence) const override {
    return ids_of_pieces(split_sentence(sentence, true), digits_, "character");
  }

  SequenceExample example_of(std::span<const std::int32_t> source) const override {
    if (source.size() != length_) {
      std::string typed;
      for (std::int32_t digit : source) typed += digits_[digit];
      sentence_error("expected " + std::to_string(length_) + " digits, got " + std::to_string(source.size()) +
                     ": \"" + typed + "\"");
    }
    SequenceExample example;
    example.source.assign(source.begin(), source.end());
    reverse_into(example);
    return example;
  }

 private:
  // target t = source L-1-t; alignment t -> L-1-t.
  void reverse_into(SequenceExample& example) const {
    example.target.assign(example.source.rbegin(), example.source.rend());
    example.alignment.resize(length_);
    for (std::size_t t = 0; t < length_; ++t) example.alignment[t] = static_cast<std::int32_t>(length_ - 1 - t);
    example.counted.clear();
  }

  std::size_t length_;
  std::vector<std::string> digits_;
};

}  // namespace

SequenceTaskData make_reverse_data(const SequenceTaskOptions& options) {
  const std::size_t length = options.source_length;
  require_option("source_length", length, kShortest, kLongest);
  SequenceTaskData data;
  data.options = options;
  data.name = "reverse";
  for (std::size_t digit = 0; digit < kDigits; ++digit) data.source_vocabulary.push_back(std::to_string(digit));
  data.target_vocabulary = data.source_vocabulary;
  data.shares_vocabulary = true;
  data.max_source_length = data.max_target_length = length;
  data.source_groups = {{"DIGIT", data.source_vocabulary}};
  data.source_pattern = std::to_string(length) + " digits from 0 to 9";
  data.generator = std::make_shared<ReverseGenerator>(length, data.source_vocabulary);
  data.probe = data.generator->example_of(probe_digits(length));
  data.held_out_seed = 0x5e7e45e5ULL + length;  // one held-out set per length
  return data;
}

}  // namespace attn::training
