// kernels_simd.cpp — attn::kernels::simd: the kernels on portable vectors
// (simd_vector.hpp): SSE/AVX natively, SIMD128 under -msimd128, one lane in a
// wasm build without it. Same signatures and results (within rounding) as
// attn::kernels::scalar.
//
// Layout of every kernel: a body over whole vectors, with several independent
// accumulators where it reduces (a float sum cannot be reassociated by the
// compiler, so one accumulator would make every add wait for the previous one),
// and one padded vector for the leftover len % kLanes elements.
#include <limits>

#include "attn/kernels.hpp"
#include "simd_vector.hpp"
#include "softmax_steps.hpp"
#include "vector_exp.hpp"

namespace attn::kernels::simd {

using detail::kLanes;
using detail::VecF;

const std::size_t kSimdWidth = kLanes;

namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// The four dot products a . b0, a . b1, a . b2, a . b3 (len each) in one sweep
// over a: every load of a is used four times.
void dot4(const float* a, const float* b0, const float* b1, const float* b2, const float* b3, std::size_t len,
          float* out) {
  VecF acc0 = detail::splat(0.0f), acc1 = acc0, acc2 = acc0, acc3 = acc0;
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    const VecF x = detail::load(a + i);
    acc0 += x * detail::load(b0 + i);
    acc1 += x * detail::load(b1 + i);
    acc2 += x * detail::load(b2 + i);
    acc3 += x * detail::load(b3 + i);
  }
  if (const std::size_t rest = len - i) {
    const VecF x = detail::load_partial(a + i, rest, 0.0f);
    acc0 += x * detail::load_partial(b0 + i, rest, 0.0f);
    acc1 += x * detail::load_partial(b1 + i, rest, 0.0f);
    acc2 += x * detail::load_partial(b2 + i, rest, 0.0f);
    acc3 += x * detail::load_partial(b3 + i, rest, 0.0f);
  }
  out[0] = detail::horizontal_sum(acc0);
  out[1] = detail::horizontal_sum(acc1);
  out[2] = detail::horizontal_sum(acc2);
  out[3] = detail::horizontal_sum(acc3);
}

// The 2 x 4 dot products a_r . b_c (rows a0, a1; keys b0..b3) in one sweep:
// 6 loads feed 8 multiply-adds into 8 accumulators (dot4: 5 loads, 4).
void dot2x4(const float* a0, const float* a1, const float* b0, const float* b1, const float* b2, const float* b3,
            std::size_t len, float* out0, float* out1) {
  VecF s00 = detail::splat(0.0f), s01 = s00, s02 = s00, s03 = s00, s10 = s00, s11 = s00, s12 = s00, s13 = s00;
  auto step = [&](VecF x0, VecF x1, VecF y0, VecF y1, VecF y2, VecF y3) {
    s00 += x0 * y0, s01 += x0 * y1, s02 += x0 * y2, s03 += x0 * y3;
    s10 += x1 * y0, s11 += x1 * y1, s12 += x1 * y2, s13 += x1 * y3;
  };
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) {
    step(detail::load(a0 + i), detail::load(a1 + i), detail::load(b0 + i), detail::load(b1 + i), detail::load(b2 + i),
         detail::load(b3 + i));
  }
  if (const std::size_t rest = len - i) {
    step(detail::load_partial(a0 + i, rest, 0.0f), detail::load_partial(a1 + i, rest, 0.0f),
         detail::load_partial(b0 + i, rest, 0.0f), detail::load_partial(b1 + i, rest, 0.0f),
         detail::load_partial(b2 + i, rest, 0.0f), detail::load_partial(b3 + i, rest, 0.0f));
  }
#if ATTN_VECTOR_BYTES == 16
  detail::store(out0, detail::horizontal_sums4(s00, s01, s02, s03));
  detail::store(out1, detail::horizontal_sums4(s10, s11, s12, s13));
#else
  const VecF* sums[2][4] = {{&s00, &s01, &s02, &s03}, {&s10, &s11, &s12, &s13}};
  for (std::size_t c = 0; c < 4; ++c) out0[c] = detail::horizontal_sum(*sums[0][c]), out1[c] = detail::horizontal_sum(*sums[1][c]);
#endif
}

// Two rows of c at once, columns [col, col + 4*kLanes): each load of v feeds
// both rows (8 accumulators).
void weighted_sum_panel2(const float* w_row0, const float* w_row1, const float* v, float* c_row0, float* c_row1,
                         std::size_t m, std::size_t d, std::size_t col) {
  VecF a0 = detail::splat(0.0f), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
  for (std::size_t j = 0; j < m; ++j) {
    const VecF w0 = detail::splat(w_row0[j]), w1 = detail::splat(w_row1[j]);
    const float* v_row = v + j * d + col;
    const VecF x0 = detail::load(v_row), x1 = detail::load(v_row + kLanes);
    const VecF x2 = detail::load(v_row + 2 * kLanes), x3 = detail::load(v_row + 3 * kLanes);
    a0 += w0 * x0, a1 += w0 * x1, a2 += w0 * x2, a3 += w0 * x3;
    b0 += w1 * x0, b1 += w1 * x1, b2 += w1 * x2, b3 += w1 * x3;
  }
  detail::store(c_row0 + col, a0), detail::store(c_row0 + col + kLanes, a1);
  detail::store(c_row0 + col + 2 * kLanes, a2), detail::store(c_row0 + col + 3 * kLanes, a3);
  detail::store(c_row1 + col, b0), detail::store(c_row1 + col + kLanes, b1);
  detail::store(c_row1 + col + 2 * kLanes, b2), detail::store(c_row1 + col + 3 * kLanes, b3);
}

// Columns [col, col + kVectors*kLanes) of c_row = sum_j w_row[j] v_j, the
// kVectors accumulators held in registers for the whole sweep over j.
template <std::size_t kVectors>
void weighted_sum_panel(const float* w_row, const float* v, float* c_row, std::size_t m, std::size_t d,
                        std::size_t col) {
  VecF acc[kVectors];
  for (auto& a : acc) a = detail::splat(0.0f);
  for (std::size_t j = 0; j < m; ++j) {
    const VecF w = detail::splat(w_row[j]);
    const float* v_row = v + j * d + col;
    for (std::size_t k = 0; k < kVectors; ++k) acc[k] += w * detail::load(v_row + k * kLanes);
  }
  for (std::size_t k = 0; k < kVectors; ++k) detail::store(c_row + col + k * kLanes, acc[k]);
}

// The last `rest` < kLanes columns of c_row, from padded vectors.
void weighted_sum_tail(const float* w_row, const float* v, float* c_row, std::size_t m, std::size_t d,
                       std::size_t col, std::size_t rest) {
  VecF acc = detail::splat(0.0f);
  for (std::size_t j = 0; j < m; ++j) acc += detail::splat(w_row[j]) * detail::load_partial(v + j * d + col, rest, 0.0f);
  detail::store_partial(c_row + col, acc, rest);
}

}  // namespace

// sum_i x_i y_i with four accumulators
float dot(const float* x, const float* y, std::size_t len) noexcept {
  VecF acc0 = detail::splat(0.0f), acc1 = acc0, acc2 = acc0, acc3 = acc0;
  std::size_t i = 0;
  for (; i + 4 * kLanes <= len; i += 4 * kLanes) {
    acc0 += detail::load(x + i) * detail::load(y + i);
    acc1 += detail::load(x + i + kLanes) * detail::load(y + i + kLanes);
    acc2 += detail::load(x + i + 2 * kLanes) * detail::load(y + i + 2 * kLanes);
    acc3 += detail::load(x + i + 3 * kLanes) * detail::load(y + i + 3 * kLanes);
  }
  for (; i + kLanes <= len; i += kLanes) acc0 += detail::load(x + i) * detail::load(y + i);
  if (const std::size_t rest = len - i) {
    acc1 += detail::load_partial(x + i, rest, 0.0f) * detail::load_partial(y + i, rest, 0.0f);
  }
  return detail::horizontal_sum((acc0 + acc1) + (acc2 + acc3));
}

// y += a x
void axpy(float a, const float* x, float* y, std::size_t len) noexcept {
  const VecF va = detail::splat(a);
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) detail::store(y + i, detail::load(y + i) + va * detail::load(x + i));
  if (const std::size_t rest = len - i) {
    const VecF sum = detail::load_partial(y + i, rest, 0.0f) + va * detail::load_partial(x + i, rest, 0.0f);
    detail::store_partial(y + i, sum, rest);
  }
}

// max_i x_i with two accumulators; padding lanes hold -inf
float max_value(const float* x, std::size_t len) noexcept {
  VecF best0 = detail::splat(kMinusInfinity), best1 = best0;
  std::size_t i = 0;
  for (; i + 2 * kLanes <= len; i += 2 * kLanes) {
    best0 = detail::max(best0, detail::load(x + i));
    best1 = detail::max(best1, detail::load(x + i + kLanes));
  }
  for (; i + kLanes <= len; i += kLanes) best0 = detail::max(best0, detail::load(x + i));
  if (const std::size_t rest = len - i) best1 = detail::max(best1, detail::load_partial(x + i, rest, kMinusInfinity));
  return detail::horizontal_max(detail::max(best0, best1));
}

// x_i <- exp(x_i - shift), sum with two accumulators; padding lanes hold -inf,
// whose exp is exactly 0, so they add nothing to the sum
float exp_shifted_sum(float* x, std::size_t len, float shift) noexcept {
  const VecF vshift = detail::splat(shift);
  VecF sum0 = detail::splat(0.0f), sum1 = sum0;
  std::size_t i = 0;
  for (; i + 2 * kLanes <= len; i += 2 * kLanes) {
    const VecF e0 = detail::exp_vector(detail::load(x + i) - vshift);
    const VecF e1 = detail::exp_vector(detail::load(x + i + kLanes) - vshift);
    detail::store(x + i, e0);
    detail::store(x + i + kLanes, e1);
    sum0 += e0;
    sum1 += e1;
  }
  for (; i + kLanes <= len; i += kLanes) {
    const VecF e = detail::exp_vector(detail::load(x + i) - vshift);
    detail::store(x + i, e);
    sum0 += e;
  }
  if (const std::size_t rest = len - i) {
    const VecF e = detail::exp_vector(detail::load_partial(x + i, rest, kMinusInfinity) - vshift);
    detail::store_partial(x + i, e, rest);
    sum1 += e;
  }
  return detail::horizontal_sum(sum0 + sum1);
}

// x *= factor
void scale_in_place(float factor, float* x, std::size_t len) noexcept {
  const VecF vfactor = detail::splat(factor);
  std::size_t i = 0;
  for (; i + kLanes <= len; i += kLanes) detail::store(x + i, detail::load(x + i) * vfactor);
  if (const std::size_t rest = len - i) detail::store_partial(x + i, detail::load_partial(x + i, rest, 0.0f) * vfactor, rest);
}

// c_ij = a_i . b_j, four keys j at a time, the last m % 4 one by one.
// 4-lane builds (SSE, SIMD128) first take two query rows at a time (dot2x4,
// whose sums are reduced by shuffles); with 8-lane AVX the one-row dot4 is faster.
void matmul_abt(const float* a, const float* b, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  constexpr bool kTwoRowBlocks = ATTN_VECTOR_BYTES == 16;
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

// c_i = sum_j w_ij v_j, in column panels of 4, then 1 vector(s), then the tail
void matmul_ab(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  std::size_t i = 0;
  if (d >= 4 * kLanes) {
    for (; i + 2 <= n; i += 2) {  // two rows at once over the 4-vector panels
      const float* w_row = w + i * m;
      float* c_row = c + i * d;
      std::size_t col = 0;
      for (; col + 4 * kLanes <= d; col += 4 * kLanes) weighted_sum_panel2(w_row, w_row + m, v, c_row, c_row + d, m, d, col);
      for (std::size_t r = 0; r < 2; ++r) {
        std::size_t tail = col;
        for (; tail + kLanes <= d; tail += kLanes) weighted_sum_panel<1>(w_row + r * m, v, c_row + r * d, m, d, tail);
        if (const std::size_t rest = d - tail) weighted_sum_tail(w_row + r * m, v, c_row + r * d, m, d, tail, rest);
      }
    }
  }
  for (; i < n; ++i) {
    const float* w_row = w + i * m;
    float* c_row = c + i * d;
    std::size_t col = 0;
    for (; col + 4 * kLanes <= d; col += 4 * kLanes) weighted_sum_panel<4>(w_row, v, c_row, m, d, col);
    for (; col + kLanes <= d; col += kLanes) weighted_sum_panel<1>(w_row, v, c_row, m, d, col);
    if (const std::size_t rest = d - col) weighted_sum_tail(w_row, v, c_row, m, d, col, rest);
  }
}

void softmax_rows(float* x, std::size_t rows, std::size_t cols) noexcept {
  kernels::detail::softmax_rows_by_steps(x, rows, cols, max_value, exp_shifted_sum, scale_in_place);
}

}  // namespace attn::kernels::simd
