// attn/kernels.hpp — the hot loops of attention, in two variants with the same
// signatures:
//   attn::kernels::scalar   plain float loops (what the compiler makes of them)
//   attn::kernels::simd     GCC/Clang vector extensions: SSE/AVX natively,
//                           SIMD128 under -msimd128 (one source for both)
// attn::kernels::best is the one the library uses; kSimdWidth is the number of
// floats in one vector register of the build (1 when SIMD is compiled out).
//
// Pointers are row-major, rows are tokens (attn/shapes.hpp). No validation
// happens here: callers check shapes first.
#pragma once

#include <cstddef>

namespace attn::kernels {

#define ATTN_KERNEL_SIGNATURES                                                              \
  /* c (n x m) = a (n x d) * b (m x d)^T     — scores = Q K^T */                            \
  void matmul_abt(const float* a, const float* b, float* c, std::size_t n, std::size_t m,   \
                  std::size_t d) noexcept;                                                  \
  /* x (rows x cols) <- row softmax of x in place; -inf -> 0; all -inf row -> zeros */      \
  void softmax_rows(float* x, std::size_t rows, std::size_t cols) noexcept;                 \
  /* c (n x d) = w (n x m) * v (m x d)       — output = weights V */                        \
  void matmul_ab(const float* w, const float* v, float* c, std::size_t n, std::size_t m,    \
                 std::size_t d) noexcept;                                                   \
  /* y (len) += a * x (len) */                                                              \
  void axpy(float a, const float* x, float* y, std::size_t len) noexcept;                   \
  /* sum_i x_i y_i */                                                                       \
  float dot(const float* x, const float* y, std::size_t len) noexcept;                      \
  /* max_i x_i  (-inf when len == 0 or every x_i is -inf) */                                \
  float max_value(const float* x, std::size_t len) noexcept;                                \
  /* x_i <- exp(x_i - shift), shift finite; returns sum of new x_i; exp(-inf) = 0 */        \
  float exp_shifted_sum(float* x, std::size_t len, float shift) noexcept;                   \
  /* x (len) *= factor */                                                                   \
  void scale_in_place(float factor, float* x, std::size_t len) noexcept;

namespace scalar {
ATTN_KERNEL_SIGNATURES
}
namespace simd {
// Floats per vector: 8 with AVX, 4 with SSE2 / SIMD128 / NEON, 1 otherwise.
extern const std::size_t kSimdWidth;
ATTN_KERNEL_SIGNATURES
}
#undef ATTN_KERNEL_SIGNATURES

namespace best = simd;

}  // namespace attn::kernels
