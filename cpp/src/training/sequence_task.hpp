// sequence_task.hpp (internal) — the tasks the model engine trains on
// (rnn, bahdanau, luong, transformer, decoder), generated from a seed, each
// example of its own length:
//
//   reverse     source_length digits 0-9 (4..32, default 8) -> the same digits
//               reversed; target t translates source L-1-t (the anti-diagonal).
//               sequence_reverse.cpp
//   translate   a toy English -> Korean grammar whose alignment depends on the
//               sentence: optional adjectives, an adverb, a place and a time
//               phrase, past or present tense; English SVO -> Korean SOV, each
//               particle (이/가, 을/를, 에서, 에) its own target token, aligned to
//               nothing; articles and prepositions are source tokens aligned to
//               nothing. 3-14 source tokens, 3-12 target tokens.
//               sequence_translate.cpp
//   induction   letters in which a segment of distinct letters, found nowhere
//               else, appears twice, at a distance that varies; the loss and
//               accuracy count the second occurrence after its first letter
//               (only copying what followed the earlier occurrence gets it
//               right). No source; the target is the whole sequence.
//               sequence_induction.cpp
//
// Each task has a held-out set (held_out(), drawn once from the task's own
// seed and its options: the same for every trainer of the same options) that
// draw() never returns: an example is held out when its target is one of the
// held-out targets (for translate this holds out every English wording of a
// held-out Korean sentence). Ids are int32 indices into the task's
// vocabularies; batching.hpp turns examples into a model's Batch. Everything
// here is integer arithmetic on attn::Rng's stream: the same examples in every
// build, native and wasm.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "attn/random.hpp"

namespace attn::training {

struct SequenceExample {
  std::vector<std::int32_t> source;     // task source word ids (empty for induction)
  std::vector<std::int32_t> target;     // target word ids (induction: the whole sequence)
  std::vector<std::int32_t> alignment;  // per target position: the source position it translates, -1 if none
  std::vector<unsigned char> counted;   // per target position: 1 where loss and accuracy count it (empty: all)
};

enum class SequenceTaskKind { Reverse, Translate, Induction };

struct SequenceTaskOptions {
  SequenceTaskKind kind = SequenceTaskKind::Reverse;
  std::size_t source_length = 8;          // reverse: 4..32 digits
  std::size_t induction_vocabulary = 24;  // induction: letters a.. (4..26)
  std::size_t induction_length = 32;      // induction: tokens per sequence (8..64)
  std::size_t induction_segment = 6;      // induction: the repeated segment (2..length/2, <= vocabulary - 2)
};

// A named class of source words, for showing the vocabulary ("PERSON": student, teacher, ...).
struct VocabularyGroup {
  std::string name;
  std::vector<std::string> words;
};

class SequenceTask {
 public:
  // ValueError naming the option out of range ("source_length: expected 4 to 32, got 40").
  explicit SequenceTask(const SequenceTaskOptions& options);
  // "reverse", "translate" or "induction"; ValueError naming `task` otherwise.
  static SequenceTaskKind kind_named(std::string_view name);

  const std::string& name() const;
  SequenceTaskKind kind() const;
  const SequenceTaskOptions& options() const;
  const std::vector<std::string>& source_vocabulary() const;  // id -> word
  const std::vector<std::string>& target_vocabulary() const;
  bool shares_vocabulary() const;  // reverse, induction: source word w is target word w
  std::size_t max_source_length() const;
  std::size_t max_target_length() const;
  // The source words by class, and the grammar every source follows (for the page).
  const std::vector<VocabularyGroup>& source_groups() const;
  const std::string& source_pattern() const;

  // One training example, never a held-out one (those are drawn again).
  void draw(Rng& rng, SequenceExample& example) const;
  // The held-out set: probe() first, then distinct examples drawn from the
  // task's own seed; 512 of them.
  const std::vector<SequenceExample>& held_out() const;
  const SequenceExample& probe() const;  // a fixed example for the page: held_out()[0]
  bool is_held_out(const SequenceExample& example) const;

  // A typed sentence -> source ids. translate: words (case, commas and a
  // final . ! ? ignored) that follow the grammar of source_pattern(); reverse:
  // exactly source_length digits, spaces optional; induction (no source): the
  // typed letters, 1 to induction_length of them, spaces optional. ValueError
  // naming `sentence`: the unknown words (the first ten, quoted and shortened),
  // or what the grammar expected where it stopped, or the count expected;
  // a sentence longer than 4096 bytes.
  std::vector<std::int32_t> tokenize(std::string_view sentence) const;
  // The reference example of a typed sentence: its target and alignment.
  SequenceExample example_of(std::string_view sentence) const;

  // ids -> words joined by spaces (translate's particles written onto the
  // word before them: 학생이); ValueError naming the id out of range.
  std::string source_text(std::span<const std::int32_t> ids) const;
  std::string target_text(std::span<const std::int32_t> ids) const;

 private:
  struct Built;  // the task's data, its held-out set and their sorted targets
  std::shared_ptr<const Built> built_;
};

}  // namespace attn::training
