// The model pieces of attn/layers.hpp: token embedding plus positional
// encoding, the linear read-out, softmax cross-entropy; each backward pass
// against central finite differences of a double forward pass (float-computed
// gradients, so the float tolerance rule of test_support.hpp), hostile logits,
// and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attn/error.hpp"
#include "attn/layers.hpp"
#include "attn/positional_encoding.hpp"
#include "attn/random.hpp"
#include "double_forward.hpp"
#include "gradient_check.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;
using attn_test::to_double;

TEST(Layers, EmbedIsTheTableRowPlusThePositionalEncoding) {
  attn::Rng rng(820);
  const std::size_t vocabulary = 6, d = 5;
  const auto table = rng.normal_matrix(vocabulary, d);
  const std::vector<std::int32_t> tokens = {4, 0, 4, 2};
  const auto pe = attn::positional_encoding(tokens.size(), d);
  const auto x = attn::embed(table, vocabulary, d, tokens);
  for (std::size_t i = 0; i < tokens.size(); ++i)
    for (std::size_t c = 0; c < d; ++c) EXPECT_EQ(x[i * d + c], table[tokens[i] * d + c] + pe[i * d + c]);
}

// L = sum(dX * embed(E)); dL/dE by central differences. Token 4 appears twice
// (its row gathers two gradients); tokens 1, 3, 5 are unused (rows exactly 0).
TEST(Layers, EmbedBackwardMatchesFiniteDifferences) {
  attn::Rng rng(821);
  const std::size_t vocabulary = 6, d = 5;
  const auto table = rng.normal_matrix(vocabulary, d);
  const std::vector<std::int32_t> tokens = {4, 0, 4, 2};
  const auto grad_x = rng.normal_matrix(tokens.size(), d);
  const auto analytic = attn::embed_backward(tokens, grad_x, vocabulary, d);
  const auto pe = to_double(attn::positional_encoding(tokens.size(), d));
  std::vector<double> e = to_double(table);
  const auto loss = [&] {
    double sum = 0;
    for (std::size_t i = 0; i < tokens.size(); ++i)
      for (std::size_t c = 0; c < d; ++c) sum += grad_x[i * d + c] * (e[tokens[i] * d + c] + pe[i * d + c]);
    return sum;
  };
  EXPECT_TRUE(all_close(analytic, attn_test::numeric_gradient(e, loss)));
  for (std::size_t unused : {1, 3, 5})
    for (std::size_t c = 0; c < d; ++c) EXPECT_EQ(analytic[unused * d + c], 0.0f);
}

TEST(Layers, LinearBackwardMatchesFiniteDifferences) {
  attn::Rng rng(822);
  for (const auto& [rows, d_in, d_out] : {std::tuple{1, 1, 1}, {5, 3, 7}, {9, 8, 10}, {4, 17, 3}}) {
    const auto x = rng.normal_matrix(rows, d_in), w = rng.normal_matrix(d_out, d_in), b = rng.normal_matrix(1, d_out);
    const auto grad_y = rng.normal_matrix(rows, d_out);
    const auto y = attn::linear(x, w, b, rows, d_in, d_out);
    const auto analytic = attn::linear_backward(x, w, grad_y, rows, d_in, d_out);
    std::vector<double> xd = to_double(x), wd = to_double(w), bd = to_double(b);
    // (structured bindings are captured by name: Clang 14, the sanitizer build, cannot capture them)
    const auto forward = [&, rows = rows, d_in = d_in, d_out = d_out] {
      // Y = X W^T + b
      std::vector<double> out(rows * d_out);
      for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r)
        for (std::size_t c = 0; c < static_cast<std::size_t>(d_out); ++c) {
          double sum = bd[c];
          for (std::size_t i = 0; i < static_cast<std::size_t>(d_in); ++i) sum += xd[r * d_in + i] * wd[c * d_in + i];
          out[r * d_out + c] = sum;
        }
      return out;
    };
    const auto loss = [&] { return attn_test::dot_double(to_double(grad_y), forward()); };
    EXPECT_TRUE(all_close(y, forward()));
    EXPECT_TRUE(all_close(analytic.x, attn_test::numeric_gradient(xd, loss))) << "dX";
    EXPECT_TRUE(all_close(analytic.w, attn_test::numeric_gradient(wd, loss))) << "dW";
    EXPECT_TRUE(all_close(analytic.b, attn_test::numeric_gradient(bd, loss))) << "db";
  }
}

// The mean cross-entropy in double: (1/rows) sum_i (ln sum_j e^{z_ij} - z_i,y_i).
double cross_entropy_double(const std::vector<double>& z, const std::vector<std::int32_t>& y, std::size_t classes) {
  double total = 0;
  for (std::size_t r = 0; r < y.size(); ++r) {
    double top = -INFINITY, sum = 0;
    for (std::size_t c = 0; c < classes; ++c) top = std::max(top, z[r * classes + c]);
    for (std::size_t c = 0; c < classes; ++c) sum += std::exp(z[r * classes + c] - top);
    total += top + std::log(sum) - z[r * classes + y[r]];
  }
  return total / static_cast<double>(y.size());
}

TEST(Layers, SoftmaxCrossEntropyMatchesFiniteDifferences) {
  attn::Rng rng(823);
  for (const auto& [rows, classes, spread] : {std::tuple{1, 1, 1.0}, {3, 5, 1.0}, {7, 9, 3.0}, {4, 33, 0.1}}) {
    const auto logits = rng.normal_matrix(rows, classes, spread);
    std::vector<std::int32_t> targets(rows);
    for (auto& t : targets) t = static_cast<std::int32_t>(rng.next_u64() % classes);
    const auto result = attn::softmax_cross_entropy(logits, targets, rows, classes);
    std::vector<double> z = to_double(logits);
    const auto loss = [&, classes = classes] { return cross_entropy_double(z, targets, classes); };
    EXPECT_TRUE(attn_test::close(result.loss, loss()));
    EXPECT_TRUE(all_close(result.grad_logits, attn_test::numeric_gradient(z, loss)));
    // each row of dZ sums to 0: softmax sums to 1, the one-hot to 1
    for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) {
      double sum = 0;
      for (std::size_t c = 0; c < static_cast<std::size_t>(classes); ++c) sum += result.grad_logits[r * classes + c];
      EXPECT_NEAR(sum, 0.0, 1e-7);
    }
  }
}

// Logits in [90, 100] (exp overflows float without the shift) and one far
// below the rest (its softmax underflows to 0): finite loss, finite gradient.
TEST(Layers, SoftmaxCrossEntropyTakesHostileLogits) {
  const std::vector<float> logits = {90.0f, 100.0f, 95.5f, -1000.0f};
  const std::vector<std::int32_t> targets = {3};
  const auto result = attn::softmax_cross_entropy(logits, targets, 1, 4);
  const std::vector<double> z(logits.begin(), logits.end());
  EXPECT_TRUE(attn_test::close(result.loss, cross_entropy_double(z, targets, 4)));  // about 1100 nats
  for (float g : result.grad_logits) EXPECT_TRUE(std::isfinite(g));
  EXPECT_EQ(result.grad_logits[3], -1.0f);
}

TEST(Layers, BadInputNamesTheArgument) {
  using attn_test::throws_with_message;
  const std::vector<float> table(12, 0.5f);
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { attn::embed(table, 4, 3, std::vector<std::int32_t>{1, 4}); },
      {"tokens[1]: expected a token id below vocabulary = 4, got 4"}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { attn::embed_backward(std::vector<std::int32_t>{-1}, std::vector<float>(3), 4, 3); },
      {"tokens[0]: expected a token id below vocabulary = 4, got -1"}));
  EXPECT_TRUE(throws_with_message<attn::ShapeError>(
      [&] { attn::embed(std::vector<float>(11), 4, 3, std::vector<std::int32_t>{1}); },
      {"table: expected vocabulary*d_model = 4*3 = 12 floats, got 11"}));
  EXPECT_TRUE(throws_with_message<attn::ShapeError>(
      [&] { attn::linear(std::vector<float>(6), std::vector<float>(6), std::vector<float>(3), 2, 3, 2); },
      {"b: expected d_out = 2 floats, got 3"}));
  EXPECT_TRUE(throws_with_message<attn::ShapeError>(
      [&] { attn::softmax_cross_entropy(std::vector<float>(6), std::vector<std::int32_t>{0}, 2, 3); },
      {"targets: expected rows = 2 ids, got 1"}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { attn::softmax_cross_entropy(std::vector<float>(6), std::vector<std::int32_t>{0, 3}, 2, 3); },
      {"targets[1]: expected a class below classes = 3, got 3"}));
  std::vector<float> nan_logits(6);
  nan_logits[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { attn::softmax_cross_entropy(nan_logits, std::vector<std::int32_t>{0, 1}, 2, 3); },
      {"logits[5]: expected a finite number, got NaN"}));
}

}  // namespace
