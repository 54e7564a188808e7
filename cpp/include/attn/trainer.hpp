// attn/trainer.hpp — trains a model on a task with Adam (attn/adam.hpp),
// deterministically from a seed. The object the wasm bindings wrap as
// createTrainer({ task, seed, model, ... }); its options and their rules:
// attn/trainer_options.hpp. Two kinds of model:
//   'attention'   the one-layer model of attn/seq2seq_model.hpp on the
//                 fixed-length tasks of attn/tasks.hpp (reverse 8 digits, the
//                 six-token translate pattern): its queries are target positions
//   the engine's  rnn, bahdanau, luong, transformer, decoder (cpp/src/models/,
//                 trained by cpp/src/training/engine_trainer.hpp) on the tasks
//                 of cpp/src/training/sequence_task.hpp: reverse of
//                 sourceLength digits, translate with optional words (the
//                 alignment depends on the sentence), induction
//
// From the seed: the initial weights (attn::Rng(seed)),
// and every batch from attn::Rng(s), s = the first next_u64() of a fresh
// attn::Rng(seed) (B examples per step, never a held-out one). Same seed, same options: the same
// initial weights and batches in every build, and the same losses bit for bit
// in one build (single-threaded; the kernels' sums have a fixed order per
// build, but the order and fused multiply-adds differ between the native and
// the wasm builds, so across builds the losses agree within float rounding).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "attn/adam.hpp"
#include "attn/attention_map.hpp"
#include "attn/seq2seq_model.hpp"
#include "attn/tasks.hpp"
#include "attn/trainer_options.hpp"

namespace attn {

namespace training {
class EngineTrainer;
}
namespace detail {
class EngineSession;
}

struct TrainingStep {
  std::size_t step = 0;  // steps taken so far
  double loss = 0.0;     // mean training cross-entropy of the last step's batch (before its update)
};

struct Evaluation {
  double loss = 0.0;      // mean cross-entropy over the held-out target positions (teacher forcing)
  double accuracy = 0.0;  // fraction of held-out target positions whose argmax is right (teacher forcing)
  // The model decoding greedily from its own outputs: the fraction of target
  // positions it generates right, and of whole examples. (The 'attention'
  // model reads every position at once, its outputs independent of each
  // other: generated_accuracy = accuracy for it.)
  double generated_accuracy = 0.0;
  double sequence_accuracy = 0.0;
};

// A head of a model: the attention of kind `kind` ("encoder-self",
// "decoder-self", "cross"; empty: the only kind the model has with heads, the
// decoder-only model's "decoder-self") in layer `layer`, head `head`.
struct HeadRef {
  std::string kind;
  std::size_t layer = 0, head = 0;
};

// Per head of a decoder-only model, on held-out sequences (Olsson et al. 2022):
struct HeadScore {
  std::size_t layer = 0, head = 0;
  double previous_token = 0.0;  // the mean weight of position i on position i - 1
  double prefix_match = 0.0;    // the mean weight of position i on the token after an earlier occurrence of x_i
};

// How well a model's attention follows the task's reference alignment.
struct AlignmentAgreement {
  double agreement = 0.0;    // share of the aligned positions whose strongest source is the reference's
  double one_right = 0.0;    // share whose strongest source is the one after the reference's (content
                             // addressing on reversal: the source of the word just written)
  std::size_t positions = 0;  // target positions the reference aligns (particles excluded)
  std::size_t examples = 0;   // held-out examples read
};

// One step of greedy generation.
struct GenerationStep {
  std::string word;               // the word generated ("" for the end of the sentence)
  bool end = false;               // the model ended the sentence here (EOS)
  std::size_t cache_length = 0;   // rows of the key/value cache after the step (transformers; the
                                  // recurrent models: steps taken; 0 when recomputing)
  std::vector<AttentionMap> maps; // this step's row of every attention of the decoder
};

struct Generation {
  std::vector<std::string> source;  // the words read (induction: the letters given)
  std::vector<std::string> words;   // the words generated, the end excluded
  std::vector<GenerationStep> steps;
};

// The model's reading of one source sentence.
struct AlignmentReading {
  std::vector<std::string> source;     // S words
  std::vector<std::string> target;     // T words: the reference (probe) or the model's output (translate)
  std::vector<std::string> predicted;  // T words: the model's output, the argmax at each position
  // The alignment: T x S attention weights of the target positions on the
  // source, averaged over the heads, and per head (the 'attention' model's
  // layer; a recurrent model's attention; the transformer's last cross-attention;
  // the decoder-only model's last self-attention from the target positions to
  // the source part). Empty for 'rnn', which has no attention.
  std::vector<float> weights;
  std::vector<std::vector<float>> head_weights;  // h arrays of T x S
  // Every attention map of the model on this example (teacher forcing on `target`).
  std::vector<AttentionMap> maps;
  // The reference alignment of each target position (the source position it
  // translates, -1 for none: a particle), where the task knows it.
  std::vector<int> reference;

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
  // gradients, Adam's two moments and decay factors, the workspaces of a training batch and
  // of the held-out set, the batch, and what an evaluation gathers.
  // (A double: in WebAssembly a size_t holds at most 4 GiB, and a refused
  // trainer's need may be more.)
  double bytes = 0.0;
  // The work of one step(), one evaluate() and of making the trainer, in the
  // units of web/src/engine/work-limits.js (about one float multiply-add of
  // the baseline build): the 'attention' model's by formula, the engine's
  // measured on the model itself (its products' multiply-adds on one and two
  // examples, the memory its pass writes, Adam's update).
  double step_work = 0.0, evaluate_work = 0.0, create_work = 0.0;
};

class Trainer {
 public:
  // The options checked and completed by resolve_options (attn/trainer_options.hpp;
  // its errors, naming options as `names` spells them).
  explicit Trainer(const TrainerOptions& options, OptionNames names = OptionNames::Cpp);
  ~Trainer();
  Trainer(Trainer&&) noexcept;
  Trainer& operator=(Trainer&&) noexcept;

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

  // Loss and accuracy on the task's held-out examples (none seen in
  // training), kEvaluationChunk examples at a time; with `ablate`, the outputs
  // of those heads zeroed (the transformers: ValueError naming ablate[i] for a
  // head the model does not have).
  // `examples`: the first that many held-out examples (all when larger): a
  // cheaper estimate for a page that evaluates as it trains.
  Evaluation evaluate(std::span<const HeadRef> ablate = {}, std::size_t examples = SIZE_MAX);
  static constexpr std::size_t kEvaluationChunk = 64;

  // The fixed probe example: its words, the model's output and attention weights.
  AlignmentReading probe();

  // A typed sentence (the task's tokenizing, with its errors) -> the model's
  // output words (the engine's models: generated greedily) and its attention
  // weights; `target` is the output.
  AlignmentReading translate(std::string_view sentence);

  // Greedy generation of a typed sentence's output (empty: the probe's source),
  // one token at a time, keeping state (the recurrent state, or a key/value
  // cache of one row per token) or, with cache = false, recomputing the whole
  // prefix at every step: the same words. The engine's models only.
  Generation generate(std::string_view sentence, bool cache = true);

  // How often the alignment attention (AlignmentReading::weights) puts its
  // largest weight on the reference's source position, over the first
  // `examples` held-out examples (teacher forcing). The engine's models with
  // attention on a source; for 'attention' the task's fixed alignment.
  AlignmentAgreement alignment_agreement(std::size_t examples = 128);

  // Previous-token and prefix-match scores of every head; decoder-only models only.
  std::vector<HeadScore> head_scores();

  // What the task is, for either kind of model.
  struct TaskInfo {
    std::string name;
    std::size_t source_length = 0, target_length = 0;  // the longest source and target
    std::vector<std::string> source_vocabulary, target_vocabulary;
    std::vector<WordGroup> groups;   // the source words by class
    std::string pattern;             // the grammar of a source sentence
    std::vector<int> alignment;      // 'attention': the fixed alignment; the engine: the probe's
    std::size_t held_out = 0;
  };
  TaskInfo task_info() const;

  const TrainerOptions& options() const { return options_; }  // with the defaults filled in
  // Every parameter of the model, in its layout (the 'attention' model:
  // attn/seq2seq_model.hpp; the engine's: the blocks of its Parameters).
  FloatSpan parameter_values();
  std::size_t steps_taken() const;
  bool engine_model() const { return options_.model != ModelKind::Attention; }

  // The 'attention' model's task, model and last batch: B x S source ids and
  // B x T target ids, row-major (zeros before the first step). ValueError for
  // the engine's models (their parts: engine()).
  const Task& task() const;
  Seq2SeqModel& model();
  std::span<const std::int32_t> batch_sources() const;
  std::span<const std::int32_t> batch_targets() const;
  // The engine's trainer (cpp/src/training/engine_trainer.hpp), for tests and
  // the bindings' test entry; ValueError for the 'attention' model.
  training::EngineTrainer& engine();

 private:
  struct Classic;  // the 'attention' model: its Task, Seq2SeqModel, Adam and batches
  AlignmentReading read_classic(std::span<const std::int32_t> source);

  TrainerOptions options_;
  std::unique_ptr<Classic> classic_;
  std::unique_ptr<detail::EngineSession> engine_;  // every other model (cpp/src/training/engine_session.hpp)
};

}  // namespace attn
