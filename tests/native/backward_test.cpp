// The attention backward pass (attn/backward.hpp): the double-precision
// reference against central finite differences of a double forward pass (every
// scale kind, every mask kind, fully masked rows); the SIMD full path and the
// tiled path against the reference on odd sizes and block shapes; exact zeros
// where masked; hostile logits; bad input and its messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "attn/backward.hpp"
#include "attn/error.hpp"
#include "attn/random.hpp"
#include "attn/testing.hpp"
#include "double_forward.hpp"
#include "gradient_check.hpp"
#include "mask_kinds.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;
using attn_test::every_mask_kind;
using attn_test::gradient_matches;
using attn_test::kDoubleGradientTolerance;
using attn_test::to_double;

struct Operands {
  std::vector<float> q, k, v, grad_output;
};

Operands random_operands(const attn::AttentionShape& s, attn::Rng& rng, double stddev = 1.0) {
  return {rng.normal_matrix(s.n, s.d_k, stddev), rng.normal_matrix(s.m, s.d_k, stddev), rng.normal_matrix(s.m, s.d_v),
          rng.normal_matrix(s.n, s.d_v)};
}

std::string describe(const attn::AttentionShape& s, const attn::AttentionOptions& o) {
  return "n=" + std::to_string(s.n) + " m=" + std::to_string(s.m) + " d_k=" + std::to_string(s.d_k) +
         " d_v=" + std::to_string(s.d_v) + " mask kind " + std::to_string(static_cast<int>(o.mask.kind)) +
         " scale kind " + std::to_string(static_cast<int>(o.scale.kind));
}

// dL/dq, dL/dk, dL/dv of L = sum(dO * O) against central differences of the
// double forward pass: relative error <= 1e-6 for every tensor.
TEST(AttentionBackward, ReferenceMatchesFiniteDifferences) {
  const attn::AttentionShape shapes[] = {{1, 1, 1, 1}, {3, 5, 2, 3}, {5, 3, 3, 1}, {7, 4, 5, 3}};
  const attn::Scale scales[] = {attn::Scale::inverse_sqrt_dk(), attn::Scale::none(), attn::Scale::by(0.7f)};
  attn::Rng rng(800);
  for (const auto& shape : shapes) {
    const Operands x = random_operands(shape, rng);
    for (const attn::Scale& scale : scales) {
      for (const attn::Mask& mask : every_mask_kind(shape.n, shape.m, rng)) {
        const attn::AttentionOptions options{scale, mask};
        const auto analytic = attn::reference::attention_backward(x.q, x.k, x.v, x.grad_output, shape, options);
        const auto keep = attn::keep_matrix(mask, shape.n, shape.m);
        const double factor = scale.factor(shape.d_k);
        std::vector<double> q = to_double(x.q), k = to_double(x.k), v = to_double(x.v);
        const std::vector<double> grad_output = to_double(x.grad_output);
        const auto loss = [&] {
          return attn_test::dot_double(
              grad_output, attn_test::attention_double(q, k, v, shape.n, shape.m, shape.d_k, shape.d_v, factor, keep));
        };
        SCOPED_TRACE(describe(shape, options));
        EXPECT_TRUE(gradient_matches(analytic.q, attn_test::numeric_gradient(q, loss), kDoubleGradientTolerance));
        EXPECT_TRUE(gradient_matches(analytic.k, attn_test::numeric_gradient(k, loss), kDoubleGradientTolerance));
        EXPECT_TRUE(gradient_matches(analytic.v, attn_test::numeric_gradient(v, loss), kDoubleGradientTolerance));
      }
    }
  }
}

struct AllPaths {
  attn::AttentionGradients reference, full, tiled;
};

AllPaths all_paths(const Operands& x, const attn::AttentionShape& shape, const attn::AttentionOptions& options,
                   const attn::testing::TileSizes& tiles = {}) {
  const auto forward = attn::testing::attention_forward_tiled(x.q, x.k, x.v, shape, options, tiles);
  return {attn::reference::attention_backward(x.q, x.k, x.v, x.grad_output, shape, options),
          attn::attention_backward(x.q, x.k, x.v, x.grad_output, shape, options),
          attn::testing::attention_backward_tiled(x.q, x.k, x.v, x.grad_output, forward, shape, options, tiles)};
}

// Every entry of dQ, dK and dV finite (not NaN, not infinite).
::testing::AssertionResult all_finite(const attn::AttentionGradients& g) {
  for (const auto& [name, tensor] : {std::pair{"dQ", &g.q}, std::pair{"dK", &g.k}, std::pair{"dV", &g.v}})
    for (std::size_t i = 0; i < tensor->size(); ++i)
      if (!std::isfinite((*tensor)[i])) return ::testing::AssertionFailure() << name << "[" << i << "] = " << (*tensor)[i];
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult same_gradients(const attn::AttentionGradients& actual,
                                          const attn::AttentionGradients& expected) {
  if (auto r = all_close(actual.q, expected.q); !r) return r << " (dQ)";
  if (auto r = all_close(actual.k, expected.k); !r) return r << " (dK)";
  if (auto r = all_close(actual.v, expected.v); !r) return r << " (dV)";
  return ::testing::AssertionSuccess();
}

// Lengths around the vector widths (4, 8) and the block sizes, shorter than a
// block and not a multiple of it; every mask kind; four block shapes.
TEST(AttentionBackward, FastAndTiledMatchTheReferenceOnOddSizes) {
  const std::size_t lengths[] = {1, 3, 4, 5, 7, 8, 9, 17, 31, 33, 65};
  const std::size_t widths[][2] = {{1, 1}, {7, 9}, {8, 8}, {17, 33}};
  const attn::testing::TileSizes tiles[] = {{64, 64}, {4, 8}, {16, 16}, {3, 5}};
  attn::Rng rng(801);
  std::size_t case_index = 0;
  for (std::size_t n : lengths) {
    for (std::size_t m : lengths) {
      const auto [d_k, d_v] = std::pair{widths[case_index % 4][0], widths[case_index % 4][1]};
      const attn::testing::TileSizes& tile = tiles[case_index % 4];
      ++case_index;
      const attn::AttentionShape shape{n, m, d_k, d_v};
      const Operands x = random_operands(shape, rng);
      for (const attn::Mask& mask : every_mask_kind(n, m, rng)) {
        const attn::AttentionOptions options{attn::Scale::inverse_sqrt_dk(), mask};
        const AllPaths paths = all_paths(x, shape, options, tile);
        EXPECT_TRUE(same_gradients(paths.full, paths.reference)) << describe(shape, options);
        EXPECT_TRUE(same_gradients(paths.tiled, paths.reference))
            << describe(shape, options) << " tiles " << tile.queries << "x" << tile.keys;
      }
    }
  }
}

// The tiled backward on every kernel variant this CPU runs (its blocks are the
// variant's: lanes 1, 4, 8, 16 pad the query blocks differently), odd sizes,
// every mask kind, blocks shorter than a vector and longer.
TEST(AttentionBackward, TiledMatchesTheReferenceOnEveryKernelVariant) {
  const std::size_t lengths[] = {1, 5, 17, 33};
  const attn::testing::TileSizes tiles[] = {{3, 5}, {16, 16}, {17, 9}, {64, 64}};
  attn::Rng rng(806);
  for (const attn::kernels::KernelTable* table : attn::testing::kernel_variants()) {
    const attn::testing::ForceKernelVariant variant(table->name);
    std::size_t case_index = 0;
    for (std::size_t n : lengths) {
      for (std::size_t m : lengths) {
        const attn::AttentionShape shape{n, m, 1 + case_index % 7, 1 + case_index % 5};
        const attn::testing::TileSizes& tile = tiles[case_index++ % 4];
        const Operands x = random_operands(shape, rng);
        for (const attn::Mask& mask : every_mask_kind(n, m, rng)) {
          const attn::AttentionOptions options{attn::Scale::inverse_sqrt_dk(), mask};
          const AllPaths paths = all_paths(x, shape, options, tile);
          EXPECT_TRUE(same_gradients(paths.tiled, paths.reference))
              << table->name << " " << describe(shape, options) << " tiles " << tile.queries << "x" << tile.keys;
        }
      }
    }
  }
}

// L_i = ln sum_j exp(scale q_i . k_j) over the keys row i keeps, computed in
// double here; -inf for a fully masked row.
void expect_row_log_sum_exp(const std::vector<double>& log_sum_exp, const Operands& x, const attn::AttentionShape& shape,
                            const std::vector<std::uint8_t>& keep, double scale) {
  for (std::size_t i = 0; i < shape.n; ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < shape.m; ++j) {
      if (!keep[i * shape.m + j]) continue;
      double s = 0.0;
      for (std::size_t c = 0; c < shape.d_k; ++c) s += static_cast<double>(x.q[i * shape.d_k + c]) * x.k[j * shape.d_k + c];
      sum += std::exp(scale * s);
    }
    if (sum == 0.0) {
      EXPECT_EQ(log_sum_exp[i], -std::numeric_limits<double>::infinity()) << "row " << i;
    } else {
      EXPECT_NEAR(log_sum_exp[i], std::log(sum), 1e-5 * (1.0 + std::fabs(std::log(sum)))) << "row " << i;
    }
  }
}

// The tiled forward is attention_output's own (the same bits with the same
// blocks), and its L_i is the row's log-sum-exp; every kernel variant, every
// mask kind, two block shapes, the default scale and a given one.
TEST(AttentionBackward, TiledForwardIsTheOutputsForwardWithTheRowLogSumExp) {
  attn::Rng rng(807);
  const attn::AttentionShape shape{13, 11, 6, 5};
  const Operands x = random_operands(shape, rng, 2.0);
  const attn::testing::TileSizes tiles[] = {{4, 3}, {64, 64}};
  for (const attn::kernels::KernelTable* table : attn::testing::kernel_variants()) {
    const attn::testing::ForceKernelVariant variant(table->name);
    for (const attn::Mask& mask : every_mask_kind(shape.n, shape.m, rng)) {
      for (const attn::AttentionOptions options : {attn::AttentionOptions{attn::Scale::inverse_sqrt_dk(), mask},
                                                   attn::AttentionOptions{attn::Scale::by(0.9), mask}}) {
        for (const attn::testing::TileSizes& tile : tiles) {
          SCOPED_TRACE(::testing::Message() << table->name << " " << describe(shape, options) << " tiles " << tile.queries);
          const auto forward = attn::testing::attention_forward_tiled(x.q, x.k, x.v, shape, options, tile);
          EXPECT_EQ(forward.output, attn::testing::attention_output(x.q, x.k, x.v, shape, options, tile));
          expect_row_log_sum_exp(forward.log_sum_exp, x, shape, attn::keep_matrix(mask, shape.n, shape.m),
                                 options.scale.factor(shape.d_k));
        }
      }
    }
  }
}

// Keys that no query sees get dK = dV = 0 exactly; a query that sees no key
// gets dQ = 0 exactly; every gradient of every path is finite. Causal with
// n < m: keys j >= n are never seen; the keep-matrix masks query 2 entirely.
TEST(AttentionBackward, MaskedEntriesGetExactlyZeroGradient) {
  attn::Rng rng(802);
  const attn::AttentionShape shape{5, 9, 4, 3};
  const Operands x = random_operands(shape, rng);
  std::vector<std::uint8_t> keep(5 * 9, 1);
  for (std::size_t j = 0; j < 9; ++j) keep[2 * 9 + j] = 0;
  for (std::size_t i = 0; i < 5; ++i) keep[i * 9 + 4] = 0;  // key 4 seen by nobody

  struct Case {
    attn::Mask mask;
    std::vector<std::size_t> unseen_keys, blind_queries;
  };
  const Case cases[] = {{attn::Mask::causal(), {5, 6, 7, 8}, {}},
                        {attn::Mask::key_padding(6), {6, 7, 8}, {}},
                        {attn::Mask::key_padding(0), {0, 1, 2, 3, 4, 5, 6, 7, 8}, {0, 1, 2, 3, 4}},
                        {attn::Mask::explicit_keep(keep), {4}, {2}}};
  for (const Case& c : cases) {
    const attn::AttentionOptions options{attn::Scale::inverse_sqrt_dk(), c.mask};
    const AllPaths paths = all_paths(x, shape, options, {2, 4});
    for (const auto* g : {&paths.reference, &paths.full, &paths.tiled}) {
      EXPECT_TRUE(all_finite(*g));
      for (std::size_t j : c.unseen_keys) {
        for (std::size_t col = 0; col < shape.d_k; ++col) EXPECT_EQ(g->k[j * shape.d_k + col], 0.0f) << "key " << j;
        for (std::size_t col = 0; col < shape.d_v; ++col) EXPECT_EQ(g->v[j * shape.d_v + col], 0.0f) << "key " << j;
      }
      for (std::size_t i : c.blind_queries)
        for (std::size_t col = 0; col < shape.d_k; ++col) EXPECT_EQ(g->q[i * shape.d_k + col], 0.0f) << "query " << i;
    }
  }
}

// Scores in the hundreds (XNNPACK's hostile softmax inputs): the weights
// saturate, every gradient of every path is finite (the reference's too: an
// infinity on every path would pass the comparison), all three paths agree.
TEST(AttentionBackward, SaturatedScoresStayFinite) {
  attn::Rng rng(803);
  const attn::AttentionShape shape{9, 17, 8, 5};
  const Operands x = random_operands(shape, rng, 6.0);  // |scores| up to a few hundred
  for (const attn::Scale& scale : {attn::Scale::none(), attn::Scale::inverse_sqrt_dk()}) {
    const attn::AttentionOptions options{scale, attn::Mask::causal()};
    const AllPaths paths = all_paths(x, shape, options, {4, 4});
    for (const auto* g : {&paths.reference, &paths.full, &paths.tiled}) EXPECT_TRUE(all_finite(*g));
    EXPECT_TRUE(same_gradients(paths.full, paths.reference));
    EXPECT_TRUE(same_gradients(paths.tiled, paths.reference));
  }
}

// Scores of about 1e7 (beyond 2^10): the tiled backward takes its weights from
// its own row statistics, not the forward's L_i (a float at 1e7 cannot hold
// ln 3). Four distinct keys, each three times: each row's weights are 1/3 on
// the three copies of its best key (the scores of different keys lie ~1e6
// apart), so dV = P^T dO is exact on every path; every mask kind, threads 1
// and 2 (the same bits), two block shapes.
TEST(AttentionBackward, TiledBackwardAtLargeScoresUsesItsOwnRowStatistics) {
  attn::Rng rng(808);
  const attn::AttentionShape shape{9, 12, 3, 2};
  Operands x = random_operands(shape, rng);
  for (float& value : x.q) value *= 100.0f;
  const std::vector<float> distinct = rng.normal_matrix(4, shape.d_k, 1e5);
  for (std::size_t j = 0; j < shape.m; ++j)
    std::copy_n(distinct.begin() + (j % 4) * shape.d_k, shape.d_k, x.k.begin() + j * shape.d_k);
  const attn::testing::TileSizes tiles[] = {{2, 3}, {64, 64}};
  for (const attn::Mask& mask : every_mask_kind(shape.n, shape.m, rng)) {
    attn::AttentionOptions options{attn::Scale::inverse_sqrt_dk(), mask};
    const auto reference = attn::reference::attention_backward(x.q, x.k, x.v, x.grad_output, shape, options);
    for (const attn::testing::TileSizes& tile : tiles) {
      SCOPED_TRACE(::testing::Message() << describe(shape, options) << " tiles " << tile.queries << "x" << tile.keys);
      const auto forward = attn::testing::attention_forward_tiled(x.q, x.k, x.v, shape, options, tile);
      options.threads = 1;
      const auto one = attn::testing::attention_backward_tiled(x.q, x.k, x.v, x.grad_output, forward, shape, options, tile);
      options.threads = 2;
      const auto two = attn::testing::attention_backward_tiled(x.q, x.k, x.v, x.grad_output, forward, shape, options, tile);
      EXPECT_TRUE(all_finite(one));
      EXPECT_TRUE(all_close(one.v, reference.v));
      EXPECT_TRUE(all_close(attn::attention_backward(x.q, x.k, x.v, x.grad_output, shape, options).v, reference.v));
      EXPECT_EQ(one.q, two.q);
      EXPECT_EQ(one.k, two.k);
      EXPECT_EQ(one.v, two.v);
    }
  }
}

TEST(AttentionBackward, BadInputNamesTheArgument) {
  using attn_test::throws_with_message;
  attn::Rng rng(805);
  const attn::AttentionShape shape{3, 2, 2, 2};
  Operands x = random_operands(shape, rng);
  const auto forward = attn::attention_forward_tiled(x.q, x.k, x.v, shape);
  // The three entry points on the same (possibly broken) operands and options
  // (options copied: the default argument dies with the call).
  auto every_path = [&](const Operands& in, const attn::TiledAttentionForward& f,
                        const attn::AttentionOptions& options = {}) {
    return std::vector<std::function<void()>>{
        [&in, options, &shape] { attn::attention_backward(in.q, in.k, in.v, in.grad_output, shape, options); },
        [&in, options, &shape] {
          attn::reference::attention_backward(in.q, in.k, in.v, in.grad_output, shape, options);
        },
        [&in, &f, options, &shape] {
          attn::attention_backward_tiled(in.q, in.k, in.v, in.grad_output, f, shape, options);
        }};
  };

  Operands short_grad = x;
  short_grad.grad_output.pop_back();
  for (auto& call : every_path(short_grad, forward))
    EXPECT_TRUE(throws_with_message<attn::ShapeError>(call, {"grad_output: expected n*d_v = 3*2 = 6 floats, got 5"}));
  Operands nan_grad = x;
  nan_grad.grad_output[4] = std::numeric_limits<float>::quiet_NaN();
  for (auto& call : every_path(nan_grad, forward))
    EXPECT_TRUE(throws_with_message<attn::ValueError>(call, {"grad_output[4]: expected a finite number, got NaN"}));
  Operands short_k = x;
  short_k.k.pop_back();  // the forward pass's own message
  for (auto& call : every_path(short_k, forward))
    EXPECT_TRUE(throws_with_message<attn::ShapeError>(call, {"k: expected m*d_k = 2*2 = 4 floats, got 3"}));
  const attn::AttentionOptions bad_scale{attn::Scale::by(-1.0f), {}};
  for (auto& call : every_path(x, forward, bad_scale))
    EXPECT_TRUE(throws_with_message<attn::ValueError>(call, {"scale: expected a finite positive number from 1.40129846e-45 to 3.40282347e+38, got -1"}));
  const attn::AttentionOptions bad_mask{{}, attn::Mask::key_padding(3)};
  for (auto& call : every_path(x, forward, bad_mask))
    EXPECT_TRUE(throws_with_message<attn::ValueError>(call, {"mask.valid_keys: expected at most m = 2, got 3"}));

  attn::TiledAttentionForward broken = forward;
  broken.log_sum_exp.pop_back();
  EXPECT_TRUE(throws_with_message<attn::ShapeError>(
      [&] { attn::attention_backward_tiled(x.q, x.k, x.v, x.grad_output, broken, shape); },
      {"forward.log_sum_exp: expected n = 3 numbers, got 2"}));
  broken = forward;
  broken.log_sum_exp[1] = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { attn::attention_backward_tiled(x.q, x.k, x.v, x.grad_output, broken, shape); },
      {"forward.log_sum_exp[1]: expected a finite number or -inf, got inf"}));
  broken = forward;
  broken.output.resize(5);
  EXPECT_TRUE(throws_with_message<attn::ShapeError>(
      [&] { attn::attention_backward_tiled(x.q, x.k, x.v, x.grad_output, broken, shape); },
      {"forward.output: expected n*d_v = 3*2 = 6 floats, got 5"}));
  EXPECT_TRUE(throws_with_message<attn::ShapeError>(
      [&] { attn::testing::attention_backward_tiled(x.q, x.k, x.v, x.grad_output, forward, shape, {}, {0, 4}); },
      {"tiles.queries: expected at least 1, got 0"}));
}

}  // namespace
