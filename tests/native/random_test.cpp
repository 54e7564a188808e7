// The seeded generator: a fixed seed gives a fixed stream, the same in every
// build. The u64 stream is checked against a second implementation written
// here from the published reference code (splitmix64.c, xoshiro256starstar.c),
// itself checked against the reference code's published outputs; the normal
// stream against a second ziggurat written here from the method's published
// definition, and its distribution against the normal CDF (moments,
// Kolmogorov-Smirnov, chi-square, tails). (That the wasm builds give the same
// bits is checked by the JS test of the test vectors.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "attn/random.hpp"
#include "attn/testing.hpp"
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
  IndependentXoshiro(std::uint64_t s0, std::uint64_t s1, std::uint64_t s2, std::uint64_t s3) : s{s0, s1, s2, s3} {}
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

// The first outputs of xoshiro256starstar.c from the state {1, 2, 3, 4}, as
// published with the reference code's ports (e.g. rand_xoshiro's test).
TEST(Random, XoshiroGivesThePublishedFirstOutputs) {
  IndependentXoshiro x(1, 2, 3, 4);
  const std::uint64_t published[] = {11520ULL, 0ULL, 1509978240ULL, 1215971899390074240ULL, 1216172134540287360ULL,
                                     607988272756665600ULL, 16172922978634559625ULL, 8476171486693032832ULL,
                                     10595114339597558777ULL, 2904607092377533576ULL};
  for (std::uint64_t expected : published) EXPECT_EQ(x.next(), expected);
}

TEST(Random, U64StreamMatchesAnIndependentImplementation) {
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, 0xdeadbeefcafef00dULL}) {
    attn::Rng rng(seed);
    IndependentXoshiro expected(seed);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(rng.next_u64(), expected.next()) << "seed " << seed << " draw " << i;
  }
}

// The normal sampler written out from its definition (attn/random.hpp: the
// ziggurat of Marsaglia and Tsang 2000, 256 layers, with Doornik's 2005
// separate bits), independently of src/random.cpp: the tables from libm's exp
// and log (the library builds them with its own), the bits from
// IndependentXoshiro. Layers of area V under f(x) = exp(-x^2/2): x_1 = R,
// x_(i+1) = f^-1(V / x_i + f(x_i)), x_0 = V / f(R), x_256 = 0, with the
// published R = 3.6541528853610088 and V = R f(R) + sqrt(pi/2) erfc(R/sqrt2)
// (the base layer: the strip [0, R] x [0, f(R)] and the tail beyond R).
// A draw: one next_u64 gives the layer (bits 0-7), the sign (bit 8) and
// u = (bits 12-63 + 1/2) 2^-52; x = u x_layer is returned if x < x_(layer+1);
// in layer 0 beyond R, a tail draw (Marsaglia 1964: a = -ln(u1) / R,
// b = -ln(u2) until 2 b > a^2, then R + a); else a wedge: y uniform in
// [f(x_layer), f(x_(layer+1))], x returned if y < f(x), else a new draw.
class IndependentZiggurat {
 public:
  explicit IndependentZiggurat(std::uint64_t seed) : bits_(seed) {
    const double kV = kR * density(kR) + std::sqrt(std::acos(-1.0) / 2.0) * std::erfc(kR / std::sqrt(2.0));
    x_[1] = kR, f_[1] = density(kR);
    x_[0] = kV / f_[1], f_[0] = 0.0;
    for (int i = 1; i < 255; ++i) {
      f_[i + 1] = kV / x_[i] + f_[i];
      x_[i + 1] = std::sqrt(-2.0 * std::log(f_[i + 1]));
    }
    x_[256] = 0.0, f_[256] = 1.0;
  }

  double normal() {
    for (;;) {
      const std::uint64_t b = bits_.next();
      const int layer = static_cast<int>(b & 0xff);
      const double sign = (b >> 8) & 1 ? -1.0 : 1.0;
      const double x = open_uniform(b) * x_[layer];
      if (x < x_[layer + 1]) return sign * x;
      if (layer == 0) {
        double a, c;
        do {
          a = -std::log(open_uniform(bits_.next())) / kR;
          c = -std::log(open_uniform(bits_.next()));
        } while (2.0 * c <= a * a);
        return sign * (kR + a);
      }
      const double y = f_[layer] + uniform() * (f_[layer + 1] - f_[layer]);
      if (y < density(x)) return sign * x;
    }
  }

 private:
  static constexpr double kR = 3.6541528853610088;
  static double density(double x) { return std::exp(-0.5 * x * x); }
  static double open_uniform(std::uint64_t b) { return (static_cast<double>(b >> 12) + 0.5) * 0x1p-52; }
  double uniform() { return static_cast<double>(bits_.next() >> 11) * 0x1p-53; }

  IndependentXoshiro bits_;
  double x_[257], f_[257];
};

// The library's stream against it: the same draws within 1e-12 relative (the
// two sets of tables differ in their last bits, a few 1e-15 relative here; a
// decision taken differently would set the streams apart: none in 300,000
// draws).
TEST(Random, NormalStreamMatchesAnIndependentZiggurat) {
  for (std::uint64_t seed : {42ULL, 7ULL, 2024ULL}) {
    attn::Rng rng(seed);
    IndependentZiggurat expected(seed);
    for (int i = 0; i < 100000; ++i) {
      const double want = expected.normal(), got = rng.normal();
      ASSERT_LE(std::fabs(got - want), 1e-12 * std::fabs(want)) << "seed " << seed << " draw " << i << ": " << got
                                                                  << " vs " << want;
    }
  }
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

// One million draws, shared by the distribution tests below (each test checks
// a different property of the same sample).
const std::vector<double>& million_normals() {
  static const std::vector<double> draws = [] {
    attn::Rng rng(10);
    std::vector<double> values(1000000);
    for (auto& value : values) value = rng.normal();
    return values;
  }();
  return draws;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The first four moments of N(0, 1): mean 0, variance 1, skewness 0, kurtosis 3.
// Standard errors for n draws: sqrt(1/n), sqrt(2/n), sqrt(6/n), sqrt(24/n).
TEST(Random, NormalHasTheMomentsOfTheStandardNormal) {
  const auto& draws = million_normals();
  const double n = static_cast<double>(draws.size());
  double sum = 0;
  for (double x : draws) sum += x;
  const double mean = sum / n;
  double m2 = 0, m3 = 0, m4 = 0;  // central moments
  for (double x : draws) {
    const double d = x - mean, d2 = d * d;
    m2 += d2, m3 += d2 * d, m4 += d2 * d2;
  }
  m2 /= n, m3 /= n, m4 /= n;
  const double skewness = m3 / std::pow(m2, 1.5), kurtosis = m4 / (m2 * m2);
  EXPECT_NEAR(mean, 0.0, 5 * std::sqrt(1.0 / n));
  EXPECT_NEAR(m2, 1.0, 5 * std::sqrt(2.0 / n));
  EXPECT_NEAR(skewness, 0.0, 5 * std::sqrt(6.0 / n));
  EXPECT_NEAR(kurtosis, 3.0, 5 * std::sqrt(24.0 / n));
}

// Kolmogorov-Smirnov against the normal CDF: D = max |F_n(x) - Phi(x)|. For
// a correct sampler sqrt(n) D follows the Kolmogorov distribution, which
// exceeds 1.95 with probability 0.001. A sampler off by 0.2 % in any region
// of mass (e.g. one ziggurat layer wrong) moves D by about that much: with
// n = 1e6 the threshold 1.95 / 1000 = 0.00195 catches it.
TEST(Random, NormalPassesKolmogorovSmirnovAgainstTheNormalCdf) {
  std::vector<double> sorted = million_normals();
  std::sort(sorted.begin(), sorted.end());
  const double n = static_cast<double>(sorted.size());
  double largest_gap = 0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const double cdf = normal_cdf(sorted[i]);
    largest_gap = std::max({largest_gap, (i + 1) / n - cdf, cdf - i / n});
  }
  EXPECT_LT(std::sqrt(n) * largest_gap, 1.95) << "D = " << largest_gap;
}

// Chi-square over 100 bins of equal normal probability, plus the two tails
// beyond +-4 (where the ziggurat's tail algorithm works) as their own bins
// inside the outermost ones. The 99.9 % point of chi-square with 101 degrees
// of freedom is about 149.
TEST(Random, NormalPassesChiSquareOverEqualProbabilityBins) {
  const auto& draws = million_normals();
  // Bin edges: Phi^-1(j / 100) found by bisection on std::erfc.
  auto inverse_cdf = [](double p) {
    double low = -10, high = 10;
    for (int step = 0; step < 200; ++step) {
      const double mid = 0.5 * (low + high);
      (normal_cdf(mid) < p ? low : high) = mid;
    }
    return 0.5 * (low + high);
  };
  std::vector<double> edges = {-4.0};
  for (int j = 1; j < 100; ++j) edges.push_back(inverse_cdf(j / 100.0));
  edges.push_back(4.0);
  std::vector<double> counts(edges.size() + 1, 0);
  for (double x : draws) counts[std::upper_bound(edges.begin(), edges.end(), x) - edges.begin()] += 1;
  const double n = static_cast<double>(draws.size());
  double chi_square = 0;
  for (std::size_t bin = 0; bin < counts.size(); ++bin) {
    const double low = bin == 0 ? 0.0 : normal_cdf(edges[bin - 1]);
    const double high = bin == edges.size() ? 1.0 : normal_cdf(edges[bin]);
    const double expected = n * (high - low);
    chi_square += (counts[bin] - expected) * (counts[bin] - expected) / expected;
  }
  EXPECT_LT(chi_square, 149.0);
}

// The tails: P(|x| > 3) = erfc(3 / sqrt2) = 0.0027, and P(|x| > R) beyond the
// ziggurat's tail start R = 3.654 (drawn by Marsaglia's tail algorithm), each
// within 5 standard errors; and P(|x| < 1) = 0.6827 for the body.
TEST(Random, NormalHasNormalTails) {
  const auto& draws = million_normals();
  const double n = static_cast<double>(draws.size());
  for (double threshold : {1.0, 3.0, 3.654152885361009, 4.5}) {
    double beyond = 0;
    for (double x : draws) beyond += std::fabs(x) > threshold ? 1 : 0;
    const double p = std::erfc(threshold / std::sqrt(2.0));
    EXPECT_NEAR(beyond / n, p, 5 * std::sqrt(p * (1 - p) / n)) << "P(|x| > " << threshold << ")";
  }
  // Symmetry: as many draws above 3 as below -3.
  double above = 0, below = 0;
  for (double x : draws) above += x > 3 ? 1 : 0, below += x < -3 ? 1 : 0;
  EXPECT_NEAR(above, below, 5 * std::sqrt(above + below));
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

// The portable e^x against libm over the whole range where the result is a
// normal double (x in [-708, 709.7]), and on the ziggurat's range [-6.7, 0]:
// within 2 ulp (4.5e-16 relative).
TEST(Random, PortableExpAgreesWithLibmToTwoUlp) {
  attn::Rng rng(13);
  std::vector<double> xs = {0.0, 1.0, -1.0, 0.5, -0.5, 0.34657359027997264, -0.34657359027997264, 1e-300, -1e-18,
                            700.0, -700.0, 709.7, -708.0};
  for (int i = 0; i < 20000; ++i) xs.push_back(1417.7 * rng.uniform() - 708.0);
  for (int i = 0; i < 20000; ++i) xs.push_back(-6.7 * rng.uniform());
  for (double x : xs) {
    const double expected = std::exp(x);
    EXPECT_LE(std::fabs(attn::detail::portable_exp(x) - expected), 4.5e-16 * expected) << "exp(" << x << ")";
  }
  EXPECT_EQ(attn::detail::portable_exp(0.0), 1.0);
  EXPECT_EQ(attn::detail::portable_exp(800.0), INFINITY);
  EXPECT_EQ(attn::detail::portable_exp(-800.0), 0.0);
  EXPECT_EQ(attn::detail::portable_exp(-INFINITY), 0.0);
  EXPECT_TRUE(std::isnan(attn::detail::portable_exp(NAN)));
  // Subnormal results: close to libm (a few ulp of the subnormal spacing).
  for (double x : {-720.0, -740.0, -745.0}) EXPECT_NEAR(attn::detail::portable_exp(x), std::exp(x), 4e-323);
}

}  // namespace
