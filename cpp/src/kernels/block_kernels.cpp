// block_kernels.cpp — the tiled path's block kernels on portable vectors, ONE
// source compiled once per variant (like vector_kernels.cpp, whose table lists
// them; the layouts and formulas are at attn/kernels.hpp). One query block of
// rows_p rows (along the lanes) against one key block of `cols` keys:
//
//   block_scores      S^T = scale K_j Q_i^T        a register-blocked product (micro_kernel.hpp)
//   block_softmax     P^T = exp(S^T - m), m, l     vertical: one lane per query row
//   block_accumulate  O^T = O^T diag(corr) + V_j^T P^T   the same product, finished into O^T
//   block_weights     P^T = exp(S^T - L)           the backward's weights, from the row log-sum-exp
//   block_score_gradients  dS^T = P^T (V_j dO_i^T - D)   the backward's; block_scores' product, finished so
//
// Both products have the micro-kernel's form C[i][v] += a(i, t) B_t[v] with the
// query rows along v: for S^T, a = K_j (i = key, t = feature) and B_t = row t
// of Q_i^T; for O^T, a = V_j^T (i = value feature, t = key) and B_t = row t of
// P^T. Neither K_j nor V_j needs packing: their elements are broadcast one at a
// time, from rows that stay in the cache for the whole block; the query block
// is the one moved into the layout the micro-kernel streams (transpose_block),
// once per query block, whatever the number of keys.
//
// As in vector_kernels.cpp, nothing from the standard library is used here (its
// inline code would be compiled for this variant's instruction set).
#include "block_kernels.hpp"

#include "micro_kernel.hpp"
#include "transpose.hpp"
#include "vector.hpp"
#include "vector_exp.hpp"

namespace attn::kernels::ATTN_KERNEL_VARIANT {

using vec::kLanes;
using vec::VecF;

namespace {

// exp(x) for x <= 1 (s - max, or s - L in the backward, up to a rounding), as 2^(x log2 e). The
// difference x is formed first, in the scores' own units, so that the rounding
// of x log2(e) is relative to |x|, not to the scores' size: the relative error
// is 2.4e-7 (2 ulp of 2^y) plus |x| 7.5e-8, at most 3e-8 + 2.4e-7 exp(x) in
// absolute terms, far below what a sum of weights >= 1 can notice.
inline VecF exp_below_zero(VecF x) { return vec::exp2_vector(x * vec::splat(1.44269504088896341f)); }

}  // namespace

// ---- moving the query block in and the output block out of the transposed layout ----

void transpose_block(const float* q, std::size_t rows, std::size_t d_k, std::size_t rows_p, float* q_t) noexcept {
  vec::transpose_rows(q, rows, d_k, d_k, q_t, rows_p, rows_p);  // the padding rows 0: scores 0, never output
}

void untranspose_block(const float* o_t, const float* row_factor, std::size_t rows, std::size_t d_v, std::size_t rows_p,
                       float* out) noexcept {
  std::size_t r0 = 0;
#if ATTN_VECTOR_BYTES >= 16
  using vec::kSquare, vec::load4, vec::Vec4;
  for (; r0 + kSquare <= rows; r0 += kSquare) {
    const Vec4 factor = load4(row_factor + r0);
    std::size_t j0 = 0;
    for (; j0 + kSquare <= d_v; j0 += kSquare) {
      Vec4 a = load4(o_t + j0 * rows_p + r0) * factor, b = load4(o_t + (j0 + 1) * rows_p + r0) * factor;
      Vec4 c = load4(o_t + (j0 + 2) * rows_p + r0) * factor, d = load4(o_t + (j0 + 3) * rows_p + r0) * factor;
      vec::transpose4(a, b, c, d);
      vec::store4(out + r0 * d_v + j0, a), vec::store4(out + (r0 + 1) * d_v + j0, b);
      vec::store4(out + (r0 + 2) * d_v + j0, c), vec::store4(out + (r0 + 3) * d_v + j0, d);
    }
    for (; j0 < d_v; ++j0)
      for (std::size_t r = r0; r < r0 + kSquare; ++r) out[r * d_v + j0] = row_factor[r] * o_t[j0 * rows_p + r];
  }
#endif
  for (std::size_t r = r0; r < rows; ++r)
    for (std::size_t j = 0; j < d_v; ++j) out[r * d_v + j] = row_factor[r] * o_t[j * rows_p + r];
}

// ---- the products and the softmax ----

void block_scores(const float* k, const float* q_t, float* s_t, std::size_t cols, std::size_t rows_p,
                  std::size_t d_k, float scale, float* block_max) noexcept {
  // a(i, t) = k[i*d_k + t]; B_t = q_t + t*rows_p; the tile, times the scale, goes to s_t rows
  // [i0, i0 + MR), and its max over those keys into block_max (so that the softmax needs no pass for it)
  // (the lambdas capture by value: through references every store would reload them)
  const VecF factor = vec::splat(scale);
  for (std::size_t r = 0; r < rows_p; r += kLanes) vec::store(block_max + r, vec::splat(-__builtin_inff()));
  auto store_tile = [=]<std::size_t MR, std::size_t NRV>(std::size_t i0, std::size_t v0, VecF (&acc)[MR][NRV]) {
    float* row = s_t + i0 * rows_p + v0 * kLanes;
    VecF tile_max[NRV];
#pragma GCC unroll 16
    for (std::size_t v = 0; v < NRV; ++v) tile_max[v] = vec::load(block_max + (v0 + v) * kLanes);
#pragma GCC unroll 16
    for (std::size_t i = 0; i < MR; ++i, row += rows_p)
#pragma GCC unroll 16
      for (std::size_t v = 0; v < NRV; ++v) {
        const VecF s = acc[i][v] * factor;
        vec::store(row + v * kLanes, s);
        tile_max[v] = vec::max(tile_max[v], s);
      }
#pragma GCC unroll 16
    for (std::size_t v = 0; v < NRV; ++v) vec::store(block_max + (v0 + v) * kLanes, tile_max[v]);
  };
  vec::broadcast_product(k, d_k, 1, cols, q_t, rows_p, rows_p / kLanes, d_k, store_tile);
}

void block_softmax(float* s_t, std::size_t cols, std::size_t rows_p, const float* block_max, float* running_max,
                   float* running_sum, float* correction) noexcept {
  constexpr float kMinusInfinity = -__builtin_inff();
  const std::size_t pair_step = 2 * rows_p;
  for (std::size_t r = 0; r < rows_p; r += kLanes) {
    float* const first = s_t + r;                  // this vector of rows, key c at first + c * rows_p
    float* const end = first + cols * rows_p;
    float* const pairs_end = first + cols / 2 * pair_step;
    // pass 1: the block's max (given by block_scores, or here in two chains)
    VecF this_max;
    if (block_max != nullptr) {
      this_max = vec::load(block_max + r);
    } else {
      VecF max0 = vec::splat(kMinusInfinity), max1 = max0;
      for (float* p = first; p != pairs_end; p += pair_step) {
        max0 = vec::max(max0, vec::load(p));
        max1 = vec::max(max1, vec::load(p + rows_p));
      }
      if (pairs_end != end) max0 = vec::max(max0, vec::load(pairs_end));
      this_max = vec::max(max0, max1);
    }
    const VecF old_max = vec::load(running_max + r);
    const VecF new_max = vec::max(old_max, this_max);
    // where nothing is visible yet (new_max = -inf) shift by 0: every exp(-inf - 0) is 0
    const VecF shift = vec::select(new_max == vec::splat(kMinusInfinity), vec::splat(0.0f), new_max);

    // pass 2: P = exp(S - shift) and its sums, two chains (one or four measured the same)
    VecF sum0 = vec::splat(0.0f), sum1 = sum0;
    for (float* p = first; p != pairs_end; p += pair_step) {
      const VecF p0 = exp_below_zero(vec::load(p) - shift), p1 = exp_below_zero(vec::load(p + rows_p) - shift);
      vec::store(p, p0);
      vec::store(p + rows_p, p1);
      sum0 += p0;
      sum1 += p1;
    }
    if (pairs_end != end) {
      const VecF p0 = exp_below_zero(vec::load(pairs_end) - shift);
      vec::store(pairs_end, p0);
      sum0 += p0;
    }
    const VecF sum = sum0 + sum1;
    const VecF corr = exp_below_zero(old_max - shift);  // exp(-inf) = 0 on the first visible block
    vec::store(correction + r, corr);
    vec::store(running_sum + r, corr * vec::load(running_sum + r) + sum);
    vec::store(running_max + r, new_max);
  }
}

void block_accumulate(const float* v, const float* p_t, const float* correction, float* o_t, std::size_t cols,
                      std::size_t rows_p, std::size_t d_v) noexcept {
  // a(i, t) = v[t*d_v + i]; B_t = p_t + t*rows_p; o_t rows [i0, i0 + MR) <- corr * o_t + tile
  auto add_tile = [=]<std::size_t MR, std::size_t NRV>(std::size_t i0, std::size_t v0, VecF (&acc)[MR][NRV]) {
    VecF corr[NRV];
#pragma GCC unroll 16
    for (std::size_t w = 0; w < NRV; ++w) corr[w] = vec::load(correction + (v0 + w) * kLanes);
    float* row = o_t + i0 * rows_p + v0 * kLanes;
#pragma GCC unroll 16
    for (std::size_t i = 0; i < MR; ++i, row += rows_p)
#pragma GCC unroll 16
      for (std::size_t w = 0; w < NRV; ++w) vec::store(row + w * kLanes, vec::load(row + w * kLanes) * corr[w] + acc[i][w]);
  };
  vec::broadcast_product(v, 1, d_v, d_v, p_t, rows_p, rows_p / kLanes, cols, add_tile);
}

void block_weights(float* s_t, std::size_t cols, std::size_t rows_p, const float* shift) noexcept {
  // one vector of rows at a time, its shifts in a register: x = s - L <= 1, or -inf (s = -inf or L = +inf)
  for (std::size_t r = 0; r < rows_p; r += kLanes) {
    const VecF row_shift = vec::load(shift + r);
    float* p = s_t + r;
    for (std::size_t c = 0; c < cols; ++c, p += rows_p) vec::store(p, exp_below_zero(vec::load(p) - row_shift));
  }
}

void block_score_gradients(const float* v, const float* do_t, const float* p_t, const float* d, float* ds_t,
                           std::size_t cols, std::size_t rows_p, std::size_t d_v) noexcept {
  // a(i, t) = v[i*d_v + t]; B_t = do_t + t*rows_p: the tile is dP^T, finished into dS^T = P^T (dP^T - D) + 0
  auto store_tile = [=]<std::size_t MR, std::size_t NRV>(std::size_t i0, std::size_t v0, VecF (&acc)[MR][NRV]) {
    VecF d_rows[NRV];
#pragma GCC unroll 16
    for (std::size_t w = 0; w < NRV; ++w) d_rows[w] = vec::load(d + (v0 + w) * kLanes);
    const std::size_t at = i0 * rows_p + v0 * kLanes;
    const float* p_row = p_t + at;
    float* ds_row = ds_t + at;
#pragma GCC unroll 16
    for (std::size_t i = 0; i < MR; ++i, p_row += rows_p, ds_row += rows_p)
#pragma GCC unroll 16
      for (std::size_t w = 0; w < NRV; ++w)
        vec::store(ds_row + w * kLanes, vec::load(p_row + w * kLanes) * (acc[i][w] - d_rows[w]) + vec::splat(0.0f));
  };
  vec::broadcast_product(v, d_v, 1, cols, do_t, rows_p, rows_p / kLanes, d_v, store_tile);
}

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT
