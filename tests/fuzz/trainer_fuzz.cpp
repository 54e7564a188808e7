// Fuzz target: the trainer (attn::Trainer) with small options, hostile ones
// (learning rates from denormal to 3.4e38, weight decay, zero or huge sizes,
// heads that do not divide d_model), a few steps, evaluation, the probe, typed
// sentences, and the model's predict on ids in and out of range.
//
// Oracles:
// - only documented errors, each naming the option or argument
// - every loss finite and >= 0, accuracy in [0, 1]; the probe's and a
//   translation's weights finite, in [0, 1], each target row summing to 1
//   (the mean over the heads of softmax rows), one matrix per head
// - a refused step leaves the trainer usable: evaluate() still answers, or
//   refuses naming the divergence ("training diverged") as the step did
#include <cstdint>

#include "attention_call.hpp"
#include "attn/trainer.hpp"

using namespace attn_fuzz;

namespace {

void check_reading(const attn::AlignmentReading& r, std::size_t heads, std::size_t target_length,
                   std::size_t source_length) {
  const std::vector<std::uint8_t> keep(target_length * source_length, 1);
  require_weights(r.weights, keep, target_length, source_length, "weights");
  require(r.head_weights.size() == heads, "one weight matrix per head");
  for (const auto& w : r.head_weights) require_weights(w, keep, target_length, source_length, "head weights");
  require(r.predicted.size() == target_length && r.source.size() == source_length, "reading: word counts");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  attn::TrainerOptions o;
  o.task = in.flag() ? attn::TaskKind::Reverse : attn::TaskKind::Translate;
  o.seed = in.byte();
  if (in.flag()) o.heads = in.dimension_or_huge(4);
  o.d_model = in.byte() % 16 == 15 ? in.dimension_or_huge(2048) : 4 * in.dimension(3);
  o.scale = in.flag();
  if (in.flag()) o.learning_rate = in.value();
  o.batch_size = in.byte() % 16 == 15 ? in.dimension_or_huge(8192) : in.dimension(4);
  if (in.flag()) o.weight_decay = in.value();

  std::optional<attn::Trainer> trainer;
  if (!documented([&] { trainer.emplace(o); })) return 0;
  const attn::Task& task = trainer->task();
  const std::size_t heads = *trainer->options().heads, S = task.source_length(), T = task.target_length();

  const std::size_t steps = in.below(3);
  attn::TrainingStep step;
  if (documented([&] { step = trainer->step(steps); })) {
    require(std::isfinite(step.loss) && step.loss >= 0, "step: the loss is not a finite number >= 0");
  }
  // Diverged training (a learning rate too large) is refused with a named error, never NaN.
  const auto diverged = [](const std::string& message) { return message.find("training diverged") != std::string::npos; };
  const auto e = outcome_of<attn::Evaluation>([&] { return trainer->evaluate(); });
  if (e.raised()) {
    if (!diverged(e.error)) finding("evaluate refused: %.300s", e.error.c_str());
    return 0;
  }
  require(std::isfinite(e.result->loss) && e.result->loss >= 0 && e.result->accuracy >= 0 && e.result->accuracy <= 1,
          "evaluate: out of range");
  check_reading(trainer->probe(), heads, T, S);

  const std::string sentence = in.text(80, task.source_vocabulary());
  attn::AlignmentReading reading;
  if (documented([&] { reading = trainer->translate(sentence); })) check_reading(reading, heads, T, S);

  // The model's forward pass on ids of any value.
  std::vector<std::int32_t> sources(S * (1 + in.below(2)));
  for (auto& id : sources) id = static_cast<std::int32_t>(in.byte()) - 4;
  attn::Seq2SeqModel::Prediction p;
  if (documented([&] { p = trainer->model().predict(sources); })) {
    require_finite(p.logits, "logits");
    require_finite(p.weights, "weights");
  }
  return 0;
}
