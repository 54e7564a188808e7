// attn/tasks.hpp — the two tasks a small sequence-to-sequence model learns,
// generated in the core from a seed (no data files):
//
//   reverse    8 digits (vocabulary 0..9) -> the same digits reversed.
//              Target position t comes from source position 7 - t: the learned
//              alignment is the anti-diagonal.
//   translate  a toy English -> Korean grammar of a few dozen words. Every
//              sentence follows one pattern (10 English words in 6 tokens,
//              6 Korean tokens):
//                [the|a|an ADJECTIVE] [SUBJECT] [VERB] [the|a|an ADJECTIVE] [OBJECT] [in the PLACE]
//                [the young] [student] [reads] [an old] [book] [in the library]
//              -> ADJECTIVE SUBJECT+이/가 PLACE+에서 ADJECTIVE OBJECT+을/를 VERB
//                 젊은 학생이 도서관에서 오래된 책을 읽는다
//              Subject-verb-object becomes subject-object-verb and the place
//              moves forward, so the alignment crosses: Korean token t
//              translates English token 0, 1, 5, 3, 4, 2. An article is one
//              token with its adjective and "in the" with its place, so that
//              every English token carries a word the Korean needs. Verbs take
//              only objects that fit them (one reads a book, eats an apple) and
//              objects only adjectives that fit them; "an" before a vowel; the
//              Korean particle follows the noun's last syllable (이/가, 을/를).
//
// Each task has a fixed held-out set (drawn once from the task's own seed, the
// same for every trainer) that training never sees, and a fixed probe example
// (the first held-out example). Token ids are int32, indices into the
// vocabularies. Everything here is integer arithmetic on attn::Rng's stream:
// the same examples in every build.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "attn/random.hpp"

namespace attn {

// induction (random letters with a repeated segment) is a task of the model
// engine only (decoder-only models: cpp/src/training/sequence_task.hpp);
// Task(TaskKind::Induction) is a ValueError.
enum class TaskKind { Reverse, Translate, Induction };

struct Example {
  std::vector<std::int32_t> source;  // source_length ids
  std::vector<std::int32_t> target;  // target_length ids
};

// A named class of words, for showing the vocabulary ("SUBJECT": student, ...).
struct WordGroup {
  std::string name;
  std::vector<std::string> words;
};

namespace detail {
struct TaskData;
}

class Task {
 public:
  // The task of that kind, with its held-out set and probe.
  explicit Task(TaskKind kind);
  // "reverse" or "translate"; ValueError naming `task` otherwise.
  static Task named(std::string_view name);

  TaskKind kind() const;
  const std::string& name() const;
  std::size_t source_length() const;
  std::size_t target_length() const;
  const std::vector<std::string>& source_vocabulary() const;  // id -> token ("the young", "student")
  const std::vector<std::string>& target_vocabulary() const;
  // The source words by class, and the pattern every source sentence follows.
  const std::vector<WordGroup>& source_groups() const;
  const std::string& source_pattern() const;

  // alignment()[t]: the source position that target position t translates
  // (reverse: 7 - t; translate: 0, 1, 5, 3, 4, 2).
  std::span<const std::size_t> alignment() const;

  // One training example drawn from `rng` into source (source_length ids) and
  // target (target_length ids); never one of the held-out examples.
  void draw(Rng& rng, std::int32_t* source, std::int32_t* target) const;

  const std::vector<Example>& held_out() const;
  const Example& probe() const;  // held_out()[0]
  bool is_held_out(std::span<const std::int32_t> source) const;

  // A typed sentence -> source ids. translate: words separated by spaces,
  // case and a final . ! or ? ignored, read as the longest tokens of the
  // vocabulary ("in the library", "an old"); reverse: the digits, spaces
  // optional. ValueError naming the unknown words ('sentence: unknown words
  // "cat", "runs"; the vocabulary is: ...'; the first ten, each shortened to
  // 40 bytes) or, if the words do not make source_length tokens, the pattern
  // ('sentence: expected 6 tokens in the pattern: ...; got "the student reads
  // a book"'); ValueError for a sentence longer than 4096 bytes.
  std::vector<std::int32_t> tokenize(std::string_view sentence) const;

  // ids -> words, joined by spaces (ValueError naming an id out of range).
  std::string source_text(std::span<const std::int32_t> ids) const;
  std::string target_text(std::span<const std::int32_t> ids) const;

 private:
  std::shared_ptr<const detail::TaskData> data_;
};

}  // namespace attn
