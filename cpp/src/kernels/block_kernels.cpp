// block_kernels.cpp — the tiled path's block kernels on portable vectors, ONE
// source compiled once per variant (like vector_kernels.cpp, whose table lists
// them; the layouts and formulas are at attn/kernels.hpp). One query block of
// rows_p rows (along the lanes) against one key block of `cols` keys:
//
//   block_scores      S^T = scale K_j Q_i^T        a register-blocked product (micro_kernel.hpp)
//   block_softmax     P^T = exp(S^T - m), m, l     vertical: one lane per query row
//   block_accumulate  O^T = O^T diag(corr) + V_j^T P^T   the same product, finished into O^T
//
// Both products have the micro-kernel's form C[i][v] += a(i, t) B_t[v] with the
// query rows along v: for S^T, a = K_j (i = key, t = feature) and B_t = row t
// of Q_i^T; for O^T, a = V_j^T (i = value feature, t = key) and B_t = row t of
// P^T. Neither K_j nor V_j needs packing: their elements are broadcast one at a
// time, from rows that stay in the cache for the whole block.
#include "block_kernels.hpp"

#include "micro_kernel.hpp"
#include "vector.hpp"
#include "vector_exp.hpp"

namespace attn::kernels::ATTN_KERNEL_VARIANT {

using vec::kLanes;
using vec::VecF;

namespace {

// exp(x) for x <= 0 (s - max, up to a rounding), as 2^(x log2 e): the
// difference x is formed first, in the scores' own units, so its rounding is
// relative to |x| (a few ulp of the weight), not to the scores' size.
inline VecF exp_below_zero(VecF x) { return vec::exp2_vector(x * vec::splat(1.44269504088896341f)); }

}  // namespace

void block_scores(const float* k, const float* q_t, float* s_t, std::size_t cols, std::size_t rows_p,
                  std::size_t d_k, float scale) noexcept {
  // a(i, t) = k[i*d_k + t]; B_t = q_t + t*rows_p; the tile, times the scale, goes to s_t rows [i0, i0 + MR)
  const VecF factor = vec::splat(scale);
  auto store_tile = [&]<std::size_t MR, std::size_t NRV>(std::size_t i0, std::size_t v0, VecF (&acc)[MR][NRV]) {
#pragma GCC unroll 16
    for (std::size_t i = 0; i < MR; ++i)
#pragma GCC unroll 16
      for (std::size_t v = 0; v < NRV; ++v) vec::store(s_t + (i0 + i) * rows_p + (v0 + v) * kLanes, acc[i][v] * factor);
  };
  vec::broadcast_product(k, d_k, 1, cols, q_t, rows_p, rows_p / kLanes, d_k, store_tile);
}

void block_softmax(float* s_t, std::size_t cols, std::size_t rows_p, float* running_max, float* running_sum,
                   float* correction) noexcept {
  constexpr float kMinusInfinity = -__builtin_inff();
  for (std::size_t r = 0; r < rows_p; r += kLanes) {
    float* column = s_t + r;  // this vector of rows: column[c * rows_p]
    // pass 1: the block's max, four chains
    VecF max0 = vec::splat(kMinusInfinity), max1 = max0, max2 = max0, max3 = max0;
    std::size_t c = 0;
    for (; c + 4 <= cols; c += 4) {
      max0 = vec::max(max0, vec::load(column + c * rows_p));
      max1 = vec::max(max1, vec::load(column + (c + 1) * rows_p));
      max2 = vec::max(max2, vec::load(column + (c + 2) * rows_p));
      max3 = vec::max(max3, vec::load(column + (c + 3) * rows_p));
    }
    for (; c < cols; ++c) max0 = vec::max(max0, vec::load(column + c * rows_p));
    const VecF old_max = vec::load(running_max + r);
    const VecF new_max = vec::max(old_max, vec::max(vec::max(max0, max1), vec::max(max2, max3)));
    // where nothing is visible yet (new_max = -inf) shift by 0: every exp(-inf - 0) is 0
    const VecF shift = vec::select(new_max == vec::splat(kMinusInfinity), vec::splat(0.0f), new_max);

    // pass 2: P = exp(S - shift) and its sums, two chains
    VecF sum0 = vec::splat(0.0f), sum1 = sum0;
    c = 0;
    for (; c + 2 <= cols; c += 2) {
      const VecF p0 = exp_below_zero(vec::load(column + c * rows_p) - shift);
      const VecF p1 = exp_below_zero(vec::load(column + (c + 1) * rows_p) - shift);
      vec::store(column + c * rows_p, p0);
      vec::store(column + (c + 1) * rows_p, p1);
      sum0 += p0;
      sum1 += p1;
    }
    if (c < cols) {
      const VecF p = exp_below_zero(vec::load(column + c * rows_p) - shift);
      vec::store(column + c * rows_p, p);
      sum0 += p;
    }
    const VecF corr = exp_below_zero(old_max - shift);  // exp(-inf) = 0 on the first visible block
    vec::store(correction + r, corr);
    vec::store(running_sum + r, corr * vec::load(running_sum + r) + (sum0 + sum1));
    vec::store(running_max + r, new_max);
  }
}

void block_accumulate(const float* v, const float* p_t, const float* correction, float* o_t, std::size_t cols,
                      std::size_t rows_p, std::size_t d_v) noexcept {
  // a(i, t) = v[t*d_v + i]; B_t = p_t + t*rows_p; o_t rows [i0, i0 + MR) <- corr * o_t + tile
  auto add_tile = [&]<std::size_t MR, std::size_t NRV>(std::size_t i0, std::size_t v0, VecF (&acc)[MR][NRV]) {
    VecF corr[NRV];
#pragma GCC unroll 16
    for (std::size_t w = 0; w < NRV; ++w) corr[w] = vec::load(correction + (v0 + w) * kLanes);
#pragma GCC unroll 16
    for (std::size_t i = 0; i < MR; ++i)
#pragma GCC unroll 16
      for (std::size_t w = 0; w < NRV; ++w) {
        float* o = o_t + (i0 + i) * rows_p + (v0 + w) * kLanes;
        vec::store(o, vec::load(o) * corr[w] + acc[i][w]);
      }
  };
  vec::broadcast_product(v, 1, d_v, d_v, p_t, rows_p, rows_p / kLanes, cols, add_tile);
}

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT
