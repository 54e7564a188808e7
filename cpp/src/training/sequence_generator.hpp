// sequence_generator.hpp (internal) — what each task of sequence_task.hpp
// supplies (sequence_reverse.cpp, sequence_translate.cpp,
// sequence_induction.cpp): its vocabularies, its generator and its probe.
// sequence_task.cpp adds the held-out set, the rejection of held-out examples
// and the checks every task shares; the helpers at the end are shared by the
// task files.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "training/sequence_task.hpp"

namespace attn::training {

class SequenceGenerator {
 public:
  virtual ~SequenceGenerator() = default;
  // One example of the whole distribution, held out or not, into `example`
  // (its vectors are reused: no allocation once they have grown).
  virtual void draw_any(Rng& rng, SequenceExample& example) const = 0;
  // A typed sentence -> ids (ValueError naming `sentence` and the unknown words).
  virtual std::vector<std::int32_t> read_words(std::string_view sentence) const = 0;
  // The reference example of a source: translate's Korean and alignment;
  // ValueError naming `sentence` if the source does not follow the grammar.
  // Induction, which has no source, takes the typed sequence as its target.
  virtual SequenceExample example_of(std::span<const std::int32_t> source) const = 0;
};

struct SequenceTaskData {
  SequenceTaskOptions options;
  std::string name;
  std::vector<std::string> source_vocabulary, target_vocabulary;
  std::vector<unsigned char> attaches;  // per target word: 1 for a particle, written onto the word before it
  bool shares_vocabulary = false;       // the same words on both sides (reverse, induction)
  std::size_t max_source_length = 0, max_target_length = 0;
  std::vector<VocabularyGroup> source_groups;
  std::string source_pattern;
  std::shared_ptr<const SequenceGenerator> generator;
  SequenceExample probe;
  std::uint64_t held_out_seed = 0;  // mixed with the options by each task
  std::size_t held_out_count = 512;
};

// Each checks its options (ValueError naming the option) and builds its task.
SequenceTaskData make_reverse_data(const SequenceTaskOptions& options);
SequenceTaskData make_translate_data(const SequenceTaskOptions& options);
SequenceTaskData make_induction_data(const SequenceTaskOptions& options);

// An integer in [0, count), 0 < count < 2^32, from the top 32 bits of one
// draw: (bits * count) >> 32, exact integer arithmetic in every build.
inline std::size_t draw_index(Rng& rng, std::size_t count) {
  return static_cast<std::size_t>(((rng.next_u64() >> 32) * static_cast<std::uint64_t>(count)) >> 32);
}

// ValueError "name: expected low to high, got value" unless low <= value <= high.
void require_option(const char* name, std::size_t value, std::size_t low, std::size_t high);

// The pieces of a typed sentence: lower-cased (ASCII), split at white space
// and commas, a final . ! ? dropped; with `characters` each character is a
// piece of its own (a UTF-8 sequence kept whole). ValueError naming
// `sentence` beyond 4096 bytes.
std::vector<std::string> split_sentence(std::string_view sentence, bool characters);

// The ids of `pieces` in `vocabulary`; ValueError naming `sentence` and the
// unknown pieces (`piece_name`: "word", "character") if any.
std::vector<std::int32_t> ids_of_pieces(const std::vector<std::string>& pieces,
                                        const std::vector<std::string>& vocabulary, const char* piece_name);

// ValueError naming `sentence`: what was expected and what it was ("expected
// 8 digits, got 5: "12345"").
[[noreturn]] void sentence_error(const std::string& what);

}  // namespace attn::training
