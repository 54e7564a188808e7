// Fuzz target: the row softmax and its statistics (attn/softmax.hpp):
// softmax_rows, softmax_row_stats, softmax_jacobian, on a kernel variant the
// input picks.
//
// Oracles:
// - only documented errors: NaN or +inf logits are refused naming them, -inf
//   allowed (masked), a zero dimension or a wrong length refused
// - weights finite, in [0, 1]; rows that are not all -inf sum to 1 within the
//   stated tolerance (oracles.hpp), -inf logits get weight exactly 0, rows of
//   only -inf are all 0; each weight within the derived tolerance of the
//   exact softmax in double (error_bounds.hpp, with exact logits)
// - the statistics and the Jacobian finite, and equal to their formulas
//   computed here in double: max p, -sum p ln p, sum p (1 - p), p_i (delta_ij - p_j)
#include <cstdint>

#include "attention_call.hpp"
#include "error_bounds.hpp"

using namespace attn_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const auto variant = in.kernel_variant();
  const std::size_t rows = in.dimension_or_huge(12), cols = in.dimension_or_huge(70);
  std::vector<float> logits = operand(in, rows, cols);
  for (float& x : logits)
    if (in.byte() % 8 == 7) x = -INFINITY;  // masked entries

  std::vector<float> weights;
  if (documented([&] { weights = attn::softmax_rows(logits, rows, cols); })) {
    std::vector<std::uint8_t> keep(logits.size());
    for (std::size_t i = 0; i < logits.size(); ++i) keep[i] = logits[i] != -INFINITY;
    require_weights(weights, keep, rows, cols, "softmax_rows");
    // The softmax of exact logits: scores with no error, as attention with q = logits, k = I, scale 1.
    bounds::Bounded exact_logits = bounds::exact(logits, rows, cols);
    for (std::size_t i = 0; i < logits.size(); ++i)
      if (!keep[i]) exact_logits.value[i] = 0, exact_logits.magnitude[i] = 0;
    bounds::Bounded identity(cols, cols);
    for (std::size_t j = 0; j < cols; ++j) identity.value[j * cols + j] = identity.magnitude[j * cols + j] = 1;
    const bounds::AttentionBounds b = bounds::attention(exact_logits, identity, identity, 1.0, keep);
    require_close(weights, b.weights.value, b.weights.tolerances(), "softmax_rows");
  }

  // Statistics of one row: a softmax row, or any floats (a caller's).
  std::vector<float> p = in.flag() && !weights.empty() ? std::vector<float>(weights.begin(), weights.begin() + cols)
                                                         : in.values(in.below(40));
  attn::SoftmaxRowStats stats;
  if (documented([&] { stats = attn::softmax_row_stats(p); })) {
    double max_weight = 0, entropy = 0, trace = 0;
    for (float x : p) {
      max_weight = std::max(max_weight, static_cast<double>(x));
      if (x > 0) entropy -= x * std::log(static_cast<double>(x));
      trace += x * (1.0 - x);
    }
    require(std::isfinite(stats.max_weight) && std::isfinite(stats.entropy) && std::isfinite(stats.jacobian_trace),
            "softmax_row_stats: not finite");
    require(stats.max_weight == max_weight, "softmax_row_stats: max_weight");
    const auto close = [](double a, double b) { return std::fabs(a - b) <= 1e-12 * (1 + std::fabs(b)); };
    require(close(stats.entropy, entropy) && close(stats.jacobian_trace, trace), "softmax_row_stats: formulas");
  }
  std::vector<double> jacobian;
  if (documented([&] { jacobian = attn::softmax_jacobian(p); })) {
    require(jacobian.size() == p.size() * p.size(), "softmax_jacobian: cols*cols entries");
    require_finite(jacobian, "softmax_jacobian");
    for (std::size_t i = 0; i < p.size(); ++i)
      for (std::size_t j = 0; j < p.size(); ++j) {
        const double expected = static_cast<double>(p[i]) * ((i == j ? 1.0 : 0.0) - static_cast<double>(p[j]));
        if (jacobian[i * p.size() + j] != expected) finding("softmax_jacobian[%zu][%zu]", i, j);
      }
  }
  return 0;
}
