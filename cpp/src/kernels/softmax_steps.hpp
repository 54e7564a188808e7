// softmax_steps.hpp (internal) — the three passes of a stable row softmax, written
// once and shared by the scalar kernels and every vector variant, which differ
// only in the three kernels they pass in.
//
//   pass 1: mx  = max_j x_j                    (max_value)
//   pass 2: x_j = exp(x_j - mx), s = sum_j x_j (exp_shifted_sum)
//   pass 3: x_j = x_j / s                      (scale_in_place by 1/s)
//
// A row whose entries are all -inf (every key masked) has mx = -inf; it becomes
// all zeros instead of exp(-inf - -inf) = NaN. Otherwise s >= exp(0) = 1, so
// 1/s is finite.
//
// In an unnamed namespace on purpose: each variant's translation unit is
// compiled for its own instruction set, and a shared (external) template
// instantiation would let the linker keep one copy, say the AVX-512 one, for
// every variant.
#pragma once

#include <cstddef>

namespace attn::kernels {
namespace {

template <class MaxValue, class ExpShiftedSum, class ScaleInPlace>
inline void softmax_rows_by_steps(float* x, std::size_t rows, std::size_t cols, MaxValue max_value,
                                  ExpShiftedSum exp_shifted_sum, ScaleInPlace scale_in_place) {
  for (std::size_t r = 0; r < rows; ++r) {
    float* row = x + r * cols;
    const float row_max = max_value(row, cols);  // pass 1
    if (row_max == -__builtin_inff()) {
      for (std::size_t j = 0; j < cols; ++j) row[j] = 0.0f;  // fully masked row
      continue;
    }
    const float row_sum = exp_shifted_sum(row, cols, row_max);  // pass 2
    scale_in_place(1.0f / row_sum, row, cols);                  // pass 3
  }
}

}  // namespace
}  // namespace attn::kernels
