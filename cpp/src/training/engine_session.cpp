// engine_session.cpp — the model engine behind attn::Trainer (engine_session.hpp):
// a training::EngineTrainer made from the trainer's options, its readings in
// the public form of attn/trainer.hpp.
#include "training/engine_session.hpp"

#include <string>

#include "attn/error.hpp"
#include "training/engine_trainer.hpp"
#include "training/words.hpp"

namespace attn::detail {

namespace {


// The engine's settings from resolved options.
training::EngineTrainerSettings engine_settings(const TrainerOptions& o) {
  training::EngineTrainerSettings s;
  s.task.kind = o.task == TaskKind::Reverse     ? training::SequenceTaskKind::Reverse
                : o.task == TaskKind::Translate ? training::SequenceTaskKind::Translate
                                                : training::SequenceTaskKind::Induction;
  if (o.source_length) s.task.source_length = *o.source_length;
  models::ModelConfig& c = s.model;
  c.kind = o.model;
  c.d_model = *o.d_model;
  if (o.heads) c.heads = *o.heads;
  if (o.layers) c.layers = *o.layers;
  if (o.scale) c.scaled = *o.scale;
  if (o.positions) {
    c.positions = *o.positions == PositionKind::Sinusoidal ? layers::Positions::Sinusoidal
                  : *o.positions == PositionKind::Learned  ? layers::Positions::Learned
                                                           : layers::Positions::None;
  }
  if (o.causal) c.causal = *o.causal;
  if (o.attention_only) c.attention_only = *o.attention_only;
  if (o.score) {
    c.score = *o.score == LuongScore::Dot       ? models::Score::Dot
              : *o.score == LuongScore::General ? models::Score::General
                                                : models::Score::Concat;
  }
  if (o.model == ModelKind::Bahdanau) c.score = models::Score::Concat;
  if (o.window) c.window = *o.window == AttentionWindow::Local ? models::Window::Local : models::Window::Global;
  if (o.input_feeding) c.input_feeding = *o.input_feeding;
  s.batch_size = *o.batch_size;
  s.learning_rate = static_cast<float>(*o.learning_rate);
  s.weight_decay = static_cast<float>(*o.weight_decay);
  s.seed = o.seed;
  return s;
}

// The source ids of a typed sentence, or the probe's when it is empty.
std::vector<std::int32_t> source_of(const training::SequenceTask& task, std::string_view sentence) {
  if (sentence.empty()) return task.probe().source.empty() ? std::vector<std::int32_t>{} : task.probe().source;
  return task.tokenize(sentence);
}


class Session final : public EngineSession {
 public:
  explicit Session(const TrainerOptions& o) : trainer_(engine_settings(o)) {}

  double step() override { return trainer_.step(); }
  std::size_t steps_taken() const override { return trainer_.steps_taken(); }

  Evaluation evaluate(std::span<const HeadRef> ablate, std::size_t examples) override {
    std::vector<models::HeadRef> heads;
    for (std::size_t i = 0; i < ablate.size(); ++i) heads.push_back(trainer_.head_of(ablate[i], i));
    const training::EngineEvaluation e = trainer_.evaluate(heads, examples);
    return {e.loss, e.accuracy, e.generated_accuracy, e.sequence_accuracy};
  }

  AlignmentReading probe() override { return trainer_.alignment_reading(trainer_.task().probe()); }

  AlignmentReading translate(std::string_view sentence) override {
    const training::SequenceTask& task = trainer_.task();
    training::SequenceExample example = task.example_of(sentence);  // the source and the reference
    const std::vector<int> reference(example.alignment.begin(), example.alignment.end());
    // The model's own output, then read as the target.
    const training::Generation generated = trainer_.generate(example.source, true);
    if (task.kind() != training::SequenceTaskKind::Induction) {
      // Read back at most the longest target: a model that never ends its
      // output generates one word more (generate's last step), which no
      // batch holds (a learned position table has max_target_length + 1 rows).
      example.target = generated.words;
      if (example.target.size() > task.max_target_length()) example.target.resize(task.max_target_length());
      example.alignment.assign(example.target.size(), -1);
      example.counted.clear();
    }
    AlignmentReading r = trainer_.alignment_reading(example);
    r.reference = reference;
    return r;
  }

  Generation generate(std::string_view sentence, bool cache) override {
    const training::SequenceTask& task = trainer_.task();
    const std::vector<std::int32_t> source = source_of(task, sentence);
    const training::Generation g = trainer_.generate(source, cache);
    Generation out;
    out.source = training::words_or_blank(source, task.kind() == training::SequenceTaskKind::Induction ? task.target_vocabulary()
                                                                                    : task.source_vocabulary());
    out.words = training::words_or_blank(g.words, task.target_vocabulary());
    for (const training::GeneratedStep& s : g.steps) {
      out.steps.push_back({s.word >= 0 ? task.target_vocabulary()[s.word] : std::string(), s.word < 0,
                           s.cache_length, s.maps});
    }
    return out;
  }

  std::vector<HeadScore> head_scores() override {
    std::vector<HeadScore> out;
    for (const training::HeadScore& s : trainer_.head_scores())
      out.push_back({s.layer, s.head, s.previous_token, s.prefix_match});
    return out;
  }

  AlignmentAgreement alignment_agreement(std::size_t examples) override {
    return trainer_.alignment_agreement(examples);
  }

  Trainer::TaskInfo task_info() const override {
    const training::SequenceTask& t = trainer_.task();
    Trainer::TaskInfo info;
    info.name = t.name();
    info.source_length = t.max_source_length();
    info.target_length = t.max_target_length();
    info.source_vocabulary = t.source_vocabulary();
    info.target_vocabulary = t.target_vocabulary();
    for (const training::VocabularyGroup& g : t.source_groups()) info.groups.push_back({g.name, g.words});
    info.pattern = t.source_pattern();
    info.alignment.assign(t.probe().alignment.begin(), t.probe().alignment.end());
    info.held_out = t.held_out().size();
    return info;
  }

  FloatSpan parameter_values() override { return trainer_.model().parameters().values(); }
  training::EngineTrainer& trainer() override { return trainer_; }

 private:
  training::EngineTrainer trainer_;
};

std::unique_ptr<EngineSession> make_session(const TrainerOptions& o) { return std::make_unique<Session>(o); }

TrainerFootprint footprint_of(const TrainerOptions& o) {
  const training::EngineFootprint f = training::EngineTrainer::footprint(engine_settings(o));
  return {o, f.source_length, f.target_length, f.target_vocabulary, f.held_out, f.parameters, f.bytes,
          f.step_work, f.evaluate_work, f.create_work};
}

const EngineFactory kFactory{&make_session, &footprint_of};

}  // namespace

const EngineFactory* engine_factory() { return &kFactory; }

void link_model_engine() {}

}  // namespace attn::detail
