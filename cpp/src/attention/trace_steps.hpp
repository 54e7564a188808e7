// trace_steps.hpp (internal) — the two steps only the trace shows, shared by
// the fast trace (full_pipeline.cpp) and the reference (reference.cpp): which
// shift the exponentials of a row take, and the per-key terms weights_ij v_j.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>

#include "attention/problem.hpp"
#include "validation.hpp"

namespace attn::detail {

// ln FLT_MIN: below it e^x is not a normal float (the vector exp returns 0).
inline constexpr double kLogFloatMin = -87.33654475055310898657;
// The vector exp clamps its argument here (e^88 = 1.65e38 < FLT_MAX = 3.40e38).
inline constexpr double kExpUpper = 88.0;

// c_i for a row x (m entries, -inf where masked), as attn::AttentionTrace
// states it: 0 while the textbook e^(x_j) are normal floats whose sum stays
// below e^88 (every kept x_j >= ln FLT_MIN and max_j x_j + ln m <= 88), else
// max_j x_j. A fully masked row: 0.
template <class T>
double exp_shift(const T* x, std::size_t m) {
  double lowest = INFINITY, highest = -INFINITY;
  for (std::size_t j = 0; j < m; ++j) {
    if (x[j] == -INFINITY) continue;  // masked
    lowest = std::min(lowest, static_cast<double>(x[j]));
    highest = std::max(highest, static_cast<double>(x[j]));
  }
  if (highest == -INFINITY) return 0.0;
  const bool textbook = lowest >= kLogFloatMin && highest + std::log(static_cast<double>(m)) <= kExpUpper;
  return textbook ? 0.0 : highest;
}

// How many floats the trace's terms take: 0 when Omitted, else n*m*d_v
// (SizeError "n*m*d_v: expected at most ... elements" beyond kMaxMatrixElements).
inline std::size_t trace_term_count(const AttentionProblem& problem, TraceTerms terms) {
  if (terms == TraceTerms::Omitted) return 0;
  return checked_product("n*m*d_v", problem.shape.n * problem.shape.m, problem.shape.d_v);
}

// terms_(i*m + j)*d_v + c = weights_ij v_jc for every query i, key j, column c.
inline void weighted_terms(const AttentionProblem& problem, const float* weights, float* terms) {
  const std::size_t n = problem.shape.n, m = problem.shape.m, d_v = problem.shape.d_v;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      const float w = weights[i * m + j];
      float* term = terms + (i * m + j) * d_v;
      for (std::size_t c = 0; c < d_v; ++c) term[c] = w * problem.v[j * d_v + c];
    }
}

}  // namespace attn::detail
