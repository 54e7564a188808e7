// test_support.hpp — what every native test shares: the one tolerance rule,
// and the check that an error has the right type and message.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace attn_test {

// The tolerance rule, used by every comparison of computed numbers:
// element by element, |actual - expected| <= kAbsoluteTolerance + kRelativeTolerance * |expected|.
// Infinities must match exactly (a masked score is -inf in both); NaN never passes.
// (float has 24 bits, about 6e-8 relative; the sums of these tests add at most
// a few hundred terms, so 1e-4 relative leaves room for their rounding only.)
//
// Two kinds of check are not comparisons of two computations and say so where
// they are made: an algorithm's own accuracy claim (the vector exp, 2e-7
// relative; the portable ln, 2 ulp), and Monte-Carlo estimates against the
// articles' figures or a distribution (random_test, saturation_test), whose
// allowance is a sampling error.
inline constexpr double kAbsoluteTolerance = 1e-5;
inline constexpr double kRelativeTolerance = 1e-4;

inline bool within_tolerance(double actual, double expected) {
  if (std::isnan(actual) || std::isnan(expected)) return false;
  if (std::isinf(actual) || std::isinf(expected)) return actual == expected;
  return std::fabs(actual - expected) <= kAbsoluteTolerance + kRelativeTolerance * std::fabs(expected);
}

// ::testing::AssertionResult naming the first elements that break the rule.
template <class A, class E>
::testing::AssertionResult all_close(const A& actual, const E& expected) {
  if (std::size(actual) != std::size(expected)) {
    return ::testing::AssertionFailure() << "sizes differ: " << std::size(actual) << " vs " << std::size(expected);
  }
  std::size_t failures = 0;
  std::string report;
  std::size_t index = 0;
  auto e = std::begin(expected);
  for (auto a = std::begin(actual); a != std::end(actual); ++a, ++e, ++index) {
    if (within_tolerance(static_cast<double>(*a), static_cast<double>(*e))) continue;
    if (++failures <= 5) {
      char line[160];
      std::snprintf(line, sizeof line, "\n  [%zu] actual %.9g, expected %.9g", index, static_cast<double>(*a),
                    static_cast<double>(*e));
      report += line;
    }
  }
  if (failures == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << failures << " of " << index << " elements out of tolerance" << report;
}

inline ::testing::AssertionResult close(double actual, double expected) {
  return all_close(std::vector<double>{actual}, std::vector<double>{expected});
}

// Runs `call`; passes only if it throws exactly-or-derived `Expected` and the
// message contains every fragment (the argument's name, the expected and the
// given value).
template <class Expected, class Call>
::testing::AssertionResult throws_with_message(Call&& call, std::initializer_list<std::string> fragments) {
  try {
    call();
  } catch (const Expected& error) {
    const std::string message = error.what();
    for (const std::string& fragment : fragments) {
      if (message.find(fragment) == std::string::npos) {
        return ::testing::AssertionFailure() << "message \"" << message << "\" lacks \"" << fragment << "\"";
      }
    }
    return ::testing::AssertionSuccess() << message;
  } catch (const std::exception& other) {
    return ::testing::AssertionFailure() << "threw another type: " << other.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

}  // namespace attn_test
