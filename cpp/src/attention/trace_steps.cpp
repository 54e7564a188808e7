// trace_steps.cpp — the steps only the trace shows (trace_steps.hpp).
#include "attention/trace_steps.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/kernels.hpp"
#include "validation.hpp"

namespace attn::detail {

namespace {

// ln FLT_MIN: below it e^x is not a normal float (and the kernels' exp gives 0).
constexpr double kLogFloatMin = -87.33654475055310898657;
// With max_j x_j + ln m <= 88, the sum of the m terms is at most e^88 = 1.65e38 < FLT_MAX = 3.40e38.
constexpr double kExpUpper = 88.0;

}  // namespace

float exp_shift(const float* x, std::size_t m) {
  float lowest = INFINITY, highest = -INFINITY;
  for (std::size_t j = 0; j < m; ++j) {
    if (x[j] == -INFINITY) continue;  // masked
    lowest = std::min(lowest, x[j]);
    highest = std::max(highest, x[j]);
  }
  if (highest == -INFINITY) return 0.0f;
  const bool textbook = lowest >= kLogFloatMin && highest + std::log(static_cast<double>(m)) <= kExpUpper;
  return textbook ? 0.0f : highest;
}

void trace_exponentials(AttentionTrace& trace, std::size_t n, std::size_t m) {
  trace.exps = trace.masked;  // each row exponentiated in place below
  trace.exp_sums.resize(n);
  trace.exp_shifts.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    float* row = trace.exps.data() + i * m;
    const float shift = exp_shift(row, m);
    trace.exp_sums[i] = kernels::exp_shifted_sum(row, m, shift);
    trace.exp_shifts[i] = shift;
  }
}

void reference_exponentials(AttentionTrace& trace, std::size_t n, std::size_t m) {
  trace.exps.resize(n * m);
  trace.exp_sums.resize(n);
  trace.exp_shifts.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float* masked = trace.masked.data() + i * m;
    const float shift = exp_shift(masked, m);
    double sum = 0.0;
    for (std::size_t j = 0; j < m; ++j) {
      const double e = std::exp(static_cast<double>(masked[j]) - shift);  // exp(-inf) = 0
      trace.exps[i * m + j] = static_cast<float>(e);
      sum += e;
    }
    trace.exp_sums[i] = static_cast<float>(sum);
    trace.exp_shifts[i] = shift;
  }
}

std::size_t trace_term_count(const AttentionProblem& problem, TraceTerms terms) {
  if (terms == TraceTerms::Omitted) return 0;
  return checked_product("n*m*d_v", problem.shape.n * problem.shape.m, problem.shape.d_v);
}

void trace_terms(const AttentionProblem& problem, std::size_t count, AttentionTrace& trace) {
  trace.terms.assign(count, 0.0f);
  if (count == 0) return;
  const kernels::KernelTable& kernels = kernels::active();
  const std::size_t n = problem.shape.n, m = problem.shape.m, d_v = problem.shape.d_v;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j)  // term_ij = 0 + p_ij v_j
      kernels.axpy(trace.weights[i * m + j], problem.v + j * d_v, trace.terms.data() + (i * m + j) * d_v, d_v);
}

}  // namespace attn::detail
