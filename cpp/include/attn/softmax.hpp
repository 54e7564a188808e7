// attn/softmax.hpp — numerically stable row softmax and the statistics the
// experiments use.
//
//   softmax(s)_j = exp(s_j - max_l s_l) / sum_l exp(s_l - max_l s_l)
//
// Subtracting the row maximum keeps every exponent <= 0, so logits in
// [90, 100] or near 1e4 do not overflow. -inf entries get weight exactly 0; a
// row that is all -inf gets all-zero weights (the "fully masked row").
#pragma once

#include <vector>

#include "attn/shapes.hpp"

namespace attn {

// logits rows x cols -> weights rows x cols, softmax of each row (SIMD kernels).
// Inputs may hold -inf (masked) but not NaN or +inf (ValueError naming
// `logits[index]`); ShapeError on a wrong length or a zero dimension.
std::vector<float> softmax_rows(FloatSpan logits, std::size_t rows, std::size_t cols);

// p (cols) -> statistics of one probability row (p sums to 1 or is all zero).
// ValueError naming probabilities[i] if an entry is not finite.
struct SoftmaxRowStats {
  double max_weight = 0;     // max_j p_j
  double entropy = 0;        // -sum_j p_j ln p_j   (nats; 0 ln 0 = 0)
  double jacobian_trace = 0; // sum_j p_j (1 - p_j) = trace of d softmax / d logits
};
SoftmaxRowStats softmax_row_stats(FloatSpan probabilities);

// p (cols) -> J (cols x cols, row-major), the softmax Jacobian diag(p) - p p^T:
//   J_ij = p_i (delta_ij - p_j)
std::vector<double> softmax_jacobian(FloatSpan probabilities);

}  // namespace attn
