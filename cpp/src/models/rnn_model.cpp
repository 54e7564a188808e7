// rnn_model.cpp — `rnn`: the encoder-decoder without attention (Sutskever et
// al. 2014, with GRUs; Cho et al. 2014): the whole source squeezed into one
// vector, the articles' bottleneck.
//
//   encoder   h_j = GRU(E_s x_j, h_(j-1)), h_0 = 0;  the decoder starts from the final state
//             h of each example's last real token:  s_0 = h_(S_b)
//   decoder   s_t = GRU(E_t y_(t-1), s_(t-1))        y_0 = BOS
//   output    logits_t = s_t W_out + b_out           (d_readout = H)
//
// Parameters (after the shared ones of recurrent_model.hpp, the decoder GRU
// among them, with no extra input): the encoder GRU (H -> H).
#include <memory>

#include "models/recurrent_model.hpp"
#include "models/recurrent_models.hpp"

namespace attn::models {

namespace {

template <class T>
class RnnModel final : public RecurrentModel<T> {
  using Base = RecurrentModel<T>;
  using typename Base::Source;
  using typename Base::State;
  using typename Base::Step;

 public:
  explicit RnnModel(const ModelConfig& config)
      : Base(config, config.d_model, 0), encoder_(this->add_gru("encoder.gru", config.d_model)) {}

 private:
  Source encode(Graph<T>& g, std::span<const std::int32_t> tokens, std::span<const std::int32_t> lengths,
                std::size_t length) override {
    const layers::GruSequence<T> encoded = layers::gru_sequence(g, this->embed_source(g, tokens), lengths, length,
                                                                this->gru(encoder_), layers::Direction::Forward);
    return {lengths, length, {}, {}, encoded.final};
  }
  State initial_state(Graph<T>&, const Source& source) override { return {source.final_state, {}}; }
  Step step(Graph<T>& g, const Source&, const State& state, Tensor<T> token_gates) override {
    const Tensor<T> s = this->decoder_gru(g, token_gates, {}, state.hidden);
    return {{s, {}}, s, {}, {}};
  }
  typename Base::GruBlocks encoder_;
};

}  // namespace

template <class T>
std::unique_ptr<Model<T>> make_rnn_model(const ModelConfig& config) {
  return std::make_unique<RnnModel<T>>(config);
}

template std::unique_ptr<Model<float>> make_rnn_model(const ModelConfig&);
template std::unique_ptr<Model<double>> make_rnn_model(const ModelConfig&);

}  // namespace attn::models
