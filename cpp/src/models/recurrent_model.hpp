// recurrent_model.hpp (internal) — what the three recurrent models (rnn,
// bahdanau, luong) share: an encoder over the source, a GRU decoder that runs
// one step at a time on the previous token and, for some, something more
// (Bahdanau's context c_t, Luong's fed h~_(t-1)), and a linear read-out. Each
// model says only how it encodes, how its decoder starts and what one decoder
// step computes; this base runs the steps:
//
//   forward (teacher forcing, B examples)       start/next (greedy decoding, one example)
//   source = encode(E_s[source])                start: source = encode(...), state = initial_state(...),
//   state  = initial_state(source)                     both kept in members (cache = true)
//   G = E_t[input] W_iy + b_i  (B*T x 3H)       next(y): step on G of y alone and the kept state,
//   for t = 0 .. T-1:                                  which it replaces: one step per token
//     step = step(source, state, G_t)           cache = false: next(y) runs forward() on the source
//     readout_t = step.readout                         and the whole prefix, and keeps its last row
//     state = step.state                               (the same numbers: the same steps, recomputed)
//   logits = readout W_out + b_out
//
// The decoder GRU's input is [E_t y_(t-1); x_t] with x_t the model's extra
// input (none for rnn): its input weights are two blocks, W_i = [W_iy; W_ix],
// so that the token's share of the gates, G = E_t y W_iy + b_i, is one product
// over every position of the batch instead of one per step (decoder_gru adds
// x_t W_ix at each step).
//
// Shared parameters, drawn first in this order: the source embedding E_s
// (V_s x H), the target embedding E_t (V_t x H), the decoder GRU (W_iy H x 3H,
// W_ix extra x 3H, W_h, b_i, b_h), the read-out W_out (d_readout x V_t) and
// b_out; each model then adds its own.
//
// Initialisation (the same for every recurrent model): a matrix of fan-in n is
// N(0, 1/n) (LeCun's; W_iy and W_ix have the fan-in of the whole input), so
// that x W has about the variance of x and the gates and tanh start in their
// linear range, neither saturated (vanishing gradients) nor all near 0;
// embeddings N(0, 1), which with that scaling gives the first gates
// pre-activations of variance about 1; every bias 0, the GRU's too (PyTorch
// draws them uniformly, but 0 makes z start at 1/2: the state half kept, half
// replaced, and no unit favoured).
//
// Attention maps (bahdanau, luong; rnn has none): kind "cross", layer 0, one head, rows =
// the batch's target positions, cols = its padded source length S (the
// padding's weights are exactly 0); luong local adds p_t of each row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "layers/embedding.hpp"
#include "layers/gru.hpp"
#include "layers/linear.hpp"
#include "models/model.hpp"

namespace attn::models {

template <class T>
class RecurrentModel : public Model<T> {
 public:
  const ModelConfig& config() const override { return config_; }
  Parameters<T>& parameters() override { return parameters_; }

  Tensor<T> forward(Graph<T>& g, const Batch& batch, Reading* reading = nullptr) override;
  void start(std::span<const std::int32_t> source, std::span<const std::int32_t> prompt, bool cache) override;
  DecodedStep next(std::int32_t token) override;

 protected:
  // Checks the sizes of `config` (ValueError naming the field) and adds the
  // shared parameters: a decoder GRU whose extra input is `extra_input` wide, a
  // read-out from `readout_width` columns.
  RecurrentModel(const ModelConfig& config, std::size_t readout_width, std::size_t extra_input);

  // What the encoder leaves for the decoder: B examples of S positions.
  struct Source {
    std::span<const std::int32_t> lengths;  // B, each in [1, S]
    std::size_t length = 0;                 // S
    Tensor<T> annotations;                  // B*S x d_v: what the context averages (rnn: none)
    Tensor<T> keys;                         // B*S x d_k: the annotations as the score reads them
    Tensor<T> final_state;                  // B x H: where the decoder starts from
  };
  // The decoder's recurrent state, B rows each.
  struct State {
    Tensor<T> hidden;  // s_t (bahdanau, rnn) or h_t (luong)
    Tensor<T> fed;     // luong with input feeding: h~_t, fed into the next step; else none
  };
  struct Step {
    State state;
    Tensor<T> readout;    // B x readout_width: what the output layer reads
    Tensor<T> weights;    // B x S attention weights (rnn: none)
    Tensor<T> positions;  // B x 1 predicted positions p_t (luong local), else none
  };

  virtual Source encode(Graph<T>& g, std::span<const std::int32_t> tokens, std::span<const std::int32_t> lengths,
                        std::size_t length) = 0;
  virtual State initial_state(Graph<T>& g, const Source& source) = 0;
  // token_gates: B x 3H, the previous tokens' share of the decoder GRU's input part, E_t y W_iy + b_i.
  virtual Step step(Graph<T>& g, const Source& source, const State& state, Tensor<T> token_gates) = 0;

  // The decoder GRU's step: h' = GRU([E_t y; extra], h) from the token's gates.
  // `extra` is none (a null tensor) when the model has no extra input.
  Tensor<T> decoder_gru(Graph<T>& g, Tensor<T> token_gates, Tensor<T> extra, Tensor<T> h);

  // Parameters, added in the order of the calls (attn::Rng draws them in that order).
  std::size_t add_matrix(const std::string& name, std::size_t rows, std::size_t cols, std::size_t fan_in = 0);
  std::size_t add_bias(const std::string& name, std::size_t cols);   // 1 x cols of 0
  std::size_t add_embedding(const std::string& name, std::size_t rows);  // rows x H, N(0, 1)
  struct GruBlocks {
    std::size_t w_input, w_hidden, b_input, b_hidden;
  };
  GruBlocks add_gru(const std::string& name, std::size_t input_width);  // d_in -> H
  Tensor<T> weight(std::size_t block) { return parameters_.tensor(block); }
  layers::GruWeights<T> gru(const GruBlocks& blocks) {
    return {weight(blocks.w_input), weight(blocks.w_hidden), weight(blocks.b_input), weight(blocks.b_hidden)};
  }
  std::size_t hidden() const { return config_.d_model; }
  // E_s[tokens]: the encoders' input.
  Tensor<T> embed_source(Graph<T>& g, std::span<const std::int32_t> tokens) {
    return layers::embedding(g, weight(source_embedding_), tokens);
  }

 private:
  // E_t[tokens] W_iy + b_i
  Tensor<T> token_gates(Graph<T>& g, std::span<const std::int32_t> tokens) {
    return layers::linear(g, layers::embedding(g, weight(target_embedding_), tokens), weight(decoder_.w_input),
                          weight(decoder_.b_input));
  }
  Tensor<T> read_out(Graph<T>& g, Tensor<T> readout) {
    return layers::linear(g, readout, weight(output_weights_), weight(output_bias_));
  }
  DecodedStep next_with_state();
  DecodedStep next_by_recomputing();

  ModelConfig config_;
  Parameters<T> parameters_;
  std::size_t readout_width_;
  std::size_t source_embedding_, target_embedding_;
  GruBlocks decoder_;               // w_input = W_iy
  std::size_t decoder_extra_ = 0;   // W_ix (when the extra input is wider than 0)
  std::size_t output_weights_, output_bias_;

  // Greedy decoding: the source, the tokens fed so far, and (cache) what the
  // encoder and the last step left, copied out of the decoding graph, which
  // each step clears.
  Graph<T> decoding_{layers::Recording::Off};
  bool cache_ = true;
  std::vector<std::int32_t> source_, prefix_, source_length_;
  std::vector<T> annotations_, keys_, hidden_, fed_;
  std::size_t annotation_width_ = 0, key_width_ = 0;
  Batch recompute_;  // cache = false: the batch of one example forward() reruns
};

}  // namespace attn::models
