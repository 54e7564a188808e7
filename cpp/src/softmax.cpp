// softmax.cpp — the public row softmax and its statistics.
#include "attn/softmax.hpp"

#include <cmath>
#include <string>

#include "attn/error.hpp"
#include "kernels/kernels.hpp"
#include "row_stats.hpp"
#include "validation.hpp"

namespace attn {

std::vector<float> softmax_rows(FloatSpan logits, std::size_t rows, std::size_t cols) {
  detail::require_dimension("rows", rows);
  detail::require_dimension("cols", cols);
  detail::checked_product("rows*cols", rows, cols);
  detail::require_length("logits", logits, "rows*cols", rows, cols);
  for (std::size_t i = 0; i < logits.size(); ++i) {
    const float x = logits[i];
    if (std::isnan(x) || (std::isinf(x) && x > 0)) {
      throw ValueError("logits[" + std::to_string(i) + "]: expected a finite number or -inf, got " +
                       detail::describe_value(x));
    }
  }
  std::vector<float> weights(logits.begin(), logits.end());
  kernels::softmax_rows(weights.data(), rows, cols);
  return weights;
}

SoftmaxRowStats softmax_row_stats(FloatSpan probabilities) {
  detail::require_finite("probabilities", probabilities);
  return detail::row_stats(probabilities.data(), probabilities.size());
}

std::vector<double> softmax_jacobian(FloatSpan probabilities) {
  const std::size_t cols = probabilities.size();
  detail::checked_product("cols*cols", cols, cols);
  detail::require_finite("probabilities", probabilities);
  std::vector<double> jacobian(cols * cols);
  for (std::size_t i = 0; i < cols; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const double p_i = probabilities[i], p_j = probabilities[j];
      jacobian[i * cols + j] = p_i * ((i == j ? 1.0 : 0.0) - p_j);  // J_ij = p_i (delta_ij - p_j)
    }
  return jacobian;
}

}  // namespace attn
