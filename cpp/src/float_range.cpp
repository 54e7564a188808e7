// float_range.cpp — measuring the operands and bounding the float path
// (the contract is written out in float_range.hpp).
#include "float_range.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "attn/error.hpp"
#include "kernels/kernels.hpp"
#include "validation.hpp"

namespace attn::detail {

double largest_row_norm(const char* arg, const float* x, std::size_t rows, std::size_t cols) {
  const kernels::KernelTable& kernels = kernels::active();
  const float quick = kernels.max_sum_of_squares(x, rows, cols);  // every row at once: the common case
  if (quick < __builtin_inff()) return std::sqrt(static_cast<double>(quick));
  // some sum is not finite: row by row, to name a NaN or infinite element (or find squares that overflowed)
  float largest = 0.0f;  // of the sums of squares
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = x + r * cols;
    const float sum_of_squares = kernels.dot(row, row, cols);
    if (!std::isfinite(sum_of_squares)) {
      // NaN or inf in the row (an error), or squares too large for a float (fine: the norm is "unbounded")
      require_finite(arg, FloatSpan(row, cols), r * cols);
    }
    largest = std::max(largest, sum_of_squares);
  }
  return std::sqrt(static_cast<double>(largest));
}

OperandNorms measure_operands(const float* q, const float* k, const float* v, const AttentionShape& shape) {
  OperandNorms norms;
  norms.query = largest_row_norm("q", q, shape.n, shape.d_k);
  norms.key = largest_row_norm("k", k, shape.m, shape.d_k);
  norms.value = largest_row_norm("v", v, shape.m, shape.d_v);
  return norms;
}

FloatPathCheck::FloatPathCheck(const OperandNorms& norms, float scale, double accumulated_weight)
    : score_factor_(std::max(1.0, static_cast<double>(scale)) * norms.key),
      values_fit_(norms.value * accumulated_weight <= kSafeMagnitude),
      every_row_(values_fit_ && norms.query * score_factor_ <= kSafeMagnitude) {}

bool FloatPathCheck::row(const float* q_row, std::size_t d_k) const {
  if (every_row_) return true;
  const double query_norm = std::sqrt(static_cast<double>(kernels::dot(q_row, q_row, d_k)));
  return values_fit_ && query_norm * score_factor_ <= kSafeMagnitude;  // false for NaN (0 * inf)
}

bool all_finite(const float* x, std::size_t len) {
  for (std::size_t i = 0; i < len; ++i)
    if (!std::isfinite(x[i])) return false;
  return true;
}

namespace {

std::string element_name(const ElementName& name, std::size_t i, std::size_t j) {
  const std::string row = std::to_string(i), column = std::to_string(j);
  std::string text = std::string(name.matrix) + "[" + row + "][" + column + "]: ";
  for (const char* c = name.formula; *c != '\0'; ++c) {
    if (c[0] == '{' && (c[1] == 'i' || c[1] == 'j') && c[2] == '}') {
      text += c[1] == 'i' ? row : column;
      c += 2;
    } else {
      text += *c;
    }
  }
  return text;
}

}  // namespace

float to_float_or_raise(double value, const ElementName& name, std::size_t i, std::size_t j) {
  const float rounded = static_cast<float>(value);
  if (std::isfinite(rounded)) return rounded;
  throw ValueError(element_name(name, i, j) + " = " + describe_value(value) + " is beyond the float range (|x| <= " +
                   describe_value(FLT_MAX) + ")");
}

void to_floats_or_raise(const std::vector<double>& values, float* out, std::size_t cols, const ElementName& name) {
  for (std::size_t index = 0; index < values.size(); ++index)
    out[index] = to_float_or_raise(values[index], name, index / cols, index % cols);
}

}  // namespace attn::detail
