// engine_layers_test.cpp — the model engine's basic layers (src/layers/) against
// central finite differences in double, on odd shapes, and the float products
// (src/kernels/gemm.hpp) against the double ones.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "graph_gradient_check.hpp"
#include "kernels/gemm.hpp"
#include "layers/activations.hpp"
#include "layers/combine.hpp"
#include "layers/cross_entropy.hpp"
#include "layers/embedding.hpp"
#include "layers/layer_norm.hpp"
#include "layers/linear.hpp"
#include "layers/mlp.hpp"
#include "layers/positions.hpp"
#include "test_support.hpp"

namespace {

using namespace attn::layers;
using attn_test::check_graph_gradients;
using attn_test::Leaf;
using attn_test::random_leaf;
using T = double;
using Leaves = std::vector<Tensor<T>>;

TEST(EngineLayers, LinearWithAndWithoutBias) {
  attn::Rng rng(1);
  for (bool with_bias : {true, false}) {
    std::vector<Leaf> leaves = {random_leaf(rng, "x", 3, 5), random_leaf(rng, "w", 5, 7), random_leaf(rng, "b", 1, 7)};
    check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
      return linear(g, t[0], t[1], with_bias ? t[2] : Tensor<T>{});
    });
  }
}

TEST(EngineLayers, LinearOutputIsXTimesWPlusB) {
  // y = x W + b by hand: x = [1 2], W = [[1 0 2], [0 1 3]], b = [1 1 1] -> [2 3 9]
  std::vector<T> x = {1, 2}, w = {1, 0, 2, 0, 1, 3}, b = {1, 1, 1};
  Graph<T> g(Recording::Off);
  const Tensor<T> y = linear(g, {x.data(), nullptr, 1, 2}, {w.data(), nullptr, 2, 3}, {b.data(), nullptr, 1, 3});
  EXPECT_EQ(std::vector<T>(y.value, y.value + 3), (std::vector<T>{2, 3, 9}));
}

TEST(EngineLayers, EmbeddingSumsRepeatedTokens) {
  attn::Rng rng(2);
  std::vector<Leaf> leaves = {random_leaf(rng, "table", 5, 3)};
  const std::vector<std::int32_t> tokens = {4, 1, 4, 0, 4, 2, 1};
  check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) { return embedding(g, t[0], tokens); });
}

TEST(EngineLayers, PositionsOfEveryKind) {
  attn::Rng rng(3);
  const std::size_t length = 3, sequences = 2, d = 5;
  for (Positions kind : {Positions::None, Positions::Sinusoidal, Positions::Learned}) {
    for (std::size_t first : {std::size_t{0}, std::size_t{2}}) {
      std::vector<Leaf> leaves = {random_leaf(rng, "x", sequences * length, d), random_leaf(rng, "table", 7, d)};
      leaves[1].differentiable = kind == Positions::Learned;
      if (kind == Positions::Sinusoidal) leaves[1].values = sinusoid_table<T>(7, d);
      check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
        return add_positions(g, t[0], kind, t[1], length, first);
      });
    }
  }
}

TEST(EngineLayers, SinusoidalPositionsAddTheTable) {
  // Position p of a sequence gets PE_p: row 4 of x (second sequence of 3, first = 1) gets PE_(1 + 4 mod 3) = PE_2.
  const std::vector<T> table = sinusoid_table<T>(4, 2);
  std::vector<T> x(6 * 2, 0.0);
  Graph<T> g(Recording::Off);
  const Tensor<T> y = add_positions(g, Tensor<T>{x.data(), nullptr, 6, 2}, Positions::Sinusoidal,
                                    Tensor<T>{const_cast<T*>(table.data()), nullptr, 4, 2}, 3, 1);
  EXPECT_NEAR(y.row(4)[0], std::sin(2.0), 1e-7);  // PE(2, 0) = sin(2 / 10000^0)
  EXPECT_NEAR(y.row(4)[1], std::cos(2.0), 1e-7);
}

TEST(EngineLayers, Activations) {
  attn::Rng rng(4);
  for (int which = 0; which < 3; ++which) {
    std::vector<Leaf> leaves = {random_leaf(rng, "x", 3, 7, 2.0)};
    check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
      return which == 0 ? tanh_of(g, t[0]) : which == 1 ? sigmoid_of(g, t[0]) : gelu(g, t[0]);
    });
  }
}

TEST(EngineLayers, GeluValues) {
  // GELU's tanh form at 0, 1 and -3: 0; 0.5 (1 + tanh(sqrt(2/π) 1.044715)); small and negative.
  std::vector<T> x = {0.0, 1.0, -3.0};
  Graph<T> g(Recording::Off);
  const Tensor<T> y = gelu(g, Tensor<T>{x.data(), nullptr, 1, 3});
  EXPECT_EQ(y.value[0], 0.0);
  EXPECT_NEAR(y.value[1], 0.5 * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * 1.044715)), 1e-15);
  EXPECT_NEAR(y.value[1], 0.8412, 1e-4);  // Φ(1) = 0.8413: the tanh form is within 1e-4
  EXPECT_LT(y.value[2], 0.0);
  EXPECT_GT(y.value[2], -0.01);
}

// The float GELU (σ(2u) from the kernels' vector exp) against the double one (std::tanh), values and
// gradients, far into both tails: finite everywhere, ~0 and x at the ends.
TEST(EngineLayers, GeluInFloatMatchesDouble) {
  const std::vector<double> xs = {-100.0, -20.0, -5.0, -1.0, -0.1, 0.0, 1e-3, 0.5, 2.0, 7.0, 30.0, 100.0};
  std::vector<float> xf(xs.begin(), xs.end()), dxf(xs.size(), 0.0f);
  std::vector<double> xd = xs, dxd(xs.size(), 0.0);
  Graph<float> gf;
  Graph<double> gd;
  const Tensor<float> yf = gelu(gf, Tensor<float>{xf.data(), dxf.data(), 1, xs.size()});
  const Tensor<double> yd = gelu(gd, Tensor<double>{xd.data(), dxd.data(), 1, xs.size()});
  std::fill(yf.grad, yf.grad + xs.size(), 1.0f);
  std::fill(yd.grad, yd.grad + xs.size(), 1.0);
  gf.backward();
  gd.backward();
  EXPECT_TRUE(attn_test::all_close(std::vector<float>(yf.value, yf.value + xs.size()),
                                   std::vector<double>(yd.value, yd.value + xs.size())));
  EXPECT_TRUE(attn_test::all_close(dxf, dxd));
  EXPECT_LT(std::fabs(yf.value[0]), 1e-24f);  // x σ(2u) with 2u held above -60 (a normal float)
  EXPECT_EQ(yf.value[xs.size() - 1], 100.0f);
}

TEST(EngineLayers, AddConcatColumns) {
  attn::Rng rng(5);
  std::vector<Leaf> leaves = {random_leaf(rng, "a", 3, 2), random_leaf(rng, "b", 3, 5), random_leaf(rng, "c", 3, 2)};
  // A tensor used twice (a) collects both gradients.
  check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
    const Tensor<T> ab = concat_columns(g, t[0], t[1]);
    return concat_columns(g, add(g, columns(g, ab, 0, 2), add(g, t[0], t[2])), columns(g, ab, 3, 4));
  });
}

TEST(EngineLayers, LayerNorm) {
  attn::Rng rng(6);
  std::vector<Leaf> leaves = {random_leaf(rng, "x", 3, 7, 3.0), random_leaf(rng, "gain", 1, 7),
                              random_leaf(rng, "bias", 1, 7)};
  check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) { return layer_norm(g, t[0], t[1], t[2]); });
}

TEST(EngineLayers, LayerNormRowsHaveMeanZeroVarianceOne) {
  std::vector<T> x = {1, 2, 3, 10, -4, 7}, gain = {1, 1, 1}, bias = {0, 0, 0};
  Graph<T> g(Recording::Off);
  const Tensor<T> y = layer_norm(g, Tensor<T>{x.data(), nullptr, 2, 3}, Tensor<T>{gain.data(), nullptr, 1, 3},
                                 Tensor<T>{bias.data(), nullptr, 1, 3});
  for (std::size_t r = 0; r < 2; ++r) {
    double mean = 0, square = 0;
    for (std::size_t c = 0; c < 3; ++c) mean += y.row(r)[c] / 3, square += y.row(r)[c] * y.row(r)[c] / 3;
    EXPECT_NEAR(mean, 0.0, 1e-12);
    // variance 1 up to ε: mean of x̂² = σ² / (σ² + 1e-5), σ² = 2/3 (1, 2, 3) and 978/27 (10, -4, 7)
    const double variance = r == 0 ? 2.0 / 3.0 : 978.0 / 27.0;
    EXPECT_NEAR(square, variance / (variance + 1e-5), 1e-12);
  }
}

TEST(EngineLayers, MaskedCrossEntropy) {
  attn::Rng rng(7);
  std::vector<Leaf> leaves = {random_leaf(rng, "logits", 5, 7, 2.0)};
  const std::vector<std::int32_t> targets = {3, 0, 6, 6, 1};
  const std::vector<unsigned char> mask = {1, 0, 1, 1, 0};
  check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) { return cross_entropy(g, t[0], targets, mask); });
  check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) { return cross_entropy(g, t[0], targets); });
}

TEST(EngineLayers, CrossEntropyValueAndCounts) {
  // Row 0: z = (0, ln 3), target 1: p = 3/4, -ln(3/4). Row 1 masked out. Row 2: z = (2, 0), target 1: ln(1 + e^2).
  std::vector<T> z = {0.0, std::log(3.0), 5.0, 5.0, 2.0, 0.0};
  const std::vector<std::int32_t> targets = {1, 0, 1};
  const std::vector<unsigned char> mask = {1, 0, 1};
  Graph<T> g(Recording::Off);
  const LossCounts c = cross_entropy(g, Tensor<T>{z.data(), nullptr, 3, 2}, targets, mask);
  EXPECT_EQ(c.counted, 2u);
  EXPECT_EQ(c.correct, 1u);  // row 0 right, row 2 wrong
  EXPECT_NEAR(c.loss, (-std::log(0.75) + std::log(1.0 + std::exp(2.0))) / 2.0, 1e-14);
}

TEST(EngineLayers, Mlp) {
  attn::Rng rng(8);
  std::vector<Leaf> leaves = {random_leaf(rng, "x", 3, 5), random_leaf(rng, "w1", 5, 9, 0.5),
                              random_leaf(rng, "b1", 1, 9), random_leaf(rng, "w2", 9, 5, 0.5),
                              random_leaf(rng, "b2", 1, 5)};
  check_graph_gradients(leaves, [&](Graph<T>& g, Leaves& t) {
    return mlp(g, t[0], MlpWeights<T>{t[1], t[2], t[3], t[4]});
  });
}

// The float products against the double ones, at sizes around the vector widths.
TEST(EngineGemm, FloatMatchesDoubleOnOddSizes) {
  attn::Rng rng(9);
  using attn::kernels::Accumulate;
  for (std::size_t n : {1, 3, 7, 17, 33})
    for (std::size_t k : {1, 5, 16, 31})
      for (std::size_t m : {1, 3, 8, 15, 17, 65})
        for (Accumulate mode : {Accumulate::Overwrite, Accumulate::Add})
          for (int form = 0; form < 3; ++form) {
            // nn: a n x k, b k x m;  nt: a n x k, b m x k;  tn: a k x n, b k x m
            const std::vector<float> a = rng.normal_matrix(n, k), b = rng.normal_matrix(k, m),
                                     c0 = rng.normal_matrix(n, m);
            std::vector<float> c = c0;
            std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end()), cd(c0.begin(), c0.end());
            if (form == 0) {
              attn::kernels::gemm_nn(a.data(), b.data(), c.data(), n, k, m, mode);
              attn::kernels::gemm_nn(ad.data(), bd.data(), cd.data(), n, k, m, mode);
            } else if (form == 1) {
              attn::kernels::gemm_nt(a.data(), b.data(), c.data(), n, k, m, mode);
              attn::kernels::gemm_nt(ad.data(), bd.data(), cd.data(), n, k, m, mode);
            } else {
              attn::kernels::gemm_tn(a.data(), b.data(), c.data(), n, k, m, mode);
              attn::kernels::gemm_tn(ad.data(), bd.data(), cd.data(), n, k, m, mode);
            }
            ASSERT_TRUE(attn_test::all_close(c, cd)) << "form " << form << " n " << n << " k " << k << " m " << m;
          }
}

TEST(EngineGraph, SecondPassOfTheSameShapeAllocatesNoMoreMemory) {
  attn::Rng rng(10);
  std::vector<float> w = rng.normal_matrix(8, 8), x = rng.normal_matrix(5, 8);
  Graph<float> g;
  std::size_t capacity = 0;
  for (int pass = 0; pass < 3; ++pass) {
    g.clear();
    Tensor<float> y = Tensor<float>{x.data(), nullptr, 5, 8};
    for (int layer = 0; layer < 50; ++layer) y = tanh_of(g, linear(g, y, Tensor<float>{w.data(), nullptr, 8, 8}));
    if (pass == 1) capacity = g.capacity();
    if (pass == 2) EXPECT_EQ(g.capacity(), capacity);
  }
}

}  // namespace
