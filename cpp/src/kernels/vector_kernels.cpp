// vector_kernels.cpp — the kernels on portable vectors (vector.hpp), ONE source
// compiled once per variant: CMake builds it with ATTN_KERNEL_VARIANT (the
// namespace, e.g. attn::kernels::avx512f), ATTN_VECTOR_BYTES (64, 32, 16 or 4)
// and that variant's instruction-set flags (cpp/CMakeLists.txt,
// attn_kernel_variant). Each variant fills one KernelTable (attn/kernels.hpp);
// src/kernels/dispatch.cpp chooses among them at run time. Same results
// (within rounding) as the scalar kernels.
//
// Layout of every kernel: a body over whole vectors, with several independent
// accumulators where it reduces (a float sum cannot be reassociated by the
// compiler, so one accumulator would make every add wait for the previous one),
// and one padded vector for the leftover len % kLanes elements. `acc += x * y`
// becomes one fused multiply-add where the instruction set has it (the avx2
// and avx512f variants are compiled with -mfma -ffp-contract=fast).
//
// Nothing from the standard library beyond memcpy is used here: an inline
// function or template instantiated in this file would be compiled for this
// variant's instruction set, and the linker may keep that copy for all callers.
//
// The two matrix products (matmul_abt, matmul_ab) are built on the
// register-blocked micro-kernel of micro_kernel.hpp, whose tile shape is the
// variant's; the tiled path's block kernels (block_kernels.cpp) too. This
// file's table lists both.
#include "attn/kernels.hpp"
#include "block_kernels.hpp"
#include "micro_kernel.hpp"
#include "softmax_steps.hpp"
#include "transpose.hpp"
#include "vector.hpp"
#include "vector_exp.hpp"

namespace attn::kernels::ATTN_KERNEL_VARIANT {

using vec::kLanes;
using vec::VecF;

namespace {

constexpr float kMinusInfinity = -__builtin_inff();

// The four dot products a . b0, a . b1, a . b2, a . b3 (len each) in one sweep
// over a: every load of a is used four times.
void dot4(const float* a, const float* b0, const float* b1, const float* b2, const float* b3, std::size_t len,
          float* out) {
  VecF acc0 = vec::splat(0.0f), acc1 = acc0, acc2 = acc0, acc3 = acc0;
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    const VecF x = vec::load(a + i);
    acc0 += x * vec::load(b0 + i);
    acc1 += x * vec::load(b1 + i);
    acc2 += x * vec::load(b2 + i);
    acc3 += x * vec::load(b3 + i);
  }
  if (const std::size_t rest = len - i) {
    const VecF x = vec::load_partial(a + i, rest, 0.0f);
    acc0 += x * vec::load_partial(b0 + i, rest, 0.0f);
    acc1 += x * vec::load_partial(b1 + i, rest, 0.0f);
    acc2 += x * vec::load_partial(b2 + i, rest, 0.0f);
    acc3 += x * vec::load_partial(b3 + i, rest, 0.0f);
  }
#if ATTN_VECTOR_BYTES >= 16
  vec::store4(out, vec::horizontal_sums4(acc0, acc1, acc2, acc3));
#else
  out[0] = vec::horizontal_sum(acc0);
  out[1] = vec::horizontal_sum(acc1);
  out[2] = vec::horizontal_sum(acc2);
  out[3] = vec::horizontal_sum(acc3);
#endif
}

// The 2 x 4 dot products a_r . b_c (rows a0, a1; keys b0..b3) in one sweep:
// 6 loads feed 8 multiply-adds into 8 accumulators (dot4: 5 loads, 4).
void dot2x4(const float* a0, const float* a1, const float* b0, const float* b1, const float* b2, const float* b3,
            std::size_t len, float* out0, float* out1) {
  VecF s00 = vec::splat(0.0f), s01 = s00, s02 = s00, s03 = s00, s10 = s00, s11 = s00, s12 = s00, s13 = s00;
  auto step = [&](VecF x0, VecF x1, VecF y0, VecF y1, VecF y2, VecF y3) {
    s00 += x0 * y0, s01 += x0 * y1, s02 += x0 * y2, s03 += x0 * y3;
    s10 += x1 * y0, s11 += x1 * y1, s12 += x1 * y2, s13 += x1 * y3;
  };
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    step(vec::load(a0 + i), vec::load(a1 + i), vec::load(b0 + i), vec::load(b1 + i), vec::load(b2 + i),
         vec::load(b3 + i));
  }
  if (const std::size_t rest = len - i) {
    step(vec::load_partial(a0 + i, rest, 0.0f), vec::load_partial(a1 + i, rest, 0.0f),
         vec::load_partial(b0 + i, rest, 0.0f), vec::load_partial(b1 + i, rest, 0.0f),
         vec::load_partial(b2 + i, rest, 0.0f), vec::load_partial(b3 + i, rest, 0.0f));
  }
#if ATTN_VECTOR_BYTES >= 16
  vec::store4(out0, vec::horizontal_sums4(s00, s01, s02, s03));
  vec::store4(out1, vec::horizontal_sums4(s10, s11, s12, s13));
#else
  const VecF* sums[2][4] = {{&s00, &s01, &s02, &s03}, {&s10, &s11, &s12, &s13}};
  for (std::size_t c = 0; c < 4; ++c) out0[c] = vec::horizontal_sum(*sums[0][c]), out1[c] = vec::horizontal_sum(*sums[1][c]);
#endif
}

// The last `rest` < kLanes columns of c_row, from padded vectors; w_row[j * w_step] is w(i, j).
template <bool kAdd>
void weighted_sum_tail(const float* w_row, std::size_t w_step, const float* v, float* c_row, std::size_t m,
                       std::size_t d, std::size_t col, std::size_t rest) {
  VecF acc = vec::splat(0.0f);
  for (std::size_t j = 0; j < m; ++j)
    acc += vec::splat(w_row[j * w_step]) * vec::load_partial(v + j * d + col, rest, 0.0f);
  vec::store_partial(c_row + col, kAdd ? vec::load_partial(c_row + col, rest, 0.0f) + acc : acc, rest);
}

// ---- the kernels of the table (attn/kernels.hpp) ----

// sum_i x_i y_i with four accumulators
float dot(const float* x, const float* y, std::size_t len) noexcept {
  VecF acc0 = vec::splat(0.0f), acc1 = acc0, acc2 = acc0, acc3 = acc0;
  std::size_t i = 0;
  for (; i + 4 * kLanes <= len; i += 4 * kLanes) {
    acc0 += vec::load(x + i) * vec::load(y + i);
    acc1 += vec::load(x + i + kLanes) * vec::load(y + i + kLanes);
    acc2 += vec::load(x + i + 2 * kLanes) * vec::load(y + i + 2 * kLanes);
    acc3 += vec::load(x + i + 3 * kLanes) * vec::load(y + i + 3 * kLanes);
  }
  for (; i + kLanes <= len; i += kLanes) acc0 += vec::load(x + i) * vec::load(y + i);
  if (const std::size_t rest = len - i) {
    acc1 += vec::load_partial(x + i, rest, 0.0f) * vec::load_partial(y + i, rest, 0.0f);
  }
  return vec::horizontal_sum((acc0 + acc1) + (acc2 + acc3));
}

// max_r sum_c x_rc^2: four rows per sweep (one accumulator each, their sums
// taken together by horizontal_sums4), the rest one by one; a non-finite sum
// (NaN included, which a max would drop) makes the result +inf.
float max_sum_of_squares(const float* x, std::size_t rows, std::size_t cols) noexcept {
  float largest = 0.0f;
  bool finite = true;
  auto take = [&](float sum) {
    finite = finite && sum - sum == 0.0f;  // false for NaN and infinities
    largest = sum > largest ? sum : largest;
  };
  std::size_t r = 0;
#if ATTN_VECTOR_BYTES >= 16
  for (; r + 4 <= rows; r += 4) {
    const float* x0 = x + r * cols;
    const float *x1 = x0 + cols, *x2 = x1 + cols, *x3 = x2 + cols;
    VecF a0 = vec::splat(0.0f), a1 = a0, a2 = a0, a3 = a0;
    std::size_t i = 0;
    for (; i + kLanes <= cols; i += kLanes) {
      const VecF y0 = vec::load(x0 + i), y1 = vec::load(x1 + i), y2 = vec::load(x2 + i), y3 = vec::load(x3 + i);
      a0 += y0 * y0, a1 += y1 * y1, a2 += y2 * y2, a3 += y3 * y3;
    }
    if (const std::size_t rest = cols - i) {
      const VecF y0 = vec::load_partial(x0 + i, rest, 0.0f), y1 = vec::load_partial(x1 + i, rest, 0.0f);
      const VecF y2 = vec::load_partial(x2 + i, rest, 0.0f), y3 = vec::load_partial(x3 + i, rest, 0.0f);
      a0 += y0 * y0, a1 += y1 * y1, a2 += y2 * y2, a3 += y3 * y3;
    }
    const vec::Vec4 sums = vec::horizontal_sums4(a0, a1, a2, a3);
    take(sums[0]), take(sums[1]), take(sums[2]), take(sums[3]);
  }
#endif
  for (; r < rows; ++r) take(dot(x + r * cols, x + r * cols, cols));
  return finite ? largest : __builtin_inff();
}

// y += a x
void axpy(float a, const float* x, float* y, std::size_t len) noexcept {
  const VecF va = vec::splat(a);
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) vec::store(y + i, vec::load(y + i) + va * vec::load(x + i));
  if (const std::size_t rest = len - i) {
    const VecF sum = vec::load_partial(y + i, rest, 0.0f) + va * vec::load_partial(x + i, rest, 0.0f);
    vec::store_partial(y + i, sum, rest);
  }
}

// max_i x_i with two accumulators; padding lanes hold -inf
float max_value(const float* x, std::size_t len) noexcept {
  VecF best0 = vec::splat(kMinusInfinity), best1 = best0;
  std::size_t i = 0;
  for (; i + 2 * kLanes <= len; i += 2 * kLanes) {
    best0 = vec::max(best0, vec::load(x + i));
    best1 = vec::max(best1, vec::load(x + i + kLanes));
  }
  for (; i + kLanes <= len; i += kLanes) best0 = vec::max(best0, vec::load(x + i));
  if (const std::size_t rest = len - i) best1 = vec::max(best1, vec::load_partial(x + i, rest, kMinusInfinity));
  return vec::horizontal_max(vec::max(best0, best1));
}

// x_i <- exp(x_i - shift), sum with two accumulators; padding lanes hold -inf,
// whose exp is exactly 0, so they add nothing to the sum
float exp_shifted_sum(float* x, std::size_t len, float shift) noexcept {
  const VecF vshift = vec::splat(shift);
  VecF sum0 = vec::splat(0.0f), sum1 = sum0;
  std::size_t i = 0;
  for (; i + 2 * kLanes <= len; i += 2 * kLanes) {
    const VecF e0 = vec::exp_vector(vec::load(x + i) - vshift);
    const VecF e1 = vec::exp_vector(vec::load(x + i + kLanes) - vshift);
    vec::store(x + i, e0);
    vec::store(x + i + kLanes, e1);
    sum0 += e0;
    sum1 += e1;
  }
  for (; i + kLanes <= len; i += kLanes) {
    const VecF e = vec::exp_vector(vec::load(x + i) - vshift);
    vec::store(x + i, e);
    sum0 += e;
  }
  if (const std::size_t rest = len - i) {
    const VecF e = vec::exp_vector(vec::load_partial(x + i, rest, kMinusInfinity) - vshift);
    vec::store_partial(x + i, e, rest);
    sum1 += e;
  }
  return vec::horizontal_sum(sum0 + sum1);
}

// x *= factor
void scale_in_place(float factor, float* x, std::size_t len) noexcept {
  const VecF vfactor = vec::splat(factor);
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) vec::store(x + i, vec::load(x + i) * vfactor);
  if (const std::size_t rest = len - i) vec::store_partial(x + i, vec::load_partial(x + i, rest, 0.0f) * vfactor, rest);
}

// c_ij = a_i . b_j by dot products, four keys j at a time, the last m % 4 one
// by one; the 4- and 16-lane variants take two query rows at a time (dot2x4).
// For few rows of a, where packing b (below) would cost more than it saves.
void matmul_abt_by_dots(const float* a, const float* b, float* c, std::size_t n, std::size_t m, std::size_t d) {
  constexpr bool kTwoRowBlocks = kLanes == 4 || kLanes == 16;
  std::size_t i = 0;
  for (; kTwoRowBlocks && i + 2 <= n; i += 2) {  // two query rows by four keys (dot2x4)
    const float* a_row = a + i * d;
    float* c_row = c + i * m;
    std::size_t j = 0;
    for (; j + 4 <= m; j += 4) {
      dot2x4(a_row, a_row + d, b + j * d, b + (j + 1) * d, b + (j + 2) * d, b + (j + 3) * d, d, c_row + j, c_row + m + j);
    }
    for (; j < m; ++j) c_row[j] = dot(a_row, b + j * d, d), c_row[m + j] = dot(a_row + d, b + j * d, d);
  }
  for (; i < n; ++i) {  // the last odd row
    const float* a_row = a + i * d;
    float* c_row = c + i * m;
    std::size_t j = 0;
    for (; j + 4 <= m; j += 4) {
      dot4(a_row, b + j * d, b + (j + 1) * d, b + (j + 2) * d, b + (j + 3) * d, d, c_row + j);
    }
    for (; j < m; ++j) c_row[j] = dot(a_row, b + j * d, d);
  }
}

// Rows of a from which matmul_abt packs b: below, packing the m x d floats of b
// costs more than the micro-kernel saves over dot products (measured: n = 8).
constexpr std::size_t kPackFromRows = 8;
// The depth of one packed panel: kTileVectors * kLanes keys x kPanelDepth
// features on the stack (24 KiB for avx512f); a longer d takes several.
constexpr std::size_t kPanelDepth = 128;

// c (n x m) = a b^T in the GEMM form of micro_kernel.hpp: C[i][j] = sum_t
// a(i, t) B^T[t][j], keys j along the lanes. b^T is packed panel by panel
// (kTileVectors * kLanes keys, up to kPanelDepth features, zeros past m) on the
// stack; every row tile of a then streams through the panel.
void matmul_abt(const float* a, const float* b, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  if (n < kPackFromRows) return matmul_abt_by_dots(a, b, c, n, m, d);
  constexpr std::size_t kPanelKeys = vec::kTileVectors * kLanes;
  alignas(64) float panel[kPanelKeys * kPanelDepth];
  for (std::size_t j0 = 0; j0 < m; j0 += kPanelKeys) {
    const std::size_t keys = m - j0 < kPanelKeys ? m - j0 : kPanelKeys;
    const std::size_t vectors = (keys + kLanes - 1) / kLanes, width = vectors * kLanes;
    for (std::size_t t0 = 0; t0 < d; t0 += kPanelDepth) {
      const std::size_t depth = d - t0 < kPanelDepth ? d - t0 : kPanelDepth;
      vec::transpose_rows(b + j0 * d + t0, keys, depth, d, panel, width, width);  // panel[t][j] = b[j0 + j][t0 + t]
      const bool first = t0 == 0;
      // C tile rows [i0, i0 + MR), keys j0 + [v0, v0 + NRV) vectors: stored, or added on later panels;
      // the last vector may be partial (keys past m are the panel's zeros, not stored)
      auto finish = [=]<std::size_t MR, std::size_t NRV>(std::size_t i0, std::size_t v0, VecF (&acc)[MR][NRV]) {
#pragma GCC unroll 16
        for (std::size_t i = 0; i < MR; ++i) {
          float* c_row = c + (i0 + i) * m + j0;
#pragma GCC unroll 16
          for (std::size_t v = 0; v < NRV; ++v) {
            float* out = c_row + (v0 + v) * kLanes;
            const std::size_t count = keys - (v0 + v) * kLanes;
            if (count == 0 || count > keys) __builtin_unreachable();  // a vector holds at least one key
            if (count >= kLanes) {
              vec::store(out, first ? acc[i][v] : vec::load(out) + acc[i][v]);
            } else {
              const VecF sum = first ? acc[i][v] : vec::load_partial(out, count, 0.0f) + acc[i][v];
              vec::store_partial(out, sum, count);
            }
          }
        }
      };
      vec::broadcast_product(a + t0, d, 1, n, panel, width, vectors, depth, finish);
    }
  }
}

// c (n x d) = w v (kAdd: c += w v) in the GEMM form of micro_kernel.hpp: C[i][col]
// = sum_j w(i, j) v[j][col], the value columns along the lanes straight from v's
// rows (no packing); the last d % kLanes columns, if any, by padded vectors row
// by row. Added, each entry is c + (its sum from 0): as a product added afterwards.
// w(i, j) = w[i * w_row + j * w_step]: w itself (m, 1), or w stored m x n read
// down its columns for w^T v (1, n), the broadcasts then MR consecutive floats.
template <bool kAdd>
void product_ab(const float* w, std::size_t w_row, std::size_t w_step, const float* v, float* c, std::size_t n,
                std::size_t m, std::size_t d) noexcept {
  const std::size_t vectors = d / kLanes;
  auto store_tile = [=]<std::size_t MR, std::size_t NRV>(std::size_t i0, std::size_t v0, VecF (&acc)[MR][NRV]) {
#pragma GCC unroll 16
    for (std::size_t i = 0; i < MR; ++i)
#pragma GCC unroll 16
      for (std::size_t u = 0; u < NRV; ++u) {
        float* out = c + (i0 + i) * d + (v0 + u) * kLanes;
        vec::store(out, kAdd ? vec::load(out) + acc[i][u] : acc[i][u]);
      }
  };
  if (vectors > 0) vec::broadcast_product(w, w_row, w_step, n, v, d, vectors, m, store_tile);
  if (const std::size_t rest = d - vectors * kLanes) {
    for (std::size_t i = 0; i < n; ++i)
      weighted_sum_tail<kAdd>(w + i * w_row, w_step, v, c + i * d, m, d, vectors * kLanes, rest);
  }
}
void matmul_ab(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  product_ab<false>(w, m, 1, v, c, n, m, d);
}
void matmul_ab_add(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  product_ab<true>(w, m, 1, v, c, n, m, d);
}
void matmul_atb(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  product_ab<false>(w, 1, n, v, c, n, m, d);
}
void matmul_atb_add(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  product_ab<true>(w, 1, n, v, c, n, m, d);
}

void softmax_rows(float* x, std::size_t rows, std::size_t cols) noexcept {
  softmax_rows_by_steps(x, rows, cols, max_value, exp_shifted_sum, scale_in_place);
}

}  // namespace

#define ATTN_STRING(x) #x
#define ATTN_NAME_OF(x) ATTN_STRING(x)

// This variant's table, found by src/kernels/dispatch.cpp.
extern const KernelTable kernel_table;
const KernelTable kernel_table = {ATTN_NAME_OF(ATTN_KERNEL_VARIANT), kLanes, matmul_abt, matmul_ab, matmul_ab_add,
                                  matmul_atb, matmul_atb_add, dot,
                                  max_sum_of_squares, axpy,
                                  scale_in_place, max_value, exp_shifted_sum, softmax_rows,
                                  vec::kBlockQueries, vec::kBlockKeys, transpose_block, untranspose_block, block_scores,
                                  block_softmax, block_accumulate, block_weights, block_score_gradients};

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT
