// task_reverse.cpp — the reverse task: 8 digits -> the same digits reversed.
// Target position t copies source position 7 - t (the anti-diagonal).
#include "task_data.hpp"

namespace attn::detail {

TaskData make_reverse_task() {
  constexpr std::size_t kLength = 8, kDigits = 10;
  TaskData task;
  task.kind = TaskKind::Reverse;
  task.name = "reverse";
  task.source_length = task.target_length = kLength;
  for (std::size_t digit = 0; digit < kDigits; ++digit) task.source_vocabulary.push_back(std::to_string(digit));
  task.target_vocabulary = task.source_vocabulary;
  task.source_groups = {{"DIGIT", task.source_vocabulary}};
  task.source_pattern = "8 digits from 0 to 9";
  for (std::size_t t = 0; t < kLength; ++t) task.alignment.push_back(kLength - 1 - t);
  task.unit = "digits";
  task.tokens_are_characters = true;
  task.draw_any = [](Rng& rng, std::int32_t* source, std::int32_t* target) {
    for (std::size_t i = 0; i < kLength; ++i) source[i] = static_cast<std::int32_t>(uniform_index(rng, kDigits));
    for (std::size_t t = 0; t < kLength; ++t) target[t] = source[kLength - 1 - t];
  };
  // The probe: distinct digits (the first of pi's, repeats skipped), so that
  // each target position has one source position to look at.
  task.probe.source = {3, 1, 4, 5, 9, 2, 6, 8};
  task.probe.target = {8, 6, 2, 9, 5, 4, 1, 3};
  task.held_out_seed = 0x5e7e45e5;
  task.held_out_count = 512;
  return task;
}

}  // namespace attn::detail
