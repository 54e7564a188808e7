// transformer_stack.hpp (internal) — what the two transformers (transformer,
// decoder) are built of: the token input and a stack of pre-LayerNorm blocks.
//
//   TokenInput        X = E[t] + positions        E vocabulary x d; positions per ModelConfig::positions
//   TransformerStack  per layer l (pre-LayerNorm, Xiong et al. 2020: the residual stream is never normalised,
//                     so gradients reach the first layer unchanged and no warm-up is needed):
//                       X = X + MHA(LN1(X))                       self-attention (causal in decoders)
//                       X = X + MHA(LN2(X), M)                    cross-attention over the encoder's M (decoder)
//                       X = X + MLP(LN3(X))                       MLP(x) = GELU(x W_1 + b_1) W_2 + b_2
//                     then LN_f(X). attention_only: X = X + MHA(X) per layer, nothing else (no LN_f).
//
// Initialisation (drawn in this order, per layer, from Parameters' generator):
//   E ~ N(0, 1), scaled by 1 (not sqrt(d)): token and sinusoidal position then
//     have entries of the same size (PE's mean square is 1/2); Vaswani et al.'s
//     sqrt(d) only undoes an N(0, 1/d) draw shared with the output layer, which
//     is not shared here. Learned positions ~ N(0, 1/2): the sinusoid's mean
//     square, so that learned and sinusoidal positions start as loud.
//   Matrices ~ N(0, 1/d_in) (fan-in): each projection keeps unit-variance
//     inputs at unit variance whatever d (6 in the tests, 64 in the benchmark);
//     GPT-2's fixed 0.02 was chosen for d = 768 and would shrink a d = 32
//     projection's output 9-fold. The matrices that write into the residual
//     stream (W_O, W_2) are further scaled by 1/sqrt(R), R the stack's residual
//     branches (2 per layer, 3 with cross-attention, 1 attention-only; GPT-2's
//     1/sqrt(2L)): the stream's variance then grows by at most 1 over the stack.
//   LayerNorm gains 1, biases 0; MLP biases 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "layers/graph.hpp"
#include "layers/multi_head_attention.hpp"
#include "layers/parameters.hpp"
#include "layers/positions.hpp"

namespace attn::models {

using layers::AttentionResult;
using layers::Graph;
using layers::Parameters;
using layers::Tensor;

// X = E[t] + P[first + i mod length] (layers/embedding.hpp, layers/positions.hpp).
template <class T>
class TokenInput {
 public:
  TokenInput(Parameters<T>& parameters, const std::string& name, std::size_t vocabulary, std::size_t max_length,
             std::size_t d, layers::Positions positions);
  // tokens: sequences of `length` tokens each, the first at position `first`.
  Tensor<T> operator()(Graph<T>& g, Parameters<T>& parameters, std::span<const std::int32_t> tokens, std::size_t length,
                       std::size_t first = 0);

 private:
  layers::Positions positions_;
  std::size_t table_ = 0, learned_ = 0;
  std::vector<T> sinusoids_;  // max_length x d
  std::size_t max_length_, d_;
};

struct StackShape {
  std::size_t layers = 1, d_model = 32, heads = 1, d_ff = 128;
  bool cross = false;           // cross-attention after each self-attention (the encoder-decoder's decoder)
  bool attention_only = false;  // no LayerNorm, no MLP
  bool scaled = true;           // scores times 1/sqrt(d_k)
};

// One attention of one pass: its kind ("encoder-self", "decoder-self", "cross"), layer and weights.
template <class T>
struct AttentionTrace {
  const char* kind;
  std::size_t layer;
  AttentionResult<T> result;
};

template <class T>
class TransformerStack {
 public:
  TransformerStack(Parameters<T>& parameters, const std::string& name, const StackShape& shape, const char* self_kind);

  // Teacher forcing, or the encoder: x is batch x n rows.
  struct Pass {
    std::size_t batch = 1;
    bool causal = false;
    const std::int32_t* lengths = nullptr;         // each example's real rows (keys beyond are masked), or null
    Tensor<T> memory;                              // cross: the encoder's output, batch x m rows
    const std::int32_t* memory_lengths = nullptr;  // cross: each source's real rows
  };
  Tensor<T> forward(Graph<T>& g, Parameters<T>& parameters, Tensor<T> x, const Pass& pass,
                    std::vector<AttentionTrace<T>>* traces);

  // Decoding one sequence: caches emptied (room for `capacity` positions) and, with
  // cross-attention, filled from the encoder's output `memory`.
  void start_decoding(Parameters<T>& parameters, Tensor<T> memory, std::size_t capacity);
  // The next rows of the sequence (their positions follow the cached ones), each attending the cache.
  Tensor<T> decode(Graph<T>& g, Parameters<T>& parameters, Tensor<T> x, std::vector<AttentionTrace<T>>* traces);
  std::size_t cached_rows() const { return self_cache_.empty() ? 0 : self_cache_.front().rows; }

  // Heads whose outputs are zeroed: one flag per (layer, head), for self- and cross-attention.
  std::vector<unsigned char>& ablated_self() { return ablated_self_; }
  std::vector<unsigned char>& ablated_cross() { return ablated_cross_; }
  const StackShape& shape() const { return shape_; }

 private:
  struct Block {
    std::size_t norm1[2], self[4], norm2[2], cross[4], norm3[2], mlp[4];  // parameter indices
  };
  template <class SelfAttention, class CrossAttention>
  Tensor<T> run(Graph<T>& g, Parameters<T>& parameters, Tensor<T> x, SelfAttention self, CrossAttention cross,
                std::vector<AttentionTrace<T>>* traces);
  layers::AttentionWeights<T> weights(Parameters<T>& parameters, const std::size_t (&w)[4]) const;
  layers::AttentionOptions options(std::size_t layer, bool cross) const;

  StackShape shape_;
  const char* self_kind_;
  std::vector<Block> blocks_;
  std::size_t final_norm_[2] = {0, 0};
  std::vector<unsigned char> ablated_self_, ablated_cross_;
  std::vector<layers::KeyValueCache<T>> self_cache_, cross_cache_;
};

}  // namespace attn::models
