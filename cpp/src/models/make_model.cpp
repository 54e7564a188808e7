// make_model.cpp — the model of a configuration (model.hpp's factory): each
// kind's constructor lives with its model.
#include "attn/error.hpp"
#include "models/model.hpp"
#include "models/recurrent_models.hpp"
#include "models/transformer_model.hpp"

namespace attn::models {

template <class T>
std::unique_ptr<Model<T>> make_model(const ModelConfig& config) {
  switch (config.kind) {
    case ModelKind::Rnn:
      return make_rnn_model<T>(config);
    case ModelKind::Bahdanau:
      return make_bahdanau_model<T>(config);
    case ModelKind::Luong:
      return make_luong_model<T>(config);
    case ModelKind::Transformer:
    case ModelKind::Decoder:
      return make_transformer<T>(config);
    default:
      throw ValueError("config.kind: this model is not part of the engine yet");
  }
}

template std::unique_ptr<Model<float>> make_model(const ModelConfig&);
template std::unique_ptr<Model<double>> make_model(const ModelConfig&);

}  // namespace attn::models
