// engine_recurrent_layers_test.cpp — the recurrent layers of the model engine
// (src/layers/gru, step_attention, local_window, time_steps) against central
// finite differences in double on odd shapes with padding (B = 3, S = 5,
// lengths 5, 2, 4), and their values by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "graph_gradient_check.hpp"
#include "layers/combine.hpp"
#include "layers/fast_tanh.hpp"
#include "layers/gru.hpp"
#include "layers/linear.hpp"
#include "layers/local_window.hpp"
#include "layers/step_attention.hpp"
#include "layers/time_steps.hpp"

namespace {

using namespace attn::layers;
using attn_test::check_graph_gradients;
using attn_test::Leaf;
using attn_test::random_leaf;
using T = double;
using Leaves = std::vector<Tensor<T>>;

constexpr std::size_t kBatch = 3, kLength = 5, kIn = 7, kHidden = 3;
const std::vector<std::int32_t> kLengths = {5, 2, 4};

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The GRU's leaves after `first` ones: W_i, W_h, b_i, b_h.
void add_gru_leaves(attn::Rng& rng, std::vector<Leaf>& leaves, std::size_t d_in, const char* prefix = "") {
  const std::string p = prefix;
  leaves.push_back(random_leaf(rng, p + "w_input", d_in, 3 * kHidden, 0.5));
  leaves.push_back(random_leaf(rng, p + "w_hidden", kHidden, 3 * kHidden, 0.5));
  leaves.push_back(random_leaf(rng, p + "b_input", 1, 3 * kHidden, 0.5));
  leaves.push_back(random_leaf(rng, p + "b_hidden", 1, 3 * kHidden, 0.5));
}
GruWeights<T> gru_of(const Leaves& t, std::size_t first) { return {t[first], t[first + 1], t[first + 2], t[first + 3]}; }

TEST(EngineRecurrentLayers, GruCellGradients) {
  attn::Rng rng(21);
  std::vector<Leaf> leaves = {random_leaf(rng, "x", kBatch, kIn), random_leaf(rng, "h", kBatch, kHidden)};
  add_gru_leaves(rng, leaves, kIn);
  check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
    const GruWeights<T> w = gru_of(t, 2);
    return gru_cell(g, gru_input(g, t[0], w), t[1], w);
  });
}

TEST(EngineRecurrentLayers, GruCellValueByHand) {
  // H = 1, d_in = 1: x = 1, h = 0.5; columns [r z n].
  std::vector<T> x = {1.0}, h = {0.5}, w_i = {0.2, -0.3, 0.4}, w_h = {0.1, 0.5, -0.6}, b_i = {0.0, 0.1, 0.0},
                 b_h = {0.05, 0.0, 0.2};
  const double r = sigmoid(0.2 + 0.0 + 0.5 * 0.1 + 0.05);      // σ(x W_ir + b_ir + h W_hr + b_hr) = σ(0.3)
  const double z = sigmoid(-0.3 + 0.1 + 0.5 * 0.5 + 0.0);      // σ(0.05)
  const double n = std::tanh(0.4 + 0.0 + r * (0.5 * -0.6 + 0.2));  // tanh(0.4 - 0.1 r)
  const double expected = (1 - z) * n + z * 0.5;
  EXPECT_NEAR(expected, 0.41701, 1e-5);  // σ(0.3) = 0.57444, σ(0.05) = 0.51250, n = tanh(0.34256) = 0.32976
  Graph<T> g(Recording::Off);
  const GruWeights<T> w{{w_i.data(), nullptr, 1, 3}, {w_h.data(), nullptr, 1, 3}, {b_i.data(), nullptr, 1, 3},
                        {b_h.data(), nullptr, 1, 3}};
  const Tensor<T> out = gru_cell(g, gru_input(g, Tensor<T>{x.data(), nullptr, 1, 1}, w), {h.data(), nullptr, 1, 1}, w);
  EXPECT_NEAR(out.value[0], expected, 1e-15);
}

TEST(EngineRecurrentLayers, GruSequenceGradientsBothDirections) {
  attn::Rng rng(22);
  for (Direction direction : {Direction::Forward, Direction::Backward}) {
    for (bool final_state : {false, true}) {
      std::vector<Leaf> leaves = {random_leaf(rng, "x", kBatch * kLength, kIn)};
      add_gru_leaves(rng, leaves, kIn);
      check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
        const GruSequence<T> s = gru_sequence(g, t[0], kLengths, kLength, gru_of(t, 1), direction);
        return final_state ? s.final : s.states;
      });
    }
  }
}

TEST(EngineRecurrentLayers, BidirectionalGruGradients) {
  attn::Rng rng(23);
  for (int output = 0; output < 3; ++output) {
    std::vector<Leaf> leaves = {random_leaf(rng, "x", kBatch * kLength, kIn)};
    add_gru_leaves(rng, leaves, kIn, "forward.");
    add_gru_leaves(rng, leaves, kIn, "backward.");
    check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
      const BidirectionalGru<T> s = bidirectional_gru(g, t[0], kLengths, kLength, gru_of(t, 1), gru_of(t, 5));
      return output == 0 ? s.annotations : output == 1 ? s.forward_final : s.backward_final;
    });
  }
}

// The unrolled sequence is the cell run over each example's real tokens alone,
// forward from position 0 or backward from its own last token; at padding the
// forward state stays the final one and the backward state is 0. The padding's
// inputs get a gradient of exactly 0.
TEST(EngineRecurrentLayers, GruSequenceIsTheCellOverEachExampleAlone) {
  attn::Rng rng(24);
  std::vector<Leaf> leaves = {random_leaf(rng, "x", kBatch * kLength, kIn)};
  add_gru_leaves(rng, leaves, kIn);
  std::vector<Tensor<T>> t;
  std::vector<std::vector<T>> grads;
  for (Leaf& leaf : leaves) {
    grads.emplace_back(leaf.values.size(), 0.0);
    t.push_back({leaf.values.data(), grads.back().data(), leaf.rows, leaf.cols});
  }
  const GruWeights<T> w = gru_of(t, 1);
  for (Direction direction : {Direction::Forward, Direction::Backward}) {
    Graph<T> g;
    const GruSequence<T> s = gru_sequence(g, t[0], kLengths, kLength, w, direction);
    for (std::size_t b = 0; b < kBatch; ++b) {
      const std::size_t length = static_cast<std::size_t>(kLengths[b]);
      std::vector<T> h(kHidden, 0.0);
      for (std::size_t k = 0; k < length; ++k) {
        const std::size_t p = direction == Direction::Forward ? k : length - 1 - k;
        Graph<T> one(Recording::Off);
        const Tensor<T> x = {t[0].row(b * kLength + p), nullptr, 1, kIn};
        const Tensor<T> next = gru_cell(one, gru_input(one, x, w), Tensor<T>{h.data(), nullptr, 1, kHidden}, w);
        h.assign(next.value, next.value + kHidden);
        for (std::size_t c = 0; c < kHidden; ++c) EXPECT_NEAR(s.states.row(b * kLength + p)[c], h[c], 1e-14);
      }
      for (std::size_t c = 0; c < kHidden; ++c) EXPECT_NEAR(s.final.row(b)[c], h[c], 1e-14);
      for (std::size_t p = length; p < kLength; ++p)
        for (std::size_t c = 0; c < kHidden; ++c)
          EXPECT_EQ(s.states.row(b * kLength + p)[c], direction == Direction::Forward ? s.final.row(b)[c] : 0.0);
    }
    for (std::size_t i = 0; i < s.states.size(); ++i) s.states.grad[i] = 1.0;
    for (std::size_t i = 0; i < s.final.size(); ++i) s.final.grad[i] = 1.0;
    g.backward();
    for (std::size_t b = 0; b < kBatch; ++b)
      for (std::size_t p = static_cast<std::size_t>(kLengths[b]); p < kLength; ++p)
        for (std::size_t c = 0; c < kIn; ++c) EXPECT_EQ(t[0].grad_row(b * kLength + p)[c], 0.0) << b << " " << p;
  }
}

// Scores of every kind, the softmax over the real positions and the context, composed.
TEST(EngineRecurrentLayers, StepAttentionGradientsEveryScore) {
  attn::Rng rng(25);
  const std::size_t d = 5;
  for (int kind = 0; kind < 4; ++kind) {  // dot, scaled dot, general, additive
    std::vector<Leaf> leaves = {random_leaf(rng, "query", kBatch, d), random_leaf(rng, "keys", kBatch * kLength, d),
                                random_leaf(rng, "values", kBatch * kLength, 2 * kHidden),
                                random_leaf(rng, "w_a", d, d, 0.5), random_leaf(rng, "v_a", d, 1)};
    leaves[3].differentiable = kind >= 2;
    leaves[4].differentiable = kind == 3;
    check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
      Tensor<T> e;
      if (kind == 0) e = step_dot_scores(g, t[0], t[1], kLength);
      if (kind == 1) e = step_dot_scores(g, t[0], t[1], kLength, 1.0 / std::sqrt(double(d)));
      if (kind == 2) e = step_dot_scores(g, t[0], linear(g, t[1], t[3]), kLength);
      if (kind == 3) e = step_additive_scores(g, linear(g, t[0], t[3]), t[1], t[4], kLength);
      const Tensor<T> a = step_softmax(g, e, kLengths);
      return concat_columns(g, a, step_context(g, a, t[2]));
    });
  }
}

TEST(EngineRecurrentLayers, SoftmaxWeighsOnlyRealPositions) {
  attn::Rng rng(26);
  Leaf e = random_leaf(rng, "e", 4, kLength, 30.0);  // large scores: the maximum is subtracted
  const std::vector<std::int32_t> lengths = {5, 2, 4, 0};
  Graph<T> g(Recording::Off);
  const Tensor<T> a = step_softmax(g, Tensor<T>{e.values.data(), nullptr, 4, kLength}, lengths);
  for (std::size_t b = 0; b < 4; ++b) {
    double sum = 0;
    for (std::size_t j = 0; j < kLength; ++j) {
      if (j >= static_cast<std::size_t>(lengths[b])) EXPECT_EQ(a.row(b)[j], 0.0);
      EXPECT_TRUE(std::isfinite(a.row(b)[j]));
      sum += a.row(b)[j];
    }
    EXPECT_NEAR(sum, lengths[b] > 0 ? 1.0 : 0.0, 1e-15);  // an example of length 0: zeros, not NaN
  }
}

TEST(EngineRecurrentLayers, DotAndAdditiveScoresByHand) {
  // One example, S = 3, length 2. Dot: q = (1, 0), keys (1, 0), (0, 1), (2, 0) -> e = (1, 0, 2);
  // a = (e/(e+1), 1/(e+1), 0) (the padding's score 2 is the largest and still gets 0); c = (a_0, a_1).
  std::vector<T> q = {1, 0}, keys = {1, 0, 0, 1, 2, 0};
  const std::vector<std::int32_t> lengths = {2};
  Graph<T> g(Recording::Off);
  const Tensor<T> e = step_dot_scores(g, Tensor<T>{q.data(), nullptr, 1, 2}, {keys.data(), nullptr, 3, 2}, 3);
  EXPECT_EQ(std::vector<T>(e.value, e.value + 3), (std::vector<T>{1, 0, 2}));
  const Tensor<T> a = step_softmax(g, e, lengths);
  const double euler = std::exp(1.0);
  EXPECT_NEAR(a.value[0], euler / (euler + 1), 1e-15);
  EXPECT_NEAR(a.value[1], 1 / (euler + 1), 1e-15);
  EXPECT_EQ(a.value[2], 0.0);
  const Tensor<T> c = step_context(g, a, {keys.data(), nullptr, 3, 2});
  EXPECT_NEAR(c.value[0], euler / (euler + 1), 1e-15);
  EXPECT_NEAR(c.value[1], 1 / (euler + 1), 1e-15);
  // Additive: W_a s = 0.5, U_a h = (0.5, -0.5), v = 2 -> e = (2 tanh 1, 2 tanh 0) = (1.52319, 0).
  std::vector<T> wq = {0.5}, uk = {0.5, -0.5}, v = {2};
  const Tensor<T> additive =
      step_additive_scores(g, Tensor<T>{wq.data(), nullptr, 1, 1}, {uk.data(), nullptr, 2, 1}, {v.data(), nullptr, 1, 1}, 2);
  EXPECT_NEAR(additive.value[0], 2 * std::tanh(1.0), 1e-15);
  EXPECT_NEAR(additive.value[0], 1.52319, 1e-5);
  EXPECT_EQ(additive.value[1], 0.0);
}

TEST(EngineRecurrentLayers, LocalWindowGradients) {
  attn::Rng rng(27);
  std::vector<Leaf> leaves = {random_leaf(rng, "h", kBatch, kHidden), random_leaf(rng, "w_p", kHidden, 5),
                              random_leaf(rng, "v_p", 5, 1), random_leaf(rng, "scores", kBatch, kLength)};
  for (T sigma : {0.5, 1.0, 1.5}) {
    check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
      const Tensor<T> p = local_position(g, t[0], t[1], t[2], kLengths);
      return concat_columns(g, p, gaussian_window(g, step_softmax(g, t[3], kLengths), p, sigma));
    });
  }
}

TEST(EngineRecurrentLayers, LocalWindowByHand) {
  // u = 0: p = S_b σ(0) = S_b / 2; a' = a exp(-(j - p)² / (2σ²)), not renormalised; padding stays 0.
  std::vector<T> u = {0.0, 0.0}, a = {0.2, 0.2, 0.2, 0.2, 0.2, 0.5, 0.5, 0.0, 0.0, 0.0};
  const std::vector<std::int32_t> lengths = {5, 2};
  const T sigma = 1.0;  // D = 2
  Graph<T> g(Recording::Off);
  const Tensor<T> p = predicted_positions(g, Tensor<T>{u.data(), nullptr, 2, 1}, lengths);
  EXPECT_EQ(p.value[0], 2.5);
  EXPECT_EQ(p.value[1], 1.0);
  const Tensor<T> w = gaussian_window(g, Tensor<T>{a.data(), nullptr, 2, 5}, p, sigma);
  for (std::size_t j = 0; j < 5; ++j) {
    EXPECT_NEAR(w.row(0)[j], 0.2 * std::exp(-(j - 2.5) * (j - 2.5) / 2), 1e-16);
    EXPECT_NEAR(w.row(1)[j], a[5 + j] * std::exp(-(j - 1.0) * (j - 1.0) / 2), 1e-16);
  }
  EXPECT_EQ(w.row(1)[1], 0.5);  // at p itself the weight is kept
  EXPECT_EQ(w.row(1)[2], 0.0);  // padding
}

TEST(EngineRecurrentLayers, TimeStepRowsGradients) {
  attn::Rng rng(28);
  const std::size_t steps = 4;
  std::vector<Leaf> leaves = {random_leaf(rng, "x", kBatch * steps, 5)};
  check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
    // Z's step s = X's steps s + 1 (mod 4) and s: every row of X read twice, every row of Z written once.
    const Tensor<T> z = g.tensor(kBatch * steps, 5);
    for (std::size_t s = 0; s < steps; ++s) {
      const Tensor<T> sum = add(g, step_rows(g, t[0], steps, (s + 1) % steps), step_rows(g, t[0], steps, s));
      put_step_rows(g, sum, z, steps, s);
    }
    return z;
  });
}

// The float tanh (Eigen's rational form, no libm) against std::tanh in double:
// within 4e-7 absolute everywhere (the largest error is past the clamp c = 7.905, where
// tanh c = 1 - 2.7e-7 stands for values up to 1: about 5 float ulp below 1), odd, and ±1 far out.
TEST(EngineRecurrentLayers, FastTanhIsTanhToFloatPrecision) {
  double worst = 0;
  for (int i = -200000; i <= 200000; ++i) {
    const float x = static_cast<float>(i) * 1e-4f;  // [-20, 20]
    worst = std::max(worst, std::fabs(double(fast_tanh(x)) - std::tanh(double(x))));
    ASSERT_EQ(fast_tanh(-x), -fast_tanh(x));
  }
  EXPECT_LT(worst, 4e-7);
  // ±1 to float precision (the value at the clamp, whose last bit depends on whether the
  // compiler contracts a*b+c into a fused multiply-add: GCC does not here, Clang does).
  EXPECT_NEAR(fast_tanh(1e30f), 1.0f, 4e-7);
  EXPECT_EQ(fast_tanh(-1e30f), -fast_tanh(1e30f));
  EXPECT_EQ(fast_tanh(0.0f), 0.0f);
  EXPECT_NEAR(sigmoid_value(-3.0f), 1.0 / (1.0 + std::exp(3.0)), 2e-7);
}

// The float path (fast tanh and σ, the SIMD products) computes the double path's numbers.
TEST(EngineRecurrentLayers, FloatGruAndAdditiveScoresMatchDouble) {
  attn::Rng rng(29);
  std::vector<Leaf> leaves = {random_leaf(rng, "x", kBatch * kLength, kIn)};
  add_gru_leaves(rng, leaves, kIn);
  leaves.push_back(random_leaf(rng, "v", kHidden, 1));
  const auto run = [&](auto zero) {
    using F = decltype(zero);
    std::vector<std::vector<F>> values;
    std::vector<Tensor<F>> t;
    for (const Leaf& leaf : leaves) values.emplace_back(leaf.values.begin(), leaf.values.end());
    for (std::size_t i = 0; i < leaves.size(); ++i) t.push_back({values[i].data(), nullptr, leaves[i].rows, leaves[i].cols});
    Graph<F> g(Recording::Off);
    const GruSequence<F> s = gru_sequence(g, t[0], kLengths, kLength, GruWeights<F>{t[1], t[2], t[3], t[4]},
                                          Direction::Backward);
    const Tensor<F> e = step_additive_scores(g, s.final, s.states, t[5], kLength);
    std::vector<double> out(s.states.value, s.states.value + s.states.size());
    out.insert(out.end(), e.value, e.value + e.size());
    return out;
  };
  const std::vector<double> in_float = run(0.0f), in_double = run(0.0);
  for (std::size_t i = 0; i < in_double.size(); ++i) EXPECT_NEAR(in_float[i], in_double[i], 1e-5) << i;
}

}  // namespace
