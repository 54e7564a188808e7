// luong_model.cpp — `luong`: the attention variants of Luong, Pham and
// Manning 2015 on a GRU encoder-decoder (one layer each; the paper stacks
// LSTMs), each switch of ModelConfig one of the paper's choices.
//
//   encoder   h̄_j = GRU(E_s x_j, h̄_(j-1)): the annotations (B*S x H); h_0 = h̄ of the last real token
//   step t    h_t  = GRU(input_t, h_(t-1)),   input_t = [E_t y_(t-1); h~_(t-1)] with input feeding
//                                             (h~_0 = 0), else E_t y_(t-1)
//             e_tj on the CURRENT state h_t (score):
//               dot          h_t · h̄_j                  (encoder and decoder both H wide)
//               scaled dot   h_t · h̄_j / sqrt(H)
//               general      h_t^T W_a h̄_j              (h̄_j W_a^T once per source)
//               concat       v_a^T tanh(W_a h_t + U_a h̄_j)   (U_a h̄_j once per source)
//             a_t = softmax over the real positions
//             window local-p: p_t = S_b σ(v_p^T tanh(W_p h_t)),
//               a_tj *= exp(-(j - p_t)² / (2σ²)), σ = D/2 (layers/local_window.hpp: not truncated,
//               not renormalised)
//             c_t  = Σ_j a_tj h̄_j;   h~_t = tanh(W_c [c_t; h_t])   (no bias, as in the paper)
//   output    logits_t = h~_t W_out + b_out   (d_readout = H)
//
// Parameters (after the shared ones of recurrent_model.hpp, the decoder GRU
// among them, its extra input h~_(t-1) H wide with input feeding, else none):
// the encoder GRU (H -> H), then by score: general W_a (H x H); concat U_a
// (H x H), W_a (H x H), v_a (H x 1); local: W_p (H x H), v_p (H x 1); last W_c
// (2H x H). Each is stored d_in x d_out and applied to rows, x W (linear.hpp):
// the paper's matrix transposed.
#include <cmath>
#include <memory>
#include <string>

#include "attn/error.hpp"
#include "layers/activations.hpp"
#include "layers/combine.hpp"
#include "layers/local_window.hpp"
#include "layers/step_attention.hpp"
#include "models/recurrent_model.hpp"
#include "models/recurrent_models.hpp"

namespace attn::models {

namespace {

const ModelConfig& checked(const ModelConfig& config) {
  if (config.window == Window::Local && config.window_half_width == 0)
    throw ValueError("config.window_half_width: expected a positive D for the local window (sigma = D/2), got 0");
  return config;
}

template <class T>
class LuongModel final : public RecurrentModel<T> {
  using Base = RecurrentModel<T>;
  using typename Base::Source;
  using typename Base::State;
  using typename Base::Step;

 public:
  explicit LuongModel(const ModelConfig& config)
      : Base(checked(config), config.d_model, config.input_feeding ? config.d_model : 0) {
    const std::size_t h = config.d_model;
    encoder_ = this->add_gru("encoder.gru", h);
    if (config.score == Score::General) w_a_ = this->add_matrix("attention.w_a", h, h);
    if (config.score == Score::Concat) {
      u_a_ = this->add_matrix("attention.u_a", h, h);
      w_a_ = this->add_matrix("attention.w_a", h, h);
      v_a_ = this->add_matrix("attention.v_a", h, 1);
    }
    if (config.window == Window::Local) {
      w_p_ = this->add_matrix("attention.w_p", h, h);
      v_p_ = this->add_matrix("attention.v_p", h, 1);
    }
    w_c_ = this->add_matrix("attentional.w_c", 2 * h, h);
  }

 private:
  Source encode(Graph<T>& g, std::span<const std::int32_t> tokens, std::span<const std::int32_t> lengths,
                std::size_t length) override {
    const layers::GruSequence<T> encoded = layers::gru_sequence(g, this->embed_source(g, tokens), lengths, length,
                                                                this->gru(encoder_), layers::Direction::Forward);
    // The annotations as the score reads them, projected once per source.
    Tensor<T> keys = encoded.states;
    if (score() == Score::General) keys = layers::linear(g, encoded.states, this->weight(w_a_));
    if (score() == Score::Concat) keys = layers::linear(g, encoded.states, this->weight(u_a_));
    return {lengths, length, encoded.states, keys, encoded.final};
  }

  State initial_state(Graph<T>& g, const Source& source) override {
    if (!this->config().input_feeding) return {source.final_state, {}};
    Tensor<T> none = g.constant(source.final_state.rows, this->hidden());  // h~_0 = 0
    std::fill_n(none.value, none.size(), T(0));
    return {source.final_state, none};
  }

  Step step(Graph<T>& g, const Source& source, const State& state, Tensor<T> token_gates) override {
    const ModelConfig& c = this->config();
    // h_t = GRU([E_t y_(t-1); h~_(t-1)], h_(t-1)) with input feeding (state.fed), else GRU(E_t y_(t-1), h_(t-1))
    const Tensor<T> h = this->decoder_gru(g, token_gates, state.fed, state.hidden);
    Tensor<T> weights = layers::step_softmax(g, scores(g, source, h), source.lengths);
    Tensor<T> positions;
    if (c.window == Window::Local) {
      positions = layers::local_position(g, h, this->weight(w_p_), this->weight(v_p_), source.lengths);
      weights = layers::gaussian_window(g, weights, positions, static_cast<T>(c.window_half_width) / T(2));
    }
    const Tensor<T> context = layers::step_context(g, weights, source.annotations);
    const Tensor<T> attentional =
        layers::tanh_of(g, layers::linear(g, layers::concat_columns(g, context, h), this->weight(w_c_)));
    return {{h, c.input_feeding ? attentional : Tensor<T>{}}, attentional, weights, positions};
  }

  Tensor<T> scores(Graph<T>& g, const Source& source, Tensor<T> h) {
    switch (score()) {
      case Score::Dot:
      case Score::General:
        return layers::step_dot_scores(g, h, source.keys, source.length);
      case Score::ScaledDot:
        return layers::step_dot_scores(g, h, source.keys, source.length,
                                       static_cast<T>(1.0 / std::sqrt(static_cast<double>(this->hidden()))));
      case Score::Concat:
        return layers::step_additive_scores(g, layers::linear(g, h, this->weight(w_a_)), source.keys,
                                            this->weight(v_a_), source.length);
    }
    return {};
  }
  Score score() const { return this->config().score; }

  typename Base::GruBlocks encoder_{};
  std::size_t w_a_ = 0, u_a_ = 0, v_a_ = 0, w_p_ = 0, v_p_ = 0, w_c_ = 0;
};

}  // namespace

template <class T>
std::unique_ptr<Model<T>> make_luong_model(const ModelConfig& config) {
  return std::make_unique<LuongModel<T>>(config);
}

template std::unique_ptr<Model<float>> make_luong_model(const ModelConfig&);
template std::unique_ptr<Model<double>> make_luong_model(const ModelConfig&);

}  // namespace attn::models
