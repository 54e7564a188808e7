// The seeded generator: a fixed seed gives a fixed stream, the same in every
// build. The u64 stream is checked against a second implementation written
// here from the published reference code (splitmix64.c, xoshiro256starstar.c);
// the normal stream against values pinned from an independent Python
// implementation of the same algorithm (Python floats are IEEE doubles).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "attn/random.hpp"
#include "test_support.hpp"

namespace {

// splitmix64 and xoshiro256**, transcribed from Vigna's reference C code.
struct IndependentXoshiro {
  std::uint64_t s[4];
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }
  static std::uint64_t rotl(const std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  explicit IndependentXoshiro(std::uint64_t seed) {
    for (auto& word : s) word = splitmix64(seed);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
};

TEST(Random, SplitmixOfZeroGivesThePublishedFirstOutputs) {
  std::uint64_t state = 0;
  EXPECT_EQ(IndependentXoshiro::splitmix64(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(IndependentXoshiro::splitmix64(state), 0x6e789e6aa1b965f4ULL);
}

TEST(Random, U64StreamMatchesAnIndependentImplementation) {
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, 0xdeadbeefcafef00dULL}) {
    attn::Rng rng(seed);
    IndependentXoshiro expected(seed);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(rng.next_u64(), expected.next()) << "seed " << seed << " draw " << i;
  }
  attn::Rng rng(42);
  EXPECT_EQ(rng.next_u64(), 1546998764402558742ULL);
  EXPECT_EQ(rng.next_u64(), 6990951692964543102ULL);
}

TEST(Random, NormalStreamIsPinnedBitForBit) {
  const double pinned[] = {-0x1.73d2feb0fb377p-1, -0x1.b088028693f9cp-3, 0x1.c5e21f7812a4ep-3,
                           0x1.0ba8bb0c5fa51p-1,  0x1.db514bfac5b4ep-2,  0x1.7b6195d5a3e23p-1};
  attn::Rng rng(42);
  for (double expected : pinned) EXPECT_EQ(rng.normal(), expected);
}

TEST(Random, SameSeedSameStreamOtherSeedOtherStream) {
  attn::Rng a(7), b(7), c(8);
  const auto xa = a.normal_matrix(10, 10), xb = b.normal_matrix(10, 10), xc = c.normal_matrix(10, 10);
  EXPECT_EQ(xa, xb);
  EXPECT_NE(xa, xc);
}

// Statistical checks: allowances are 5 standard errors of the estimate.
TEST(Random, UniformLiesInUnitIntervalWithMeanOneHalf) {
  attn::Rng rng(9);
  const int count = 100000;
  double sum = 0;
  for (int i = 0; i < count; ++i) {
    const double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / count, 0.5, 5 * std::sqrt(1.0 / 12 / count));
}

TEST(Random, NormalHasMeanZeroVarianceOneAndNormalTails) {
  attn::Rng rng(10);
  const int count = 100000;
  double sum = 0, square_sum = 0, within_one = 0;
  for (int i = 0; i < count; ++i) {
    const double x = rng.normal();
    sum += x;
    square_sum += x * x;
    within_one += std::fabs(x) < 1.0 ? 1 : 0;
  }
  const double mean = sum / count, variance = square_sum / count - mean * mean;
  EXPECT_NEAR(mean, 0.0, 5 * std::sqrt(1.0 / count));
  EXPECT_NEAR(variance, 1.0, 5 * std::sqrt(2.0 / count));
  const double p = std::erf(1.0 / std::sqrt(2.0));  // P(|x| < 1) = 0.6827
  EXPECT_NEAR(within_one / count, p, 5 * std::sqrt(p * (1 - p) / count));
}

TEST(Random, NormalMatrixScalesByStddev) {
  attn::Rng a(11), b(11);
  const auto unit = a.normal_matrix(3, 4);
  const auto scaled = b.normal_matrix(3, 4, 2.5);
  for (std::size_t i = 0; i < unit.size(); ++i) EXPECT_TRUE(attn_test::close(scaled[i], 2.5 * unit[i]));
}

// The portable ln against libm over the whole double range, subnormals
// included: within 2 ulp (4.5e-16 relative), a property of the algorithm.
TEST(Random, PortableLogAgreesWithLibmToTwoUlp) {
  attn::Rng rng(12);
  std::vector<double> xs = {1.0, 2.0, 0.5, 1.4142135623730951, 0.7071067811865476, 1e-310, 4.9e-324, 1e308,
                            1.0 + 1e-15, 1.0 - 1e-16};
  for (int i = 0; i < 20000; ++i) xs.push_back(std::exp(1400.0 * rng.uniform() - 700.0));
  for (int i = 0; i < 20000; ++i) xs.push_back(rng.uniform());
  for (double x : xs) {
    if (x == 0.0) continue;
    const double expected = std::log(x);
    EXPECT_LE(std::fabs(attn::detail::portable_log(x) - expected), 4.5e-16 * std::fabs(expected) + 1e-300)
        << "ln(" << x << ")";
  }
  EXPECT_EQ(attn::detail::portable_log(1.0), 0.0);
  EXPECT_EQ(attn::detail::portable_log(0.0), -INFINITY);
  EXPECT_TRUE(std::isnan(attn::detail::portable_log(-1.0)));
}

}  // namespace
