// attn/trainer.hpp — trains the model of attn/seq2seq_model.hpp on a task of
// attn/tasks.hpp with Adam (attn/adam.hpp), deterministically from a seed.
// The object the wasm bindings wrap as createTrainer({ task, seed, ... });
// its options and their rules: attn/trainer_options.hpp.
//
// From the seed: the initial weights (attn::Rng(seed), attn/seq2seq_model.hpp),
// and every batch from attn::Rng(s), s = the first next_u64() of a fresh
// attn::Rng(seed) (B examples per step, never a held-out one). Same seed, same options: the same
// initial weights and batches in every build, and the same losses bit for bit
// in one build (single-threaded; the kernels' sums have a fixed order per
// build, but the order and fused multiply-adds differ between the native and
// the wasm builds, so across builds the losses agree within float rounding).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "attn/adam.hpp"
#include "attn/seq2seq_model.hpp"
#include "attn/tasks.hpp"
#include "attn/trainer_options.hpp"

namespace attn {

struct TrainingStep {
  std::size_t step = 0;  // steps taken so far
  double loss = 0.0;     // mean training cross-entropy of the last step's batch (before its update)
};

struct Evaluation {
  double loss = 0.0;      // mean cross-entropy over the held-out target positions
  double accuracy = 0.0;  // fraction of held-out target positions whose argmax is right
};

// The model's reading of one source sentence.
struct AlignmentReading {
  std::vector<std::string> source;     // S words
  std::vector<std::string> target;     // T words: the reference (probe) or the model's output (translate)
  std::vector<std::string> predicted;  // T words: the model's output, the argmax at each position
  std::vector<float> weights;          // T x S attention weights, averaged over the heads
  std::vector<std::vector<float>> head_weights;  // h arrays of T x S

  // For each target position t, the source position with the largest
  // averaged weight (the first on a tie): the alignment the model shows, to
  // compare with Task::alignment().
  std::vector<std::size_t> strongest_sources() const;
};

// What a trainer of some options needs, known before it is made.
struct TrainerFootprint {
  TrainerOptions options;      // resolved: the defaults filled in
  // The task's sizes: S, T, the target vocabulary V, the held-out examples.
  std::size_t source_length = 0, target_length = 0, target_vocabulary = 0, held_out = 0;
  std::size_t parameters = 0;  // floats the model learns
  // The most memory it holds at once, in bytes: the parameters, their
  // gradients and Adam's two moments, the workspaces of a training batch and
  // of the held-out set, the batch, and what an evaluation gathers.
  std::size_t bytes = 0;
};

class Trainer {
 public:
  // The options checked and completed by resolve_options (attn/trainer_options.hpp;
  // its errors, naming options as `names` spells them).
  explicit Trainer(const TrainerOptions& options, OptionNames names = OptionNames::Cpp);

  // Every option of a task at its default.
  static TrainerOptions defaults(TaskKind task);

  // The parameters and memory a trainer of these options needs (the errors of
  // the constructor), without making it.
  static TrainerFootprint footprint(const TrainerOptions& options, OptionNames names = OptionNames::Cpp);

  // `count` >= 1 steps of Adam on fresh batches -> the last step's number and loss.
  // Never NaN: when the parameters have grown so large that the model's float
  // passes overflow, ValueError ("logits: ... training diverged: a smaller
  // learning rate keeps them in range"); evaluate(), probe() and translate()
  // raise it too. The steps before the one refused stand, and the message
  // ends with how many there were ("...; step 2 of the 5 asked was refused:
  // 1 taken, 7 in all").
  TrainingStep step(std::size_t count = 1);

  // Loss and token accuracy on the task's held-out examples (none seen in
  // training), kEvaluationChunk examples at a time.
  Evaluation evaluate();
  static constexpr std::size_t kEvaluationChunk = 64;

  // The fixed probe example: its words, the model's output and attention weights.
  AlignmentReading probe();

  // A typed sentence (Task::tokenize, with its errors) -> the model's output
  // words and its attention weights; `target` is the output.
  AlignmentReading translate(std::string_view sentence);

  const Task& task() const { return task_; }
  const TrainerOptions& options() const { return options_; }  // with the defaults filled in
  std::size_t steps_taken() const { return steps_; }
  Seq2SeqModel& model() { return model_; }
  // The batch of the last step: B x S source ids and B x T target ids,
  // row-major (zeros before the first step).
  std::span<const std::int32_t> batch_sources() const { return batch_sources_; }
  std::span<const std::int32_t> batch_targets() const { return batch_targets_; }

 private:
  AlignmentReading read(std::span<const std::int32_t> source);

  TrainerOptions options_;
  Task task_;
  Seq2SeqModel model_;
  Adam adam_;
  Rng batch_rng_;
  std::vector<std::int32_t> batch_sources_, batch_targets_;  // B x S, B x T
  std::size_t steps_ = 0;
};

}  // namespace attn
