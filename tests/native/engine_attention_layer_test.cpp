// engine_attention_layer_test.cpp — the multi-head attention layer of the
// engine (src/layers/multi_head_attention.hpp): its gradients against central
// differences in double (self, cross with n != m, causal, padding, ablation,
// odd widths), values worked by hand, rows with every key masked, and the
// key/value cache against the full computation.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "graph_gradient_check.hpp"
#include "layers/multi_head_attention.hpp"
#include "test_support.hpp"

namespace {

using namespace attn::layers;
using attn_test::check_graph_gradients;
using attn_test::Leaf;
using attn_test::random_leaf;
using T = double;
using Leaves = std::vector<Tensor<T>>;

// Leaves x_q (B*n x d), x_kv (B*m x d), W_Q, W_K, W_V, W_O (d x d).
std::vector<Leaf> attention_leaves(attn::Rng& rng, std::size_t batch, std::size_t n, std::size_t m, std::size_t d) {
  const double w = 1.0 / std::sqrt(static_cast<double>(d));
  return {random_leaf(rng, "x_q", batch * n, d), random_leaf(rng, "x_kv", batch * m, d),
          random_leaf(rng, "w_q", d, d, w),      random_leaf(rng, "w_k", d, d, w),
          random_leaf(rng, "w_v", d, d, w),      random_leaf(rng, "w_o", d, d, w)};
}

AttentionWeights<T> weights_of(const Leaves& t) { return {t[2], t[3], t[4], t[5]}; }

// The leaves as tensors without gradients (for passes that only compute values).
Leaves values_of(std::vector<Leaf>& leaves) {
  Leaves t;
  for (Leaf& l : leaves) t.push_back({l.values.data(), nullptr, l.rows, l.cols});
  return t;
}

// Cross-attention of x_q over x_kv against central differences.
void check_cross_attention(std::vector<Leaf>& leaves, const AttentionOptions& o) {
  check_graph_gradients(
      leaves, [&](Graph<T>& g, Leaves& t) { return multi_head_attention(g, t[0], t[1], weights_of(t), o).output; });
}

TEST(EngineAttentionLayer, SelfAttentionGradientsEveryMask) {
  attn::Rng rng(31);
  const std::vector<std::int32_t> lengths = {5, 3};
  for (std::size_t heads : {1, 2, 3})
    for (bool causal : {false, true})
      for (bool padded : {false, true})
        for (bool scaled : {false, true}) {
          std::vector<Leaf> leaves = attention_leaves(rng, 2, 5, 5, 6);
          leaves[1].differentiable = false;  // x_kv unused: self-attention reads x_q twice
          AttentionOptions o;
          o.batch = 2, o.heads = heads, o.causal = causal, o.scaled = scaled;
          o.key_lengths = padded ? lengths.data() : nullptr;
          SCOPED_TRACE(::testing::Message() << "heads " << heads << " causal " << causal << " padded " << padded);
          check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
            return multi_head_attention(g, t[0], t[0], weights_of(t), o).output;
          });
        }
}

TEST(EngineAttentionLayer, CrossAttentionGradientsWithMoreKeysThanQueries) {
  attn::Rng rng(32);
  const std::vector<std::int32_t> lengths = {7, 2, 4};
  for (std::size_t heads : {1, 3}) {
    std::vector<Leaf> leaves = attention_leaves(rng, 3, 3, 7, 9);
    AttentionOptions o;
    o.batch = 3, o.heads = heads, o.key_lengths = lengths.data();
    check_cross_attention(leaves, o);
  }
}

TEST(EngineAttentionLayer, CausalOffsetGradients) {
  // 2 queries at positions 3 and 4 of 5 keys (a block of a longer sequence).
  attn::Rng rng(33);
  std::vector<Leaf> leaves = attention_leaves(rng, 2, 2, 5, 4);
  AttentionOptions o;
  o.batch = 2, o.heads = 2, o.causal = true, o.causal_offset = 3;
  check_cross_attention(leaves, o);
}

TEST(EngineAttentionLayer, AblatedHeadsGradients) {
  attn::Rng rng(34);
  const std::vector<unsigned char> ablated = {0, 1, 0};
  std::vector<Leaf> leaves = attention_leaves(rng, 2, 3, 5, 6);
  AttentionOptions o;
  o.batch = 2, o.heads = 3, o.ablated = ablated.data();
  check_cross_attention(leaves, o);
}

// Y with head h ablated = Y with W_O's rows of head h zeroed (its columns of the concatenation dropped).
TEST(EngineAttentionLayer, AblatingAHeadDropsItsColumnsOfTheConcatenation) {
  attn::Rng rng(35);
  std::vector<Leaf> leaves = attention_leaves(rng, 2, 3, 4, 6);
  const Leaves t = values_of(leaves);
  const std::vector<unsigned char> ablated = {0, 1, 0};
  AttentionOptions o;
  o.batch = 2, o.heads = 3;
  Graph<T> g(Recording::Off);
  AttentionOptions with_ablation = o;
  with_ablation.ablated = ablated.data();
  const Tensor<T> y = multi_head_attention(g, t[0], t[1], weights_of(t), with_ablation).output;
  std::vector<T> w_o = leaves[5].values;
  for (std::size_t r = 2; r < 4; ++r)
    for (std::size_t c = 0; c < 6; ++c) w_o[r * 6 + c] = 0.0;  // head 1: rows 2, 3 of W_O
  Leaves dropped = t;
  dropped[5].value = w_o.data();
  const Tensor<T> expected = multi_head_attention(g, t[0], t[1], weights_of(dropped), o).output;
  EXPECT_TRUE(attn_test::all_close(std::vector<T>(y.value, y.value + y.size()),
                                   std::vector<T>(expected.value, expected.value + expected.size())));
  const Tensor<T> full = multi_head_attention(g, t[0], t[1], weights_of(t), o).output;
  EXPECT_NE(full.value[0], y.value[0]);  // the head did contribute
}

TEST(EngineAttentionLayer, ValuesByHand) {
  // One head, W = I, unscaled: Q = K = V = X = [[1, 0], [0, 1]], S = X X^T = I.
  // Unmasked: P_0 = (e, 1) / (e + 1), Y_0 = P_0 V = P_0. Causal: query 0 sees key 0 only: Y_0 = (1, 0).
  std::vector<T> x = {1, 0, 0, 1}, identity = {1, 0, 0, 1};
  const Tensor<T> X{x.data(), nullptr, 2, 2}, I{identity.data(), nullptr, 2, 2};
  AttentionOptions o;
  o.scaled = false;
  Graph<T> g(Recording::Off);
  const AttentionResult<T> plain = multi_head_attention(g, X, X, {I, I, I, I}, o);
  const double e = std::exp(1.0);
  EXPECT_NEAR(plain.output.value[0], e / (e + 1), 1e-15);
  EXPECT_NEAR(plain.output.value[1], 1 / (e + 1), 1e-15);
  EXPECT_NEAR(plain.weights[3], e / (e + 1), 1e-15);  // P_11
  o.causal = true;
  const AttentionResult<T> causal = multi_head_attention(g, X, X, {I, I, I, I}, o);
  EXPECT_EQ(causal.output.value[0], 1.0);
  EXPECT_EQ(causal.output.value[1], 0.0);
  EXPECT_EQ(causal.weights[1], 0.0);  // P_01: the future, masked
  // Scaled by 1/sqrt(d_k) = 1/sqrt(2): P_00 = e^(1/√2) / (e^(1/√2) + 1).
  o.causal = false, o.scaled = true;
  const AttentionResult<T> scaled = multi_head_attention(g, X, X, {I, I, I, I}, o);
  const double es = std::exp(1 / std::sqrt(2.0));
  EXPECT_NEAR(scaled.weights[0], es / (es + 1), 1e-15);
}

// An example whose every key is masked (key length 0): zero weights, zero output,
// zero gradients, no NaN anywhere.
TEST(EngineAttentionLayer, RowsWithEveryKeyMaskedGiveZerosNotNaN) {
  attn::Rng rng(36);
  const std::vector<std::int32_t> lengths = {3, 0};
  for (bool causal : {false, true}) {
    std::vector<Leaf> leaves = attention_leaves(rng, 2, 3, 3, 4);
    AttentionOptions o;
    o.batch = 2, o.heads = 2, o.key_lengths = lengths.data(), o.causal = causal;
    check_cross_attention(leaves, o);
    // Float, the training path: the second example's rows are exactly 0, and so are its input gradients.
    std::vector<float> x_q(6 * 4), x_kv(6 * 4), w(16);
    for (std::size_t i = 0; i < x_q.size(); ++i) x_q[i] = static_cast<float>(leaves[0].values[i]);
    for (std::size_t i = 0; i < x_kv.size(); ++i) x_kv[i] = static_cast<float>(leaves[1].values[i]);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(leaves[2].values[i]);
    std::vector<float> dq(x_q.size(), 0.f), dkv(x_kv.size(), 0.f), dw(16, 0.f);
    Graph<float> g;
    const Tensor<float> W{w.data(), dw.data(), 4, 4};
    const AttentionResult<float> r =
        multi_head_attention(g, Tensor<float>{x_q.data(), dq.data(), 6, 4},
                             Tensor<float>{x_kv.data(), dkv.data(), 6, 4}, AttentionWeights<float>{W, W, W, W}, o);
    for (std::size_t i = 0; i < r.output.size(); ++i) r.output.grad[i] = 1.0f;
    g.backward();
    for (std::size_t i = 12; i < 24; ++i) {
      EXPECT_EQ(r.output.value[i], 0.0f);
      EXPECT_EQ(dq[i], 0.0f);
      EXPECT_EQ(dkv[i], 0.0f);
    }
    for (std::size_t h = 0; h < 2; ++h)
      for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(r.weights_of(1, h)[i], 0.0f);
    for (float v : dw) EXPECT_TRUE(std::isfinite(v));
  }
}

// Padding: the weights of a key beyond the example's length are exactly 0 and the rows sum to 1.
TEST(EngineAttentionLayer, PaddedKeysGetNoWeight) {
  attn::Rng rng(37);
  const std::vector<std::int32_t> lengths = {2, 4};
  std::vector<Leaf> leaves = attention_leaves(rng, 2, 3, 4, 6);
  const Leaves t = values_of(leaves);
  AttentionOptions o;
  o.batch = 2, o.heads = 2, o.key_lengths = lengths.data();
  Graph<T> g(Recording::Off);
  const AttentionResult<T> r = multi_head_attention(g, t[0], t[1], weights_of(t), o);
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t h = 0; h < 2; ++h)
      for (std::size_t i = 0; i < 3; ++i) {
        const T* row = r.weights_of(b, h) + i * 4;
        double sum = 0;
        for (std::size_t j = 0; j < 4; ++j) {
          sum += row[j];
          if (j >= static_cast<std::size_t>(lengths[b]))
            EXPECT_EQ(row[j], 0.0);
          else
            EXPECT_GT(row[j], 0.0);
        }
        EXPECT_NEAR(sum, 1.0, 1e-15);
      }
}

// Decoding: rows fed one at a time through the cache give the rows of one causal pass over the whole sequence.
TEST(EngineAttentionLayer, CachedSelfAttentionEqualsTheCausalPass) {
  attn::Rng rng(38);
  std::vector<Leaf> leaves = attention_leaves(rng, 1, 6, 6, 6);
  const Leaves t = values_of(leaves);
  AttentionOptions o;
  o.heads = 3, o.causal = true;
  Graph<T> g(Recording::Off);
  const AttentionResult<T> full = multi_head_attention(g, t[0], t[0], weights_of(t), o);
  KeyValueCache<T> cache;
  cache.reset(6, 6);
  // the first two rows at once (a prompt), then one by one
  for (std::size_t first = 0; first < 6; first += first == 0 ? 2 : 1) {
    const std::size_t rows = first == 0 ? 2 : 1;
    const AttentionResult<T> step = cached_self_attention(g, t[0].rows_view(first, rows), weights_of(t), cache, o);
    EXPECT_EQ(cache.rows, first + rows);
    for (std::size_t i = 0; i < rows * 6; ++i) EXPECT_NEAR(step.output.value[i], full.output.row(first)[i], 1e-14);
    for (std::size_t h = 0; h < 3; ++h)
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < first + rows; ++j)
          EXPECT_NEAR(step.weights_of(0, h)[i * (first + rows) + j], full.weights_of(0, h)[(first + i) * 6 + j], 1e-14);
  }
}

TEST(EngineAttentionLayer, CachedCrossAttentionEqualsTheFullPass) {
  attn::Rng rng(39);
  std::vector<Leaf> leaves = attention_leaves(rng, 1, 3, 5, 4);
  const Leaves t = values_of(leaves);
  AttentionOptions o;
  o.heads = 2;
  Graph<T> g(Recording::Off);
  const AttentionResult<T> full = multi_head_attention(g, t[0], t[1], weights_of(t), o);
  KeyValueCache<T> cache;
  fill_cache(t[1], weights_of(t), cache);
  for (std::size_t i = 0; i < 3; ++i) {
    const AttentionResult<T> step = cached_cross_attention(g, t[0].rows_view(i, 1), weights_of(t), cache, o);
    for (std::size_t c = 0; c < 4; ++c) EXPECT_NEAR(step.output.value[c], full.output.row(i)[c], 1e-14);
  }
}

}  // namespace
