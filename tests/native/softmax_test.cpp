// The public row softmax, its statistics and its Jacobian; hostile logits.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attn/random.hpp"
#include "attn/reference.hpp"
#include "attn/softmax.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;
using attn_test::close;
constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// softmax of each row in double (the reference), from the same float logits
std::vector<double> reference_softmax(const std::vector<float>& logits, std::size_t rows, std::size_t cols) {
  std::vector<double> p(logits.begin(), logits.end());
  for (std::size_t r = 0; r < rows; ++r) attn::reference::softmax_row(p.data() + r * cols, cols);
  return p;
}

double row_sum(const std::vector<float>& p, std::size_t row, std::size_t cols) {
  double sum = 0;
  for (std::size_t c = 0; c < cols; ++c) sum += p[row * cols + c];
  return sum;
}

TEST(Softmax, RowsSumToOneAndMatchTheReference) {
  attn::Rng rng(11);
  const std::size_t rows = 6, cols = 19;
  const auto logits = rng.normal_matrix(rows, cols, 2.0);
  const auto p = attn::softmax_rows(logits, rows, cols);
  EXPECT_TRUE(all_close(p, reference_softmax(logits, rows, cols)));
  for (std::size_t r = 0; r < rows; ++r) EXPECT_TRUE(close(row_sum(p, r, cols), 1.0));
}

// XNNPACK draws softmax inputs from [90, 100]: exp(100) overflows float without
// the max subtraction.
TEST(Softmax, LogitsBetween90And100DoNotOverflow) {
  attn::Rng rng(12);
  const std::size_t rows = 4, cols = 37;
  std::vector<float> logits(rows * cols);
  for (auto& x : logits) x = static_cast<float>(90.0 + 10.0 * rng.uniform());
  const auto p = attn::softmax_rows(logits, rows, cols);
  EXPECT_TRUE(all_close(p, reference_softmax(logits, rows, cols)));
  for (std::size_t r = 0; r < rows; ++r) EXPECT_TRUE(close(row_sum(p, r, cols), 1.0));
}

TEST(Softmax, LogitsNear1e4KeepTheirDifferences) {
  // differences of 0, -1, -2 between logits near 1e4 (exactly representable)
  const std::vector<float> logits = {10000.0f, 9999.0f, 9998.0f, 10000.0f, -10000.0f, 10000.0f};
  const auto p = attn::softmax_rows(logits, 2, 3);
  const double z = 1 + std::exp(-1.0) + std::exp(-2.0);
  EXPECT_TRUE(all_close(p, std::vector<double>{1 / z, std::exp(-1.0) / z, std::exp(-2.0) / z, 0.5, 0.0, 0.5}));
}

TEST(Softmax, MinusInfinityGetsExactlyZeroAndAnAllMaskedRowIsZero) {
  const std::vector<float> logits = {1.0f, kMinusInf, 2.0f, kMinusInf, kMinusInf, kMinusInf};
  const auto p = attn::softmax_rows(logits, 2, 3);
  EXPECT_EQ(p[1], 0.0f);
  EXPECT_TRUE(close(p[0] + p[2], 1.0));
  for (std::size_t c = 3; c < 6; ++c) EXPECT_EQ(p[c], 0.0f);
}

TEST(SoftmaxStats, UniformRowHasEntropyLnMAndKnownTrace) {
  const std::size_t m = 8;
  const std::vector<float> uniform(m, 1.0f / m);
  const auto stats = attn::softmax_row_stats(uniform);
  EXPECT_TRUE(close(stats.max_weight, 1.0 / m));
  EXPECT_TRUE(close(stats.entropy, std::log(static_cast<double>(m))));
  EXPECT_TRUE(close(stats.jacobian_trace, 1.0 - 1.0 / m));  // m * (1/m)(1 - 1/m)
}

TEST(SoftmaxStats, OneHotRowHasZeroEntropyAndZeroGradient) {
  const std::vector<float> one_hot = {0, 0, 1, 0};
  const auto stats = attn::softmax_row_stats(one_hot);
  EXPECT_EQ(stats.max_weight, 1.0);
  EXPECT_EQ(stats.entropy, 0.0);  // 0 ln 0 counts as 0
  EXPECT_EQ(stats.jacobian_trace, 0.0);
}

TEST(SoftmaxJacobian, IsDiagPMinusPPTransposeAndMatchesFiniteDifferences) {
  const std::vector<float> logits = {0.3f, -1.2f, 2.0f, 0.5f};
  const std::size_t m = logits.size();
  const auto p = attn::softmax_rows(logits, 1, m);
  const auto jacobian = attn::softmax_jacobian(p);
  ASSERT_EQ(jacobian.size(), m * m);

  // central differences of the reference softmax in double: dp_i / ds_j
  const double h = 1e-6;
  std::vector<double> numeric(m * m);
  for (std::size_t j = 0; j < m; ++j) {
    std::vector<double> plus(logits.begin(), logits.end()), minus = plus;
    plus[j] += h;
    minus[j] -= h;
    attn::reference::softmax_row(plus.data(), m);
    attn::reference::softmax_row(minus.data(), m);
    for (std::size_t i = 0; i < m; ++i) numeric[i * m + j] = (plus[i] - minus[i]) / (2 * h);
  }
  EXPECT_TRUE(all_close(jacobian, numeric));

  double trace = 0;
  for (std::size_t i = 0; i < m; ++i) trace += jacobian[i * m + i];
  EXPECT_TRUE(close(trace, attn::softmax_row_stats(p).jacobian_trace));
}

}  // namespace
