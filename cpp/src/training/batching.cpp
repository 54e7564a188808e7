// batching.cpp — examples -> models::Batch (the layouts of batching.hpp) and
// model ids -> task words.
#include "training/batching.hpp"

#include <algorithm>
#include <string>

#include "attn/error.hpp"
#include "models/vocabulary.hpp"

namespace attn::training {

using models::kBos;
using models::kEos;
using models::kFirstWord;
using models::kSep;

TokenIds::TokenIds(ModelLayout layout, std::size_t source_words, std::size_t target_words, bool shared)
    : layout_(layout), source_words_(source_words), target_words_(target_words), shared_(shared) {}

TokenIds TokenIds::of(const SequenceTask& task, ModelLayout layout) {
  return TokenIds(layout, task.source_vocabulary().size(), task.target_vocabulary().size(),
                  task.shares_vocabulary());
}

std::size_t TokenIds::source_vocabulary() const {
  return layout_ == ModelLayout::SequenceToSequence ? source_words_ : 0;
}

std::size_t TokenIds::output_vocabulary() const {
  if (layout_ == ModelLayout::SequenceToSequence) return kFirstWord + target_words_;
  return kFirstWord + source_words_ + (shared_ ? 0 : target_words_);
}

std::int32_t TokenIds::source_id(std::int32_t word) const {
  return layout_ == ModelLayout::SequenceToSequence ? word : kFirstWord + word;
}

std::int32_t TokenIds::target_id(std::int32_t word) const {
  const bool after_source = layout_ == ModelLayout::DecoderOnly && !shared_;
  return kFirstWord + (after_source ? static_cast<std::int32_t>(source_words_) : 0) + word;
}

TokenMeaning TokenIds::meaning(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= output_vocabulary()) {
    throw ValueError("id: expected a token id below " + std::to_string(output_vocabulary()) + ", got " +
                     std::to_string(id));
  }
  static_assert(kBos == kSep, "the first input of both layouts is id 0");
  if (id == kBos) return {TokenMeaning::Kind::Start, -1};
  if (id == kEos) return {TokenMeaning::Kind::End, -1};
  const std::int32_t word = id - kFirstWord;
  const bool after_source = layout_ == ModelLayout::DecoderOnly && !shared_;
  if (!after_source) return {TokenMeaning::Kind::TargetWord, word};
  const auto sources = static_cast<std::int32_t>(source_words_);
  if (word < sources) return {TokenMeaning::Kind::SourceWord, word};
  return {TokenMeaning::Kind::TargetWord, word - sources};
}

std::int32_t TokenIds::target_word(std::int32_t id) const {
  const TokenMeaning m = meaning(id);
  return m.kind == TokenMeaning::Kind::TargetWord ? m.word : -1;
}

void TokenIds::prompt(std::span<const std::int32_t> source, std::vector<std::int32_t>& ids) const {
  ids.clear();
  for (std::int32_t word : source) ids.push_back(source_id(word));
  ids.push_back(kSep);
}

std::size_t longest_decoder_sequence(const SequenceTask& task, ModelLayout layout) {
  if (layout == ModelLayout::SequenceToSequence) return task.max_target_length() + 1;
  return task.max_source_length() + 1 + task.max_target_length();
}

namespace {

std::string part_name(std::size_t b, const char* part) {
  return "examples[" + std::to_string(b) + "]." + part;
}

void require_words(std::span<const std::int32_t> words, std::size_t vocabulary, std::size_t b, const char* part) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] < 0 || static_cast<std::size_t>(words[i]) >= vocabulary) {
      throw ValueError(part_name(b, part) + "[" + std::to_string(i) + "]: expected a word id below " +
                       std::to_string(vocabulary) + ", got " + std::to_string(words[i]));
    }
  }
}

// Whether target position t counts, and the EOS after the target (t = n).
unsigned char counts(const SequenceExample& e, std::size_t t) {
  if (e.counted.empty()) return 1;
  return t < e.counted.size() ? e.counted[t] : 0;
}

}  // namespace

void fill_batch(std::span<const SequenceExample> examples, const TokenIds& ids, models::Batch& batch) {
  if (examples.empty()) throw ValueError("examples: expected at least 1 example, got 0");
  const bool decoder = ids.layout() == ModelLayout::DecoderOnly;
  std::size_t longest_source = 0, longest = 0;
  for (std::size_t b = 0; b < examples.size(); ++b) {
    const SequenceExample& e = examples[b];
    require_words(e.source, ids.source_words(), b, "source");
    require_words(e.target, ids.target_words(), b, "target");
    if (!e.counted.empty() && e.counted.size() != e.target.size()) {
      throw ValueError(part_name(b, "counted") + ": expected 0 or " + std::to_string(e.target.size()) +
                       " entries (one per target word), got " + std::to_string(e.counted.size()));
    }
    if (!decoder && e.source.empty()) {
      throw ValueError(part_name(b, "source") +
                       ": expected at least 1 word (a sequence-to-sequence model reads a source; a task without "
                       "one, induction, is for the decoder-only model), got 0");
    }
    longest_source = std::max(longest_source, e.source.size());
    // seq2seq: BOS + target inputs; decoder-only: source, SEP, target (the inputs before EOS).
    longest = std::max(longest, (decoder ? e.source.size() + 1 : 1) + e.target.size());
  }

  const std::size_t B = examples.size(), T = longest;
  batch.size = B;
  batch.target_length = T;
  batch.input.assign(B * T, 0);
  batch.output.assign(B * T, 0);
  batch.counted.assign(B * T, 0);
  batch.target_lengths.resize(B);
  if (decoder) {
    batch.source_length = 0;
    batch.source.clear();
    batch.source_lengths.assign(B, 0);
  } else {
    batch.source_length = longest_source;
    batch.source.assign(B * longest_source, 0);
    batch.source_lengths.resize(B);
  }

  for (std::size_t b = 0; b < B; ++b) {
    const SequenceExample& e = examples[b];
    std::int32_t* input = batch.input.data() + b * T;
    std::int32_t* output = batch.output.data() + b * T;
    unsigned char* counted = batch.counted.data() + b * T;
    const std::size_t n = e.target.size();
    // The output position that predicts target word 0: after BOS, or after source and SEP.
    std::size_t first = 0;
    if (decoder) {
      for (std::size_t i = 0; i < e.source.size(); ++i) {
        input[i] = ids.source_id(e.source[i]);
        if (i > 0) output[i - 1] = input[i];
      }
      first = e.source.size();
      input[first] = kSep;
      if (first > 0) output[first - 1] = kSep;
    } else {
      for (std::size_t i = 0; i < e.source.size(); ++i) batch.source[b * longest_source + i] = e.source[i];
      batch.source_lengths[b] = static_cast<std::int32_t>(e.source.size());
      input[0] = kBos;
    }
    for (std::size_t t = 0; t < n; ++t) {
      output[first + t] = ids.target_id(e.target[t]);
      input[first + t + 1] = output[first + t];  // T >= first + n + 1
      counted[first + t] = counts(e, t);
    }
    output[first + n] = kEos;
    counted[first + n] = counts(e, n);
    batch.target_lengths[b] = static_cast<std::int32_t>(first + n + 1);
  }
}

}  // namespace attn::training
