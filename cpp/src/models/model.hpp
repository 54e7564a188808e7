// model.hpp (internal) — what the trainer asks of every model of the engine.
//
// A model is a configuration of the layers of src/layers/ over its
// Parameters. The trainer (src/training/trainer.cpp) only ever calls:
//
//   forward(g, batch, reading)   teacher forcing: the logits of every position of the batch,
//                                B*T x output_vocabulary, recorded on g (the trainer adds the
//                                masked cross-entropy of layers/cross_entropy.hpp and runs
//                                g.backward()); with `reading`, every attention map is copied there
//   start(source) / next(token)  greedy decoding one token at a time, keeping state instead of
//                                recomputing: the recurrent state (rnn, bahdanau, luong) or a
//                                key/value cache, one new row per token (transformer, decoder);
//                                with cache = false, `next` recomputes the whole prefix instead
//                                (the same tokens, weights within float rounding: the tests hold
//                                them to 1e-5)
//   set_ablation(heads)          evaluation with chosen heads' outputs zeroed (transformers)
//
// Models are templates over the scalar type: float for training, double for
// the gradient checks (tests/native/engine_models_test.cpp checks every model's
// gradient against central differences in double on odd shapes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "attn/attention_map.hpp"
#include "attn/trainer_options.hpp"
#include "layers/graph.hpp"
#include "layers/parameters.hpp"
#include "layers/positions.hpp"
#include "models/batch.hpp"

namespace attn::models {

using layers::Graph;
using layers::Parameters;
using layers::Tensor;

using ModelKind = attn::ModelKind;  // attn/trainer_options.hpp
enum class Score { Dot, ScaledDot, General, Concat };  // concat = additive, v^T tanh(W_a s + U_a h)
enum class Window { Global, Local };

// Every size and switch a model is built from (the trainer fills it from its options).
struct ModelConfig {
  ModelKind kind = ModelKind::Transformer;
  std::size_t source_vocabulary = 0;  // ids 0..V_s-1 (vocabulary.hpp)
  std::size_t target_vocabulary = 0;  // output ids 0..V_t-1, BOS and EOS included
  std::size_t max_source_length = 0;  // the longest source (learned positions, the local window's S)
  std::size_t max_target_length = 0;  // the longest decoder sequence T (learned positions)
  std::size_t d_model = 32;           // the width of embeddings and hidden states (H of the GRUs)
  std::size_t heads = 1;              // transformer, decoder
  std::size_t layers = 1;             // transformer, decoder
  std::size_t d_ff = 0;               // the MLP's hidden width; 0: 4 * d_model
  layers::Positions positions = layers::Positions::Sinusoidal;  // transformer, decoder
  bool causal = true;                 // decoder self-attention masked causally in training
  bool attention_only = false;        // decoder: no MLP, no LayerNorm
  Score score = Score::Dot;           // luong (bahdanau is always Concat)
  Window window = Window::Global;     // luong
  std::size_t window_half_width = 2;  // luong local: D (sigma = D / 2)
  bool input_feeding = true;          // luong
  bool scaled = true;                 // transformer scores times 1/sqrt(d_k)
  std::uint64_t seed = 1;             // the initial parameters
};

// One attention map of one example: rows x cols weights per head (the public type).
using AttentionMap = attn::AttentionMap;

// Filled by forward() when given: the maps of example `example` of the batch.
struct Reading {
  std::size_t example = 0;
  std::vector<AttentionMap> maps;
};

struct HeadRef {
  std::size_t layer = 0, head = 0;
};

// One step of greedy decoding.
struct DecodedStep {
  std::vector<float> logits;       // output_vocabulary
  std::vector<AttentionMap> maps;  // this step's attention rows (rows = 1), one map per attention
  std::size_t cache_length = 0;    // rows of the key/value cache (or recurrent steps) after this step
};

template <class T>
class Model {
 public:
  virtual ~Model() = default;

  virtual const ModelConfig& config() const = 0;
  virtual Parameters<T>& parameters() = 0;

  // Logits B*T x target_vocabulary, rows (example, position); recorded on g.
  virtual Tensor<T> forward(Graph<T>& g, const Batch& batch, Reading* reading = nullptr) = 0;

  // Greedy decoding of one example. start() takes the source (empty for
  // decoder-only models, whose prompt is given token by token through next(),
  // or all at once as `prompt`); next(token) feeds the token at the next
  // position and returns the logits for the one after it.
  virtual void start(std::span<const std::int32_t> source, std::span<const std::int32_t> prompt, bool cache) = 0;
  virtual DecodedStep next(std::int32_t token) = 0;

  // Heads whose outputs are zeroed from now on (empty: none). Models without heads ignore it.
  virtual void set_ablation(std::span<const HeadRef> heads) { (void)heads; }
};

// The model of config.kind, parameters drawn from config.seed.
template <class T>
std::unique_ptr<Model<T>> make_model(const ModelConfig& config);

}  // namespace attn::models
