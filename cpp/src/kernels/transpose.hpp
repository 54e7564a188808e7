// transpose.hpp (internal, compiled per variant like vector.hpp) — moving a
// block of rows into columns, for the layouts the micro-kernels stream: the
// tiled path's Q_i^T (block_kernels.cpp) and matmul_abt's panels of B^T
// (vector_kernels.cpp). In 4 x 4 squares, each transposed in registers by two
// rounds of shuffles (interleave pairs of rows, then pairs of pairs); the
// ragged edges one float at a time.
#pragma once

#include <cstddef>

#include "vector.hpp"

namespace attn::kernels::ATTN_KERNEL_VARIANT::vec {

#if ATTN_VECTOR_BYTES >= 16
inline constexpr std::size_t kSquare = 4;

inline Vec4 load4(const float* p) {
  Vec4 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

// rows a, b, c, d -> columns (a0 b0 c0 d0), (a1 b1 c1 d1), ...
inline void transpose4(Vec4& a, Vec4& b, Vec4& c, Vec4& d) {
  const Vec4 ab_low = __builtin_shufflevector(a, b, 0, 4, 1, 5), ab_high = __builtin_shufflevector(a, b, 2, 6, 3, 7);
  const Vec4 cd_low = __builtin_shufflevector(c, d, 0, 4, 1, 5), cd_high = __builtin_shufflevector(c, d, 2, 6, 3, 7);
  a = __builtin_shufflevector(ab_low, cd_low, 0, 1, 4, 5);
  b = __builtin_shufflevector(ab_low, cd_low, 2, 3, 6, 7);
  c = __builtin_shufflevector(ab_high, cd_high, 0, 1, 4, 5);
  d = __builtin_shufflevector(ab_high, cd_high, 2, 3, 6, 7);
}
#else
inline constexpr std::size_t kSquare = 0;  // one lane: no squares, every float on its own
#endif

// dst[c * dst_stride + r] = src[r * src_stride + c] for r < rows, c < cols, and
// 0 for rows <= r < padded_rows (src: rows x cols; dst: cols x padded_rows).
inline void transpose_rows(const float* src, std::size_t rows, std::size_t cols, std::size_t src_stride, float* dst,
                           std::size_t dst_stride, std::size_t padded_rows) {
  std::size_t r0 = 0;
#if ATTN_VECTOR_BYTES >= 16
  for (; r0 + kSquare <= rows; r0 += kSquare) {
    const float* row = src + r0 * src_stride;
    std::size_t c0 = 0;
    for (; c0 + kSquare <= cols; c0 += kSquare) {
      Vec4 a = load4(row + c0), b = load4(row + src_stride + c0);
      Vec4 c = load4(row + 2 * src_stride + c0), d = load4(row + 3 * src_stride + c0);
      transpose4(a, b, c, d);
      store4(dst + c0 * dst_stride + r0, a), store4(dst + (c0 + 1) * dst_stride + r0, b);
      store4(dst + (c0 + 2) * dst_stride + r0, c), store4(dst + (c0 + 3) * dst_stride + r0, d);
    }
    for (; c0 < cols; ++c0)
      for (std::size_t r = r0; r < r0 + kSquare; ++r) dst[c0 * dst_stride + r] = src[r * src_stride + c0];
  }
#endif
  for (std::size_t c = 0; c < cols; ++c) {
    for (std::size_t r = r0; r < rows; ++r) dst[c * dst_stride + r] = src[r * src_stride + c];
    for (std::size_t r = rows; r < padded_rows; ++r) dst[c * dst_stride + r] = 0.0f;
  }
}

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT::vec
