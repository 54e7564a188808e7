// float_range.hpp (internal) — the float-range contract: every number the
// core returns is finite. Finite inputs can still make a float intermediate
// leave the float range (|x| <= FLT_MAX = 3.40282347e+38): q = (1e20, 0) and
// k = (1e20, 0) give q . k = 1e40. A returned quantity that is representable
// is computed correctly whatever its intermediates; one that is not raises
// ValueError naming it and where, e.g.
//   "scores[0][1]: q_0 . k_1 = 1e+40 is beyond the float range (|x| <= 3.40282347e+38)"
//
// Products (scores, projections, context vectors): computed in float, then
// checked. A float product whose result is finite had no partial sum overflow
// (an infinity never becomes finite again; inf - inf is NaN), so all_finite()
// on the result (and on any intermediate product) decides; otherwise the
// function is computed again in double (product_in_double) and each element
// rounded to float or raised (to_float_or_raise).
//
// Attention cannot be checked afterwards: an overflowed score can vanish in
// the softmax (all scores -inf look like a fully masked row, whose output is a
// silent 0). So, before an attention call computes anything:
//
// 1. Measure the operands, in one pass that also rejects NaN and infinities
//    (ValueError naming q[i], k[i] or v[i]): the largest Euclidean row norms
//    |q_i|, |k_j|, |v_j| (a row's float sum of squares; +inf when it
//    overflows, which only makes the check below more careful).
// 2. Bound every float intermediate (Cauchy-Schwarz, partial sums included):
//      |scale q_i . k_j|, |q_i . k_j|  <=  max(1, scale) |q_i| max_j |k_j|
//      |sum_j w_ij v_jc|               <=  (sum_j w_ij) max_j |v_j|
//    where sum_j w_ij is 1 for normalised weights (the full path) and at
//    most m for the tiled path's unnormalised accumulator (each weight
//    exp(s_ij - running max) <= 1).
// 3. A query row whose bounds are at most kSafeMagnitude takes the fast float
//    path. Any other row is computed in double (src/attention/attention_row.hpp),
//    where nothing overflows, and what it returns is then checked: a
//    returned score that is not representable as a float raises ValueError
//    naming it; weights (in [0, 1]) and the output (a convex combination of
//    value rows) always are.
//
// kSafeMagnitude = 2^126 = FLT_MAX / 4 leaves room for the rounding of the
// float sums of squares and products (a relative 1e-6 at d = 64) and keeps
// the difference of two scores (the softmax's s - max) finite too.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "attn/shapes.hpp"

namespace attn::detail {

inline constexpr double kSafeMagnitude = 0x1p126;

// The largest Euclidean row norms of the operands (+inf where a float sum of
// squares overflowed).
struct OperandNorms {
  double query = 0, key = 0, value = 0;
};

// q n x d_k, k m x d_k, v m x d_v (lengths already checked) -> their largest
// row norms. ValueError "q[i]: expected a finite number, got NaN" at the first
// non-finite element (q before k before v).
OperandNorms measure_operands(const float* q, const float* k, const float* v, const AttentionShape& shape);

// The largest row norm of a rows x cols matrix, raising ValueError naming
// `arg`[i] at its first non-finite element.
double largest_row_norm(const char* arg, const float* x, std::size_t rows, std::size_t cols);

// Which query rows may take the float path (step 2 above).
class FloatPathCheck {
 public:
  // accumulated_weight: the largest sum of weights any output accumulator
  // holds (1 for normalised weights, m for the tiled path).
  FloatPathCheck(const OperandNorms& norms, float scale, double accumulated_weight);

  // Every row may: the common case, decided without looking at any row.
  bool every_row() const { return every_row_; }
  // Query row q_row (d_k floats) may.
  bool row(const float* q_row, std::size_t d_k) const;

 private:
  double score_factor_;  // max(1, scale) max_j |k_j|
  bool values_fit_;
  bool every_row_;
};

// Where a returned number sits and what it is, for an error message:
// "<matrix>[i][j]: <formula>", with {i} and {j} in the formula replaced by the
// indices: {"scores", "q_{i} . k_{j}"} names element (0, 1) "scores[0][1]: q_0 . k_1".
struct ElementName {
  const char* matrix;
  const char* formula;
};

// `value` (computed in double) as a float; ValueError "scores[0][1]: q_0 . k_1
// = 1e+40 is beyond the float range (|x| <= 3.40282347e+38)" if it rounds to
// an infinite float.
float to_float_or_raise(double value, const ElementName& name, std::size_t i, std::size_t j);

// out (rows x cols) <- values (rows x cols) rounded to float, raising as
// to_float_or_raise at the first element that is not representable.
void to_floats_or_raise(const std::vector<double>& values, float* out, std::size_t cols, const ElementName& name);

// True if every x_i is finite.
bool all_finite(const float* x, std::size_t len);

// c (n x d) = a (n x m) b (m x d), every sum in double (A, B float or double).
template <class A, class B>
std::vector<double> product_in_double(const A* a, const B* b, std::size_t n, std::size_t m, std::size_t d) {
  std::vector<double> c(n * d, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      const double a_ij = a[i * m + j];
      for (std::size_t col = 0; col < d; ++col) c[i * d + col] += a_ij * static_cast<double>(b[j * d + col]);
    }
  return c;
}

// c (n x m) = a (n x d) b (m x d)^T, every sum in double (A, B float or double).
template <class A, class B>
std::vector<double> product_abt_in_double(const A* a, const B* b, std::size_t n, std::size_t m, std::size_t d) {
  std::vector<double> c(n * m, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      double sum = 0.0;
      for (std::size_t col = 0; col < d; ++col) sum += static_cast<double>(a[i * d + col]) * b[j * d + col];
      c[i * m + j] = sum;
    }
  return c;
}

}  // namespace attn::detail
