// Embind bindings of attn::Trainer (attn/trainer.hpp), under the contract of
// attention_bindings.cpp (arguments checked by the engine, errors RETURNED as
// JavaScript Error objects, results copied out). Options travel by name: the
// core's table (attn/trainer_options.hpp) says what each is, checks it and
// fills in the defaults, so a new option needs no code here.
//
//   trainerOptionTable() -> [{ name, kind, meaning, choices, minimum, maximum, ... }]
//   trainerFootprint({ task: 'reverse', seed: '1', dModel: 64 }) -> { options, parameters, bytes, ... } | Error
//   const trainer = new module.Trainer();                 // never fails
//   trainer.start({ task: 'reverse', seed: '1', ... }) -> the options with the defaults | Error
//   trainer.step(count) -> { step, loss } | Error          ... trainer.delete()
//
// The options object holds only the given options, each a boolean, a number
// or a string (a seed as its decimal digits): the engine made it
// (web/src/engine/trainer.js), so reading it cannot throw. The constructor
// takes no arguments and cannot fail, so that every error of the core's
// constructor comes back from start() as a returned Error (an exception
// escaping an Embind constructor would cross the wasm frames).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attn/trainer.hpp"
#include "binding_support.hpp"
// The test entries read the engine's model and batch (header-only members:
// nothing of the engine is linked into the module that does not have it).
#include "training/engine_trainer.hpp"

using emscripten::val;

namespace {

using namespace attn_bindings;

constexpr const char* kKindNames[] = {"choice", "count", "number", "flag", "seed"};  // attn::OptionKind's order

val value_out(const attn::OptionValue& value) {
  if (const bool* flag = std::get_if<bool>(&value)) return val(*flag);
  if (const double* number = std::get_if<double>(&value)) return val(*number);
  return val(std::get<std::string>(value));
}

// The given options (JavaScript names) -> attn::TrainerOptions, each set and
// checked by the core's table.
attn::TrainerOptions options_in(const val& given) {
  attn::TrainerOptions options;
  const val names = val::global("Object").call<val>("keys", given);
  const std::size_t count = names["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = names[i].as<std::string>();
    const val value = given[name];
    attn::OptionValue converted;
    if (value.isTrue() || value.isFalse()) converted = value.isTrue();
    else if (value.isNumber()) converted = value.as<double>();
    else converted = value.as<std::string>();
    attn::set_trainer_option(options, name, converted);
  }
  return options;
}

// The options a trainer runs with, by their JavaScript names (the seed as its decimal digits).
val options_out(const attn::TrainerOptions& o) {
  val out = val::object();
  for (const attn::TrainerOption& option : attn::trainer_option_table()) {
    if (const auto value = attn::get_trainer_option(o, option.name)) out.set(option.name, value_out(*value));
  }
  return out;
}

template <class Kind>
val names_out(const std::vector<Kind>& kinds, std::string_view (*name_of)(Kind)) {
  val out = val::array();
  for (Kind kind : kinds) out.call<void>("push", std::string(name_of(kind)));
  return out;
}

// trainerOptionTable() -> one object per option of attn/trainer_options.hpp:
// { name, kind, meaning, choices, minimum, maximum, minimumExcluded, required,
//   models, tasks (the ones it applies to; empty: all), defaults: [{ task, model, value }] }
val trainer_option_table() {
  return guarded([&] {
    val table = val::array();
    const std::vector<attn::TaskKind> tasks = {attn::TaskKind::Reverse, attn::TaskKind::Translate,
                                               attn::TaskKind::Induction};
    const std::vector<attn::ModelKind> models = {attn::ModelKind::Attention, attn::ModelKind::Rnn,
                                                 attn::ModelKind::Bahdanau, attn::ModelKind::Luong,
                                                 attn::ModelKind::Transformer, attn::ModelKind::Decoder};
    for (const attn::TrainerOption& option : attn::trainer_option_table()) {
      val row = val::object();
      row.set("name", std::string(option.name));
      row.set("kind", std::string(kKindNames[static_cast<int>(option.kind)]));
      row.set("meaning", std::string(option.meaning));
      row.set("choices", strings_out(option.choices));
      row.set("minimum", option.minimum);
      row.set("maximum", option.maximum);
      row.set("minimumExcluded", option.minimum_excluded);
      row.set("required", option.required);
      row.set("models", names_out(option.models, &attn::model_name));
      row.set("tasks", names_out(option.tasks, &attn::task_name));
      val defaults = val::array();
      for (attn::TaskKind task : tasks) {
        for (attn::ModelKind model : models) {
          const auto value = option.default_for(task, model);
          if (!value) continue;
          val entry = val::object();
          entry.set("task", std::string(attn::task_name(task)));
          entry.set("model", std::string(attn::model_name(model)));
          entry.set("value", value_out(*value));
          defaults.call<void>("push", entry);
        }
      }
      row.set("defaults", defaults);
      table.call<void>("push", row);
    }
    return table;
  });
}

// trainerFootprint(given) -> { options, sourceLength, targetLength, targetVocabulary, heldOut, parameters,
// bytes, stepWork, evaluateWork, createWork } (attn::Trainer::footprint: what a trainer of these options
// needs) | Error
val trainer_footprint(val given) {
  return guarded([&] {
    const attn::TrainerFootprint f = attn::Trainer::footprint(options_in(given), attn::OptionNames::JavaScript);
    val out = val::object();
    out.set("options", options_out(f.options));
    out.set("sourceLength", f.source_length);
    out.set("targetLength", f.target_length);
    out.set("targetVocabulary", f.target_vocabulary);
    out.set("heldOut", f.held_out);
    out.set("parameters", f.parameters);
    out.set("bytes", f.bytes);
    out.set("stepWork", f.step_work);
    out.set("evaluateWork", f.evaluate_work);
    out.set("createWork", f.create_work);
    return out;
  });
}

val sizes_out(const std::vector<std::size_t>& values) {
  val array = val::array();
  for (std::size_t value : values) array.call<void>("push", value);
  return array;
}

// [{ kind, layer, rows, cols, heads: Float32Array[] (rows*cols each), positions?: Float32Array }]
val maps_out(const std::vector<attn::AttentionMap>& maps) {
  val out = val::array();
  for (const attn::AttentionMap& m : maps) {
    val map = val::object();
    map.set("kind", m.kind);
    map.set("layer", m.layer);
    map.set("rows", m.rows);
    map.set("cols", m.cols);
    val heads = val::array();
    for (const auto& weights : m.heads) heads.call<void>("push", float32_out(weights));
    map.set("heads", heads);
    if (!m.positions.empty()) map.set("positions", float32_out(m.positions));
    out.call<void>("push", map);
  }
  return out;
}

val integers_out(const std::vector<int>& values) {
  val array = val::array();
  for (int value : values) array.call<void>("push", value);
  return array;
}

// { source, target, predicted: string[], weights: T*S, headWeights: h arrays of T*S, strongestSources,
//   layers: maps_out, reference: number[] (-1: none) }
val reading_out(const attn::AlignmentReading& r) {
  val out = val::object();
  out.set("source", strings_out(r.source));
  out.set("target", strings_out(r.target));
  out.set("predicted", strings_out(r.predicted));
  out.set("weights", float32_out(r.weights));
  val heads = val::array();
  for (const auto& weights : r.head_weights) heads.call<void>("push", float32_out(weights));
  out.set("headWeights", heads);
  out.set("strongestSources", sizes_out(r.strongest_sources()));
  out.set("layers", maps_out(r.maps));
  out.set("reference", integers_out(r.reference));
  return out;
}

// ablate: [{ kind, layer, head }] as the engine checked them (web/src/engine/trainer.js).
std::vector<attn::HeadRef> heads_in(const val& ablate) {
  std::vector<attn::HeadRef> heads;
  const std::size_t count = ablate["length"].as<std::size_t>();
  for (std::size_t i = 0; i < count; ++i) {
    const val head = ablate[i];
    heads.push_back({head["kind"].as<std::string>(), head["layer"].as<std::size_t>(), head["head"].as<std::size_t>()});
  }
  return heads;
}

class TrainerBinding {
 public:
  // -> the options with which it trains | Error (the core's, naming the option).
  val start(val given) {
    return guarded([&] {
      if (trainer_) throw std::logic_error("trainer: already started");
      trainer_.emplace(options_in(given), attn::OptionNames::JavaScript);
      return options_out(trainer_->options());
    });
  }

  // `count` steps -> { step: steps taken so far, loss: the last step's mean training cross-entropy }
  val step(std::size_t count) {
    return guarded([&] {
      const attn::TrainingStep s = started().step(count);
      val out = val::object();
      out.set("step", s.step);
      out.set("loss", s.loss);
      return out;
    });
  }

  // ablate: [{ kind, layer, head }], examples -> { loss, accuracy, generatedAccuracy, sequenceAccuracy } on
  // the first `examples` held-out examples
  val evaluate(val ablate, std::size_t examples) {
    return guarded([&] {
      const attn::Evaluation e = started().evaluate(heads_in(ablate), examples);
      val out = val::object();
      out.set("loss", e.loss);
      out.set("accuracy", e.accuracy);
      out.set("generatedAccuracy", e.generated_accuracy);
      out.set("sequenceAccuracy", e.sequence_accuracy);
      return out;
    });
  }

  // sentence (UTF-16 code units; empty: the probe's source), cache -> { source, words, steps: [{ word, end,
  // cacheLength, maps }] }
  val generate(val sentence, bool cache) {
    return guarded([&] {
      const attn::Generation g = started().generate(utf8_from_utf16(sentence), cache);
      val steps = val::array();
      for (const attn::GenerationStep& s : g.steps) {
        val step = val::object();
        step.set("word", s.word);
        step.set("end", s.end);
        step.set("cacheLength", s.cache_length);
        step.set("maps", maps_out(s.maps));
        steps.call<void>("push", step);
      }
      val out = val::object();
      out.set("source", strings_out(g.source));
      out.set("words", strings_out(g.words));
      out.set("steps", steps);
      return out;
    });
  }

  // examples -> { agreement, oneRight, positions, examples }
  val alignmentAgreement(std::size_t examples) {
    return guarded([&] {
      const attn::AlignmentAgreement a = started().alignment_agreement(examples);
      val out = val::object();
      out.set("agreement", a.agreement);
      out.set("oneRight", a.one_right);
      out.set("positions", a.positions);
      out.set("examples", a.examples);
      return out;
    });
  }

  // -> [{ layer, head, previousToken, prefixMatch }]
  val headScores() {
    return guarded([&] {
      val out = val::array();
      for (const attn::HeadScore& h : started().head_scores()) {
        val score = val::object();
        score.set("layer", h.layer);
        score.set("head", h.head);
        score.set("previousToken", h.previous_token);
        score.set("prefixMatch", h.prefix_match);
        out.call<void>("push", score);
      }
      return out;
    });
  }

  val probe() {
    return guarded([&] { return reading_out(started().probe()); });
  }

  // sentence: its UTF-16 code units (a Uint16Array), so that a lone surrogate
  // reaches the core as itself (utf8_from_utf16) and is named there.
  val translate(val sentence) {
    return guarded([&] { return reading_out(started().translate(utf8_from_utf16(sentence))); });
  }

  // Steps taken so far (those before a refused one included).
  std::size_t stepsTaken() {
    return trainer_ ? trainer_->steps_taken() : 0;
  }

  // -> { sourceLength, targetLength, source, target: string[] (id -> token), groups: [{ name, words }],
  //      pattern, alignment: number[], heldOut: number of held-out examples }
  val task() {
    return guarded([&] {
      const attn::Trainer::TaskInfo t = started().task_info();
      val groups = val::array();
      for (const attn::WordGroup& g : t.groups) {
        val group = val::object();
        group.set("name", g.name);
        group.set("words", strings_out(g.words));
        groups.call<void>("push", group);
      }
      val out = val::object();
      out.set("sourceLength", t.source_length);
      out.set("targetLength", t.target_length);
      out.set("source", strings_out(t.source_vocabulary));
      out.set("target", strings_out(t.target_vocabulary));
      out.set("groups", groups);
      out.set("pattern", t.pattern);
      out.set("alignment", integers_out(t.alignment));
      out.set("heldOut", t.held_out);
      return out;
    });
  }

  // Test entry only (web/src/engine/testing.js): every parameter, in the model's layout.
  val parameters() {
    return guarded([&] {
      const attn::FloatSpan p = started().parameter_values();
      return copy_out("Float32Array", p.data(), p.size());
    });
  }

  // Test entry only, the engine's models: the parameters' blocks, in the order of parameters()
  // -> [{ name, offset, rows, cols, role: 'matrix' | 'embedding' | 'bias' | 'gain' }]
  // (layers/parameters.hpp: only 'matrix' decays under AdamW).
  val parameterBlocks() {
    return guarded([&] {
      require_engine_model("parameterBlocks");
      static constexpr const char* kRoles[] = {"matrix", "embedding", "bias", "gain"};  // layers::Role's order
      val out = val::array();
      for (const attn::layers::ParameterBlock& b : started().engine().model().parameters().blocks()) {
        val block = val::object();
        block.set("name", b.name);
        block.set("offset", b.offset);
        block.set("rows", b.rows);
        block.set("cols", b.cols);
        block.set("role", std::string(kRoles[static_cast<int>(b.role)]));
        out.call<void>("push", block);
      }
      return out;
    });
  }

  // Test entry only, the engine's models: the last step's batch (models/batch.hpp) -> { size, sourceLength,
  // targetLength, source: Int32Array B*S, sourceLengths: Int32Array B, input, output: Int32Array B*T,
  // counted: Uint8Array B*T, targetLengths: Int32Array B }.
  val lastEngineBatch() {
    return guarded([&] {
      require_engine_model("lastEngineBatch");
      const attn::models::Batch& b = started().engine().last_batch();
      val out = val::object();
      out.set("size", b.size);
      out.set("sourceLength", b.source_length);
      out.set("targetLength", b.target_length);
      out.set("source", copy_out("Int32Array", b.source));
      out.set("sourceLengths", copy_out("Int32Array", b.source_lengths));
      out.set("input", copy_out("Int32Array", b.input));
      out.set("output", copy_out("Int32Array", b.output));
      out.set("counted", copy_out("Uint8Array", b.counted));
      out.set("targetLengths", copy_out("Int32Array", b.target_lengths));
      return out;
    });
  }

  // Test entry only, model 'attention': the last step's batch -> { sources: Int32Array B*S, targets: Int32Array B*T }.
  val lastBatch() {
    return guarded([&] {
      const attn::Trainer& t = started();
      if (t.engine_model()) throw attn::ValueError("lastBatch: model 'attention' only; the engine's models: lastEngineBatch()");
      val out = val::object();
      out.set("sources", copy_out("Int32Array", t.batch_sources().data(), t.batch_sources().size()));
      out.set("targets", copy_out("Int32Array", t.batch_targets().data(), t.batch_targets().size()));
      return out;
    });
  }

 private:
  void require_engine_model(const char* entry) {
    if (!started().engine_model())
      throw attn::ValueError(std::string(entry) + ": the engine's models only; model 'attention': parameters() and lastBatch()");
  }

  attn::Trainer& started() {
    if (!trainer_) throw std::logic_error("trainer: not started");
    return *trainer_;
  }

  std::optional<attn::Trainer> trainer_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(trainer) {
  using emscripten::class_;
  using emscripten::constructor;
  using emscripten::function;

  function("trainerOptionTable", &trainer_option_table);
  function("trainerFootprint", &trainer_footprint);

  class_<TrainerBinding>("Trainer")
      .constructor<>()
      .function("start", &TrainerBinding::start)
      .function("step", &TrainerBinding::step)
      .function("evaluate", &TrainerBinding::evaluate)
      .function("probe", &TrainerBinding::probe)
      .function("translate", &TrainerBinding::translate)
      .function("generate", &TrainerBinding::generate)
      .function("headScores", &TrainerBinding::headScores)
      .function("alignmentAgreement", &TrainerBinding::alignmentAgreement)
      .function("stepsTaken", &TrainerBinding::stepsTaken)
      .function("task", &TrainerBinding::task)
      .function("parameters", &TrainerBinding::parameters)
      .function("lastBatch", &TrainerBinding::lastBatch)
      .function("parameterBlocks", &TrainerBinding::parameterBlocks)
      .function("lastEngineBatch", &TrainerBinding::lastEngineBatch);
}
