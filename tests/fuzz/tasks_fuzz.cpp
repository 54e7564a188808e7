// Fuzz target: the tasks a caller can use directly (attn/tasks.hpp): a task by
// name (Task::named; one time in 256 of 10^6 bytes), tokenizing typed
// sentences (Task::tokenize: words of the vocabulary mixed with anything else,
// any bytes; one time in 256 repeated to 10^6 bytes), and ids back to words
// (source_text, target_text) with ids in and out of range.
//
// Oracles:
// - only documented errors (ValueError naming `task`, `sentence`, `source` or
//   `target`), each message at most kMaxMessage bytes however long the text
// - tokenize returns source_length ids, each in the vocabulary, and reading
//   them back (source_text) tokenizes to the same ids
#include <cstdint>

#include "attention_call.hpp"
#include "attn/tasks.hpp"

using namespace attn_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  static const attn::Task tasks[] = {attn::Task(attn::TaskKind::Reverse), attn::Task(attn::TaskKind::Translate)};
  // A name: the two names, or text (sometimes very long).
  const std::uint8_t which = in.byte();
  std::string name = which < 100 ? "reverse" : which < 200 ? "translate" : in.text(20);
  if (which == 255) name.resize(1000000, 'n');  // a name of 10^6 bytes
  std::optional<attn::Task> named;
  if (!documented([&] { named.emplace(attn::Task::named(name)); })) return 0;
  const attn::Task& task = tasks[named->kind() == attn::TaskKind::Reverse ? 0 : 1];

  const std::vector<std::string> words = task.source_vocabulary();
  std::string sentence = in.text(120, words);
  if (in.byte() == 255) {  // one time in 256: a piece repeated to 10^6 bytes
    const std::string piece = sentence.empty() ? std::string("x ") : sentence + " ";
    while (sentence.size() < 1000000) sentence += piece;
  }
  std::vector<std::int32_t> ids;
  if (documented([&] { ids = task.tokenize(sentence); })) {
    require(ids.size() == task.source_length(), "tokenize: not source_length ids");
    for (std::int32_t id : ids)
      require(id >= 0 && static_cast<std::size_t>(id) < task.source_vocabulary().size(), "tokenize: an id out of range");
    std::string text;
    require(documented([&] { text = task.source_text(ids); }), "source_text refused tokenize's ids");
    require(task.tokenize(text) == ids, "tokenize(source_text(ids)) != ids");
  }
  // ids of any value back to words
  std::vector<std::int32_t> any(in.below(12));
  for (auto& id : any) id = static_cast<std::int32_t>((std::uint32_t{in.byte()} << 24) | in.byte()) % 64 - 8;
  std::string words_back;
  documented([&] { words_back = task.source_text(any); });
  documented([&] { words_back = task.target_text(any); });
  return 0;
}
