// task_data.hpp (internal) — what a task is made of: its vocabularies, the
// generator of its examples, and the held-out set drawn once from the task's
// own seed. Built by make_reverse_task and make_translate_task.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "attn/random.hpp"
#include "attn/tasks.hpp"

namespace attn::detail {

struct TaskData {
  TaskKind kind;
  std::string name;
  std::size_t source_length = 0, target_length = 0;
  std::vector<std::string> source_vocabulary, target_vocabulary;
  std::vector<WordGroup> source_groups;
  std::string source_pattern;
  std::vector<std::size_t> alignment;  // target position -> source position
  std::string unit;                    // "words" or "digits", for messages
  bool tokens_are_characters = false;  // reverse: "31459268" or "3 1 4 ..."
  // One example from the whole distribution, held out or not.
  std::function<void(Rng&, std::int32_t*, std::int32_t*)> draw_any;
  Example probe;
  std::uint64_t held_out_seed = 0;
  std::size_t held_out_count = 0;
  // Filled by finish_task: held_out[0] is the probe; keys sorted.
  std::vector<Example> held_out;
  std::vector<std::uint64_t> held_out_keys;
};

// An integer in [0, count), count < 2^32, from the top 32 bits of one draw:
// (bits * count) >> 32, exact integer arithmetic in every build.
inline std::size_t uniform_index(Rng& rng, std::size_t count) {
  return static_cast<std::size_t>(((rng.next_u64() >> 32) * static_cast<std::uint64_t>(count)) >> 32);
}

TaskData make_reverse_task();
TaskData make_translate_task();

}  // namespace attn::detail
