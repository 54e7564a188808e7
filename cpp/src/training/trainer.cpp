// trainer.cpp — attn::Trainer: batches drawn from the task, the model's loss
// and gradient, an Adam update; evaluation, the probe and typed sentences.
#include "attn/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "validation.hpp"
#include "attn/error.hpp"

namespace attn {

namespace {

Seq2SeqShape model_shape(const Task& task, const TrainerOptions& o) {
  return {task.source_length(), task.target_length(), task.source_vocabulary().size(),
          task.target_vocabulary().size(), *o.d_model, *o.heads};
}

std::vector<std::string> words(std::span<const std::int32_t> ids, const std::vector<std::string>& vocabulary) {
  std::vector<std::string> w;
  for (std::int32_t id : ids) w.push_back(vocabulary[id]);
  return w;
}

}  // namespace

TrainerOptions Trainer::defaults(TaskKind task) {
  TrainerOptions o;
  o.task = task;
  return resolve_options(o);
}

TrainerFootprint Trainer::footprint(const TrainerOptions& options, OptionNames names) {
  const TrainerOptions o = resolve_options(options, names);
  const Task task(o.task);
  const Seq2SeqShape shape = model_shape(task, o);
  const std::size_t batch = *o.batch_size, held_out = task.held_out().size();
  const std::size_t chunk = std::min(held_out, kEvaluationChunk);
  const std::size_t s = task.source_length(), t = task.target_length();
  const std::size_t parameters = Seq2SeqModel::parameter_count(shape);
  // The model's floats, Adam's two moments; the batch's ids; evaluate()'s
  // gathered ids of a chunk, and its copies of the logits and weights (Prediction).
  const std::size_t floats = Seq2SeqModel::floats_held(shape, batch, chunk) + 2 * parameters +
                             chunk * t * (shape.target_vocabulary + shape.heads * s);
  const std::size_t ids = batch * (s + t) + chunk * (s + t);
  return {o, s, t, shape.target_vocabulary, held_out, parameters, floats * sizeof(float) + ids * sizeof(std::int32_t)};
}

Trainer::Trainer(const TrainerOptions& options, OptionNames names)
    : options_(resolve_options(options, names)),
      task_(options_.task),
      model_(model_shape(task_, options_), *options_.scale, options_.seed),
      adam_(model_.layout().total, AdamOptions{static_cast<float>(*options_.learning_rate), 0.9f, 0.999f, 1e-8f,
                                               static_cast<float>(*options_.weight_decay)}),
      batch_rng_(Rng(options_.seed).next_u64()),
      batch_sources_(*options_.batch_size * task_.source_length()),
      batch_targets_(*options_.batch_size * task_.target_length()) {}

TrainingStep Trainer::step(std::size_t count) {
  detail::require_dimension("count", count);
  const std::size_t s = task_.source_length(), t = task_.target_length();
  double loss = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t e = 0; e < *options_.batch_size; ++e) {
      task_.draw(batch_rng_, batch_sources_.data() + e * s, batch_targets_.data() + e * t);
    }
    try {
      loss = model_.loss_and_gradient(batch_sources_, batch_targets_);
      adam_.step(model_.parameters(), model_.gradients());
    } catch (const ValueError& e) {
      // The steps before this one stand: say how many (a caller who asked for
      // `count` would otherwise not know where training stopped).
      throw ValueError(std::string(e.what()) + "; step " + std::to_string(i + 1) + " of the " + std::to_string(count) +
                       " asked was refused: " + std::to_string(i) + " taken, " + std::to_string(steps_) + " in all");
    }
    ++steps_;
  }
  return {steps_, loss};
}

Evaluation Trainer::evaluate() {
  // By chunks of kEvaluationChunk examples: the forward pass's workspace holds
  // one chunk (at dModel 32 the whole held-out set was 3.6 MB of it).
  const auto& held_out = task_.held_out();
  const std::size_t t = task_.target_length();
  double loss_sum = 0.0;
  std::size_t correct = 0;
  std::vector<std::int32_t> sources, targets;
  for (std::size_t first = 0; first < held_out.size(); first += kEvaluationChunk) {
    sources.clear(), targets.clear();
    for (std::size_t e = first; e < std::min(first + kEvaluationChunk, held_out.size()); ++e) {
      sources.insert(sources.end(), held_out[e].source.begin(), held_out[e].source.end());
      targets.insert(targets.end(), held_out[e].target.begin(), held_out[e].target.end());
    }
    const Seq2SeqModel::Prediction p = model_.predict(sources, targets);
    loss_sum += p.loss * static_cast<double>(targets.size());
    correct += p.correct;
  }
  const double positions = static_cast<double>(held_out.size() * t);
  return {loss_sum / positions, static_cast<double>(correct) / positions};
}

AlignmentReading Trainer::read(std::span<const std::int32_t> source) {
  const Seq2SeqShape& shape = model_.shape();
  const std::size_t t_len = shape.target_length, s_len = shape.source_length, cells = t_len * s_len;
  const Seq2SeqModel::Prediction p = model_.predict(source);
  AlignmentReading r;
  r.source = words(source, task_.source_vocabulary());
  std::vector<std::int32_t> output(t_len);
  for (std::size_t pos = 0; pos < t_len; ++pos) {
    const float* z = p.logits.data() + pos * shape.target_vocabulary;
    output[pos] = static_cast<std::int32_t>(std::max_element(z, z + shape.target_vocabulary) - z);
  }
  r.predicted = words(output, task_.target_vocabulary());
  r.target = r.predicted;
  // weights = (1/h) sum_i P_i
  r.weights.assign(cells, 0.0f);
  for (std::size_t head = 0; head < shape.heads; ++head) {
    r.head_weights.emplace_back(p.weights.begin() + head * cells, p.weights.begin() + (head + 1) * cells);
    for (std::size_t c = 0; c < cells; ++c) r.weights[c] += r.head_weights.back()[c];
  }
  const float inverse_heads = 1.0f / static_cast<float>(shape.heads);
  for (float& w : r.weights) w *= inverse_heads;
  return r;
}

std::vector<std::size_t> AlignmentReading::strongest_sources() const {
  const std::size_t s = source.size();
  std::vector<std::size_t> strongest;
  for (std::size_t t = 0; t < target.size(); ++t) {
    const auto row = weights.begin() + static_cast<std::ptrdiff_t>(t * s);
    strongest.push_back(static_cast<std::size_t>(std::max_element(row, row + static_cast<std::ptrdiff_t>(s)) - row));
  }
  return strongest;
}

AlignmentReading Trainer::probe() {
  const Example& example = task_.probe();
  AlignmentReading r = read(example.source);
  r.target = words(example.target, task_.target_vocabulary());
  return r;
}

AlignmentReading Trainer::translate(std::string_view sentence) { return read(task_.tokenize(sentence)); }

}  // namespace attn
