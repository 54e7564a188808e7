// transformer_stack.cpp — the token input and the stack of pre-LayerNorm blocks
// (transformer_stack.hpp), for teacher forcing and for decoding with the cache.
#include "models/transformer_stack.hpp"

#include <cmath>

#include "layers/combine.hpp"
#include "layers/embedding.hpp"
#include "layers/layer_norm.hpp"
#include "layers/mlp.hpp"

namespace attn::models {

using layers::Init;
using layers::Positions;
using layers::Role;

template <class T>
TokenInput<T>::TokenInput(Parameters<T>& parameters, const std::string& name, std::size_t vocabulary,
                          std::size_t max_length, std::size_t d, Positions positions)
    : positions_(positions), max_length_(max_length), d_(d) {
  table_ = parameters.add(name + ".embedding", vocabulary, d, Role::Embedding, Init::Normal, 1.0);
  if (positions == Positions::Learned)
    learned_ = parameters.add(name + ".positions", max_length, d, Role::Embedding, Init::Normal, std::sqrt(0.5));
  if (positions == Positions::Sinusoidal) sinusoids_ = layers::sinusoid_table<T>(max_length, d);
}

template <class T>
Tensor<T> TokenInput<T>::operator()(Graph<T>& g, Parameters<T>& parameters, std::span<const std::int32_t> tokens,
                                    std::size_t length, std::size_t first) {
  const Tensor<T> x = layers::embedding(g, parameters.tensor(table_), tokens);
  if (positions_ == Positions::None) return x;
  const Tensor<T> table = positions_ == Positions::Learned ? parameters.tensor(learned_)
                                                           : Tensor<T>{sinusoids_.data(), nullptr, max_length_, d_};
  return layers::add_positions(g, x, positions_, table, length, first);
}

template <class T>
TransformerStack<T>::TransformerStack(Parameters<T>& p, const std::string& name, const StackShape& shape,
                                      const char* self_kind)
    : shape_(shape), self_kind_(self_kind) {
  const std::size_t d = shape.d_model, d_ff = shape.d_ff;
  const std::size_t branches = shape.layers * (shape.attention_only ? 1 : shape.cross ? 3 : 2);
  const double fan_in = 1.0 / std::sqrt(static_cast<double>(d));
  const double residual = 1.0 / std::sqrt(static_cast<double>(branches));  // W_O and W_2
  const auto norm = [&](const std::string& prefix, std::size_t(&index)[2]) {
    index[0] = p.add(prefix + ".gain", 1, d, Role::Gain, Init::Ones);
    index[1] = p.add(prefix + ".bias", 1, d, Role::Bias, Init::Zeros);
  };
  const auto attention = [&](const std::string& prefix, std::size_t(&index)[4]) {
    const char* names[4] = {".w_q", ".w_k", ".w_v", ".w_o"};
    for (int i = 0; i < 4; ++i)
      index[i] = p.add(prefix + names[i], d, d, Role::Matrix, Init::Normal, i == 3 ? fan_in * residual : fan_in);
  };
  for (std::size_t l = 0; l < shape.layers; ++l) {
    const std::string prefix = name + "." + std::to_string(l);
    Block b{};
    if (!shape.attention_only) norm(prefix + ".norm1", b.norm1);
    attention(prefix + ".attention", b.self);
    if (shape.cross) {
      if (!shape.attention_only) norm(prefix + ".norm2", b.norm2);
      attention(prefix + ".cross", b.cross);
    }
    if (!shape.attention_only) {
      norm(prefix + ".norm3", b.norm3);
      b.mlp[0] = p.add(prefix + ".mlp.w1", d, d_ff, Role::Matrix, Init::Normal, fan_in);
      b.mlp[1] = p.add(prefix + ".mlp.b1", 1, d_ff, Role::Bias, Init::Zeros);
      b.mlp[2] = p.add(prefix + ".mlp.w2", d_ff, d, Role::Matrix, Init::Normal,
                       residual / std::sqrt(static_cast<double>(d_ff)));
      b.mlp[3] = p.add(prefix + ".mlp.b2", 1, d, Role::Bias, Init::Zeros);
    }
    blocks_.push_back(b);
  }
  if (!shape.attention_only) norm(name + ".norm", final_norm_);
  ablated_self_.assign(shape.layers * shape.heads, 0);
  ablated_cross_.assign(shape.cross ? shape.layers * shape.heads : 0, 0);
  self_cache_.resize(shape.layers);
  cross_cache_.resize(shape.cross ? shape.layers : 0);
}

template <class T>
layers::AttentionWeights<T> TransformerStack<T>::weights(Parameters<T>& p, const std::size_t (&w)[4]) const {
  return {p.tensor(w[0]), p.tensor(w[1]), p.tensor(w[2]), p.tensor(w[3])};
}

template <class T>
layers::AttentionOptions TransformerStack<T>::options(std::size_t layer, bool cross) const {
  layers::AttentionOptions o;
  o.heads = shape_.heads;
  o.scaled = shape_.scaled;
  o.ablated = (cross ? ablated_cross_ : ablated_self_).data() + layer * shape_.heads;
  return o;
}

// The blocks, whatever computes their attention (teacher forcing or the cache).
template <class T>
template <class SelfAttention, class CrossAttention>
Tensor<T> TransformerStack<T>::run(Graph<T>& g, Parameters<T>& p, Tensor<T> x, SelfAttention self, CrossAttention cross,
                                   std::vector<AttentionTrace<T>>* traces) {
  const auto norm = [&](Tensor<T> in, const std::size_t(&index)[2]) {
    return shape_.attention_only ? in : layers::layer_norm(g, in, p.tensor(index[0]), p.tensor(index[1]));
  };
  for (std::size_t l = 0; l < shape_.layers; ++l) {
    const Block& b = blocks_[l];
    // X = X + MHA(LN1(X))
    AttentionResult<T> a = self(l, norm(x, b.norm1), weights(p, b.self));
    if (traces != nullptr) traces->push_back({self_kind_, l, a});
    x = layers::add(g, x, a.output);
    // X = X + MHA(LN2(X), M)
    if (shape_.cross) {
      a = cross(l, norm(x, b.norm2), weights(p, b.cross));
      if (traces != nullptr) traces->push_back({"cross", l, a});
      x = layers::add(g, x, a.output);
    }
    // X = X + MLP(LN3(X))
    if (!shape_.attention_only) {
      const layers::MlpWeights<T> w{p.tensor(b.mlp[0]), p.tensor(b.mlp[1]), p.tensor(b.mlp[2]), p.tensor(b.mlp[3])};
      x = layers::add(g, x, layers::mlp(g, norm(x, b.norm3), w));
    }
  }
  return norm(x, final_norm_);
}

template <class T>
Tensor<T> TransformerStack<T>::forward(Graph<T>& g, Parameters<T>& p, Tensor<T> x, const Pass& pass,
                                       std::vector<AttentionTrace<T>>* traces) {
  const auto self = [&](std::size_t l, Tensor<T> h, const layers::AttentionWeights<T>& w) {
    layers::AttentionOptions o = options(l, false);
    o.batch = pass.batch;
    o.causal = pass.causal;
    o.key_lengths = pass.lengths;
    return layers::multi_head_attention(g, h, h, w, o);
  };
  const auto cross = [&](std::size_t l, Tensor<T> h, const layers::AttentionWeights<T>& w) {
    layers::AttentionOptions o = options(l, true);
    o.batch = pass.batch;
    o.key_lengths = pass.memory_lengths;
    return layers::multi_head_attention(g, h, pass.memory, w, o);
  };
  return run(g, p, x, self, cross, traces);
}

template <class T>
void TransformerStack<T>::start_decoding(Parameters<T>& p, Tensor<T> memory, std::size_t capacity) {
  for (std::size_t l = 0; l < shape_.layers; ++l) {
    self_cache_[l].reset(capacity, shape_.d_model);
    if (shape_.cross) layers::fill_cache(memory, weights(p, blocks_[l].cross), cross_cache_[l]);
  }
}

template <class T>
Tensor<T> TransformerStack<T>::decode(Graph<T>& g, Parameters<T>& p, Tensor<T> x,
                                      std::vector<AttentionTrace<T>>* traces) {
  const auto self = [&](std::size_t l, Tensor<T> h, const layers::AttentionWeights<T>& w) {
    return layers::cached_self_attention(g, h, w, self_cache_[l], options(l, false));
  };
  const auto cross = [&](std::size_t l, Tensor<T> h, const layers::AttentionWeights<T>& w) {
    return layers::cached_cross_attention(g, h, w, cross_cache_[l], options(l, true));
  };
  return run(g, p, x, self, cross, traces);
}

template class TokenInput<float>;
template class TokenInput<double>;
template class TransformerStack<float>;
template class TransformerStack<double>;

}  // namespace attn::models
