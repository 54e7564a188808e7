// oracles.hpp — what every fuzz target asserts, and how a broken promise is
// reported: printed on stderr, then abort(), which libFuzzer records as a
// crash with the input that caused it.
//
//   documented(call)      runs call(); true if it returned, false if it threw
//                         one of the documented errors (attn::ShapeError,
//                         ValueError, SizeError) with a well-formed message
//                         ("<argument>: ...", at most kMaxMessage bytes). Any
//                         other exception is a finding.
//   require(ok, ...)      a finding unless ok
//   require_finite        every number is finite
//   require_close         |actual - expected| <= tolerance, element by element
//                         (tolerances from error_bounds.hpp)
//   require_weights       each row not fully masked sums to 1 within the
//                         stated tolerance; masked weights are exactly 0;
//                         fully masked rows are all 0
#pragma once

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "attn/error.hpp"

namespace attn_fuzz {

// A message names the argument and says what was expected and given; it
// quotes what the caller gave only in part, so it stays short.
inline constexpr std::size_t kMaxMessage = 2048;

[[noreturn]] inline void finding(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::fputs("\n=== fuzz finding: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputs("\n", stderr);
  va_end(args);
  std::abort();
}

// "<argument>: ..." where <argument> has no space ("q[3]", "n*m", "mask.valid_keys").
inline bool well_formed(const std::string& message) {
  const std::size_t colon = message.find(": ");
  return colon != std::string::npos && colon > 0 && message.substr(0, colon).find(' ') == std::string::npos &&
         message.size() > colon + 2 && message.size() <= kMaxMessage;
}

template <class Call>
bool documented(Call&& call) {
  try {
    call();
    return true;
  } catch (const attn::ShapeError& e) {
    if (!well_formed(e.what())) finding("ShapeError with a malformed message: %.300s", e.what());
  } catch (const attn::ValueError& e) {
    if (!well_formed(e.what())) finding("ValueError with a malformed message: %.300s", e.what());
  } catch (const attn::SizeError& e) {
    if (!well_formed(e.what())) finding("SizeError with a malformed message: %.300s", e.what());
  } catch (const std::exception& e) {
    finding("an undocumented exception: %s", e.what());
  } catch (...) {
    finding("a non-standard exception");
  }
  return false;
}

inline void require(bool ok, const char* what) {
  if (!ok) finding("%s", what);
}

template <class T>
void require_finite(std::span<const T> x, const char* name) {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) finding("%s[%zu] = %g is not finite", name, i, static_cast<double>(x[i]));
}
template <class T>
void require_finite(const std::vector<T>& x, const char* name) {
  require_finite(std::span<const T>(x), name);
}

// How close the results come to their tolerance: with ATTN_FUZZ_REPORT set,
// the largest |actual - expected| / tolerance of each check is printed at
// exit (how much of the derived bound the computations use).
class ToleranceReport {
 public:
  static ToleranceReport& instance() {
    static ToleranceReport report;
    return report;
  }
  void record(const char* name, double used) {
    if (!enabled_) return;
    double& largest = largest_[name];
    if (used > largest) largest = used;
  }
  ~ToleranceReport() {
    for (const auto& [name, used] : largest_) std::fprintf(stderr, "tolerance used by %s: %.3g\n", name.c_str(), used);
  }

 private:
  ToleranceReport() : enabled_(std::getenv("ATTN_FUZZ_REPORT") != nullptr) {}
  bool enabled_;
  std::map<std::string, double> largest_;
};

// actual (float results) against expected (exact values, double) within
// tolerance (per element, double).
inline void require_close(const std::vector<float>& actual, const std::vector<double>& expected,
                          const std::vector<double>& tolerance, const char* name) {
  if (actual.size() != expected.size())
    finding("%s: %zu elements, expected %zu", name, actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double difference = std::fabs(static_cast<double>(actual[i]) - expected[i]);
    if (!(difference <= tolerance[i]))
      finding("%s[%zu] = %.9g, expected %.9g within %.3g (off by %.3g)", name, i, static_cast<double>(actual[i]),
              expected[i], tolerance[i], difference);
    if (difference > 0) ToleranceReport::instance().record(name, difference / tolerance[i]);
  }
}

// The row-sum tolerance of m weights: each weight is e_j / S from one float
// sum S of the m stored e_j (or their double values rounded to float), so
// |sum_j w_j - 1| <= gamma(m) + 2u, u = 2^-24, gamma(k) = k u / (1 - k u),
// plus 2^-126 per weight for exponentials that underflow. Doubled.
inline double row_sum_tolerance(std::size_t m) {
  const double u = 0x1p-24, k = static_cast<double>(m + 2);
  return 2.0 * (k * u / (1.0 - k * u) + static_cast<double>(m) * 0x1p-126);
}

// weights n x m against the keep-matrix (1 = may attend).
inline void require_weights(std::span<const float> weights, const std::vector<std::uint8_t>& keep, std::size_t n,
                            std::size_t m, const char* name) {
  require_finite(weights, name);
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    bool any_kept = false;
    for (std::size_t j = 0; j < m; ++j) {
      const float w = weights[i * m + j];
      if (!keep[i * m + j] && w != 0.0f) finding("%s[%zu][%zu] = %g is masked but not exactly 0", name, i, j, w);
      if (w < 0.0f || w > 1.0f) finding("%s[%zu][%zu] = %g is outside [0, 1]", name, i, j, w);
      any_kept = any_kept || keep[i * m + j];
      sum += w;
    }
    if (any_kept && !(std::fabs(sum - 1.0) <= row_sum_tolerance(m)))
      finding("%s row %zu sums to %.9g, not 1 within %.3g", name, i, sum, row_sum_tolerance(m));
    if (!any_kept && sum != 0.0) finding("%s row %zu is fully masked but sums to %g", name, i, sum);
  }
}

// Rows of x (rows x cols) listed in `zero_rows` must be exactly 0 (+0 or -0).
inline void require_zero_rows(std::span<const float> x, std::size_t cols, const std::vector<bool>& zero_rows,
                              const char* name) {
  for (std::size_t r = 0; r < zero_rows.size(); ++r) {
    if (!zero_rows[r]) continue;
    for (std::size_t c = 0; c < cols; ++c)
      if (x[r * cols + c] != 0.0f) finding("%s[%zu][%zu] = %g, expected exactly 0 (masked)", name, r, c, x[r * cols + c]);
  }
}

}  // namespace attn_fuzz
