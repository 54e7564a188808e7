// sequence_task.cpp — SequenceTask: the held-out set, drawing training
// examples that avoid it, typed sentences and ids as text; the helpers the
// task files share (option ranges, splitting a sentence, unknown words).
#include "training/sequence_task.hpp"

#include <algorithm>
#include <cctype>

#include "attn/error.hpp"
#include "training/sequence_generator.hpp"
#include "training/words.hpp"
#include "validation.hpp"

namespace attn::training {

struct SequenceTask::Built {
  SequenceTaskData data;
  std::vector<SequenceExample> held_out;
  std::vector<std::vector<std::int32_t>> held_out_targets;  // sorted: binary search
};

namespace {

// A typed sentence longer than this is refused before it is read (a sentence
// of the tasks is under 100 bytes); an error names at most this many unknown words.
constexpr std::size_t kMaxSentenceBytes = 4096;
constexpr std::size_t kMaxNamedUnknown = 10;

SequenceTaskData make_data(const SequenceTaskOptions& options) {
  switch (options.kind) {
    case SequenceTaskKind::Reverse: return make_reverse_data(options);
    case SequenceTaskKind::Translate: return make_translate_data(options);
    case SequenceTaskKind::Induction: return make_induction_data(options);
  }
  throw ValueError("task: expected reverse, translate or induction, got kind " +
                   std::to_string(static_cast<int>(options.kind)));
}

std::string joined(const std::vector<std::string>& words, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) text += (i ? separator : "") + words[i];
  return text;
}


// The one place the unknown-word message is built: 'sentence: unknown words
// "cat", "runs"; the vocabulary is: ...' (the first kMaxNamedUnknown of the
// distinct unknown pieces, each quoted and shortened, and how many more).
[[noreturn]] void unknown_pieces_error(const std::vector<std::string>& unknown,
                                       const std::vector<std::string>& vocabulary, const std::string& piece_name) {
  std::vector<std::string> quoted;
  for (std::size_t i = 0; i < unknown.size() && i < kMaxNamedUnknown; ++i) {
    quoted.push_back(detail::quoted_excerpt(unknown[i]));
  }
  const std::string more =
      unknown.size() > quoted.size() ? " and " + std::to_string(unknown.size() - quoted.size()) + " more" : "";
  throw ValueError("sentence: unknown " + piece_name + (unknown.size() == 1 ? " " : "s ") + joined(quoted, ", ") +
                   more + "; the vocabulary is: " + joined(vocabulary, ", "));
}

}  // namespace

void require_option(const char* name, std::size_t value, std::size_t low, std::size_t high) {
  if (value < low || value > high) {
    throw ValueError(std::string(name) + ": expected " + std::to_string(low) + " to " + std::to_string(high) +
                     ", got " + std::to_string(value));
  }
}

[[noreturn]] void sentence_error(const std::string& what) { throw ValueError("sentence: " + what); }

std::vector<std::string> split_sentence(std::string_view sentence, bool characters) {
  if (sentence.size() > kMaxSentenceBytes) {
    sentence_error("expected at most " + std::to_string(kMaxSentenceBytes) + " bytes, got " +
                   std::to_string(sentence.size()));
  }
  std::string text(sentence);
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == ','; };
  while (!text.empty() && is_space(text.back())) text.pop_back();
  while (!text.empty() && (text.back() == '.' || text.back() == '!' || text.back() == '?')) text.pop_back();
  std::vector<std::string> pieces;
  std::string current;
  for (char c : text) {
    if (is_space(c)) {
      if (!current.empty()) pieces.push_back(current), current.clear();
      continue;
    }
    // A UTF-8 continuation byte (10xxxxxx) stays with the character it continues.
    const bool continues = (static_cast<unsigned char>(c) & 0xC0) == 0x80;
    if (characters && !continues && !current.empty()) pieces.push_back(current), current.clear();
    current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (!current.empty()) pieces.push_back(current);
  return pieces;
}

std::vector<std::int32_t> ids_of_pieces(const std::vector<std::string>& pieces,
                                        const std::vector<std::string>& vocabulary, const char* piece_name) {
  std::vector<std::int32_t> ids;
  std::vector<std::string> unknown;  // distinct, in order
  for (const std::string& piece : pieces) {
    const auto found = std::find(vocabulary.begin(), vocabulary.end(), piece);
    if (found != vocabulary.end()) {
      ids.push_back(static_cast<std::int32_t>(found - vocabulary.begin()));
    } else if (std::find(unknown.begin(), unknown.end(), piece) == unknown.end()) {
      unknown.push_back(piece);
    }
  }
  if (!unknown.empty()) unknown_pieces_error(unknown, vocabulary, piece_name);
  return ids;
}

// The held-out set: the probe, then examples drawn from the task's own seed
// whose targets are not yet held out, until there are held_out_count of them.
SequenceTask::SequenceTask(const SequenceTaskOptions& options) {
  auto built = std::make_shared<Built>();
  built->data = make_data(options);
  const SequenceTaskData& data = built->data;
  auto& targets = built->held_out_targets;
  built->held_out = {data.probe};
  targets = {data.probe.target};
  Rng rng(data.held_out_seed);
  SequenceExample example;
  while (built->held_out.size() < data.held_out_count) {
    data.generator->draw_any(rng, example);
    const auto place = std::lower_bound(targets.begin(), targets.end(), example.target);
    if (place != targets.end() && *place == example.target) continue;  // already held out
    targets.insert(place, example.target);
    built->held_out.push_back(example);
  }
  built_ = std::move(built);
}

SequenceTaskKind SequenceTask::kind_named(std::string_view name) {
  if (name == "reverse") return SequenceTaskKind::Reverse;
  if (name == "translate") return SequenceTaskKind::Translate;
  if (name == "induction") return SequenceTaskKind::Induction;
  throw ValueError("task: expected \"reverse\", \"translate\" or \"induction\", got " + detail::quoted_excerpt(name));
}

const std::string& SequenceTask::name() const { return built_->data.name; }
SequenceTaskKind SequenceTask::kind() const { return built_->data.options.kind; }
const SequenceTaskOptions& SequenceTask::options() const { return built_->data.options; }
const std::vector<std::string>& SequenceTask::source_vocabulary() const { return built_->data.source_vocabulary; }
const std::vector<std::string>& SequenceTask::target_vocabulary() const { return built_->data.target_vocabulary; }
bool SequenceTask::shares_vocabulary() const { return built_->data.shares_vocabulary; }
std::size_t SequenceTask::max_source_length() const { return built_->data.max_source_length; }
std::size_t SequenceTask::max_target_length() const { return built_->data.max_target_length; }
const std::vector<VocabularyGroup>& SequenceTask::source_groups() const { return built_->data.source_groups; }
const std::string& SequenceTask::source_pattern() const { return built_->data.source_pattern; }
const std::vector<SequenceExample>& SequenceTask::held_out() const { return built_->held_out; }
const SequenceExample& SequenceTask::probe() const { return built_->held_out.front(); }

bool SequenceTask::is_held_out(const SequenceExample& example) const {
  const auto& targets = built_->held_out_targets;
  return std::binary_search(targets.begin(), targets.end(), example.target);
}

void SequenceTask::draw(Rng& rng, SequenceExample& example) const {
  do {
    built_->data.generator->draw_any(rng, example);
  } while (is_held_out(example));
}

std::vector<std::int32_t> SequenceTask::tokenize(std::string_view sentence) const {
  const SequenceGenerator& generator = *built_->data.generator;
  std::vector<std::int32_t> ids = generator.read_words(sentence);
  generator.example_of(ids);  // checks the grammar or the count
  return ids;
}

SequenceExample SequenceTask::example_of(std::string_view sentence) const {
  const SequenceGenerator& generator = *built_->data.generator;
  return generator.example_of(generator.read_words(sentence));
}

std::string SequenceTask::source_text(std::span<const std::int32_t> ids) const {
  return joined(words_of(ids, built_->data.source_vocabulary, "source"), " ");
}

std::string SequenceTask::target_text(std::span<const std::int32_t> ids) const {
  const std::vector<std::string> words = words_of(ids, built_->data.target_vocabulary, "target");
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool attached = i > 0 && !built_->data.attaches.empty() && built_->data.attaches[ids[i]];
    text += (i == 0 || attached ? "" : " ") + words[i];
  }
  return text;
}

}  // namespace attn::training
