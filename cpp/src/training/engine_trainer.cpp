// engine_trainer.cpp — training and reading a model of the engine (engine_trainer.hpp).
#include "training/engine_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "attn/error.hpp"
#include "layers/cross_entropy.hpp"
#include "models/vocabulary.hpp"
#include "training/gradient_clipping.hpp"
#include "validation.hpp"

namespace attn::training {

namespace {

constexpr std::size_t kEvaluationChunk = 64;  // held-out examples per teacher-forced pass

ModelLayout layout_of(models::ModelKind kind) {
  return kind == models::ModelKind::Decoder ? ModelLayout::DecoderOnly : ModelLayout::SequenceToSequence;
}

// The model's sizes from the task: vocabularies and the longest sequences.
models::ModelConfig configured(const EngineTrainerSettings& s, const SequenceTask& task, const TokenIds& ids) {
  models::ModelConfig c = s.model;
  c.source_vocabulary = ids.source_vocabulary();
  c.target_vocabulary = ids.output_vocabulary();
  c.max_source_length = task.max_source_length();
  c.max_target_length = longest_decoder_sequence(task, ids.layout());
  c.seed = s.seed;
  return c;
}

std::int32_t argmax(std::span<const float> logits) {
  return static_cast<std::int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

// The first target position the loss counts (0 when every position counts).
std::size_t first_counted(const SequenceExample& e) {
  if (e.counted.empty()) return 0;
  const auto it = std::find(e.counted.begin(), e.counted.end(), 1);
  return static_cast<std::size_t>(it - e.counted.begin());
}

bool counts(const SequenceExample& e, std::size_t t) { return e.counted.empty() || e.counted[t] != 0; }

void require_finite_loss(double loss, std::size_t step) {
  if (std::isfinite(loss)) return;
  throw ValueError("loss: expected a finite number, got " + detail::describe_value(loss) + " at step " +
                   std::to_string(step) + " (training diverged: a smaller learning rate keeps it in range)");
}

}  // namespace

EngineTrainer::EngineTrainer(const EngineTrainerSettings& settings)
    : settings_(settings),
      task_(settings.task),
      ids_(TokenIds::of(task_, layout_of(settings.model.kind))),
      model_(models::make_model<float>(configured(settings, task_, ids_))),
      adam_(model_->parameters().size(),
            AdamOptions{settings.learning_rate, 0.9f, 0.999f, 1e-8f, settings.weight_decay},
            model_->parameters().decay_mask()),
      batch_rng_(Rng(settings.seed).next_u64()),
      examples_(settings.batch_size) {
  detail::require_dimension("batch_size", settings.batch_size);
}

EngineTrainer::~EngineTrainer() = default;

double EngineTrainer::step() {
  for (SequenceExample& e : examples_) task_.draw(batch_rng_, e);
  fill_batch(examples_, ids_, batch_);
  graph_.clear();
  layers::Parameters<float>& parameters = model_->parameters();
  parameters.zero_gradients();
  const layers::Tensor<float> logits = model_->forward(graph_, batch_);
  const layers::LossCounts loss = layers::cross_entropy(graph_, logits, batch_.output, batch_.counted);
  require_finite_loss(loss.loss, steps_ + 1);
  graph_.backward();
  const double norm = clip_by_global_norm(parameters.gradients(), settings_.clip_norm);
  if (!std::isfinite(norm)) {
    throw ValueError("gradients: expected finite numbers, got a norm of " + detail::describe_value(norm) +
                     " at step " + std::to_string(steps_ + 1) +
                     " (training diverged: a smaller learning rate keeps them in range)");
  }
  adam_.step(parameters.values(), parameters.gradients());
  ++steps_;
  return loss.loss;
}

models::DecodedStep EngineTrainer::begin_decoding(std::span<const std::int32_t> source, bool cache) {
  if (ids_.layout() == ModelLayout::SequenceToSequence) {
    std::vector<std::int32_t> encoder_ids(source.begin(), source.end());
    for (std::int32_t& id : encoder_ids) id = ids_.source_id(id);
    model_->start(encoder_ids, {}, cache);
    return model_->next(models::kBos);
  }
  std::vector<std::int32_t> prompt;
  ids_.prompt(source, prompt);  // the source, then SEP
  model_->start({}, std::span<const std::int32_t>(prompt).first(prompt.size() - 1), cache);
  return model_->next(prompt.back());
}

std::vector<std::int32_t> EngineTrainer::decode_words(const SequenceExample& example) {
  const std::size_t limit = task_.max_target_length() + 1;
  std::vector<std::int32_t> words;
  models::DecodedStep step;
  if (example.source.empty()) {
    // No source (induction): the prompt is the sequence before the first
    // counted position; the model continues it for the rest.
    const std::size_t given = first_counted(example);
    words.assign(example.target.begin(), example.target.begin() + static_cast<std::ptrdiff_t>(given));
    std::vector<std::int32_t> prompt;
    ids_.prompt({}, prompt);
    for (std::int32_t w : words) prompt.push_back(ids_.target_id(w));
    model_->start({}, std::span<const std::int32_t>(prompt).first(prompt.size() - 1), true);
    step = model_->next(prompt.back());
    while (words.size() < example.target.size()) {
      const std::int32_t token = argmax(step.logits);
      words.push_back(ids_.target_word(token));
      if (words.size() < example.target.size()) step = model_->next(token);
    }
    return words;
  }
  step = begin_decoding(example.source, true);
  while (words.size() < limit) {
    const std::int32_t token = argmax(step.logits);
    if (token == models::kEos) break;
    words.push_back(ids_.target_word(token));
    if (words.size() < limit) step = model_->next(token);
  }
  return words;
}

EngineEvaluation EngineTrainer::evaluate(std::span<const models::HeadRef> ablate) {
  const std::vector<SequenceExample>& held_out = task_.held_out();
  model_->set_ablation(ablate);
  EngineEvaluation result;
  result.examples = held_out.size();
  // Teacher forcing, by chunks.
  layers::Graph<float> g(layers::Recording::Off);
  models::Batch batch;
  double loss_sum = 0.0;
  std::size_t counted = 0, correct = 0;
  for (std::size_t first = 0; first < held_out.size(); first += kEvaluationChunk) {
    const std::size_t count = std::min(kEvaluationChunk, held_out.size() - first);
    fill_batch(std::span<const SequenceExample>(held_out).subspan(first, count), ids_, batch);
    g.clear();
    const layers::LossCounts c = layers::cross_entropy(g, model_->forward(g, batch), batch.output, batch.counted);
    loss_sum += c.loss * static_cast<double>(c.counted);
    counted += c.counted;
    correct += c.correct;
  }
  result.loss = counted == 0 ? 0.0 : loss_sum / static_cast<double>(counted);
  result.accuracy = counted == 0 ? 0.0 : static_cast<double>(correct) / static_cast<double>(counted);
  require_finite_loss(result.loss, steps_);
  // Free-running greedy decoding, one example at a time.
  std::size_t generated_right = 0, generated_counted = 0, sequences_right = 0;
  for (const SequenceExample& e : held_out) {
    const std::vector<std::int32_t> words = decode_words(e);
    bool all = words.size() == e.target.size() || !e.counted.empty();
    for (std::size_t t = 0; t < e.target.size(); ++t) {
      if (!counts(e, t)) continue;
      const bool right = t < words.size() && words[t] == e.target[t];
      generated_right += right;
      ++generated_counted;
      all = all && right;
    }
    sequences_right += all;
  }
  model_->set_ablation({});
  result.generated_accuracy =
      generated_counted == 0 ? 0.0 : static_cast<double>(generated_right) / static_cast<double>(generated_counted);
  result.sequence_accuracy = static_cast<double>(sequences_right) / static_cast<double>(held_out.size());
  return result;
}

EngineReading EngineTrainer::read(const SequenceExample& example) {
  models::Batch batch;
  fill_batch(std::span<const SequenceExample>(&example, 1), ids_, batch);
  layers::Graph<float> g(layers::Recording::Off);
  models::Reading reading;
  const layers::Tensor<float> logits = model_->forward(g, batch, &reading);
  if (!std::all_of(logits.value, logits.value + logits.size(), [](float z) { return std::isfinite(z); })) {
    throw ValueError("logits: expected finite numbers, got a value beyond the float range (training diverged: a "
                     "smaller learning rate keeps them in range)");
  }
  EngineReading r;
  r.example = example;
  // The target positions: seq2seq rows 0..n-1 predict target 0..n-1; decoder-only
  // rows m..m+n-1 (after the source and SEP, m = source length) do.
  const std::size_t offset = ids_.layout() == ModelLayout::DecoderOnly ? example.source.size() : 0;
  for (std::size_t t = 0; t < example.target.size(); ++t) {
    const float* row = logits.row(offset + t);
    r.predicted.push_back(ids_.target_word(argmax({row, logits.cols})));
  }
  r.maps = std::move(reading.maps);
  return r;
}

Generation EngineTrainer::generate(std::span<const std::int32_t> source, bool cache) {
  const std::size_t limit = task_.max_target_length() + 1;
  Generation out;
  models::DecodedStep step = begin_decoding(source, cache);
  while (out.steps.size() < limit) {
    const std::int32_t token = argmax(step.logits);
    GeneratedStep s{token, ids_.target_word(token), step.cache_length, std::move(step.maps)};
    out.steps.push_back(std::move(s));
    if (token == models::kEos) break;
    out.words.push_back(ids_.target_word(token));
    if (out.steps.size() < limit) step = model_->next(token);
  }
  return out;
}

std::vector<HeadScore> EngineTrainer::head_scores() {
  if (ids_.layout() != ModelLayout::DecoderOnly) {
    throw ValueError("model: headScores() reads the heads of a decoder-only model ('decoder'), got another model");
  }
  const models::ModelConfig& c = model_->config();
  std::vector<HeadScore> scores;
  for (std::size_t layer = 0; layer < c.layers; ++layer)
    for (std::size_t head = 0; head < c.heads; ++head) scores.push_back({layer, head, 0.0, 0.0});
  std::vector<std::size_t> previous_rows(scores.size(), 0), prefix_rows(scores.size(), 0);
  const std::vector<SequenceExample>& held_out = task_.held_out();
  const std::size_t examples = std::min<std::size_t>(held_out.size(), 64);
  models::Batch batch;
  for (std::size_t e = 0; e < examples; ++e) {
    fill_batch(std::span<const SequenceExample>(&held_out[e], 1), ids_, batch);
    layers::Graph<float> g(layers::Recording::Off);
    models::Reading reading;
    model_->forward(g, batch, &reading);
    const std::int32_t* x = batch.input.data();
    const std::size_t length = static_cast<std::size_t>(batch.target_lengths[0]);
    for (const models::AttentionMap& map : reading.maps) {
      if (map.kind != "decoder-self") continue;
      for (std::size_t head = 0; head < map.heads.size(); ++head) {
        const std::size_t k = map.layer * c.heads + head;
        const std::vector<float>& w = map.heads[head];
        for (std::size_t i = 1; i < length; ++i) {
          // previous token: w[i][i-1]
          scores[k].previous_token += w[i * map.cols + i - 1];
          ++previous_rows[k];
          // prefix match: Σ over earlier occurrences j of x_i of w[i][j+1]
          double on_next = 0.0;
          bool seen = false;
          for (std::size_t j = 0; j < i; ++j) {
            if (x[j] != x[i]) continue;
            seen = true;
            on_next += w[i * map.cols + j + 1];
          }
          if (!seen) continue;
          scores[k].prefix_match += on_next;
          ++prefix_rows[k];
        }
      }
    }
  }
  for (std::size_t k = 0; k < scores.size(); ++k) {
    if (previous_rows[k] > 0) scores[k].previous_token /= static_cast<double>(previous_rows[k]);
    if (prefix_rows[k] > 0) scores[k].prefix_match /= static_cast<double>(prefix_rows[k]);
  }
  return scores;
}

}  // namespace attn::training
