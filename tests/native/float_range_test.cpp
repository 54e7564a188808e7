// The float-range contract (src/float_range.hpp): finite inputs whose float
// intermediates leave the float range. Every number returned is finite; a
// returned quantity that is representable is computed correctly; one that is
// not raises ValueError naming it. Never NaN, never a row silently treated as
// masked. The cases of issue 12, then the invariant on random hostile inputs
// for every path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "attn/attn.hpp"
#include "attn/testing.hpp"
#include "double_forward.hpp"
#include "test_support.hpp"

namespace {

using attn::ValueError;
using attn_test::all_close;
using attn_test::throws_with_message;

constexpr const char* kBeyond = "is beyond the float range (|x| <= 3.40282347e+38)";

// Every output-only path of the library, on a few block shapes for the tiled one.
std::vector<std::vector<float>> every_output_path(const std::vector<float>& q, const std::vector<float>& k,
                                                  const std::vector<float>& v, const attn::AttentionShape& shape,
                                                  const attn::AttentionOptions& options = {}) {
  return {attn::attention_output(q, k, v, shape, options), attn::attention_output_full(q, k, v, shape, options),
          attn::testing::attention_output(q, k, v, shape, options, {1, 1}),
          attn::testing::attention_output(q, k, v, shape, options, {2, 2})};
}

// |actual_i - expected_i| <= tolerance for every i (an absolute bound, for sums
// whose terms cancel: the rule of test_support.hpp is relative to the result).
::testing::AssertionResult all_close_within(const std::vector<float>& actual, const std::vector<float>& expected,
                                            double tolerance) {
  if (actual.size() != expected.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (!(std::fabs(static_cast<double>(actual[i]) - expected[i]) <= tolerance))
      return ::testing::AssertionFailure() << "[" << i << "] actual " << actual[i] << ", expected " << expected[i]
                                           << " within " << tolerance;
  }
  return ::testing::AssertionSuccess();
}

// q = (1e20, 0), keys (1e20, 0), (1e20, 0), (1, 1): q . k_0 = 1e40 overflows
// float. Scaled scores 7.1e39, 7.1e39, 7.1e19: weights 1/2, 1/2, 0.
TEST(FloatRange, ScoresBeyondFloatRaiseOnTheTraceAndTheOutputIsRight) {
  const std::vector<float> q = {1e20f, 0}, k = {1e20f, 0, 1e20f, 0, 1, 1}, v = {2, 0, 0, 2, 1, 1};
  const attn::AttentionShape shape{1, 3, 2, 2};
  for (const auto& output : every_output_path(q, k, v, shape)) EXPECT_TRUE(all_close(output, std::vector{1.0, 1.0}));
  for (auto trace : {attn::attention, attn::reference::attention}) {
    EXPECT_TRUE(throws_with_message<ValueError>([&] { trace(q, k, v, shape, {}, attn::TraceTerms::Omitted); },
                                                {"scores[0][0]: q_0 . k_0 = 1.00000004e+40 ", kBeyond}));
  }
}

// q = (-1e20, 0), every key (1e20, 0): every score is -1e40, which a float path
// would make -inf and treat as a fully masked row (zero output). No mask was
// given: the weights are 1/3 each.
TEST(FloatRange, EqualScoresBelowFloatAreNotAMaskedRow) {
  const std::vector<float> q = {-1e20f, 0}, k = {1e20f, 0, 1e20f, 0, 1e20f, 0}, v = {3, 0, 0, 3, 0, 0};
  const attn::AttentionShape shape{1, 3, 2, 2};
  for (const auto& output : every_output_path(q, k, v, shape)) EXPECT_TRUE(all_close(output, std::vector{1.0, 1.0}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::attention(q, k, v, shape); },
                                              {"scores[0][0]: q_0 . k_0 = -1.00000004e+40 ", kBeyond}));
  // The same scores scaled into the float range are a trace like any other.
  attn::AttentionOptions options;
  options.scale = attn::Scale::by(1e-30);
  const std::vector<float> small_q = {-1e18f, 0};  // scores -1e38: representable, scaled -1e8
  const auto trace = attn::attention(small_q, k, v, shape, options);
  EXPECT_TRUE(all_close(trace.weights, std::vector{1.0 / 3, 1.0 / 3, 1.0 / 3}));
  EXPECT_TRUE(all_close(trace.output, std::vector{1.0, 1.0}));
}

// The scaled score can overflow where the score does not.
TEST(FloatRange, ScaledScoresBeyondFloatRaiseNamingThem) {
  const std::vector<float> q = {1e19f}, k = {1e19f, 1}, v = {1, 2};
  attn::AttentionOptions options;
  options.scale = attn::Scale::by(100.0);  // 1e38 * 100
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::attention(q, k, v, {1, 2, 1, 1}, options); },
                                              {"scaled[0][0]: scale * q_0 . k_0 = 9.99999", kBeyond}));
  for (const auto& output : every_output_path(q, k, v, {1, 2, 1, 1}, options))
    EXPECT_TRUE(all_close(output, std::vector{1.0}));  // all weight on key 0
}

// 64 keys with equal scores and values 1e37: the tiled path's unnormalised
// accumulator sum_j exp(s_j - m) v_j would reach 6.4e38; the output, their
// mean, is representable.
TEST(FloatRange, LargeValuesDoNotOverflowTheTiledAccumulator) {
  const std::size_t m = 64;
  const std::vector<float> q = {1, 0};
  std::vector<float> k, v;
  double mean = 0;
  for (std::size_t j = 0; j < m; ++j) {
    k.insert(k.end(), {1, 0});
    const float value = 1e37f * (1.0f + static_cast<float>(j % 4));
    v.push_back(value);
    mean += value / static_cast<double>(m);
  }
  const attn::AttentionShape shape{1, m, 2, 1};
  for (const auto& output : every_output_path(q, k, v, shape)) EXPECT_TRUE(all_close(output, std::vector{mean}));
  EXPECT_TRUE(all_close(attn::attention(q, k, v, shape).output, std::vector{mean}));
  EXPECT_TRUE(all_close(attn::reference::attention(q, k, v, shape).output, std::vector{mean}));
}

// Values near FLT_MAX on every path: outputs are convex combinations of them.
// Every path computes these rows in double (a float accumulator would
// overflow), through the reference's own row: the expected output is the
// forward written for the tests (double_forward.hpp), not the reference.
TEST(FloatRange, ValuesNearTheLargestFloatOnEveryPath) {
  const std::vector<float> q = {0.5f, -1, 2, 0.25f}, k = {1, 0, 0, 1, 1, 1};
  const std::vector<float> v = {3e38f, -3.4e38f, 3.4e38f, 3e38f, -3.4e38f, 1};
  const attn::AttentionShape shape{2, 3, 2, 2};
  const auto in_double = [](const std::vector<float>& x) { return std::vector<double>(x.begin(), x.end()); };
  attn::AttentionOptions causal;
  causal.mask = attn::Mask::causal();
  for (const attn::AttentionOptions& options : {attn::AttentionOptions{}, causal}) {
    const auto expected = attn_test::attention_double(in_double(q), in_double(k), in_double(v), 2, 3, 2, 2,
                                                      options.scale.factor(2), attn::keep_matrix(options.mask, 2, 3));
    EXPECT_TRUE(all_close(attn::reference::attention(q, k, v, shape, options).output, expected));
    EXPECT_TRUE(all_close(attn::attention(q, k, v, shape, options).output, expected));
    for (const auto& output : every_output_path(q, k, v, shape, options)) EXPECT_TRUE(all_close(output, expected));
  }
}

// Multi-head: a projection's float partial sums overflow (2e38 + 2e38) although
// the projection (2e38) fits; a projection that does not fit raises naming it.
TEST(FloatRange, MultiHeadProjections) {
  const std::vector<float> x = {2e19f, 2e19f, -2e19f, 0};  // n = 1, d_model = 4
  std::vector<float> w(16, 0.0f);
  for (std::size_t r = 0; r < 3; ++r) w[r * 4 + 0] = 1e19f;  // column 0 of every W: (1e19, 1e19, 1e19, 0)
  attn::MultiHeadInputs in{x, {}, 1, 0, 4, 2, w, w, w, w, {}};
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::multi_head(in); },
                                              {"output[0][0]: (Concat W_O)[0][0] = ", kBeyond}));
  std::vector<float> w_o(16, 0.0f);
  w_o[0] = 1e-30f;  // output[0][0] = 1e-30 * concat[0][0]
  in.w_o = w_o;
  const auto result = attn::multi_head(in);
  EXPECT_TRUE(all_close(std::vector{result.q[0], result.k[0], result.v[0]}, std::vector{2e38, 2e38, 2e38}));
  EXPECT_TRUE(all_close(result.output, std::vector{2e8, 0.0, 0.0, 0.0}));  // one key: concat = v
  const std::vector<float> big_x = {1e20f, 1e20f, 0, 0};
  in.x = big_x;
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::multi_head(in); },
                                              {"q[0][0]: (X W_Q)[0][0] = 2.00000004e+39 ", kBeyond}));
}

TEST(FloatRange, ScoreFunctions) {
  const std::vector<float> huge = {1e20f}, s64(64, 5e18f);
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::score_dot({huge, huge, 1, 1, 1, 1}); },
                                              {"e[0][0]: s_0 . h_0 = 1.00000004e+40 ", kBeyond}));
  // s . h = 1.6e39 does not fit, s . h / sqrt(64) = 2e38 does
  const auto scaled = attn::score_scaled_dot({s64, s64, 1, 1, 64, 64});
  EXPECT_TRUE(all_close(scaled, std::vector{64.0 * 5e18f * 5e18f / 8}));
  EXPECT_TRUE(throws_with_message<ValueError>(
      [&] { attn::score_general({huge, huge, 1, 1, 1, 1}, std::vector<float>{1}); },
      {"e[0][0]: s_0^T W_a h_0 = 1.00000004e+40 ", kBeyond}));
  // S W_a overflows in float (3e38 + 3e38 - ...) but is 0: e = v_a tanh(0 + h U_a), not v_a tanh(inf)
  const std::vector<float> s = {3e38f, 3e38f, -3e38f, -3e38f}, w_a = {1, 1, 1, 1}, h = {0.5f}, u_a = {1}, v_a = {2};
  EXPECT_TRUE(all_close(attn::score_additive({s, h, 1, 1, 4, 1}, w_a, u_a, v_a, 1), std::vector{2 * std::tanh(0.5)}));
  const std::vector<float> big_v_a = {3e38f, 3e38f}, w_a2 = {1, 1}, u_a2 = {1, 1}, one = {1};
  EXPECT_TRUE(throws_with_message<ValueError>(
      [&] { attn::score_additive({one, one, 1, 1, 1, 1}, w_a2, u_a2, big_v_a, 2); },
      {"e[0][0]: v_a . tanh(s_0 W_a + h_0 U_a) = ", kBeyond}));
  const std::vector<float> alignment = {1, 1}, values = {3e38f, 3e38f};
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::context_vectors(alignment, values, 1, 2, 1); },
                                              {"c[0][0]: sum_j alignment[0][j] h[j][0] = ", kBeyond}));
}

TEST(FloatRange, SoftmaxOfTheLargestFloats) {
  const float big = FLT_MAX, minus_inf = -INFINITY;
  const std::vector<float> logits = {big, -big, 0, -big, -big, -big, big, big, minus_inf};
  const auto p = attn::softmax_rows(logits, 3, 3);
  EXPECT_TRUE(all_close(p, std::vector{1.0, 0.0, 0.0, 1.0 / 3, 1.0 / 3, 1.0 / 3, 0.5, 0.5, 0.0}));
}

// ---- the invariant on random hostile inputs ----

// A float of magnitude 10^e, e uniform in [-30, 30], random sign; or 0.
float hostile_float(attn::Rng& rng) {
  if (rng.uniform() < 0.1) return 0.0f;
  const double magnitude = std::pow(10.0, -30.0 + 60.0 * rng.uniform());
  return static_cast<float>(rng.uniform() < 0.5 ? -magnitude : magnitude);
}

std::vector<float> hostile_matrix(attn::Rng& rng, std::size_t count) {
  std::vector<float> x(count);
  for (float& value : x) value = hostile_float(rng);
  return x;
}

bool all_finite(const std::vector<float>& x) {
  return std::all_of(x.begin(), x.end(), [](float value) { return std::isfinite(value); });
}

// Output row i of any path: a convex combination of the visible value rows
// (within rounding), or zero when the row sees no key.
::testing::AssertionResult is_convex_combination(const std::vector<float>& output, const std::vector<float>& v,
                                                 const std::vector<std::uint8_t>& keep, std::size_t n, std::size_t m,
                                                 std::size_t d_v) {
  if (!all_finite(output)) return ::testing::AssertionFailure() << "not finite";
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < d_v; ++c) {
      double low = INFINITY, high = -INFINITY, largest = 0;
      for (std::size_t j = 0; j < m; ++j) {
        if (!keep[i * m + j]) continue;
        low = std::min(low, static_cast<double>(v[j * d_v + c]));
        high = std::max(high, static_cast<double>(v[j * d_v + c]));
        largest = std::max(largest, std::fabs(static_cast<double>(v[j * d_v + c])));
      }
      const double o = output[i * d_v + c];
      if (low == INFINITY) {
        if (o != 0.0) return ::testing::AssertionFailure() << "masked row " << i << " not zero";
        continue;
      }
      const double slack = 1e-5 * largest;
      if (o < low - slack || o > high + slack)
        return ::testing::AssertionFailure() << "o[" << i << "][" << c << "] = " << o << " outside [" << low << ", "
                                             << high << "]";
    }
  return ::testing::AssertionSuccess();
}

TEST(FloatRange, EveryPathIsFiniteOrRaisesOnRandomHostileInputs) {
  attn::Rng rng(500);
  std::size_t raised = 0, computed = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 1 + rng.next_u64() % 5, m = 1 + rng.next_u64() % 7, d_k = 1 + rng.next_u64() % 5,
                      d_v = 1 + rng.next_u64() % 3;
    SCOPED_TRACE(::testing::Message() << "trial " << trial << " " << n << "," << m << "," << d_k << "," << d_v);
    const auto q = hostile_matrix(rng, n * d_k), k = hostile_matrix(rng, m * d_k), v = hostile_matrix(rng, m * d_v);
    const attn::AttentionShape shape{n, m, d_k, d_v};
    attn::AttentionOptions options;
    if (trial % 3 == 1) options.mask = attn::Mask::causal();
    if (trial % 3 == 2) options.scale = attn::Scale::by(std::pow(10.0, -20.0 + 40.0 * rng.uniform()));
    const auto keep = attn::keep_matrix(options.mask, n, m);

    // The output-only paths never raise: their output is always representable.
    for (const auto& output : every_output_path(q, k, v, shape, options))
      EXPECT_TRUE(is_convex_combination(output, v, keep, n, m, d_v));

    // The trace paths return finite traces, or raise naming a score; both alike.
    std::string fast_error, reference_error;
    attn::AttentionTrace trace, reference;
    try {
      trace = attn::attention(q, k, v, shape, options);
    } catch (const ValueError& e) {
      fast_error = e.what();
    }
    try {
      reference = attn::reference::attention(q, k, v, shape, options);
    } catch (const ValueError& e) {
      reference_error = e.what();
    }
    EXPECT_EQ(fast_error.empty(), reference_error.empty()) << fast_error << " | " << reference_error;
    if (!fast_error.empty()) {
      ++raised;
      EXPECT_NE(fast_error.find(kBeyond), std::string::npos) << fast_error;
      EXPECT_TRUE(fast_error.rfind("scores[", 0) == 0 || fast_error.rfind("scaled[", 0) == 0) << fast_error;
      continue;
    }
    ++computed;
    for (const auto* t : {&trace, &reference}) {
      EXPECT_TRUE(all_finite(t->scores) && all_finite(t->scaled) && all_finite(t->weights));
      EXPECT_TRUE(is_convex_combination(t->output, v, keep, n, m, d_v));
      for (std::size_t i = 0; i < n; ++i) {
        double sum = 0;
        bool visible = false;
        for (std::size_t j = 0; j < m; ++j) {
          sum += t->weights[i * m + j];
          visible = visible || keep[i * m + j];
          if (!keep[i * m + j]) EXPECT_EQ(t->weights[i * m + j], 0.0f);
        }
        EXPECT_NEAR(sum, visible ? 1.0 : 0.0, 1e-5) << "row " << i;
      }
    }
  }
  // both outcomes were exercised
  EXPECT_GT(raised, 20u);
  EXPECT_GT(computed, 20u);
}

// A refusal of a result beyond the float range: "<name>: <formula> = <value>
// is beyond the float range (...)", whose value, read back, does not fit.
::testing::AssertionResult names_a_number_beyond_float(const std::string& message) {
  const std::size_t end = message.find(std::string(" ") + kBeyond);
  const std::size_t start = end == std::string::npos ? end : message.rfind(" = ", end);
  if (start == std::string::npos) return ::testing::AssertionFailure() << "not a float-range refusal: " << message;
  const double value = std::strtod(message.c_str() + start + 3, nullptr);
  if (!(std::fabs(value) > FLT_MAX)) return ::testing::AssertionFailure() << "the value named fits: " << message;
  return ::testing::AssertionSuccess();
}

// How often a function returned and how often it refused over the trials.
struct Outcomes {
  std::size_t computed = 0, raised = 0;
};

// Multi-head attention and the four score functions on hostile inputs: each
// returns finite numbers or refuses naming a result that does not fit, and
// both outcomes occur for each (the trials reach both regimes).
TEST(FloatRange, MultiHeadAndScoresAreFiniteOrRaiseOnRandomHostileInputs) {
  attn::Rng rng(501);
  Outcomes multi_head, score_kinds[4];
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng.next_u64() % 4, m = 1 + rng.next_u64() % 4, heads = 1 + rng.next_u64() % 2;
    const std::size_t d_model = heads * (1 + rng.next_u64() % 3);
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    const auto x = hostile_matrix(rng, n * d_model), context = hostile_matrix(rng, m * d_model);
    const auto w_q = hostile_matrix(rng, d_model * d_model), w_k = hostile_matrix(rng, d_model * d_model),
               w_v = hostile_matrix(rng, d_model * d_model), w_o = hostile_matrix(rng, d_model * d_model);
    const attn::MultiHeadInputs in{x, context, n, m, d_model, heads, w_q, w_k, w_v, w_o, {}};
    try {
      const auto r = attn::multi_head(in);
      EXPECT_TRUE(all_finite(r.q) && all_finite(r.k) && all_finite(r.v) && all_finite(r.concat) &&
                  all_finite(r.output));
      for (const auto& w : r.head_weights) EXPECT_TRUE(all_finite(w));
      ++multi_head.computed;
    } catch (const ValueError& e) {
      EXPECT_TRUE(names_a_number_beyond_float(e.what()));
      ++multi_head.raised;
    }
    const attn::ScoreInputs scores{x, context, n, m, d_model, d_model};
    const auto w_a = hostile_matrix(rng, d_model * d_model);
    // v_a of 1e38 to 3.4e38: e = v_a . tanh(...) (|tanh| <= 1) leaves the float range only with such v_a
    std::vector<float> v_a(d_model);
    for (float& x : v_a) x = static_cast<float>((rng.uniform() < 0.5 ? -1e38 : 1e38) * (1 + 2.4 * rng.uniform()));
    for (int kind = 0; kind < 4; ++kind) {
      try {
        const auto e = kind == 0   ? attn::score_dot(scores)
                       : kind == 1 ? attn::score_scaled_dot(scores)
                       : kind == 2 ? attn::score_general(scores, w_a)
                                   : attn::score_additive(scores, w_a, w_k, v_a, d_model);
        EXPECT_TRUE(all_finite(e)) << kind;
        ++score_kinds[kind].computed;
      } catch (const ValueError& e) {
        EXPECT_TRUE(names_a_number_beyond_float(e.what())) << kind;
        ++score_kinds[kind].raised;
      }
    }
  }
  // (seed 501: multi_head 42 of 200 computed, the score kinds 111, 113, 67 and 77)
  const std::pair<const char*, const Outcomes*> functions[] = {{"multi_head", &multi_head}, {"score_dot", &score_kinds[0]},
      {"score_scaled_dot", &score_kinds[1]}, {"score_general", &score_kinds[2]}, {"score_additive", &score_kinds[3]}};
  for (const auto& [name, o] : functions) {
    EXPECT_GE(o->computed, 20u) << name;
    EXPECT_GE(o->raised, 20u) << name;
  }
}

}  // namespace

// ---- the backward passes (fuzz findings: each returned NaN or inf before) ----

// q = (1e20, 0), keys (1e20, 0), (1e20, 0), (1, 1): the weights are 1/2, 1/2, 0
// (scores 7e39 and 7e19), so P is exact and dS = P (dP - D): with dO = (1, 0),
// dP = (2, 0, 1), D = 1, dS = (1/2, -1/2, 0). dV = P^T dO = ((1/2, 0), (1/2, 0),
// (0, 0)); dQ = scale dS K = 0; dK = scale dS^T Q = scale (5e19, 0), (-5e19, 0), 0.
// The float path overflowed in the scores (1e40) and returned NaN on every path.
TEST(FloatRange, BackwardOfScoresBeyondFloatIsComputedInDouble) {
  const std::vector<float> q = {1e20f, 0}, k = {1e20f, 0, 1e20f, 0, 1, 1}, v = {2, 0, 0, 2, 1, 1}, d_o = {1, 0};
  const attn::AttentionShape shape{1, 3, 2, 2};
  const double scale = 1 / std::sqrt(2.0), half = 0.5 * 1e20 * scale;
  const std::vector<double> grad_q = {0, 0}, grad_k = {half, 0, -half, 0, 0, 0}, grad_v = {0.5, 0, 0.5, 0, 0, 0};
  const auto check = [&](const attn::AttentionGradients& g) {
    EXPECT_TRUE(all_close(g.q, grad_q));
    EXPECT_TRUE(all_close(g.k, grad_k));
    EXPECT_TRUE(all_close(g.v, grad_v));
  };
  check(attn::reference::attention_backward(q, k, v, d_o, shape));
  check(attn::attention_backward(q, k, v, d_o, shape));
  check(attn::attention_backward_tiled(q, k, v, d_o, attn::attention_forward_tiled(q, k, v, shape), shape));
  // Scores in range; dP = dO V^T = 1e40 for every key overflows float, but dP
  // - D is small (all dP_j equal) and every gradient fits.
  const std::vector<float> small_q = {1, 0}, big_v = {1e20f, 0, 1e20f, 1, 1e20f, 2}, big_d_o = {1e20f, 0};
  const auto reference = attn::reference::attention_backward(small_q, k, big_v, big_d_o, shape);
  const auto forward = attn::attention_forward_tiled(small_q, k, big_v, shape);
  for (const auto& g : {attn::attention_backward(small_q, k, big_v, big_d_o, shape),
                        attn::attention_backward_tiled(small_q, k, big_v, big_d_o, forward, shape)}) {
    EXPECT_TRUE(all_finite(g.q) && all_finite(g.k) && all_finite(g.v));
    EXPECT_TRUE(all_close(g.q, reference.q));
    EXPECT_TRUE(all_close(g.k, reference.k));
    EXPECT_TRUE(all_close(g.v, reference.v));
  }
  // dV = P^T dO: each key's weight times (1e20, 0)
  const auto p = attn::reference::attention(small_q, k, big_v, shape).weights;
  EXPECT_TRUE(all_close(reference.v, std::vector<double>{p[0] * 1e20, 0, p[1] * 1e20, 0, p[2] * 1e20, 0}));
  // a gradient that does not fit raises naming it
  // three queries, each with weights 1/2, 1/2: dV_0 = sum_i P_i0 dO_i = 1.5 * 3e38
  const std::vector<float> three_q = {1, 0, 1, 0, 1, 0}, huge_d_o = {3e38f, 3e38f, 3e38f, 3e38f, 3e38f, 3e38f};
  const std::vector<float> two_keys = {1, 0, 1, 0}, values = {1, 0, 0, 1};
  EXPECT_TRUE(throws_with_message<ValueError>(
      [&] { attn::attention_backward(three_q, two_keys, values, huge_d_o, {3, 2, 2, 2}); },
      {"grad_v[0][0]: (P^T dO)[0][0] = 4.5", kBeyond}));
}

// Issue 25, item 4: the same call, one answer on every path. q = (1e20, 0),
// keys (1e20, 0), (1e19, 0), (0, 0): scaled scores 7.07e39, 7.07e38, 0, so
// the weights are (1, 0, 0) exactly, the output is v_0, and
//   dV = P^T dO = (dO, 0, 0);  dP_j = dO . v_j, D = dO . O = dP_0,
//   dS = P (dP - D) = 0, so dQ = 0 and dK = 0.
// Every output path and every backward path returns these (the tiled forward
// keeps L_0 = 7.07e39 in double: before, it refused it, and the tiled backward
// path with it). The trace alone refuses, naming scores[0][0]: it returns the
// scores, and 1e40 is not a float (attn/attention.hpp).
TEST(FloatRange, EveryPathGivesTheSameAnswerBeyondTheFloatRange) {
  const std::vector<float> q = {1e20f, 0}, k = {1e20f, 0, 1e19f, 0, 0, 0}, v = {1, 2, 3, 4, 5, 6}, d_o = {1, -1};
  const attn::AttentionShape shape{1, 3, 2, 2};
  for (const auto& output : every_output_path(q, k, v, shape)) EXPECT_TRUE(all_close(output, std::vector{1.0, 2.0}));
  for (auto trace : {attn::attention, attn::reference::attention})
    EXPECT_TRUE(throws_with_message<ValueError>([&] { trace(q, k, v, shape, {}, attn::TraceTerms::Omitted); },
                                                {"scores[0][0]: q_0 . k_0 = ", kBeyond}));

  const auto forward = attn::attention_forward_tiled(q, k, v, shape);
  EXPECT_TRUE(all_close(forward.output, std::vector{1.0, 2.0}));
  const double q0 = 1e20f, scale = attn::Scale::inverse_sqrt_dk().factor(2);
  EXPECT_TRUE(all_close(forward.log_sum_exp, std::vector{scale * q0 * q0}));  // L_0 = S_00: the other weights are 0

  const std::vector<double> zeros(6, 0.0), grad_v = {1, -1, 0, 0, 0, 0};
  for (const auto& g : {attn::reference::attention_backward(q, k, v, d_o, shape), attn::attention_backward(q, k, v, d_o, shape),
                        attn::attention_backward_tiled(q, k, v, d_o, forward, shape)}) {
    EXPECT_TRUE(all_close(g.q, std::vector{0.0, 0.0}));
    EXPECT_TRUE(all_close(g.k, zeros));
    EXPECT_TRUE(all_close(g.v, grad_v));
  }
}

// A forward of another call (its L_i below the row's scores) made P_ij =
// exp(S_ij - L_i) overflow: refused, naming it. So is an L_i beyond the float
// range where every score lies within it (it would be used as a float).
TEST(FloatRange, TiledBackwardRefusesTheForwardOfAnotherCall) {
  const std::vector<float> q = {1, 0}, k = {1, 0, 0, 1, 1, 1}, v = {2, 0, 0, 2, 1, 1}, d_o = {1, 0};
  const attn::AttentionShape shape{1, 3, 2, 2};
  attn::TiledAttentionForward forward = attn::attention_forward_tiled(q, k, v, shape);
  forward.log_sum_exp[0] = -100.0f;  // scores 0.707: exp(0.707 + 100) would be 1e44
  EXPECT_TRUE(throws_with_message<ValueError>(
      [&] { attn::attention_backward_tiled(q, k, v, d_o, forward, shape); },
      {"forward.log_sum_exp[0]: expected the log-sum-exp of row 0's scores (at least their maximum, 0.707106", "got -100"}));
  forward.log_sum_exp[0] = 1e40;
  EXPECT_TRUE(throws_with_message<ValueError>(
      [&] { attn::attention_backward_tiled(q, k, v, d_o, forward, shape); },
      {"forward.log_sum_exp[0]: expected the log-sum-exp of row 0's scores, which lie within the float range, got 1e+40"}));
}

// The same call's forward is never refused, however large its scores (a fuzz
// finding): row 4's largest score, scale (q_4 . k_2) with q_4 . k_2 =
// 3.78e8 + 3.77e8 + 22, is rounded differently by the forward's block kernels
// and by the backward's recomputation, whose score then exceeded the forward's
// L_4 by one float spacing (32 at 4.35e8), more than the 1 the check allowed.
// Every kernel variant, forward blocks of 1 to 9, threads 1 and 2; the backward
// with the same blocks and with its own, and the full path, give the
// reference's gradients. Rows 0-3 attend to the tied keys 0 and 1 (scores 3e17
// and 1.7e9) with weights 1/2 each, row 4 to key 2 alone: dV = P^T dO entry by
// entry (the tiled path's weights from the forward's float L_i = m_i + ln 2,
// whose ln 2 a float at 3e17 cannot hold, were 1 and 1: dV twice the right
// one). dQ and dK are sums of terms scale dS_ij k_j, scale dS_ij q_i of up to
// 0.58 x 1.41 x 4.3e8 = 3.5e8 that cancel (k_0 = k_1): within 1e-6 of that.
TEST(FloatRange, TiledBackwardAcceptsItsOwnForwardAtLargeScores) {
  const float big = -431602080.0f;
  const std::vector<float> q = {big, big, big, big, big, -4.75f, -0.75f, -1.125f, -5, -1.9375f, -0.6875f, -3.6875f,
                                -0.875f, -0.875f, 4.8125f};
  const std::vector<float> k = {big, big, big, big, big, big, big, -430141536.0f, 4.5625f, 1.875f, 1, -14.2885227f,
                                3.4375f, 0.0152975162f, -1.03759851e-37f};
  const std::vector<float> v = {-1, 1.8125f, -29.6988754f, 3.8125f, -6.1875f}, d_o = {1, -1, 0.5f, 2, -0.25f};
  const attn::AttentionShape shape{5, 5, 3, 1};
  const auto reference = attn::reference::attention_backward(q, k, v, d_o, shape);
  EXPECT_TRUE(all_close(reference.v, std::vector{1.25, 1.25, -0.25, 0.0, 0.0}));  // 0.5 (1 - 1 + 0.5 + 2); -0.25
  const auto within_term_rounding = [](const std::vector<float>& actual, const std::vector<float>& expected) {
    return all_close_within(actual, expected, 1e-6 * 3.5e8);
  };
  const auto same_gradients = [&](const attn::AttentionGradients& g) {
    EXPECT_TRUE(all_close(g.v, reference.v));
    EXPECT_TRUE(within_term_rounding(g.q, reference.q));
    EXPECT_TRUE(within_term_rounding(g.k, reference.k));
  };
  for (const attn::kernels::KernelTable* table : attn::testing::kernel_variants()) {
    const attn::testing::ForceKernelVariant variant(table->name);
    SCOPED_TRACE(table->name);
    same_gradients(attn::attention_backward(q, k, v, d_o, shape));
    for (std::size_t threads : {1, 2}) {
      attn::AttentionOptions options;
      options.threads = threads;
      for (std::size_t rows = 1; rows <= 9; ++rows) {
        for (std::size_t cols = 1; cols <= 9; ++cols) {
          SCOPED_TRACE(::testing::Message() << "blocks " << rows << " x " << cols << ", threads " << threads);
          const attn::testing::TileSizes tiles{rows, cols};
          const auto forward = attn::testing::attention_forward_tiled(q, k, v, shape, options, tiles);
          attn::AttentionGradients g, h;
          ASSERT_NO_THROW(g = attn::testing::attention_backward_tiled(q, k, v, d_o, forward, shape, options, tiles));
          ASSERT_NO_THROW(h = attn::attention_backward_tiled(q, k, v, d_o, forward, shape, options));  // its own blocks
          same_gradients(g);
          same_gradients(h);
        }
      }
    }
  }
}

// Every backward pass on random hostile inputs (floats of 1e-30 to 1e30, as
// above): finite gradients, or a refusal naming a quantity beyond the float
// range, alike on every path. (Before: NaN and inf from the float paths.)
TEST(FloatRange, BackwardPassesAreFiniteOrRaiseOnRandomHostileInputs) {
  attn::Rng rng(502);
  std::size_t raised = 0, computed = 0;
  const auto finite = [](const attn::AttentionGradients& g) { return all_finite(g.q) && all_finite(g.k) && all_finite(g.v); };
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng.next_u64() % 4, m = 1 + rng.next_u64() % 5, d_k = 1 + rng.next_u64() % 3,
                      d_v = 1 + rng.next_u64() % 3;
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    const auto q = hostile_matrix(rng, n * d_k), k = hostile_matrix(rng, m * d_k), v = hostile_matrix(rng, m * d_v),
               d_o = hostile_matrix(rng, n * d_v);
    const attn::AttentionShape shape{n, m, d_k, d_v};
    attn::AttentionOptions options;
    if (trial % 2 == 1) options.mask = attn::Mask::causal();
    std::string errors[3];
    const auto run = [&](int path) {
      try {
        attn::AttentionGradients g;
        if (path == 0) g = attn::reference::attention_backward(q, k, v, d_o, shape, options);
        if (path == 1) g = attn::attention_backward(q, k, v, d_o, shape, options);
        if (path == 2) g = attn::attention_backward_tiled(q, k, v, d_o, attn::attention_forward_tiled(q, k, v, shape, options), shape, options);
        EXPECT_TRUE(finite(g)) << "path " << path;
      } catch (const ValueError& e) {
        errors[path] = e.what();
        EXPECT_NE(errors[path].find(kBeyond), std::string::npos) << errors[path];
      }
    };
    for (int path = 0; path < 3; ++path) run(path);
    EXPECT_EQ(errors[0], errors[1]);
    EXPECT_EQ(errors[0], errors[2]);  // the same call, the same answer (the tiled forward keeps L in double)
    ++(errors[0].empty() ? computed : raised);

    const std::size_t heads = 1 + rng.next_u64() % 2, d_model = heads * (1 + rng.next_u64() % 2);
    const auto x = hostile_matrix(rng, n * d_model), w_q = hostile_matrix(rng, d_model * d_model),
               w_k = hostile_matrix(rng, d_model * d_model), w_v = hostile_matrix(rng, d_model * d_model),
               w_o = hostile_matrix(rng, d_model * d_model), d_y = hostile_matrix(rng, n * d_model);
    const attn::MultiHeadInputs in{x, {}, n, 0, d_model, heads, w_q, w_k, w_v, w_o, options.mask};
    std::string fast_error, reference_error;
    for (auto* error : {&fast_error, &reference_error}) {
      try {
        const auto g = error == &fast_error ? attn::multi_head_backward(in, d_y) : attn::reference::multi_head_backward(in, d_y);
        EXPECT_TRUE(all_finite(g.x) && all_finite(g.w_q) && all_finite(g.w_k) && all_finite(g.w_v) && all_finite(g.w_o));
      } catch (const ValueError& e) {
        *error = e.what();
        EXPECT_NE(error->find(kBeyond), std::string::npos) << *error;
      }
    }
    EXPECT_EQ(fast_error, reference_error);
  }
  EXPECT_GT(raised, 20u);
  EXPECT_GT(computed, 20u);
}

// Layers: float sums that overflow while the result fits, and results that do not fit.
TEST(FloatRange, LinearAndEmbeddingBackwardSums) {
  // y = 3e38 + 3e38 - 3e38 = 3e38: the float partial sum overflowed
  const std::vector<float> x = {3e38f, 3e38f, 3e38f}, w = {1, 1, -1}, b = {0};
  EXPECT_TRUE(all_close(attn::linear(x, w, b, 1, 3, 1), std::vector{3e38}));
  const std::vector<float> w2 = {1, 1, 1};
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::linear(x, w2, b, 1, 3, 1); },
                                              {"y[0][0]: (X W^T + b)[0][0] = 9.00000", kBeyond}));
  // dW = dY^T X = 2 * 3e38 does not fit; db = sum of dY = 2e38 - ... fits
  const std::vector<float> rows_x = {3e38f, 3e38f}, one_w = {1}, grad = {2, -1};
  const auto g = attn::linear_backward(rows_x, one_w, grad, 2, 1, 1);
  EXPECT_TRUE(all_close(g.w, std::vector{3e38}));
  EXPECT_TRUE(throws_with_message<ValueError>(
      [&] { attn::linear_backward(rows_x, one_w, std::vector<float>{2, 2}, 2, 1, 1); },
      {"grad_w[0][0]: (dY^T X)[0][0] = 1.2", kBeyond}));
  // dE[t] = sum of dX_i over the tokens t_i = t: 3e38 + 3e38 - 3e38
  const std::vector<std::int32_t> tokens = {0, 0, 0};
  const std::vector<float> grad_x = {3e38f, 3e38f, -3e38f};
  EXPECT_TRUE(all_close(attn::embed_backward(tokens, grad_x, 2, 1), std::vector{3e38, 0.0}));
}
