// gradient_check.hpp — central finite differences in double, and the rule the
// analytic gradients are held to against them.
//
// The rule: the largest error relative to the largest derivative of the tensor,
//   max_i |analytic_i - numeric_i| / max_i |numeric_i|  <=  tolerance,
// 1e-6 for gradients computed in double (the references), and the float
// tolerance of test_support.hpp, element by element, for gradients computed in
// float. (A per-element relative error is meaningless where the derivative is
// 0 up to rounding.) A tensor whose numeric derivatives are all 0 must have
// analytic gradients that are all exactly 0.
//
// numeric_i = (f(x + h e_i) - f(x - h e_i)) / 2h with h = 1e-5: the truncation
// error h^2 f'''/6 is about 1e-11 and the rounding error eps f / h about 1e-11
// for the O(1) values of these tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

namespace attn_test {

inline constexpr double kDoubleGradientTolerance = 1e-6;
inline constexpr double kFiniteDifferenceStep = 1e-5;

// d f / d x_i for every i, by central differences; f reads x.
inline std::vector<double> numeric_gradient(std::vector<double>& x, const std::function<double()>& f) {
  std::vector<double> gradient(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double saved = x[i];
    x[i] = saved + kFiniteDifferenceStep;
    const double up = f();
    x[i] = saved - kFiniteDifferenceStep;
    const double down = f();
    x[i] = saved;
    gradient[i] = (up - down) / (2 * kFiniteDifferenceStep);
  }
  return gradient;
}

// max_i |a_i - n_i| / max_i |n_i| (0 when both are all 0, infinity when only n is).
template <class A>
double relative_gradient_error(const A& analytic, const std::vector<double>& numeric) {
  double largest = 0.0, error = 0.0;
  for (std::size_t i = 0; i < numeric.size(); ++i) {
    largest = std::max(largest, std::fabs(numeric[i]));
    error = std::max(error, std::fabs(static_cast<double>(analytic[i]) - numeric[i]));
  }
  if (largest == 0.0) return error == 0.0 ? 0.0 : INFINITY;
  return error / largest;
}

template <class A>
::testing::AssertionResult gradient_matches(const A& analytic, const std::vector<double>& numeric, double tolerance) {
  if (std::size(analytic) != numeric.size()) {
    return ::testing::AssertionFailure() << "sizes differ: " << std::size(analytic) << " vs " << numeric.size();
  }
  const double error = relative_gradient_error(analytic, numeric);
  if (error <= tolerance) return ::testing::AssertionSuccess() << "relative error " << error;
  return ::testing::AssertionFailure() << "relative error " << error << " > " << tolerance;
}

inline std::vector<double> to_double(const std::vector<float>& values) {
  return std::vector<double>(values.begin(), values.end());
}

}  // namespace attn_test
