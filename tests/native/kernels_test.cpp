// Every SIMD kernel against the scalar set and a double-precision loop, at
// every size 1 .. 2W+1 around the vector width W (so the body, the padded tail
// and both together run), at 4W+3 (the multi-accumulator body), and on odd
// random matrix shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attn/kernels.hpp"
#include "attn/random.hpp"
#include "test_support.hpp"

namespace {

namespace scalar = attn::kernels::scalar;
namespace simd = attn::kernels::simd;
using attn_test::all_close;
using attn_test::close;

// 1 .. 2W+1, then 4W-1 .. 4W+3 and a long odd length
std::vector<std::size_t> lengths_around_width() {
  const std::size_t w = simd::kSimdWidth;
  std::vector<std::size_t> lengths;
  for (std::size_t len = 1; len <= 2 * w + 1; ++len) lengths.push_back(len);
  for (std::size_t len = 4 * w - 1; len <= 4 * w + 3; ++len) lengths.push_back(len);
  lengths.push_back(257);
  return lengths;
}

std::vector<float> normals(attn::Rng& rng, std::size_t count, double stddev = 1.0) {
  return rng.normal_matrix(count, 1, stddev);
}

TEST(Kernels, SimdWidthMatchesTheBuild) {
#if defined(__AVX__)
  EXPECT_EQ(simd::kSimdWidth, 8u);
#elif defined(__SSE2__) || defined(__ARM_NEON)
  EXPECT_EQ(simd::kSimdWidth, 4u);
#else
  EXPECT_EQ(simd::kSimdWidth, 1u);
#endif
}

TEST(Kernels, DotMatchesDoubleSum) {
  attn::Rng rng(1);
  for (std::size_t len : lengths_around_width()) {
    SCOPED_TRACE(len);
    const auto x = normals(rng, len), y = normals(rng, len);
    double expected = 0;
    for (std::size_t i = 0; i < len; ++i) expected += static_cast<double>(x[i]) * y[i];
    EXPECT_TRUE(close(simd::dot(x.data(), y.data(), len), expected));
    EXPECT_TRUE(close(scalar::dot(x.data(), y.data(), len), expected));
  }
}

TEST(Kernels, AxpyMatchesScalarAndLeavesTheRestAlone) {
  attn::Rng rng(2);
  for (std::size_t len : lengths_around_width()) {
    SCOPED_TRACE(len);
    const auto x = normals(rng, len);
    auto y_simd = normals(rng, len + 1);  // one guard element past the end
    auto y_scalar = y_simd;
    const float guard = y_simd[len];
    simd::axpy(0.75f, x.data(), y_simd.data(), len);
    scalar::axpy(0.75f, x.data(), y_scalar.data(), len);
    EXPECT_TRUE(all_close(y_simd, y_scalar));
    EXPECT_EQ(y_simd[len], guard);
  }
}

TEST(Kernels, MaxValueFindsTheMaximumInEveryLane) {
  for (std::size_t len : lengths_around_width()) {
    for (std::size_t where = 0; where < len; where += (len > 20 ? 7 : 1)) {
      std::vector<float> x(len, -5.0f);
      x[where] = 3.0f;
      EXPECT_EQ(simd::max_value(x.data(), len), 3.0f) << "len " << len << " at " << where;
      EXPECT_EQ(scalar::max_value(x.data(), len), 3.0f);
    }
  }
  const float minus_inf = -std::numeric_limits<float>::infinity();
  std::vector<float> all_masked(5, minus_inf);
  EXPECT_EQ(simd::max_value(all_masked.data(), 5), minus_inf);
}

TEST(Kernels, ExpShiftedSumMatchesStdExp) {
  attn::Rng rng(3);
  for (std::size_t len : lengths_around_width()) {
    SCOPED_TRACE(len);
    auto x = normals(rng, len, 4.0);
    std::vector<double> expected(len);
    double expected_sum = 0;
    for (std::size_t i = 0; i < len; ++i) expected_sum += expected[i] = std::exp(static_cast<double>(x[i]) - 1.5);
    auto x_scalar = x;
    const float sum = simd::exp_shifted_sum(x.data(), len, 1.5f);
    const float scalar_sum = scalar::exp_shifted_sum(x_scalar.data(), len, 1.5f);
    EXPECT_TRUE(all_close(x, expected));
    EXPECT_TRUE(close(sum, expected_sum));
    EXPECT_TRUE(close(scalar_sum, expected_sum));
  }
}

// The polynomial exp over its whole range, 0.01 apart. This checks the accuracy
// the polynomial claims (vector_exp.hpp: about 1 ulp, here at most 2e-7
// relative), which is a property of the algorithm, tighter than the tolerance rule.
TEST(Kernels, VectorExpIsAccurateFromUnderflowToOverflow) {
  std::vector<float> x;
  for (double t = -87.0; t <= 88.0; t += 0.01) x.push_back(static_cast<float>(t));
  std::vector<double> expected(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) expected[i] = std::exp(static_cast<double>(x[i]));
  simd::exp_shifted_sum(x.data(), x.size(), 0.0f);
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_LE(std::fabs(x[i] - expected[i]), 2e-7 * expected[i]) << "exp(" << std::log(expected[i]) << ")";
  }
}

TEST(Kernels, ExpOfMinusInfinityAndDeepUnderflowIsExactlyZero) {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  for (std::size_t len : lengths_around_width()) {
    std::vector<float> x(len, minus_inf);
    x[0] = 0.0f;  // one visible key
    if (len > 2) x[len - 1] = -100.0f;
    const float sum = simd::exp_shifted_sum(x.data(), len, 0.0f);
    EXPECT_EQ(sum, 1.0f);
    EXPECT_EQ(x[0], 1.0f);
    for (std::size_t i = 1; i < len; ++i) EXPECT_EQ(x[i], 0.0f) << "len " << len << " i " << i;
  }
}

TEST(Kernels, ScaleInPlaceMatchesScalar) {
  attn::Rng rng(4);
  for (std::size_t len : lengths_around_width()) {
    auto x = normals(rng, len + 1);
    auto x_scalar = x;
    simd::scale_in_place(-0.3f, x.data(), len);
    scalar::scale_in_place(-0.3f, x_scalar.data(), len);
    EXPECT_EQ(x, x_scalar) << len;  // one rounding each: bit-identical
  }
}

TEST(Kernels, SoftmaxRowsMatchesScalarAndDouble) {
  attn::Rng rng(5);
  for (std::size_t cols : lengths_around_width()) {
    SCOPED_TRACE(cols);
    const std::size_t rows = 3;
    auto x = normals(rng, rows * cols, 3.0);
    auto x_scalar = x;
    std::vector<double> expected(rows * cols);
    for (std::size_t r = 0; r < rows; ++r) {
      double mx = -INFINITY, sum = 0;
      for (std::size_t c = 0; c < cols; ++c) mx = std::max(mx, static_cast<double>(x[r * cols + c]));
      for (std::size_t c = 0; c < cols; ++c) sum += expected[r * cols + c] = std::exp(x[r * cols + c] - mx);
      for (std::size_t c = 0; c < cols; ++c) expected[r * cols + c] /= sum;
    }
    simd::softmax_rows(x.data(), rows, cols);
    scalar::softmax_rows(x_scalar.data(), rows, cols);
    EXPECT_TRUE(all_close(x, expected));
    EXPECT_TRUE(all_close(x_scalar, expected));
  }
}

// c = a b^T and c = w v on odd shapes, including d around the width.
TEST(Kernels, MatmulsMatchDoubleOnOddShapes) {
  attn::Rng rng(6);
  const std::size_t w = simd::kSimdWidth;
  const std::size_t shapes[][3] = {{1, 1, 1},         {7, 13, 5},         {3, 5, w > 1 ? w - 1 : 1},
                                   {5, 3, w + 1},     {2, 9, 2 * w + 1},  {11, 6, 4 * w + 3},
                                   {4, 17, 4 * w - 1}, {9, 4, 8 * w + 5}, {1, 33, 3}};
  for (const auto& shape : shapes) {
    const std::size_t n = shape[0], m = shape[1], d = shape[2];
    SCOPED_TRACE(::testing::Message() << n << "x" << m << "x" << d);
    const auto a = normals(rng, n * d), b = normals(rng, m * d), weights = normals(rng, n * m);
    const auto v = normals(rng, m * d);
    std::vector<double> abt(n * m), wv(n * d);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < m; ++j)
        for (std::size_t c = 0; c < d; ++c) abt[i * m + j] += static_cast<double>(a[i * d + c]) * b[j * d + c];
      for (std::size_t c = 0; c < d; ++c)
        for (std::size_t j = 0; j < m; ++j) wv[i * d + c] += static_cast<double>(weights[i * m + j]) * v[j * d + c];
    }
    for (auto matmul_abt : {simd::matmul_abt, scalar::matmul_abt}) {
      std::vector<float> c(n * m);
      matmul_abt(a.data(), b.data(), c.data(), n, m, d);
      EXPECT_TRUE(all_close(c, abt));
    }
    for (auto matmul_ab : {simd::matmul_ab, scalar::matmul_ab}) {
      std::vector<float> c(n * d, 99.0f);  // overwritten, not accumulated into
      matmul_ab(weights.data(), v.data(), c.data(), n, m, d);
      EXPECT_TRUE(all_close(c, wv));
    }
  }
}

}  // namespace
