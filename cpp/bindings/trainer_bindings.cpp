// Embind bindings of attn::Trainer (attn/trainer.hpp): type conversion only,
// under the contract of attention_bindings.cpp (arguments checked by the
// engine, errors RETURNED as JavaScript Error objects, results copied out).
//
//   const trainer = new module.Trainer();                 // never fails
//   trainer.start({ task: 'reverse', seedHigh, seedLow, heads, dModel,
//                   batchSize, scale, learningRate, weightDecay })  -> options | Error
//   trainer.step(count) -> { step, loss } | Error          ... trainer.delete()
//
// The constructor takes no arguments and cannot fail, so that every error of
// the core's constructor comes back from start() as a returned Error (an
// exception escaping an Embind constructor would cross the wasm frames).
// start() takes every option explicitly: the engine fills in the omitted ones
// from trainerDefaults(task), the core's Trainer::defaults.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attn/trainer.hpp"
#include "binding_support.hpp"

using emscripten::val;

namespace {

using namespace attn_bindings;

constexpr OptionTable<attn::TaskKind, 2> kTasks{"task", {
    {"reverse", attn::TaskKind::Reverse},
    {"translate", attn::TaskKind::Translate},
}};

const char* task_name(attn::TaskKind kind) { return kind == attn::TaskKind::Reverse ? "reverse" : "translate"; }

// Every option of attn::TrainerOptions, given (the engine fills in the defaults).
struct TrainerCall {
  std::string task;
  std::uint32_t seedHigh = 0, seedLow = 0;
  std::size_t heads = 0, dModel = 0, batchSize = 0;
  bool scale = true;
  double learningRate = 0.0, weightDecay = 0.0;
};

// `value` narrowed to float, or ValueError naming `name` when a finite value
// is beyond what a float holds (it would become inf or 0 and the core would
// report that instead of what was given). NaN and infinities pass: the core
// names them.
float float_option(const char* name, double value) {
  constexpr double kLargest = std::numeric_limits<float>::max();
  constexpr double kSmallest = std::numeric_limits<float>::denorm_min();
  const double magnitude = std::fabs(value);
  if (std::isfinite(value) && (magnitude > kLargest || (magnitude != 0.0 && magnitude < kSmallest))) {
    char shown[32];
    std::snprintf(shown, sizeof shown, "%.9g", value);
    throw attn::ValueError(std::string(name) + ": expected 0 or a magnitude from 1.40129846e-45 to 3.40282347e+38 " +
                           "(a float), got " + shown);
  }
  return static_cast<float>(value);
}

val options_out(const attn::TrainerOptions& o) {
  val out = val::object();
  out.set("task", std::string(task_name(o.task)));
  out.set("heads", *o.heads);
  out.set("dModel", *o.d_model);
  out.set("batchSize", *o.batch_size);
  out.set("scale", o.scale);
  out.set("learningRate", static_cast<double>(*o.learning_rate));
  out.set("weightDecay", static_cast<double>(*o.weight_decay));
  return out;
}

val sizes_out(const std::vector<std::size_t>& values) {
  val array = val::array();
  for (std::size_t value : values) array.call<void>("push", value);
  return array;
}

// { source, target, predicted: string[], weights: T*S, headWeights: h arrays of T*S, strongestSources }
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
  return out;
}

// trainerDefaults(task) -> { task, heads, dModel, batchSize, scale, learningRate, weightDecay }
val trainer_defaults(std::string task) {
  return guarded([&] { return options_out(attn::Trainer::defaults(kTasks.parse(task))); });
}

class TrainerBinding {
 public:
  // -> the options with which it trains | Error (the core's, naming the option).
  val start(TrainerCall call) {
    return guarded([&] {
      if (trainer_) throw std::logic_error("trainer: already started");
      attn::TrainerOptions o;
      o.task = kTasks.parse(call.task);
      o.seed = seed_from(call.seedHigh, call.seedLow);
      o.heads = call.heads;
      o.d_model = call.dModel;
      o.batch_size = call.batchSize;
      o.scale = call.scale;
      o.learning_rate = float_option("learningRate", call.learningRate);
      o.weight_decay = float_option("weightDecay", call.weightDecay);
      trainer_.emplace(o);
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

  // -> { loss, accuracy } on the held-out examples
  val evaluate() {
    return guarded([&] {
      const attn::Evaluation e = started().evaluate();
      val out = val::object();
      out.set("loss", e.loss);
      out.set("accuracy", e.accuracy);
      return out;
    });
  }

  val probe() {
    return guarded([&] { return reading_out(started().probe()); });
  }

  val translate(std::string sentence) {
    return guarded([&] { return reading_out(started().translate(sentence)); });
  }

  // -> { sourceLength, targetLength, source, target: string[] (id -> token), groups: [{ name, words }],
  //      pattern, alignment: number[], heldOut: number of held-out examples }
  val task() {
    return guarded([&] {
      const attn::Task& t = started().task();
      val groups = val::array();
      for (const attn::WordGroup& g : t.source_groups()) {
        val group = val::object();
        group.set("name", g.name);
        group.set("words", strings_out(g.words));
        groups.call<void>("push", group);
      }
      val out = val::object();
      out.set("sourceLength", t.source_length());
      out.set("targetLength", t.target_length());
      out.set("source", strings_out(t.source_vocabulary()));
      out.set("target", strings_out(t.target_vocabulary()));
      out.set("groups", groups);
      out.set("pattern", t.source_pattern());
      out.set("alignment", sizes_out({t.alignment().begin(), t.alignment().end()}));
      out.set("heldOut", t.held_out().size());
      return out;
    });
  }

  // Test entry only (web/src/engine/testing.js): every parameter, in the model's layout.
  val parameters() {
    return guarded([&] {
      const auto p = std::as_const(started().model()).parameters();
      return copy_out("Float32Array", p.data(), p.size());
    });
  }

  // Test entry only: the last step's batch -> { sources: Int32Array B*S, targets: Int32Array B*T }.
  val lastBatch() {
    return guarded([&] {
      const attn::Trainer& t = started();
      val out = val::object();
      out.set("sources", copy_out("Int32Array", t.batch_sources().data(), t.batch_sources().size()));
      out.set("targets", copy_out("Int32Array", t.batch_targets().data(), t.batch_targets().size()));
      return out;
    });
  }

 private:
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
  using emscripten::value_object;

  value_object<TrainerCall>("TrainerCall")
      .field("task", &TrainerCall::task)
      .field("seedHigh", &TrainerCall::seedHigh)
      .field("seedLow", &TrainerCall::seedLow)
      .field("heads", &TrainerCall::heads)
      .field("dModel", &TrainerCall::dModel)
      .field("batchSize", &TrainerCall::batchSize)
      .field("scale", &TrainerCall::scale)
      .field("learningRate", &TrainerCall::learningRate)
      .field("weightDecay", &TrainerCall::weightDecay);

  function("trainerDefaults", &trainer_defaults);

  class_<TrainerBinding>("Trainer")
      .constructor<>()
      .function("start", &TrainerBinding::start)
      .function("step", &TrainerBinding::step)
      .function("evaluate", &TrainerBinding::evaluate)
      .function("probe", &TrainerBinding::probe)
      .function("translate", &TrainerBinding::translate)
      .function("task", &TrainerBinding::task)
      .function("parameters", &TrainerBinding::parameters)
      .function("lastBatch", &TrainerBinding::lastBatch);
}
