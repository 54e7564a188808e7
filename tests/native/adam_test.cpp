// Adam (attn/adam.hpp): three steps recomputed by hand in double, a quadratic
// it minimises, and bad options.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <vector>

#include "attn/adam.hpp"
#include "attn/error.hpp"
#include "test_support.hpp"

namespace {

TEST(Adam, ThreeStepsMatchTheAlgorithmRecomputedInDouble) {
  const attn::AdamOptions options{0.01f, 0.9f, 0.999f, 1e-8f};
  attn::Adam adam(3, options);
  std::vector<float> theta = {1.0f, -2.0f, 0.5f};
  const std::vector<std::vector<float>> gradients = {{0.5f, -1.0f, 0.0f}, {0.25f, 2.0f, 1e-3f}, {-0.5f, 0.1f, 3.0f}};
  std::vector<double> expected(theta.begin(), theta.end()), m(3, 0.0), v(3, 0.0);
  for (std::size_t t = 1; t <= gradients.size(); ++t) {
    adam.step(theta, gradients[t - 1]);
    for (std::size_t i = 0; i < 3; ++i) {
      const double g = gradients[t - 1][i];
      m[i] = 0.9 * m[i] + 0.1 * g;
      v[i] = 0.999 * v[i] + 0.001 * g * g;
      const double m_hat = m[i] / (1 - std::pow(0.9, t)), v_hat = v[i] / (1 - std::pow(0.999, t));
      expected[i] -= 0.01 * m_hat / (std::sqrt(v_hat) + 1e-8);
    }
    EXPECT_TRUE(attn_test::all_close(theta, expected)) << "step " << t;
  }
  EXPECT_EQ(adam.steps_taken(), 3u);
  // The first step moves each parameter by about α against the sign of its
  // gradient (m̂ / sqrt(v̂) = g / |g|), and not at all where g = 0.
  attn::Adam fresh(2, options);
  std::vector<float> p = {0.0f, 0.0f};
  fresh.step(p, std::vector<float>{3.0f, 0.0f});
  EXPECT_TRUE(attn_test::close(p[0], -0.01));
  EXPECT_EQ(p[1], 0.0f);
}

// AdamW with a decay mask: a zero gradient leaves a masked-out parameter where
// it is, and shrinks a decayed one by exactly (1 - α λ) per step.
TEST(Adam, DecayMaskSelectsTheParametersThatDecay) {
  attn::Adam adam(3, {0.1f, 0.9f, 0.999f, 1e-8f, 0.5f}, {1, 0, 1});
  std::vector<float> theta = {2.0f, 2.0f, -4.0f};
  for (int step = 0; step < 3; ++step) adam.step(theta, std::vector<float>(3, 0.0f));
  const float factor = 1.0f - 0.1f * 0.5f;  // 0.95, in float as the update computes it
  EXPECT_EQ(theta[0], 2.0f * factor * factor * factor);
  EXPECT_EQ(theta[1], 2.0f);
  EXPECT_EQ(theta[2], -4.0f * factor * factor * factor);
  EXPECT_TRUE(attn_test::throws_with_message<attn::ShapeError>(
      [] { attn::Adam(3, {0.1f}, {1, 0}); }, {"decays: expected parameter_count = 3 entries, got 2"}));
}

// f(θ) = sum_i (θ_i - c_i)^2, gradient 2 (θ - c): Adam reaches c.
TEST(Adam, MinimisesAQuadratic) {
  const std::vector<float> target = {3.0f, -1.0f, 0.25f, 7.0f};
  std::vector<float> theta(4, 0.0f), gradient(4);
  attn::Adam adam(4, {0.1f});
  for (int step = 0; step < 2000; ++step) {
    for (std::size_t i = 0; i < 4; ++i) gradient[i] = 2.0f * (theta[i] - target[i]);
    adam.step(theta, gradient);
  }
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(theta[i], target[i], 1e-3);
}

TEST(Adam, BadOptionsAndLengthsNameTheArgument) {
  using attn_test::throws_with_message;
  EXPECT_TRUE(throws_with_message<attn::ValueError>([] { attn::Adam(3, {0.0f}); },
                                                    {"learning_rate: expected a finite number > 0, got 0"}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>([] { attn::Adam(3, {0.1f, 1.0f}); },
                                                    {"beta1: expected a number in [0, 1), got 1"}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>([] { attn::Adam(3, {0.1f, 0.9f, 0.999f, -1.0f}); },
                                                    {"epsilon: expected a finite number > 0, got -1"}));
  EXPECT_TRUE(throws_with_message<attn::ShapeError>([] { attn::Adam(0); },
                                                    {"parameter_count: expected at least 1, got 0"}));
  attn::Adam adam(3);
  std::vector<float> theta(3), short_gradient(2);
  EXPECT_TRUE(throws_with_message<attn::ShapeError>([&] { adam.step(theta, short_gradient); },
                                                    {"gradients: expected parameter_count = 3 floats, got 2"}));
  // Gradients that share memory with the parameters (the update loop runs on
  // arrays it may assume apart): refused, nothing changed, and the next step works.
  // The parameters are shared[1..3]; the gradients start before them, on them, and inside them.
  std::vector<float> shared = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f};
  const std::span<float> params(shared.data() + 1, 3);
  for (std::size_t offset : {0, 1, 2}) {
    EXPECT_TRUE(throws_with_message<attn::ValueError>(
        [&] { adam.step(params, attn::FloatSpan(shared.data() + offset, 3)); },
        {"gradients: expected an array apart from parameters, got one that overlaps it"}))
        << "offset " << offset;
  }
  EXPECT_EQ(shared, (std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f, 5.0f}));
  EXPECT_EQ(adam.steps_taken(), 0u);
  // Side by side in one buffer, either way round, is apart.
  std::vector<float> buffer(6, 0.5f);
  adam.step(std::span<float>(buffer.data(), 3), attn::FloatSpan(buffer.data() + 3, 3));
  adam.step(std::span<float>(buffer.data() + 3, 3), attn::FloatSpan(buffer.data(), 3));
  EXPECT_EQ(adam.steps_taken(), 2u);
}

}  // namespace

namespace {

// Fuzz findings: a NaN gradient made every parameter NaN, silently; a
// gradient of 1e20 overflowed g^2; a learning rate too large for the numbers
// made parameters infinite. Each is refused now, and a refused step changes
// nothing.
TEST(Adam, AStepThatWouldLeaveTheFloatRangeIsRefusedAndChangesNothing) {
  using attn_test::throws_with_message;
  attn::Adam adam(2, {0.1f});
  std::vector<float> theta = {1.0f, 2.0f};
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { adam.step(theta, std::vector<float>{0.5f, NAN}); },
                                                    {"gradients[1]: expected a finite number, got NaN"}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { adam.step(theta, std::vector<float>{0.5f, 1e20f}); },
      {"gradients[1]: expected a gradient whose moments fit in a float", "got 1.00000002e+20"}));
  std::vector<float> bad_theta = {INFINITY, 0.0f};
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { adam.step(bad_theta, std::vector<float>{1, 1}); },
                                                    {"parameters[0]: expected a finite number, got inf"}));
  EXPECT_EQ(theta, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(adam.steps_taken(), 0u);
  // the optimizer still works: the first step is the formula (m̂ / sqrt(v̂) = sign g)
  adam.step(theta, std::vector<float>{0.5f, -1.0f});
  EXPECT_TRUE(attn_test::all_close(theta, std::vector{0.9, 2.1}));

  // α / (1 - β1^t) = 3e39 does not fit in a float (for the first 20 steps; β1 = 0.9f is 0.899999976)
  attn::Adam huge_rate(1, {3e38f});
  std::vector<float> p = {-3e38f};
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { huge_rate.step(p, std::vector<float>{1.0f}); },
      {"learning_rate: expected a rate whose step learning_rate / (1 - beta1^t) fits in a float, got 3.00000001e+38",
       "(step 1: 2.99999929e+39)"}));
  // with β1 = 0 the step is α = 1e38; θ - α g / |g| = -3e38 - 1e38 does not fit
  attn::Adam large_rate(1, {1e38f, 0.0f});
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { large_rate.step(p, std::vector<float>{1.0f}); },
      {"parameters[0]: the update gives -3.99999996e+38", "beyond the float range", "learning_rate 9.99999968e+37 is too large"}));
  EXPECT_EQ(p[0], -3e38f);
}

}  // namespace
