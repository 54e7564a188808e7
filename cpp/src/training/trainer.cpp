// trainer.cpp — attn::Trainer: the 'attention' model's batches, loss and
// gradient, Adam update, evaluation, probe and typed sentences (Classic below),
// or one of the model engine's models through detail::EngineSession; the
// readings of both in the one form of attn/trainer.hpp.
#include "attn/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "attn/error.hpp"
#include "kernels/gemm.hpp"
#include "training/alignment_tally.hpp"
#include "training/engine_session.hpp"
#include "training/words.hpp"
#include "validation.hpp"

namespace attn {

struct Trainer::Classic {
  Task task;
  Seq2SeqModel model;
  Adam adam;
  Rng batch_rng;
  std::vector<std::int32_t> batch_sources, batch_targets;  // B x S, B x T
  std::size_t steps = 0;
};

namespace {

Seq2SeqShape model_shape(const Task& task, const TrainerOptions& o) {
  return {task.source_length(), task.target_length(), task.source_vocabulary().size(),
          task.target_vocabulary().size(), *o.d_model, *o.heads};
}


[[noreturn]] void engine_only(const char* call, const TrainerOptions& o) {
  throw ValueError(std::string(call) + ": model '" + std::string(model_name(o.model)) +
                   "' reads every target position at once (its queries are positions); " + call +
                   " is for the engine's models ('rnn', 'bahdanau', 'luong', 'transformer', 'decoder')");
}

// The engine, or a ValueError naming the module that has it.
const detail::EngineFactory& model_engine(const TrainerOptions& o) {
#if defined(__EMSCRIPTEN__)
  const bool linked = &detail::engine_factory != nullptr;
#else
  const bool linked = true;
#endif
  if (!linked) {
    throw ValueError("model: '" + std::string(model_name(o.model)) + "' is a model of the engine, which this " +
                     "WebAssembly module does not have: createAttention({ learning: true }) loads it");
  }
  return *detail::engine_factory();
}

}  // namespace

TrainerOptions Trainer::defaults(TaskKind task) {
  TrainerOptions o;
  o.task = task;
  return resolve_options(o);
}

TrainerFootprint Trainer::footprint(const TrainerOptions& options, OptionNames names) {
  const TrainerOptions o = resolve_options(options, names);
  if (o.model != ModelKind::Attention) return model_engine(o).footprint(o);
  const Task task(o.task);
  const Seq2SeqShape shape = model_shape(task, o);
  const std::size_t batch = *o.batch_size, held_out = task.held_out().size();
  const std::size_t chunk = std::min(held_out, kEvaluationChunk);
  const std::size_t s = task.source_length(), t = task.target_length();
  const std::size_t parameters = Seq2SeqModel::parameter_count(shape);
  // The model's floats, Adam's two moments and its decay factors; the batch's
  // ids; evaluate()'s gathered ids of a chunk, and its copies of the logits and
  // weights (Prediction).
  const std::size_t floats = Seq2SeqModel::floats_held(shape, batch, chunk) + 3 * parameters +
                             chunk * t * (shape.target_vocabulary + shape.heads * s);
  const std::size_t ids = batch * (s + t) + chunk * (s + t);
  // Work: the formula of web/src/engine/work-limits.js (trainerStep,
  // trainerEvaluate, trainerCreate), fitted to this model by scripts/fit-work.mjs.
  const double d = static_cast<double>(*o.d_model), h = static_cast<double>(*o.heads);
  const double S = static_cast<double>(s), T = static_cast<double>(t), V = static_cast<double>(shape.target_vocabulary);
  const double step_work = 24000.0 + static_cast<double>(batch) * (3 * (2 * S + T) * d * d + 3 * T * (2 * S + V) * d +
                                                                   T * (160 * S * h + 64 * V)) +
                           20.0 * static_cast<double>(parameters);
  const double evaluate_work =
      static_cast<double>(held_out) * ((2 * S + T) * d * d + T * (2 * S + V) * d + T * (96 * S * h + 32 * V));
  return {o, s, t, shape.target_vocabulary, held_out, parameters,
          static_cast<double>(floats) * sizeof(float) + static_cast<double>(ids) * sizeof(std::int32_t), step_work,
          evaluate_work,
          32.0 * static_cast<double>(parameters)};
}

Trainer::Trainer(const TrainerOptions& options, OptionNames names) : options_(resolve_options(options, names)) {
  const TrainerOptions& o = options_;
  if (o.model != ModelKind::Attention) {
    engine_ = model_engine(o).make(o);
    return;
  }
  Task task(o.task);
  Seq2SeqModel model(model_shape(task, o), *o.scale, o.seed);
  Adam adam(model.layout().total, AdamOptions{static_cast<float>(*o.learning_rate), 0.9f, 0.999f, 1e-8f,
                                              static_cast<float>(*o.weight_decay)});
  const std::size_t batch = *o.batch_size;
  classic_ = std::make_unique<Classic>(Classic{task, std::move(model), std::move(adam), Rng(Rng(o.seed).next_u64()),
                                               std::vector<std::int32_t>(batch * task.source_length()),
                                               std::vector<std::int32_t>(batch * task.target_length()), 0});
}

Trainer::~Trainer() = default;
Trainer::Trainer(Trainer&&) noexcept = default;
Trainer& Trainer::operator=(Trainer&&) noexcept = default;

FloatSpan Trainer::parameter_values() {
  if (engine_) return engine_->parameter_values();
  return std::as_const(classic_->model).parameters();
}

std::size_t Trainer::steps_taken() const { return engine_ ? engine_->steps_taken() : classic_->steps; }

const Task& Trainer::task() const {
  if (!classic_) throw ValueError("task(): the 'attention' model's task; this trainer's model is an engine model: engine()");
  return classic_->task;
}
Seq2SeqModel& Trainer::model() {
  if (!classic_) throw ValueError("model(): the 'attention' model; this trainer's model is an engine model: engine()");
  return classic_->model;
}
std::span<const std::int32_t> Trainer::batch_sources() const {
  if (!classic_) throw ValueError("batch_sources(): the 'attention' model's batch; engine models: engine().last_batch()");
  return classic_->batch_sources;
}
std::span<const std::int32_t> Trainer::batch_targets() const {
  if (!classic_) throw ValueError("batch_targets(): the 'attention' model's batch; engine models: engine().last_batch()");
  return classic_->batch_targets;
}
training::EngineTrainer& Trainer::engine() {
  if (!engine_) throw ValueError("engine(): the model engine's trainer; this trainer trains model 'attention'");
  return engine_->trainer();
}

TrainingStep Trainer::step(std::size_t count) {
  detail::require_dimension("count", count);
  double loss = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    try {
      if (engine_) {
        loss = engine_->step();
        continue;
      }
      Classic& c = *classic_;
      const std::size_t s = c.task.source_length(), t = c.task.target_length();
      for (std::size_t e = 0; e < *options_.batch_size; ++e) {
        c.task.draw(c.batch_rng, c.batch_sources.data() + e * s, c.batch_targets.data() + e * t);
      }
      loss = c.model.loss_and_gradient(c.batch_sources, c.batch_targets);
      c.adam.step(c.model.parameters(), c.model.gradients());
      ++c.steps;
    } catch (const ValueError& e) {
      // The steps before this one stand: say how many (a caller who asked for
      // `count` would otherwise not know where training stopped).
      throw ValueError(std::string(e.what()) + "; step " + std::to_string(i + 1) + " of the " + std::to_string(count) +
                       " asked was refused: " + std::to_string(i) + " taken, " + std::to_string(steps_taken()) +
                       " in all");
    }
  }
  return {steps_taken(), loss};
}

Evaluation Trainer::evaluate(std::span<const HeadRef> ablate, std::size_t examples) {
  detail::require_dimension("examples", examples);
  if (engine_) return engine_->evaluate(ablate, examples);
  if (!ablate.empty()) {
    throw ValueError("ablate: model 'attention' is evaluated whole; ablating heads is for the transformers");
  }
  // By chunks of kEvaluationChunk examples: the forward pass's workspace holds
  // one chunk (at dModel 32 the whole held-out set was 3.6 MB of it).
  Classic& c = *classic_;
  const std::span<const Example> held_out =
      std::span<const Example>(c.task.held_out()).first(std::min(examples, c.task.held_out().size()));
  const std::size_t t = c.task.target_length();
  double loss_sum = 0.0;
  std::size_t correct = 0, sequences_right = 0;
  std::vector<std::int32_t> sources, targets;
  for (std::size_t first = 0; first < held_out.size(); first += kEvaluationChunk) {
    sources.clear(), targets.clear();
    for (std::size_t e = first; e < std::min(first + kEvaluationChunk, held_out.size()); ++e) {
      sources.insert(sources.end(), held_out[e].source.begin(), held_out[e].source.end());
      targets.insert(targets.end(), held_out[e].target.begin(), held_out[e].target.end());
    }
    const Seq2SeqModel::Prediction p = c.model.predict(sources, targets);
    loss_sum += p.loss * static_cast<double>(targets.size());
    correct += p.correct;
    const std::size_t classes = c.model.shape().target_vocabulary;
    for (std::size_t e = 0; e * t < targets.size(); ++e) {
      bool all = true;
      for (std::size_t pos = 0; pos < t; ++pos) {
        const float* z = p.logits.data() + (e * t + pos) * classes;
        all = all && std::max_element(z, z + classes) - z == targets[e * t + pos];
      }
      sequences_right += all;
    }
  }
  const double positions = static_cast<double>(held_out.size() * t);
  const double accuracy = static_cast<double>(correct) / positions;
  return {loss_sum / positions, accuracy, accuracy,
          static_cast<double>(sequences_right) / static_cast<double>(held_out.size())};
}

AlignmentReading Trainer::read_classic(std::span<const std::int32_t> source) {
  Classic& c = *classic_;
  const Seq2SeqShape& shape = c.model.shape();
  const std::size_t t_len = shape.target_length, s_len = shape.source_length, cells = t_len * s_len;
  const Seq2SeqModel::Prediction p = c.model.predict(source);
  AlignmentReading r;
  r.source = training::words_or_blank(source, c.task.source_vocabulary());
  std::vector<std::int32_t> output(t_len);
  for (std::size_t pos = 0; pos < t_len; ++pos) {
    const float* z = p.logits.data() + pos * shape.target_vocabulary;
    output[pos] = static_cast<std::int32_t>(std::max_element(z, z + shape.target_vocabulary) - z);
  }
  r.predicted = training::words_or_blank(output, c.task.target_vocabulary());
  r.target = r.predicted;
  // weights = (1/h) sum_i P_i
  r.weights.assign(cells, 0.0f);
  for (std::size_t head = 0; head < shape.heads; ++head) {
    r.head_weights.emplace_back(p.weights.begin() + head * cells, p.weights.begin() + (head + 1) * cells);
    for (std::size_t i = 0; i < cells; ++i) r.weights[i] += r.head_weights.back()[i];
  }
  const float inverse_heads = 1.0f / static_cast<float>(shape.heads);
  for (float& w : r.weights) w *= inverse_heads;
  r.maps.push_back({"cross", 0, t_len, s_len, r.head_weights, {}});
  const auto alignment = c.task.alignment();
  r.reference.assign(alignment.begin(), alignment.end());
  return r;
}

std::vector<std::size_t> AlignmentReading::strongest_sources() const {
  const std::size_t s = source.size();
  std::vector<std::size_t> strongest;
  if (weights.empty() || s == 0) return strongest;
  for (std::size_t t = 0; t < target.size(); ++t) {
    const auto row = weights.begin() + static_cast<std::ptrdiff_t>(t * s);
    strongest.push_back(static_cast<std::size_t>(std::max_element(row, row + static_cast<std::ptrdiff_t>(s)) - row));
  }
  return strongest;
}

AlignmentReading Trainer::probe() {
  if (engine_) return engine_->probe();
  const Example& example = classic_->task.probe();
  AlignmentReading r = read_classic(example.source);
  r.target = training::words_or_blank(example.target, classic_->task.target_vocabulary());
  return r;
}

AlignmentReading Trainer::translate(std::string_view sentence) {
  if (engine_) return engine_->translate(sentence);
  return read_classic(classic_->task.tokenize(sentence));
}

Generation Trainer::generate(std::string_view sentence, bool cache) {
  if (!engine_) engine_only("generate", options_);
  return engine_->generate(sentence, cache);
}

std::vector<HeadScore> Trainer::head_scores() {
  if (!engine_) engine_only("headScores", options_);
  return engine_->head_scores();
}

AlignmentAgreement Trainer::alignment_agreement(std::size_t examples) {
  if (engine_) return engine_->alignment_agreement(examples);
  // The 'attention' model: its reading of each held-out source against the task's fixed alignment.
  training::AlignmentTally tally;
  std::size_t read = 0;
  const auto alignment = classic_->task.alignment();
  for (const Example& e : classic_->task.held_out()) {
    if (read == examples) break;
    ++read;
    const std::vector<std::size_t> strongest = read_classic(e.source).strongest_sources();
    for (std::size_t t = 0; t < alignment.size(); ++t) tally.add(strongest[t], alignment[t]);
  }
  return tally.result(read);
}

Trainer::TaskInfo Trainer::task_info() const {
  TaskInfo info;
  if (classic_) {
    const Task& t = classic_->task;
    info = {t.name(), t.source_length(), t.target_length(), t.source_vocabulary(), t.target_vocabulary(),
            t.source_groups(), t.source_pattern(), {}, t.held_out().size()};
    info.alignment.assign(t.alignment().begin(), t.alignment().end());
    return info;
  }
  return engine_->task_info();
}

}  // namespace attn
