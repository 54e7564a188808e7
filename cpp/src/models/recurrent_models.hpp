// recurrent_models.hpp (internal) — the factories of the recurrent models,
// for make_model (make_model.cpp): rnn_model.cpp, bahdanau_model.cpp, luong_model.cpp.
#pragma once

#include <memory>

#include "models/model.hpp"

namespace attn::models {

template <class T>
std::unique_ptr<Model<T>> make_rnn_model(const ModelConfig& config);
template <class T>
std::unique_ptr<Model<T>> make_bahdanau_model(const ModelConfig& config);
template <class T>
std::unique_ptr<Model<T>> make_luong_model(const ModelConfig& config);

}  // namespace attn::models
