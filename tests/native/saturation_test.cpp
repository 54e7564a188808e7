// The sqrt(d_k) experiment against an independent oracle: the expected
// statistics of attn::saturation, estimated here by a double-precision Monte
// Carlo that shares nothing with the code under test (not its generator, not
// its dot products, not its softmax or row statistics), and compared within
// the sampling error of both estimates (4 standard errors).
//
// The oracle. In one trial, Q (queries x d_k) and K (keys x d_k) are standard
// normal and L = Q K^T. Given K, the rows L_i = K q_i are independent
// N(0, K K^T), and K K^T is Wishart_m(d_k, I) (m = keys). So a trial's logits
// are drawn as rows A z_i, z_i ~ N(0, I_m), with A the Bartlett factor of a
// Wishart matrix (A lower triangular, A_jj = sqrt(chi^2 with d_k - j degrees of
// freedom), A_jl ~ N(0, 1) below the diagonal; A A^T ~ Wishart_m(d_k, I)): m^2
// draws per trial instead of (queries + keys) d_k. When d_k < m (no Bartlett
// factor), K itself is drawn and L_i = K q_i. Rows of one trial share K, so the
// sampling error is taken from the spread of whole-trial means.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "attn/saturation.hpp"

namespace {

attn::SaturationResult run(std::size_t d_k, std::size_t queries, std::size_t keys, std::size_t trials,
                           std::uint64_t seed = 2024) {
  attn::SaturationOptions options;
  options.d_k = d_k;
  options.queries = queries;
  options.keys = keys;
  options.trials = trials;
  options.seed = seed;
  return attn::saturation(options);
}

// The statistics of one row of weights p (softmax of the logits), in double:
// max_j p_j, entropy -sum p ln p (0 ln 0 = 0), sum p (1 - p), and whether max > 0.99.
constexpr int kStatistics = 4;
const char* const kNames[kStatistics] = {"max weight", "entropy", "sum p(1-p)", "saturated share"};

void row_statistics(const std::vector<double>& logits, double scale, double out[kStatistics]) {
  const double largest = *std::max_element(logits.begin(), logits.end()) * scale;
  std::vector<double> p(logits.size());
  double sum = 0;
  for (std::size_t j = 0; j < logits.size(); ++j) sum += p[j] = std::exp(logits[j] * scale - largest);
  double max_p = 0, entropy = 0, gradient = 0;
  for (double& x : p) {
    x /= sum;
    max_p = std::max(max_p, x);
    if (x > 0) entropy -= x * std::log(x);
    gradient += x * (1 - x);
  }
  out[0] = max_p;
  out[1] = entropy;
  out[2] = gradient;
  out[3] = max_p > 0.99 ? 1.0 : 0.0;
}

// Mean and variance of whole-trial means, summed one trial at a time.
struct Spread {
  double sum = 0, squares = 0, count = 0;
  void add(double x) { sum += x, squares += x * x, count += 1; }
  double mean() const { return sum / count; }
  double variance() const { return std::max(0.0, (squares - sum * sum / count) / (count - 1)); }
};

// For the raw logits [0] and the scaled ones [1]: per statistic, the spread of
// trial means. Also the spread of trial means of L^2 (E[L^2] = d_k exactly).
struct Oracle {
  Spread stats[2][kStatistics];
  Spread square;
};

Oracle oracle(std::size_t d_k, std::size_t queries, std::size_t keys, std::size_t trials, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Oracle result;
  const std::size_t m = keys;
  std::vector<double> factor(m * m), row(m);
  for (std::size_t trial = 0; trial < trials; ++trial) {
    const bool bartlett = d_k >= m;
    if (bartlett) {  // A: m x m lower triangular
      for (std::size_t j = 0; j < m; ++j) {
        std::chi_squared_distribution<double> chi2(static_cast<double>(d_k - j));
        factor[j * m + j] = std::sqrt(chi2(generator));
        for (std::size_t l = 0; l < j; ++l) factor[j * m + l] = normal(generator);
      }
    } else {  // K: m x d_k
      factor.assign(m * d_k, 0.0);
      for (double& x : factor) x = normal(generator);
    }
    double trial_stats[2][kStatistics] = {};
    double trial_square = 0;
    const std::size_t width = bartlett ? m : d_k;  // z_i ~ N(0, I_m), or q_i ~ N(0, I_{d_k})
    std::vector<double> z(width);
    for (std::size_t i = 0; i < queries; ++i) {
      for (double& x : z) x = normal(generator);
      for (std::size_t j = 0; j < m; ++j) {
        double logit = 0;
        const std::size_t last = bartlett ? j + 1 : d_k;
        for (std::size_t l = 0; l < last; ++l) logit += factor[j * width + l] * z[l];
        row[j] = logit;
        trial_square += logit * logit;
      }
      double stats[kStatistics];
      row_statistics(row, 1.0, stats);
      for (int s = 0; s < kStatistics; ++s) trial_stats[0][s] += stats[s];
      row_statistics(row, 1.0 / std::sqrt(static_cast<double>(d_k)), stats);
      for (int s = 0; s < kStatistics; ++s) trial_stats[1][s] += stats[s];
    }
    for (int v = 0; v < 2; ++v)
      for (int s = 0; s < kStatistics; ++s) result.stats[v][s].add(trial_stats[v][s] / static_cast<double>(queries));
    result.square.add(trial_square / static_cast<double>(queries * m));
  }
  return result;
}

constexpr double kStandardErrors = 4;
constexpr std::size_t kOracleTrials = 40000;

// attn::saturation's means over `trials` trials against the oracle's, each
// within 4 standard errors of the difference: sqrt(var/trials + var/oracle trials),
// var the oracle's variance of a trial mean.
void expect_matches_oracle(std::size_t d_k, std::size_t queries, std::size_t keys, std::size_t trials) {
  SCOPED_TRACE("d_k " + std::to_string(d_k) + ", " + std::to_string(queries) + " queries x " + std::to_string(keys) +
               " keys, " + std::to_string(trials) + " trials");
  const attn::SaturationResult result = run(d_k, queries, keys, trials);
  const Oracle expected = oracle(d_k, queries, keys, kOracleTrials, 7 + d_k);
  const attn::RawScaled measured[kStatistics] = {result.max_weight, result.entropy, result.gradient,
                                                  result.saturated_share};
  for (int v = 0; v < 2; ++v) {
    for (int s = 0; s < kStatistics; ++s) {
      const Spread& o = expected.stats[v][s];
      const double value = v == 0 ? measured[s].raw : measured[s].scaled;
      const double error = std::sqrt(o.variance() / static_cast<double>(trials) + o.variance() / o.count);
      EXPECT_LE(std::fabs(value - o.mean()), kStandardErrors * error + 1e-12)
          << (v == 0 ? "raw " : "scaled ") << kNames[s] << ": saturation() " << value << ", oracle " << o.mean()
          << " +- " << error;
    }
  }
  // logit_std^2 = mean of L^2 - (mean of L)^2, and E[L^2] = d_k: Var(q . k) = sum_c E[q_c^2] E[k_c^2].
  // (mean of L)^2 has expectation Var(L)/count, far below the error.
  const double error = std::sqrt(expected.square.variance() / static_cast<double>(trials));
  EXPECT_LE(std::fabs(result.logit_std * result.logit_std - static_cast<double>(d_k)), kStandardErrors * error)
      << "logit_std^2 " << result.logit_std * result.logit_std << ", expected " << d_k << " +- " << error;
}

// Article 002: d_k = 64, 8 keys, 5000 trials of one query.
TEST(Saturation, OneQueryEightKeysMatchesTheOracle) { expect_matches_oracle(64, 1, 8, 5000); }

// Article 003: d = 4 ... 1024, 8 queries x 8 keys, 200 trials (and 4 < 8: the K-drawing oracle).
TEST(Saturation, ArticleSweepMatchesTheOracle) {
  for (std::size_t d_k : {4, 16, 64, 256, 1024}) expect_matches_oracle(d_k, 8, 8, 200);
}

// Other shapes: one key (every weight 1), more keys than dimensions, many queries per trial.
TEST(Saturation, OtherShapesMatchTheOracle) {
  expect_matches_oracle(3, 4, 1, 300);
  expect_matches_oracle(2, 2, 10, 500);
  expect_matches_oracle(32, 16, 5, 100);
}

TEST(Saturation, SameSeedSameResultOtherSeedOtherResult) {
  const auto a = run(32, 4, 6, 50, 5), b = run(32, 4, 6, 50, 5), c = run(32, 4, 6, 50, 6);
  EXPECT_EQ(a.logit_std, b.logit_std);
  EXPECT_EQ(a.max_weight.raw, b.max_weight.raw);
  EXPECT_EQ(a.entropy.scaled, b.entropy.scaled);
  EXPECT_EQ(a.gradient.raw, b.gradient.raw);
  EXPECT_NE(a.logit_std, c.logit_std);
}

}  // namespace
