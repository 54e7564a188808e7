// backward_range.hpp (internal) — the float-range contract (src/float_range.hpp)
// for the backward passes. Their float intermediates (dP = dO V^T, D, dS, the
// sums of dQ, dK, dV) are bounded from the largest row norms of the operands
// (Cauchy-Schwarz, partial sums included), with G = |dO|, and P_ij <= w,
// sum_j P_ij <= r (w = r = 1 for this call's softmax):
//   |S_ij|, |q_i . k_j|        <= max(1, scale) |q| |k|
//   |dP_ij|, |D_i|             <= G max(|v|, |O|)
//   |dS_ij| = P_ij |dP_ij - D_i| <= w G (|v| + |O|)
//   |dQ_i|  <= max(1, scale) r G (|v| + |O|) |k|         (a sum over the keys)
//   |dK_j|  <= max(1, scale) n w G (|v| + |O|) |q|       (a sum over the queries)
//   |dV_j|  <= n w G
// A call whose bounds are all at most kSafeMagnitude takes the float path;
// any other is computed in double (the reference's loops) and each gradient
// rounded to float, or refused with a ValueError naming it when it does not
// fit ("grad_q[0][1]: (scale dS K)[0][1] = 1e+40 is beyond the float range").
#pragma once

#include <cstdint>
#include <vector>

#include "attn/backward.hpp"
#include "float_range.hpp"

namespace attn::detail {

// The largest row norms of a backward call's operands.
struct BackwardNorms {
  double query = 0, key = 0, value = 0;  // |q_i|, |k_j|, |v_j|
  double grad_output = 0;                // |dO_i|
  double output = 0;                     // |O_i|, the forward's output (<= |v| for this call's own)
};

// Bounds on the gradients' row norms, and whether every float intermediate
// stays within kSafeMagnitude. weight_bound w: the largest weight the pass
// can use (1, or e for the tiled pass, which accepts S_ij - L_i <= 1).
struct BackwardBounds {
  double grad_q = 0, grad_k = 0, grad_v = 0;
  bool fits_float = false;
};
BackwardBounds backward_bounds(const BackwardNorms& norms, float scale, std::size_t n, std::size_t m,
                               double weight_bound);

// q n x d_k, k m x d_k, v m x d_v, grad_output n x d_v (checked), keep n x m ->
// dQ, dK, dV in double (the reference's loops), each rounded to float or
// refused as above.
AttentionGradients gradients_in_double(const float* q, const float* k, const float* v, const float* grad_output,
                                       const AttentionShape& shape, float scale, const std::uint8_t* keep);

}  // namespace attn::detail
