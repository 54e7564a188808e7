// engine_trainer.cpp — training and reading a model of the engine (engine_trainer.hpp).
#include "training/engine_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "attn/error.hpp"
#include "kernels/gemm.hpp"
#include "layers/cross_entropy.hpp"
#include "training/alignment_tally.hpp"
#include "models/vocabulary.hpp"
#include "training/gradient_clipping.hpp"
#include "training/words.hpp"
#include "validation.hpp"

namespace attn::training {

namespace {

constexpr std::size_t kEvaluationChunk = Trainer::kEvaluationChunk;  // held-out examples per teacher-forced pass

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

std::int32_t EngineTrainer::next_token(std::span<const float> logits) const {
  std::int32_t best = models::kEos;
  for (std::int32_t id = 0; id < static_cast<std::int32_t>(logits.size()); ++id) {
    if (logits[id] > logits[best] && ids_.target_word(id) >= 0) best = id;
  }
  return best;
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
      const std::int32_t token = next_token(step.logits);
      words.push_back(ids_.target_word(token));
      if (words.size() < example.target.size()) step = model_->next(token);
    }
    return words;
  }
  step = begin_decoding(example.source, true);
  while (words.size() < limit) {
    const std::int32_t token = next_token(step.logits);
    if (token == models::kEos) break;
    words.push_back(ids_.target_word(token));
    if (words.size() < limit) step = model_->next(token);
  }
  return words;
}

EngineEvaluation EngineTrainer::evaluate(std::span<const models::HeadRef> ablate, std::size_t examples) {
  const std::span<const SequenceExample> held_out =
      std::span<const SequenceExample>(task_.held_out()).first(std::min(examples, task_.held_out().size()));
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
    fill_batch(held_out.subspan(first, count), ids_, batch);
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
  Generation out;
  models::DecodedStep step;
  std::size_t limit = task_.max_target_length() + 1;
  if (task_.kind() == SequenceTaskKind::Induction) {
    // No source: the letters given are the sequence's start, which the model
    // continues to the task's length (no end token: every sequence is that long).
    std::vector<std::int32_t> prompt;
    ids_.prompt({}, prompt);
    for (std::int32_t w : source) prompt.push_back(ids_.target_id(w));
    model_->start({}, std::span<const std::int32_t>(prompt).first(prompt.size() - 1), cache);
    step = model_->next(prompt.back());
    limit = task_.max_target_length() > source.size() ? task_.max_target_length() - source.size() : 0;
  } else {
    step = begin_decoding(source, cache);
  }
  while (out.steps.size() < limit) {
    const std::int32_t token = next_token(step.logits);
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

EngineFootprint EngineTrainer::footprint(const EngineTrainerSettings& settings) {
  const SequenceTask task(settings.task);
  const TokenIds ids = TokenIds::of(task, layout_of(settings.model.kind));
  const std::unique_ptr<models::Model<float>> model = models::make_model<float>(configured(settings, task, ids));
  // The longest held-out example: a batch pads every example to its longest.
  const std::vector<SequenceExample>& held_out = task.held_out();
  const SequenceExample& longest = *std::max_element(held_out.begin(), held_out.end(), [](const auto& a, const auto& b) {
    return a.source.size() + a.target.size() < b.source.size() + b.target.size();
  });
  // One pass on one example, and on two: each more example costs their difference.
  struct Pass {
    double multiply_adds = 0.0, graph = 0.0;
  };
  const auto pass = [&](std::size_t examples) {
    const std::vector<SequenceExample> batch_examples(examples, longest);
    models::Batch batch;
    fill_batch(batch_examples, ids, batch);
    layers::Graph<float> g;
    std::uint64_t& counter = kernels::float_multiply_adds();
    const std::uint64_t before = counter;
    const layers::Tensor<float> logits = model->forward(g, batch);
    layers::cross_entropy(g, logits, batch.output, batch.counted);
    g.backward();
    return Pass{static_cast<double>(counter - before), static_cast<double>(g.used())};
  };
  const Pass one = pass(1), two = pass(2);
  const double per_example_work = two.multiply_adds - one.multiply_adds, per_example_graph = two.graph - one.graph;
  const double batch = static_cast<double>(settings.batch_size), parameters = static_cast<double>(model->parameters().size());
  const double graph_floats = one.graph + (batch - 1.0) * per_example_graph;
  const double chunk = static_cast<double>(std::min(kEvaluationChunk, held_out.size()));
  EngineFootprint f;
  f.source_length = task.max_source_length();
  f.target_length = task.max_target_length();
  f.target_vocabulary = task.target_vocabulary().size();
  f.held_out = held_out.size();
  f.parameters = model->parameters().size();
  // values, gradients, Adam's two moments and decay factors; a step's graph; an
  // evaluation chunk's graph (values without gradients: half a recorded pass's);
  // the decoding's graph and state (about one example's values again).
  // With a quarter more for what the estimate leaves out (the task's tables,
  // the allocator's rounding): measured, a trainer holds 55-85% of it
  // (tests/native/trainer_options_test.cpp).
  f.bytes = (1.25 * (20.0 * parameters + 4.0 * graph_floats +
                                             4.0 * (chunk + 1.0) * per_example_graph / 2.0 + 4.0 * per_example_graph));
  // Work: the products' multiply-adds, each float the pass writes (2 units:
  // the element-wise layers), Adam's update of each parameter (20), and a
  // step's own cost (24000). An evaluation: the forward pass of every held-out
  // example (a third of a recorded pass), then its greedy decoding, a token at
  // a time (products of one row, about 4 times the cost of the same products
  // batched).
  f.step_work = 24000.0 + one.multiply_adds + (batch - 1.0) * per_example_work + 2.0 * graph_floats + 20.0 * parameters;
  f.evaluate_work = static_cast<double>(held_out.size()) * (per_example_work / 3.0 * (1.0 + 4.0) + per_example_graph);
  f.create_work = 32.0 * parameters + static_cast<double>(held_out.size()) * 200.0;
  return f;
}

AlignmentReading EngineTrainer::alignment_reading(const SequenceExample& example) {
  EngineReading r = read(example);
  AlignmentReading out;

  const bool no_source = task_.kind() == SequenceTaskKind::Induction;
  out.source = words_or_blank(example.source, task_.source_vocabulary());
  out.target = words_or_blank(example.target, task_.target_vocabulary());
  out.predicted = words_or_blank(r.predicted, task_.target_vocabulary());
  out.reference.assign(example.alignment.begin(), example.alignment.end());
  // The alignment attention: T x S rows of target positions on source columns.
  const std::size_t S = example.source.size(), T = example.target.size();
  const models::AttentionMap* alignment = nullptr;
  std::size_t first_row = 0;
  for (const models::AttentionMap& map : r.maps) {
    if (ids_.layout() == ModelLayout::DecoderOnly) {
      if (map.kind == "decoder-self" && !no_source && (alignment == nullptr || map.layer >= alignment->layer)) {
        alignment = &map;
        first_row = S;  // the row of SEP predicts target word 0
      }
    } else if (map.kind == "cross" && (alignment == nullptr || map.layer >= alignment->layer)) {
      alignment = &map;
    }
  }
  if (alignment != nullptr && S > 0) {
    out.weights.assign(T * S, 0.0f);
    for (const std::vector<float>& head : alignment->heads) {
      std::vector<float> w(T * S);
      for (std::size_t t = 0; t < T; ++t)
        for (std::size_t j = 0; j < S; ++j) w[t * S + j] = head[(first_row + t) * alignment->cols + j];
      for (std::size_t i = 0; i < T * S; ++i) out.weights[i] += w[i] / static_cast<float>(alignment->heads.size());
      out.head_weights.push_back(std::move(w));
    }
  }
  out.maps = std::move(r.maps);
  return out;
}

AlignmentAgreement EngineTrainer::alignment_agreement(std::size_t examples) {
  AlignmentTally tally;
  std::size_t read = 0;
  for (const SequenceExample& e : task_.held_out()) {
    if (read == examples) break;
    if (e.source.empty()) continue;
    const AlignmentReading r = alignment_reading(e);
    if (r.weights.empty()) break;  // a model without attention (rnn)
    ++read;
    const std::vector<std::size_t> strongest = r.strongest_sources();
    for (std::size_t t = 0; t < e.alignment.size(); ++t)
      if (e.alignment[t] >= 0) tally.add(strongest[t], static_cast<std::size_t>(e.alignment[t]));
  }
  return tally.result(read);
}

models::HeadRef EngineTrainer::head_of(const attn::HeadRef& head, std::size_t index) const {
  const models::ModelConfig& c = model_->config();
  const std::string name = "ablate[" + std::to_string(index) + "]";
  if (c.kind != models::ModelKind::Transformer && c.kind != models::ModelKind::Decoder) {
    throw ValueError(name + ": model '" + std::string(model_name(c.kind)) +
                     "' has no heads to ablate (its attention is one score; the transformers have heads)");
  }
  if (head.layer >= c.layers) {
    throw ValueError(name + ".layer: expected below " + std::to_string(c.layers) + ", got " + std::to_string(head.layer));
  }
  if (head.head >= c.heads) {
    throw ValueError(name + ".head: expected below " + std::to_string(c.heads) + ", got " + std::to_string(head.head));
  }
  // The model's order: encoder self-attention 0..L-1, then decoder layer l's
  // self-attention at L + 2l and cross-attention at L + 2l + 1 (the
  // decoder-only model: its layer).
  if (c.kind == models::ModelKind::Decoder) {
    if (!head.kind.empty() && head.kind != "decoder-self") {
      throw ValueError(name + ".kind: expected 'decoder-self' (a decoder-only model's one kind), got '" + head.kind + "'");
    }
    return {head.layer, head.head};
  }
  if (head.kind == "encoder-self") return {head.layer, head.head};
  if (head.kind == "decoder-self") return {c.layers + 2 * head.layer, head.head};
  if (head.kind == "cross") return {c.layers + 2 * head.layer + 1, head.head};
  // (Omitted, the kind is empty: a transformer has heads of all three kinds, so it must be named.)
  throw ValueError(name + ".kind: expected 'encoder-self', 'decoder-self' or 'cross', got " +
                   (head.kind.empty() ? std::string("none") : "'" + head.kind + "'"));
}

}  // namespace attn::training
