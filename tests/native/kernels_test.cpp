// Every kernel variant this CPU runs (attn::testing::kernel_variants(): here
// avx512f, avx2, sse2 and scalar on an AVX-512 machine) against double-precision
// loops, at every length 1 .. 2W+1 and 4W-1 .. 4W+3 around the vector widths
// W = 16, 8, 4 (so the body, the padded tail and the multi-accumulator loops
// all run, whichever the variant's width), and on odd matrix shapes; and the
// dispatcher's choice against what the operating system says the CPU has.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/random.hpp"
#include "attn/testing.hpp"
#include "test_support.hpp"

namespace {

using attn::kernels::KernelTable;
using attn_test::all_close;
using attn_test::close;

// 1 .. 33 (= 2*16 + 1), then 4W-1 .. 4W+3 for W = 4, 8, 16, 8W+5 for W = 16 and a long odd length
std::vector<std::size_t> lengths_around_widths() {
  std::set<std::size_t> lengths;
  for (std::size_t len = 1; len <= 33; ++len) lengths.insert(len);
  for (std::size_t w : {4, 8, 16})
    for (std::size_t len = 4 * w - 1; len <= 4 * w + 3; ++len) lengths.insert(len);
  lengths.insert(133);
  lengths.insert(257);
  return {lengths.begin(), lengths.end()};
}

std::vector<float> normals(attn::Rng& rng, std::size_t count, double stddev = 1.0) {
  return rng.normal_matrix(count, 1, stddev);
}

// The instruction-set flags Linux reports for this CPU (the "flags" line of
// /proc/cpuinfo), read independently of the dispatcher's __builtin_cpu_supports.
std::set<std::string> cpu_flags() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::set<std::string> flags;
    for (std::string word; words >> word;) flags.insert(word);
    return flags;
  }
  return {};
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const KernelTable* table : attn::testing::kernel_variants()) names.push_back(table->name);
  return names;
}

#if defined(__x86_64__)
// On x86-64 the library has sse2, avx2 and avx512f; the dispatcher must list
// exactly those the CPU has and choose the widest.
TEST(KernelDispatch, ChoosesTheWidestVariantTheCpuHas) {
  const std::set<std::string> flags = cpu_flags();
  if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo";
  std::vector<std::string> expected;
  if (flags.count("avx512f") && flags.count("avx2") && flags.count("fma")) expected.push_back("avx512f");
  if (flags.count("avx2") && flags.count("fma")) expected.push_back("avx2");
  expected.push_back("sse2");
  expected.push_back("scalar");
  EXPECT_EQ(variant_names(), expected);
  EXPECT_STREQ(attn::testing::active_kernel_variant().name, expected.front().c_str());
}
#endif

// A variant's lanes are its register width in floats: 512, 256, 128 bits.
TEST(KernelDispatch, LanesAreTheRegisterWidthOfTheInstructionSet) {
  const std::pair<const char*, std::size_t> register_bits[] = {
      {"avx512f", 512}, {"avx2", 256}, {"sse2", 128}, {"portable", 128}, {"scalar", 32}};
  for (const KernelTable* table : attn::testing::kernel_variants()) {
    for (const auto& [name, bits] : register_bits)
      if (std::string(name) == table->name) EXPECT_EQ(table->lanes, bits / 32) << name;
  }
}

TEST(KernelDispatch, ForcingAVariantLastsForTheScope) {
  const std::string chosen = attn::testing::active_kernel_variant().name;
  {
    const attn::testing::ForceKernelVariant force("scalar");
    EXPECT_STREQ(attn::testing::active_kernel_variant().name, "scalar");
  }
  EXPECT_EQ(attn::testing::active_kernel_variant().name, chosen);
  EXPECT_TRUE(attn_test::throws_with_message<attn::ValueError>(
      [] { attn::testing::ForceKernelVariant force("avx1024"); },
      {"variant: expected one of the kernel variants this CPU runs (", "scalar), got 'avx1024'"}));
}

class EveryVariant : public ::testing::TestWithParam<std::string> {
 protected:
  const KernelTable& kernels = attn::testing::kernel_variant(GetParam());
};

TEST_P(EveryVariant, DotMatchesDoubleSum) {
  attn::Rng rng(1);
  for (std::size_t len : lengths_around_widths()) {
    SCOPED_TRACE(len);
    const auto x = normals(rng, len), y = normals(rng, len);
    double expected = 0;
    for (std::size_t i = 0; i < len; ++i) expected += static_cast<double>(x[i]) * y[i];
    EXPECT_TRUE(close(kernels.dot(x.data(), y.data(), len), expected));
  }
}

TEST_P(EveryVariant, AxpyMatchesDoubleAndLeavesTheRestAlone) {
  attn::Rng rng(2);
  for (std::size_t len : lengths_around_widths()) {
    SCOPED_TRACE(len);
    const auto x = normals(rng, len);
    auto y = normals(rng, len + 1);  // one guard element past the end
    std::vector<double> expected(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(len));
    for (std::size_t i = 0; i < len; ++i) expected[i] += 0.75 * x[i];
    const float guard = y[len];
    kernels.axpy(0.75f, x.data(), y.data(), len);
    EXPECT_TRUE(all_close(std::vector<float>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(len)), expected));
    EXPECT_EQ(y[len], guard);
  }
}

TEST_P(EveryVariant, MaxValueFindsTheMaximumInEveryLane) {
  for (std::size_t len : lengths_around_widths()) {
    for (std::size_t where = 0; where < len; where += (len > 40 ? 7 : 1)) {
      std::vector<float> x(len, -5.0f);
      x[where] = 3.0f;
      EXPECT_EQ(kernels.max_value(x.data(), len), 3.0f) << "len " << len << " at " << where;
    }
  }
  const float minus_inf = -std::numeric_limits<float>::infinity();
  for (std::size_t len : lengths_around_widths()) {
    std::vector<float> all_masked(len, minus_inf);
    EXPECT_EQ(kernels.max_value(all_masked.data(), len), minus_inf) << len;
  }
}

TEST_P(EveryVariant, ExpShiftedSumMatchesStdExp) {
  attn::Rng rng(3);
  for (std::size_t len : lengths_around_widths()) {
    SCOPED_TRACE(len);
    auto x = normals(rng, len, 4.0);
    std::vector<double> expected(len);
    double expected_sum = 0;
    for (std::size_t i = 0; i < len; ++i) expected_sum += expected[i] = std::exp(static_cast<double>(x[i]) - 1.5);
    const float sum = kernels.exp_shifted_sum(x.data(), len, 1.5f);
    EXPECT_TRUE(all_close(x, expected));
    EXPECT_TRUE(close(sum, expected_sum));
  }
}

// The vector exp over its whole range, 0.01 apart. This checks the accuracy
// the polynomial claims (vector_exp.hpp: about 1 ulp, here at most 2e-7
// relative), which is a property of the algorithm, tighter than the tolerance
// rule; libm's expf (the scalar variant) meets it too.
TEST_P(EveryVariant, ExpIsAccurateFromUnderflowToOverflow) {
  std::vector<float> x;
  for (double t = -87.0; t <= 88.0; t += 0.01) x.push_back(static_cast<float>(t));
  std::vector<double> expected(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) expected[i] = std::exp(static_cast<double>(x[i]));
  kernels.exp_shifted_sum(x.data(), x.size(), 0.0f);
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_LE(std::fabs(x[i] - expected[i]), 2e-7 * expected[i]) << "exp(" << std::log(expected[i]) << ")";
  }
}

TEST_P(EveryVariant, ExpOfMinusInfinityAndDeepUnderflowIsExactlyZero) {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  for (std::size_t len : lengths_around_widths()) {
    std::vector<float> x(len, minus_inf);
    x[0] = 0.0f;  // one visible key
    if (len > 2) x[len - 1] = -200.0f;
    const float sum = kernels.exp_shifted_sum(x.data(), len, 0.0f);
    EXPECT_EQ(sum, 1.0f);
    EXPECT_EQ(x[0], 1.0f);
    for (std::size_t i = 1; i < len; ++i) EXPECT_EQ(x[i], 0.0f) << "len " << len << " i " << i;
  }
}

TEST_P(EveryVariant, ScaleInPlaceRoundsEachProductOnce) {
  attn::Rng rng(4);
  for (std::size_t len : lengths_around_widths()) {
    auto x = normals(rng, len + 1);
    std::vector<float> expected(x);
    for (std::size_t i = 0; i < len; ++i) expected[i] = x[i] * -0.3f;  // one rounding each: bit-identical
    kernels.scale_in_place(-0.3f, x.data(), len);
    EXPECT_EQ(x, expected) << len;
  }
}

TEST_P(EveryVariant, SoftmaxRowsMatchesDouble) {
  attn::Rng rng(5);
  for (std::size_t cols : lengths_around_widths()) {
    SCOPED_TRACE(cols);
    const std::size_t rows = 3;
    auto x = normals(rng, rows * cols, 3.0);
    x[cols - 1] = -std::numeric_limits<float>::infinity();  // a masked key in row 0
    std::vector<double> expected(rows * cols);
    for (std::size_t r = 0; r < rows; ++r) {
      double mx = -INFINITY, sum = 0;
      for (std::size_t c = 0; c < cols; ++c) mx = std::max(mx, static_cast<double>(x[r * cols + c]));
      if (mx == -INFINITY) continue;  // row 0 when cols = 1: fully masked, all zeros
      for (std::size_t c = 0; c < cols; ++c) sum += expected[r * cols + c] = std::exp(x[r * cols + c] - mx);
      for (std::size_t c = 0; c < cols; ++c) expected[r * cols + c] /= sum;
    }
    kernels.softmax_rows(x.data(), rows, cols);
    EXPECT_TRUE(all_close(x, expected));
  }
}

// c = a b^T, c = w v and c += w v on odd shapes: d around each width, n and m odd; and,
// from n = 8 rows on (where matmul_abt packs b into panels of kTileVectors * W
// keys and 128 features for the micro-kernel), m around the panel widths 8
// (sse2), 16 (avx2) and 48 (avx512f) and d past one panel's depth.
TEST_P(EveryVariant, MatmulsMatchDoubleOnOddShapes) {
  attn::Rng rng(6);
  std::vector<std::array<std::size_t, 3>> shapes = {{1, 1, 1}, {7, 13, 5}, {1, 33, 3}, {2, 4, 64}};
  for (std::size_t w : {4, 8, 16}) {
    for (std::size_t d : {w - 1, w, w + 1, 2 * w - 1, 2 * w + 1, 4 * w - 1, 4 * w + 3, 8 * w + 5})
      shapes.push_back({(d % 5) + 2, (d % 7) + 3, d});
  }
  for (std::size_t m : {1, 7, 8, 9, 11, 12, 13, 17, 23, 24, 25, 47, 48, 49, 97})
    for (std::size_t d : {1, 5, 16, 64, 129, 300}) shapes.push_back({8 + m % 11, m, d});
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
    std::vector<float> c(n * m);
    kernels.matmul_abt(a.data(), b.data(), c.data(), n, m, d);
    EXPECT_TRUE(all_close(c, abt));
    std::vector<float> out(n * d, 99.0f);  // overwritten, not accumulated into
    kernels.matmul_ab(weights.data(), v.data(), out.data(), n, m, d);
    EXPECT_TRUE(all_close(out, wv));
    // c += w v: each entry the product's plus what c held, bit for bit as adding the product afterwards
    const auto before = normals(rng, n * d);
    std::vector<float> added = before;
    kernels.matmul_ab_add(weights.data(), v.data(), added.data(), n, m, d);
    for (std::size_t i = 0; i < n * d; ++i) ASSERT_EQ(added[i], before[i] + out[i]) << "entry " << i;
    // the same product from w stored transposed (m x n), read down its columns: bit for bit matmul_ab's
    std::vector<float> w_stored(m * n), out_t(n * d, 99.0f);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < m; ++j) w_stored[j * n + i] = weights[i * m + j];
    kernels.matmul_atb(w_stored.data(), v.data(), out_t.data(), n, m, d);
    EXPECT_EQ(out_t, out);
    std::vector<float> added_t = before;
    kernels.matmul_atb_add(w_stored.data(), v.data(), added_t.data(), n, m, d);
    EXPECT_EQ(added_t, added);
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryVariant, ::testing::ValuesIn(variant_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
