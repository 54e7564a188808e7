// tasks.cpp — attn::Task: the held-out set, drawing training examples that
// avoid it, and turning a typed sentence into token ids.
#include <algorithm>
#include <cctype>
#include <string>

#include "attn/error.hpp"
#include "attn/tasks.hpp"
#include "task_data.hpp"
#include "training/words.hpp"
#include "validation.hpp"

namespace attn {

namespace detail {

namespace {

// The source sequence as one number in base |vocabulary| (checked to fit in
// 64 bits when the task is built): two sources are equal iff their keys are.
std::uint64_t source_key(const TaskData& task, const std::int32_t* source) {
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < task.source_length; ++i) key = key * task.source_vocabulary.size() + source[i];
  return key;
}

bool is_held_out_key(const TaskData& task, std::uint64_t key) {
  return std::binary_search(task.held_out_keys.begin(), task.held_out_keys.end(), key);
}

// The held-out set: the probe, then distinct examples drawn from the task's
// own seed until there are held_out_count of them.
void draw_held_out(TaskData& task) {
  double largest_key = 1.0;
  for (std::size_t i = 0; i < task.source_length; ++i) largest_key *= static_cast<double>(task.source_vocabulary.size());
  if (largest_key >= 18446744073709551616.0) throw std::logic_error(task.name + ": source keys need more than 64 bits");

  task.held_out = {task.probe};
  task.held_out_keys = {source_key(task, task.probe.source.data())};
  Rng rng(task.held_out_seed);
  Example example{std::vector<std::int32_t>(task.source_length), std::vector<std::int32_t>(task.target_length)};
  while (task.held_out.size() < task.held_out_count) {
    task.draw_any(rng, example.source.data(), example.target.data());
    const std::uint64_t key = source_key(task, example.source.data());
    const auto place = std::lower_bound(task.held_out_keys.begin(), task.held_out_keys.end(), key);
    if (place != task.held_out_keys.end() && *place == key) continue;  // already held out
    task.held_out_keys.insert(place, key);
    task.held_out.push_back(example);
  }
}

std::shared_ptr<const TaskData> build(TaskKind kind) {
  TaskData task = kind == TaskKind::Reverse ? make_reverse_task() : make_translate_task();
  draw_held_out(task);
  return std::make_shared<const TaskData>(std::move(task));
}

}  // namespace

}  // namespace detail

Task::Task(TaskKind kind) {
  // Built once per kind: every trainer of a task shares its tables and held-out set.
  static const std::shared_ptr<const detail::TaskData> reverse = detail::build(TaskKind::Reverse);
  static const std::shared_ptr<const detail::TaskData> translate = detail::build(TaskKind::Translate);
  switch (kind) {
    case TaskKind::Reverse: data_ = reverse; return;
    case TaskKind::Translate: data_ = translate; return;
    case TaskKind::Induction: break;
  }
  throw ValueError("task: expected Reverse or Translate (the fixed-length tasks of the 'attention' model), got " +
                   (kind == TaskKind::Induction ? std::string("Induction") : std::to_string(static_cast<int>(kind))));
}

Task Task::named(std::string_view name) {
  if (name == "reverse") return Task(TaskKind::Reverse);
  if (name == "translate") return Task(TaskKind::Translate);
  throw ValueError("task: expected \"reverse\" or \"translate\", got " + detail::quoted_excerpt(name));
}

TaskKind Task::kind() const { return data_->kind; }
const std::string& Task::name() const { return data_->name; }
std::size_t Task::source_length() const { return data_->source_length; }
std::size_t Task::target_length() const { return data_->target_length; }
const std::vector<std::string>& Task::source_vocabulary() const { return data_->source_vocabulary; }
const std::vector<std::string>& Task::target_vocabulary() const { return data_->target_vocabulary; }
const std::vector<WordGroup>& Task::source_groups() const { return data_->source_groups; }
const std::string& Task::source_pattern() const { return data_->source_pattern; }
std::span<const std::size_t> Task::alignment() const { return data_->alignment; }
const std::vector<Example>& Task::held_out() const { return data_->held_out; }
const Example& Task::probe() const { return data_->held_out.front(); }

bool Task::is_held_out(std::span<const std::int32_t> source) const {
  if (source.size() != data_->source_length) return false;
  for (std::int32_t id : source)
    if (id < 0 || static_cast<std::size_t>(id) >= data_->source_vocabulary.size()) return false;
  return detail::is_held_out_key(*data_, detail::source_key(*data_, source.data()));
}

void Task::draw(Rng& rng, std::int32_t* source, std::int32_t* target) const {
  do {
    data_->draw_any(rng, source, target);
  } while (detail::is_held_out_key(*data_, detail::source_key(*data_, source)));
}

namespace {

// A typed sentence longer than this is refused before it is read (a sentence
// of the tasks is under 100 bytes); an error names at most this many unknown words.
constexpr std::size_t kMaxSentenceBytes = 4096;
constexpr std::size_t kMaxNamedUnknown = 10;

// The pieces of a typed sentence: characters (reverse; a character is one
// code point, so that "１" is one unknown character, not three bytes) or
// words, ASCII letters lower-cased, a final . ! ? dropped.
std::vector<std::string> split_sentence(std::string_view sentence, bool characters) {
  std::string text(sentence);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  while (!text.empty() && (text.back() == '.' || text.back() == '!' || text.back() == '?')) text.pop_back();
  std::vector<std::string> pieces;
  std::string current;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t size = detail::utf8_character_at(text, at).size;
    const auto byte = static_cast<unsigned char>(text[at]);
    if (size == 1 && std::isspace(byte)) {
      if (!current.empty()) pieces.push_back(current), current.clear();
    } else {
      current += size == 1 ? std::string(1, static_cast<char>(std::tolower(byte))) : text.substr(at, size);
      if (characters) pieces.push_back(current), current.clear();
    }
    at += size;
  }
  if (!current.empty()) pieces.push_back(current);
  return pieces;
}

std::string joined(const std::vector<std::string>& words, const char* separator, const char* quote) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) text += (i ? separator : "") + (quote + words[i] + quote);
  return text;
}

std::string text_of(std::span<const std::int32_t> ids, const std::vector<std::string>& vocabulary,
                    const char* arg) {
  const std::vector<std::string> words = training::words_of(ids, vocabulary, arg);
  return joined(words, " ", "");
}

}  // namespace

// Unknown words first (named); then the longest vocabulary entry at each place
// ("in the library" before "in"), which must give exactly source_length tokens.
std::vector<std::int32_t> Task::tokenize(std::string_view sentence) const {
  const detail::TaskData& task = *data_;
  if (sentence.size() > kMaxSentenceBytes) {
    throw ValueError("sentence: expected at most " + std::to_string(kMaxSentenceBytes) + " bytes, got " +
                     std::to_string(sentence.size()));
  }
  const std::vector<std::string> pieces = split_sentence(sentence, task.tokens_are_characters);
  std::vector<std::vector<std::string>> entries;  // each vocabulary entry as its words
  std::vector<std::string> known_words;
  for (const std::string& entry : task.source_vocabulary) {
    entries.push_back(split_sentence(entry, false));
    known_words.insert(known_words.end(), entries.back().begin(), entries.back().end());
  }
  std::vector<std::string> unknown;  // the first kMaxNamedUnknown distinct ones, quoted
  std::size_t unknown_count = 0;
  std::vector<std::string> seen;
  for (const std::string& piece : pieces) {
    if (std::find(known_words.begin(), known_words.end(), piece) != known_words.end()) continue;
    if (std::find(seen.begin(), seen.end(), piece) != seen.end()) continue;
    ++unknown_count;
    if (seen.size() < kMaxNamedUnknown) seen.push_back(piece), unknown.push_back(detail::quoted_excerpt(piece));
  }
  if (unknown_count > 0) {
    const std::string piece_name = task.tokens_are_characters ? "character" : "word";
    const std::string more =
        unknown_count > unknown.size() ? " and " + std::to_string(unknown_count - unknown.size()) + " more" : "";
    throw ValueError("sentence: unknown " + piece_name + (unknown_count == 1 ? " " : "s ") + joined(unknown, ", ", "") +
                     more + "; the vocabulary is: " + joined(task.source_vocabulary, ", ", ""));
  }

  std::vector<std::int32_t> ids;
  bool read_all = true;
  for (std::size_t at = 0; at < pieces.size() && read_all;) {
    std::size_t best_id = entries.size(), best_length = 0;
    for (std::size_t id = 0; id < entries.size(); ++id) {
      const auto& words = entries[id];
      if (words.size() <= best_length || at + words.size() > pieces.size()) continue;
      if (std::equal(words.begin(), words.end(), pieces.begin() + at)) best_id = id, best_length = words.size();
    }
    if (best_length == 0) {
      read_all = false;
      break;
    }
    ids.push_back(static_cast<std::int32_t>(best_id));
    at += best_length;
  }
  if (!read_all || ids.size() != task.source_length) {
    throw ValueError("sentence: expected " + std::to_string(task.source_length) + " " + task.unit +
                     " in the pattern: " + task.source_pattern + "; got " +
                     detail::quoted_excerpt(joined(pieces, task.tokens_are_characters ? "" : " ", "")));
  }
  return ids;
}

std::string Task::source_text(std::span<const std::int32_t> ids) const {
  return text_of(ids, data_->source_vocabulary, "source");
}

std::string Task::target_text(std::span<const std::int32_t> ids) const {
  return text_of(ids, data_->target_vocabulary, "target");
}

}  // namespace attn
