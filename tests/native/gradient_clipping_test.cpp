// Clipping by global norm (training/gradient_clipping.hpp): lengths by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "training/gradient_clipping.hpp"

namespace {

using attn::training::clip_by_global_norm;

TEST(GradientClipping, ShortensALongVectorToMaxNormKeepingItsDirection) {
  std::vector<float> g = {3.0f, 0.0f, -4.0f, 0.0f, 0.0f};  // length 5
  EXPECT_DOUBLE_EQ(clip_by_global_norm(g, 1.0), 5.0);
  EXPECT_FLOAT_EQ(g[0], 0.6f);
  EXPECT_FLOAT_EQ(g[2], -0.8f);
  EXPECT_EQ(g[1], 0.0f);
}

TEST(GradientClipping, LeavesAShortVectorAlone) {
  std::vector<float> g = {0.3f, -0.4f};  // length 0.5
  EXPECT_NEAR(clip_by_global_norm(g, 1.0), 0.5, 1e-7);
  EXPECT_EQ(g[0], 0.3f);
  EXPECT_EQ(g[1], -0.4f);
}

TEST(GradientClipping, NormBeyondFloatIsComputedInDouble) {
  // 10 values of 1e20: the squares overflow a float, the norm sqrt(10) 1e20 does not.
  std::vector<float> g(10, 1e20f);
  EXPECT_NEAR(clip_by_global_norm(g, 1.0) / (std::sqrt(10.0) * 1e20), 1.0, 1e-6);
  double length = 0.0;
  for (float v : g) length += static_cast<double>(v) * v;
  EXPECT_NEAR(std::sqrt(length), 1.0, 1e-6);
}

TEST(GradientClipping, NonFiniteGradientsAreReportedNotScaled) {
  std::vector<float> g = {1.0f, std::numeric_limits<float>::infinity()};
  EXPECT_FALSE(std::isfinite(clip_by_global_norm(g, 1.0)));
  EXPECT_EQ(g[0], 1.0f);
}

}  // namespace
