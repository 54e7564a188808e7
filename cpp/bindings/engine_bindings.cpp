// engine_bindings.cpp — links the model engine (rnn, bahdanau, luong,
// transformer, decoder: cpp/src/training/engine_session.hpp) into the module
// it is part of: attention-learning-<build>, whose createTrainer trains every
// model. The module without it (attention-backward-<build>: the backward pass
// and the one-layer 'attention' model, for a page that trains only that) has
// none of the engine's code. No function of its own: the trainer's bindings
// (trainer_bindings.cpp) serve both.
#include <emscripten/bind.h>

#include "training/engine_session.hpp"

EMSCRIPTEN_BINDINGS(model_engine) { attn::detail::link_model_engine(); }
