// Scaled dot-product attention (the SIMD path, attn::attention) against the
// scalar reference, and the invariants any attention must satisfy.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "attn/attention.hpp"
#include "attn/random.hpp"
#include "attn/reference.hpp"
#include "attn/testing.hpp"
#include "mask_kinds.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;
using attn_test::close;

struct Inputs {
  attn::AttentionShape shape;
  std::vector<float> q, k, v;
};

Inputs random_inputs(std::uint64_t seed, std::size_t n, std::size_t m, std::size_t d_k, std::size_t d_v) {
  attn::Rng rng(seed);
  Inputs in{{n, m, d_k, d_v}, {}, {}, {}};
  in.q = rng.normal_matrix(n, d_k);
  in.k = rng.normal_matrix(m, d_k);
  in.v = rng.normal_matrix(m, d_v);
  return in;
}

void expect_traces_close(const attn::AttentionTrace& actual, const attn::AttentionTrace& expected) {
  EXPECT_EQ(actual.scale, expected.scale);
  EXPECT_TRUE(all_close(actual.scores, expected.scores));
  EXPECT_TRUE(all_close(actual.scaled, expected.scaled));
  EXPECT_TRUE(all_close(actual.masked, expected.masked));
  EXPECT_TRUE(all_close(actual.exp_shifts, expected.exp_shifts));
  EXPECT_TRUE(all_close(actual.exps, expected.exps));
  EXPECT_TRUE(all_close(actual.exp_sums, expected.exp_sums));
  EXPECT_TRUE(all_close(actual.weights, expected.weights));
  EXPECT_TRUE(all_close(actual.terms, expected.terms));
  EXPECT_TRUE(all_close(actual.output, expected.output));
}

// rows x cols matrix with its rows reordered: result row r = matrix row order[r]
std::vector<float> permute_rows(const std::vector<float>& matrix, const std::vector<std::size_t>& order,
                                std::size_t cols) {
  std::vector<float> out(matrix.size());
  for (std::size_t r = 0; r < order.size(); ++r)
    for (std::size_t c = 0; c < cols; ++c) out[r * cols + c] = matrix[order[r] * cols + c];
  return out;
}

std::vector<std::size_t> shuffled(std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  attn::Rng rng(seed);
  for (std::size_t i = count - 1; i > 0; --i) std::swap(order[i], order[rng.next_u64() % (i + 1)]);
  return order;
}

TEST(Attention, MatchesTheReferenceOnOddAndTypicalShapes) {
  const std::size_t shapes[][4] = {{1, 1, 1, 1}, {7, 13, 5, 3}, {13, 7, 3, 5}, {33, 33, 64, 64}, {5, 70, 17, 9}};
  std::uint64_t seed = 100;
  for (const auto& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s[0] << "," << s[1] << "," << s[2] << "," << s[3]);
    const Inputs in = random_inputs(seed++, s[0], s[1], s[2], s[3]);
    expect_traces_close(attn::attention(in.q, in.k, in.v, in.shape),
                        attn::reference::attention(in.q, in.k, in.v, in.shape));
  }
}

TEST(Attention, WeightRowsSumToOne) {
  const Inputs in = random_inputs(101, 9, 23, 8, 4);
  const auto trace = attn::attention(in.q, in.k, in.v, in.shape);
  for (std::size_t i = 0; i < in.shape.n; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < in.shape.m; ++j) {
      EXPECT_GT(trace.weights[i * in.shape.m + j], 0.0f);
      sum += trace.weights[i * in.shape.m + j];
    }
    EXPECT_TRUE(close(sum, 1.0)) << "row " << i;
  }
}

TEST(Attention, ScaleIsInverseSqrtDkByDefaultNoneOrGiven) {
  const Inputs in = random_inputs(102, 4, 6, 9, 2);
  EXPECT_EQ(attn::attention(in.q, in.k, in.v, in.shape).scale, 1.0f / 3.0f);  // d_k = 9
  const std::pair<attn::Scale, float> scales[] = {
      {attn::Scale::none(), 1.0f}, {attn::Scale::by(0.125f), 0.125f}, {attn::Scale::by(7.0f), 7.0f}};
  for (const auto& [scale, expected_factor] : scales) {
    attn::AttentionOptions options;
    options.scale = scale;
    const auto trace = attn::attention(in.q, in.k, in.v, in.shape, options);
    EXPECT_EQ(trace.scale, expected_factor);
    std::vector<double> expected_scaled(trace.scores.begin(), trace.scores.end());
    for (auto& x : expected_scaled) x *= trace.scale;
    EXPECT_TRUE(all_close(trace.scaled, expected_scaled));
    EXPECT_EQ(trace.masked, trace.scaled);  // no mask: nothing becomes -inf
    expect_traces_close(trace, attn::reference::attention(in.q, in.k, in.v, in.shape, options));
  }
}

// Attention is permutation-equivariant in the queries and invariant to a joint
// permutation of keys and values: it does not see token order (article 003).
TEST(Attention, PermutingQueriesPermutesTheOutputRows) {
  const Inputs in = random_inputs(103, 8, 11, 6, 5);
  const auto order = shuffled(in.shape.n, 7);
  const auto base = attn::attention(in.q, in.k, in.v, in.shape);
  const auto permuted = attn::attention(permute_rows(in.q, order, in.shape.d_k), in.k, in.v, in.shape);
  EXPECT_TRUE(all_close(permuted.output, permute_rows(base.output, order, in.shape.d_v)));
  EXPECT_TRUE(all_close(permuted.weights, permute_rows(base.weights, order, in.shape.m)));
}

TEST(Attention, PermutingKeysWithTheirValuesLeavesTheOutputAndPermutesWeightColumns) {
  const Inputs in = random_inputs(104, 8, 11, 6, 5);
  const auto order = shuffled(in.shape.m, 8);
  const auto base = attn::attention(in.q, in.k, in.v, in.shape);
  const auto permuted = attn::attention(in.q, permute_rows(in.k, order, in.shape.d_k),
                                        permute_rows(in.v, order, in.shape.d_v), in.shape);
  EXPECT_TRUE(all_close(permuted.output, base.output));
  for (std::size_t i = 0; i < in.shape.n; ++i)
    for (std::size_t j = 0; j < in.shape.m; ++j)
      EXPECT_TRUE(close(permuted.weights[i * in.shape.m + j], base.weights[i * in.shape.m + order[j]]));
}

TEST(Attention, CrossAttentionShapesFollowNAndM) {
  const std::pair<std::size_t, std::size_t> cross_shapes[] = {{3, 10}, {10, 3}};
  for (const auto& [n, m] : cross_shapes) {
    const Inputs in = random_inputs(105, n, m, 4, 7);
    const auto trace = attn::attention(in.q, in.k, in.v, in.shape);
    EXPECT_EQ(trace.scores.size(), n * m);
    EXPECT_EQ(trace.weights.size(), n * m);
    EXPECT_EQ(trace.output.size(), n * 7);
    EXPECT_TRUE(all_close(trace.output, attn::reference::attention(in.q, in.k, in.v, in.shape).output));
  }
}

// One key: every weight is 1 and the output is that value, whatever the scores.
TEST(Attention, OneKeyCopiesItsValue) {
  const Inputs in = random_inputs(106, 5, 1, 3, 4);
  const auto trace = attn::attention(in.q, in.k, in.v, in.shape);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(trace.weights[i], 1.0f);
    EXPECT_TRUE(all_close(std::vector<float>(trace.output.begin() + i * 4, trace.output.begin() + i * 4 + 4), in.v));
  }
}

// Scores in [90, 100] and near 1e4 (d_k = 1, q = 1, so each score is its key
// exactly): no overflow, same numbers as the reference on every path.
TEST(Attention, HostileScoresMatchTheReferenceOnEveryPath) {
  attn::Rng rng(107);
  const std::size_t m = 29;
  for (const double base : {90.0, 1e4}) {
    std::vector<float> k(m);
    for (auto& x : k) x = static_cast<float>(base + std::floor(10.0 * rng.uniform() * 4) / 4);  // exact quarters
    const std::vector<float> q = {1.0f, 1.0f};
    const auto v = rng.normal_matrix(m, 3);
    const attn::AttentionShape shape{2, m, 1, 3};
    attn::AttentionOptions options;
    options.scale = attn::Scale::none();
    const auto expected = attn::reference::attention(q, k, v, shape, options);
    expect_traces_close(attn::attention(q, k, v, shape, options), expected);
    EXPECT_TRUE(all_close(attn::testing::attention_output(q, k, v, shape, options, {1, 4}), expected.output));
    for (float w : expected.weights) EXPECT_TRUE(std::isfinite(w));
  }
}

// ---- the exponentials and the terms the walkthrough shows ---------------------------

// Row i of an n x m matrix, in double.
std::vector<double> row_of(const std::vector<float>& matrix, std::size_t i, std::size_t m) {
  return {matrix.begin() + i * m, matrix.begin() + (i + 1) * m};
}

// exps_ij = e^(masked_ij - c_i) and exp_sums_i = sum_j exps_ij from the trace's own masked
// scores and shifts, in double; and weights_ij = exps_ij / exp_sums_i.
void expect_exponentials_follow_the_masked_scores(const attn::AttentionTrace& trace, std::size_t n, std::size_t m) {
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(::testing::Message() << "row " << i);
    std::vector<double> exps(m), weights(m, 0.0);
    double sum = 0.0;
    for (std::size_t j = 0; j < m; ++j) sum += exps[j] = std::exp(double{trace.masked[i * m + j]} - trace.exp_shifts[i]);
    for (std::size_t j = 0; j < m && sum > 0; ++j) weights[j] = exps[j] / sum;
    EXPECT_TRUE(all_close(row_of(trace.exps, i, m), exps));
    EXPECT_TRUE(close(trace.exp_sums[i], sum));
    EXPECT_TRUE(all_close(row_of(trace.weights, i, m), weights));
  }
}

TEST(AttentionTrace, ExponentialsMatchTheReferenceUnderEveryMaskKind) {
  const Inputs in = random_inputs(108, 6, 9, 5, 3);
  attn::Rng rng(109);
  for (const attn::Mask& mask : attn_test::every_mask_kind(6, 9, rng)) {
    SCOPED_TRACE(::testing::Message() << "mask kind " << static_cast<int>(mask.kind));
    attn::AttentionOptions options;
    options.mask = mask;
    const auto trace = attn::attention(in.q, in.k, in.v, in.shape, options, attn::TraceTerms::Included);
    expect_traces_close(trace, attn::reference::attention(in.q, in.k, in.v, in.shape, options, attn::TraceTerms::Included));
    expect_exponentials_follow_the_masked_scores(trace, 6, 9);
  }
}

// A fully masked row: no shift, every exponential 0 and their sum 0 (its weights are 0).
TEST(AttentionTrace, AFullyMaskedRowHasZeroExponentials) {
  const Inputs in = random_inputs(110, 2, 3, 2, 2);
  attn::AttentionOptions options;
  options.mask = attn::Mask::explicit_keep({1, 0, 1, 0, 0, 0});
  for (const auto& trace : {attn::attention(in.q, in.k, in.v, in.shape, options),
                            attn::reference::attention(in.q, in.k, in.v, in.shape, options)}) {
    EXPECT_EQ(trace.exp_shifts[1], 0.0f);
    EXPECT_EQ(trace.exp_sums[1], 0.0f);
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(trace.exps[3 + j], 0.0f);
    EXPECT_EQ(trace.exps[1], 0.0f);  // masked key of row 0
  }
}

// The textbook form e^(s_j) while it fits a float, the stable e^(s_j - max) beyond:
// d_k = 1, q = 1, no scaling, so each score is its key exactly. m = 3, ln 3 = 1.0986:
// max + ln 3 <= 88 up to max = 86.90; below ln FLT_MIN = -87.34 a kept e^(s_j) is not normal.
TEST(AttentionTrace, TextbookExponentialsWhileTheyFitAFloatElseStable) {
  struct Row {
    std::vector<float> keys;
    float shift;  // expected c
  };
  const Row rows[] = {
      {{86.5f, 0.0f, 86.5f}, 0.0f},     // e^86.5 * 3 = 1.1e38 < e^88
      {{87.5f, 0.0f, 87.5f}, 87.5f},    // 87.5 + ln 3 > 88
      {{-87.0f, -80.0f, -1.0f}, 0.0f},  // e^-87 = 1.7e-38 >= FLT_MIN
      {{-88.0f, -80.0f, -1.0f}, -1.0f}, // e^-88 < FLT_MIN
      {{1e30f, 0.0f, -1e30f}, 1e30f},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(::testing::Message() << "keys " << row.keys[0] << ", " << row.keys[1] << ", " << row.keys[2]);
    const std::vector<float> q = {1.0f}, v = {1, 0, 0, 1, 1, 1};
    attn::AttentionOptions options;
    options.scale = attn::Scale::none();
    const attn::AttentionShape shape{1, 3, 1, 2};
    const auto trace = attn::attention(q, row.keys, v, shape, options);
    EXPECT_EQ(trace.exp_shifts[0], row.shift);
    expect_exponentials_follow_the_masked_scores(trace, 1, 3);
    expect_traces_close(trace, attn::reference::attention(q, row.keys, v, shape, options));
  }
}

// A row redone in double (its float dot products overflow: 1e20 * 1e19 = inf, and
// inf - inf = NaN for the first key, whose true score is 0): its exponentials come
// from the masked row as returned, not from the float pass's NaN.
TEST(AttentionTrace, ARowRedoneInDoubleHasTheExponentialsOfItsReturnedScores) {
  const std::vector<float> q = {1e20f, 1e20f}, k = {1e19f, -1e19f, 1e18f, 0.0f, 0.0f, 0.0f}, v = {1, 0, 0, 1, 1, 1};
  attn::AttentionOptions options;
  options.scale = attn::Scale::none();
  const attn::AttentionShape shape{1, 3, 2, 2};
  const auto trace = attn::attention(q, k, v, shape, options);
  EXPECT_EQ(trace.masked, (std::vector<float>{0.0f, 1e38f, 0.0f}));
  EXPECT_EQ(trace.exp_shifts[0], 1e38f);  // 1e38 + ln 3 > 88
  EXPECT_EQ(trace.exps, (std::vector<float>{0.0f, 1.0f, 0.0f}));
  EXPECT_EQ(trace.exp_sums[0], 1.0f);
  EXPECT_EQ(trace.weights, (std::vector<float>{0.0f, 1.0f, 0.0f}));
  expect_traces_close(trace, attn::reference::attention(q, k, v, shape, options));
}

TEST(AttentionTrace, TermsAreTheWeightedValuesAndSumToTheOutput) {
  const Inputs in = random_inputs(111, 4, 5, 3, 6);
  const std::size_t n = 4, m = 5, d_v = 6;
  EXPECT_TRUE(attn::attention(in.q, in.k, in.v, in.shape).terms.empty());  // omitted by default
  const auto trace = attn::attention(in.q, in.k, in.v, in.shape, {}, attn::TraceTerms::Included);
  ASSERT_EQ(trace.terms.size(), n * m * d_v);
  std::vector<double> expected(n * m * d_v), sums(n * d_v, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j)
      for (std::size_t c = 0; c < d_v; ++c) {
        expected[(i * m + j) * d_v + c] = double{trace.weights[i * m + j]} * in.v[j * d_v + c];
        sums[i * d_v + c] += trace.terms[(i * m + j) * d_v + c];
      }
  EXPECT_TRUE(all_close(trace.terms, expected));
  EXPECT_TRUE(all_close(trace.output, sums));
}

}  // namespace
