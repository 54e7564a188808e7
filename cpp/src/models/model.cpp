// model.cpp — make_model: the model of config.kind (model.hpp).
#include "models/model.hpp"

#include "attn/error.hpp"
#include "models/recurrent_models.hpp"

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
    default:
      throw ValueError("config.kind: no engine model of this kind is built yet");
  }
}

template std::unique_ptr<Model<float>> make_model(const ModelConfig&);
template std::unique_ptr<Model<double>> make_model(const ModelConfig&);

}  // namespace attn::models
