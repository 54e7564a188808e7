// engine_session.hpp (internal) — how attn::Trainer reaches the model engine:
// an interface it calls for every model but 'attention', and the factory that
// makes one. The interface keeps the engine out of a program that never
// trains its models: attn::Trainer calls only these virtual functions, so a
// WebAssembly module whose bindings do not link the engine (the learning
// module of the page's gradients section: the backward pass and the one-layer
// model) has none of the engine's code; there, engine_factory() is a weak
// symbol left unresolved, and making an engine model is a ValueError that says
// which module has it. Natively, and in the module whose bindings call
// link_model_engine(), the factory is the engine's (engine_session.cpp).
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "attn/trainer.hpp"

namespace attn::detail {

class EngineSession {
 public:
  virtual ~EngineSession() = default;
  virtual double step() = 0;
  virtual std::size_t steps_taken() const = 0;
  virtual Evaluation evaluate(std::span<const HeadRef> ablate, std::size_t examples) = 0;
  virtual AlignmentReading probe() = 0;
  virtual AlignmentReading translate(std::string_view sentence) = 0;
  virtual Generation generate(std::string_view sentence, bool cache) = 0;
  virtual std::vector<HeadScore> head_scores() = 0;
  virtual AlignmentAgreement alignment_agreement(std::size_t examples) = 0;
  virtual Trainer::TaskInfo task_info() const = 0;
  virtual FloatSpan parameter_values() = 0;
  // The engine's trainer behind it (cpp/src/training/engine_trainer.hpp), for tests.
  virtual training::EngineTrainer& trainer() = 0;
};

struct EngineFactory {
  std::unique_ptr<EngineSession> (*make)(const TrainerOptions& resolved);
  TrainerFootprint (*footprint)(const TrainerOptions& resolved);
};

#if defined(__EMSCRIPTEN__)
// Null unless the module links the engine (link_model_engine()).
const EngineFactory* engine_factory() __attribute__((weak));
#else
const EngineFactory* engine_factory();
#endif

// Called by the bindings of a module that trains the engine's models: links
// the engine (engine_factory()) into it.
void link_model_engine();

}  // namespace attn::detail
