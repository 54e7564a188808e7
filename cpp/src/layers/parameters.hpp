// parameters.hpp (internal) — a model's parameters: one flat array of values
// and one of gradients, cut into named blocks. The optimizer sees the flat
// arrays (attn/adam.hpp) and, per block, whether weight decay applies.
//
// Blocks are added in order, each drawn at once from the model's generator:
//   Init::Normal  N(0, stddev^2) by attn::Rng::normal (the same bits in every
//                 build: drawn in double, rounded to T)
//   Init::Zeros, Init::Ones
// so the same seed and the same sequence of add() calls give the same initial
// parameters natively, in wasm, and (exactly rounded) in double.
//
// Role says what a block is, which sets whether AdamW decays it: only the
// matrices of linear maps (Role::Matrix) decay; embeddings, learned positions,
// biases and LayerNorm gains do not (decay would pull an embedding of a rare
// token to 0, and a gain towards 0 rather than towards its initial 1).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "attn/random.hpp"
#include "layers/graph.hpp"

namespace attn::layers {

enum class Init { Normal, Zeros, Ones };
enum class Role { Matrix, Embedding, Bias, Gain };

struct ParameterBlock {
  std::string name;  // "encoder.0.attention.w_q"
  std::size_t offset, rows, cols;
  Role role;
};

template <class T>
class Parameters {
 public:
  explicit Parameters(std::uint64_t seed) : rng_(seed) {}

  // Appends a rows x cols block drawn now; returns its index for tensor().
  std::size_t add(std::string name, std::size_t rows, std::size_t cols, Role role, Init init, double stddev = 0.0) {
    const std::size_t offset = values_.size();
    if (init == Init::Normal) {
      for (std::size_t i = 0; i < rows * cols; ++i) values_.push_back(static_cast<T>(stddev * rng_.normal()));
    } else {
      values_.resize(offset + rows * cols, init == Init::Ones ? T(1) : T(0));
    }
    grads_.resize(values_.size(), T(0));
    blocks_.push_back({std::move(name), offset, rows, cols, role});
    return blocks_.size() - 1;
  }

  // The block as a tensor over the flat arrays (valid until the next add()).
  Tensor<T> tensor(std::size_t index) {
    const ParameterBlock& b = blocks_[index];
    return {values_.data() + b.offset, grads_.data() + b.offset, b.rows, b.cols};
  }

  std::span<T> values() { return values_; }
  std::span<const T> values() const { return values_; }
  std::span<T> gradients() { return grads_; }
  std::span<const T> gradients() const { return grads_; }
  const std::vector<ParameterBlock>& blocks() const { return blocks_; }
  std::size_t size() const { return values_.size(); }
  void zero_gradients() { std::fill(grads_.begin(), grads_.end(), T(0)); }

  // 1 where AdamW decays the parameter (Role::Matrix), else 0.
  std::vector<unsigned char> decay_mask() const {
    std::vector<unsigned char> mask(values_.size(), 0);
    for (const ParameterBlock& b : blocks_)
      if (b.role == Role::Matrix) std::fill_n(mask.begin() + b.offset, b.rows * b.cols, 1);
    return mask;
  }

 private:
  Rng rng_;
  std::vector<T> values_, grads_;
  std::vector<ParameterBlock> blocks_;
};

}  // namespace attn::layers
