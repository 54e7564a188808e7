// engine_trainer.hpp (internal) — trains a model of the engine (models/model.hpp:
// rnn, bahdanau, luong, transformer, decoder) on a task of sequence_task.hpp, and
// reads what it learned. attn::Trainer (attn/trainer.hpp) holds one for every
// model but 'attention'.
//
// One step (step()):
//   batch    B examples drawn from the task (never held out), Batch by batching.hpp
//   forward  logits = model.forward(g, batch)          teacher forcing, recorded on g
//   loss     L = masked cross-entropy over the counted positions (layers/cross_entropy.hpp)
//   backward g.backward(): dL/dθ of every parameter
//   clip     the gradients as one vector to length at most 1 (gradient_clipping.hpp)
//   update   AdamW (attn/adam.hpp), weight decay on the matrices only
// A step whose loss or gradients are not finite changes nothing and raises
// ValueError ("training diverged"): the steps before it stand.
//
// Reading the model (each on a graph that records nothing):
//   evaluate     on the held-out set: the teacher-forced loss and token accuracy
//                (each position predicted from the true previous tokens), the
//                generated accuracy (the model decodes greedily from its own outputs;
//                a target position counts as right when the generated token there is
//                the target's) and the share of whole sequences generated right; with
//                heads ablated (their outputs zeroed) when asked
//   read         one example, teacher-forced: every attention map and each position's
//                most likely token
//   generate     greedy decoding of one source, keeping state (the recurrent state or
//                a key/value cache) or recomputing the prefix every step
//   head_scores  per head of a decoder-only model: previous-token and prefix-match
//                scores on held-out sequences (Olsson et al. 2022)
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "attn/adam.hpp"
#include "attn/random.hpp"
#include "attn/trainer.hpp"
#include "models/model.hpp"
#include "training/batching.hpp"
#include "training/sequence_task.hpp"

namespace attn::training {

struct EngineTrainerSettings {
  SequenceTaskOptions task;
  models::ModelConfig model;   // the sizes the task sets are filled in by the trainer
  std::size_t batch_size = 32;
  float learning_rate = 3e-3f;
  float weight_decay = 0.01f;
  double clip_norm = 1.0;      // the longest gradient vector a step takes
  std::uint64_t seed = 1;      // the parameters (model.seed is set from it) and the batches
};

struct EngineEvaluation {
  double loss = 0.0;                 // teacher-forced mean cross-entropy over counted positions
  double accuracy = 0.0;             // teacher-forced share of counted positions right
  double generated_accuracy = 0.0;   // free-running greedy decoding: share of counted positions right
  double sequence_accuracy = 0.0;    // share of examples whose counted positions are all generated right
  std::size_t examples = 0;          // held-out examples evaluated
};

// One example as the model reads it (teacher forcing).
struct EngineReading {
  SequenceExample example;                 // the source and the target it was read with
  std::vector<std::int32_t> predicted;     // per target position: the most likely target word (-1: none)
  std::vector<models::AttentionMap> maps;  // every attention map, rows = target positions
};

struct GeneratedStep {
  std::int32_t token = 0;                  // the model's token id generated at this step
  std::int32_t word = -1;                  // the target word it is, or -1 (EOS)
  std::size_t cache_length = 0;            // rows of the cache (or recurrent steps) after it
  std::vector<models::AttentionMap> maps;  // this step's attention rows (one row each)
};

struct Generation {
  std::vector<std::int32_t> words;  // the target words generated, EOS excluded
  std::vector<GeneratedStep> steps;
};

// What a trainer of some settings needs, measured before it trains (Trainer::footprint).
struct EngineFootprint {
  std::size_t source_length = 0, target_length = 0, target_vocabulary = 0, held_out = 0;
  std::size_t parameters = 0;
  double bytes = 0.0;  // parameters, gradients, Adam's moments, a step's graph, an evaluation's
  double step_work = 0.0, evaluate_work = 0.0, create_work = 0.0;
};

struct HeadScore {
  std::size_t layer = 0, head = 0;
  double previous_token = 0.0;  // mean weight of position i on position i-1
  double prefix_match = 0.0;    // mean weight of position i on the token after an earlier occurrence of x_i
};

class EngineTrainer {
 public:
  explicit EngineTrainer(const EngineTrainerSettings& settings);
  ~EngineTrainer();

  // The memory and work of a trainer of these settings: the model is built and
  // one forward and backward pass run on one and on two of the task's longest
  // examples (their multiply-adds and graph memory, extrapolated to a batch).
  static EngineFootprint footprint(const EngineTrainerSettings& settings);

  // One step; returns the step's training loss.
  double step();
  std::size_t steps_taken() const { return steps_; }

  // On the first `examples` held-out examples (all when it is larger).
  EngineEvaluation evaluate(std::span<const models::HeadRef> ablate = {}, std::size_t examples = SIZE_MAX);
  EngineReading read(const SequenceExample& example);
  Generation generate(std::span<const std::int32_t> source, bool cache);
  std::vector<HeadScore> head_scores();

  // A public reading of one example (attn/trainer.hpp AlignmentReading): its
  // words, each position's most likely word, every map, and the alignment
  // attention averaged over its heads (see AlignmentReading::weights).
  AlignmentReading alignment_reading(const SequenceExample& example);
  // Over the first `examples` held-out examples that have a reference
  // alignment: the share of aligned target positions (content words, not
  // particles) whose strongest alignment weight falls on the reference's
  // source position (teacher forcing on the reference target).
  AlignmentAgreement alignment_agreement(std::size_t examples);
  // The model's head for a public HeadRef (ablate[index]), or ValueError naming it.
  models::HeadRef head_of(const attn::HeadRef& head, std::size_t index) const;

  const SequenceTask& task() const { return task_; }
  const TokenIds& ids() const { return ids_; }
  const EngineTrainerSettings& settings() const { return settings_; }
  models::Model<float>& model() { return *model_; }
  const models::Batch& last_batch() const { return batch_; }

 private:
  // Feeds the first token and returns the logits for the first target word.
  models::DecodedStep begin_decoding(std::span<const std::int32_t> source, bool cache);
  // The token a decoder writes next: the most likely of those it may write,
  // the end or a target word (a model may rank BOS, SEP or, decoder-only, a
  // source word first: none is an output, and reading one back fails).
  std::int32_t next_token(std::span<const float> logits) const;
  // Greedy decoding of `example` with at most `limit` tokens (the decoder-only
  // induction task: after the prompt of its uncounted prefix).
  std::vector<std::int32_t> decode_words(const SequenceExample& example);

  EngineTrainerSettings settings_;
  SequenceTask task_;
  TokenIds ids_;
  std::unique_ptr<models::Model<float>> model_;
  Adam adam_;
  Rng batch_rng_;
  std::vector<SequenceExample> examples_;  // the batch's examples, reused
  models::Batch batch_;
  layers::Graph<float> graph_;
  std::size_t steps_ = 0;
};

}  // namespace attn::training
