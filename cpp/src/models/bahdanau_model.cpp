// bahdanau_model.cpp — `bahdanau`: the encoder-decoder of Bahdanau, Cho and
// Bengio 2015, whose decoder looks back at every source annotation through an
// additive score trained jointly with the rest.
//
//   encoder   bidirectional GRU: h_j = [h→_j; h←_j]  (B*S x 2H, layers/gru.hpp)
//   start     s_0 = tanh(h←_1 W_s + b_s)              (the backward state of the first token)
//   step t    e_tj = v_a^T tanh(W_a s_(t-1) + U_a h_j)  on the PREVIOUS state; U_a h_j once per source
//             a_t  = softmax over the real positions;  c_t = Σ_j a_tj h_j   (B x 2H)
//             s_t  = GRU([E_t y_(t-1); c_t], s_(t-1))
//   output    logits_t = [s_t; c_t] W_out + b_out   (d_readout = 3H)
//
// The read-out is linear: the paper's maxout hidden layer (and its use of
// E y_(t-1) in the read-out) shapes the output distribution of a 30,000-word
// translation model; these tasks have a few dozen words, and the point shown
// here, the alignment, is the attention's, which is the paper's as it is.
//
// Parameters (after the shared ones of recurrent_model.hpp, the decoder GRU
// among them, its extra input c_t 2H wide): the forward and backward encoder
// GRUs (H -> H each), W_s (H x H), b_s, U_a (2H x H), W_a (H x H), v_a (H x 1).
#include <memory>

#include "layers/activations.hpp"
#include "layers/combine.hpp"
#include "layers/step_attention.hpp"
#include "models/recurrent_model.hpp"
#include "models/recurrent_models.hpp"

namespace attn::models {

namespace {

template <class T>
class BahdanauModel final : public RecurrentModel<T> {
  using Base = RecurrentModel<T>;
  using typename Base::Source;
  using typename Base::State;
  using typename Base::Step;

 public:
  explicit BahdanauModel(const ModelConfig& config)
      : Base(config, 3 * config.d_model, 2 * config.d_model),
        forward_(this->add_gru("encoder.forward", config.d_model)),
        backward_(this->add_gru("encoder.backward", config.d_model)),
        w_s_(this->add_matrix("decoder.start.w", config.d_model, config.d_model)),
        b_s_(this->add_bias("decoder.start.b", config.d_model)),
        u_a_(this->add_matrix("attention.u_a", 2 * config.d_model, config.d_model)),
        w_a_(this->add_matrix("attention.w_a", config.d_model, config.d_model)),
        v_a_(this->add_matrix("attention.v_a", config.d_model, 1)) {}

 private:
  Source encode(Graph<T>& g, std::span<const std::int32_t> tokens, std::span<const std::int32_t> lengths,
                std::size_t length) override {
    const layers::BidirectionalGru<T> encoded = layers::bidirectional_gru(
        g, this->embed_source(g, tokens), lengths, length, this->gru(forward_), this->gru(backward_));
    // U_a h_j: the source's half of every score, once per source.
    const Tensor<T> keys = layers::linear(g, encoded.annotations, this->weight(u_a_));
    return {lengths, length, encoded.annotations, keys, encoded.backward_final};
  }

  State initial_state(Graph<T>& g, const Source& source) override {
    return {layers::tanh_of(g, layers::linear(g, source.final_state, this->weight(w_s_), this->weight(b_s_))), {}};
  }

  Step step(Graph<T>& g, const Source& source, const State& state, Tensor<T> token_gates) override {
    const Tensor<T> query = layers::linear(g, state.hidden, this->weight(w_a_));  // W_a s_(t-1)
    const Tensor<T> scores = layers::step_additive_scores(g, query, source.keys, this->weight(v_a_), source.length);
    const Tensor<T> weights = layers::step_softmax(g, scores, source.lengths);
    const Tensor<T> context = layers::step_context(g, weights, source.annotations);
    const Tensor<T> s = this->decoder_gru(g, token_gates, context, state.hidden);  // GRU([E_t y; c_t], s_(t-1))
    return {{s, {}}, layers::concat_columns(g, s, context), weights, {}};
  }

  typename Base::GruBlocks forward_, backward_;
  std::size_t w_s_, b_s_, u_a_, w_a_, v_a_;
};

}  // namespace

template <class T>
std::unique_ptr<Model<T>> make_bahdanau_model(const ModelConfig& config) {
  return std::make_unique<BahdanauModel<T>>(config);
}

template std::unique_ptr<Model<float>> make_bahdanau_model(const ModelConfig&);
template std::unique_ptr<Model<double>> make_bahdanau_model(const ModelConfig&);

}  // namespace attn::models
