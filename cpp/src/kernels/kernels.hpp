// kernels.hpp (internal) — the kernels every other part of the core calls:
// free functions with the signatures of attn/kernels.hpp, each forwarding to
// the variant this process runs (src/kernels/dispatch.cpp, the one place that
// chooses). A pipeline that makes many calls takes `active()` once and calls
// through the table instead.
//
// Pointers are row-major, rows are tokens (attn/shapes.hpp); no validation.
#pragma once

#include <cstddef>

#include "attn/kernels.hpp"

namespace attn::kernels {

// The kernel table in use: the fastest variant this CPU supports, unless a
// test or benchmark forced another (attn::testing::ForceKernelVariant).
const KernelTable& active() noexcept;

// c (n x m) = a (n x d) * b (m x d)^T          scores = Q K^T
inline void matmul_abt(const float* a, const float* b, float* c, std::size_t n, std::size_t m,
                       std::size_t d) noexcept {
  active().matmul_abt(a, b, c, n, m, d);
}

// c (n x d) = w (n x m) * v (m x d)            output = weights V (c is overwritten)
inline void matmul_ab(const float* w, const float* v, float* c, std::size_t n, std::size_t m,
                      std::size_t d) noexcept {
  active().matmul_ab(w, v, c, n, m, d);
}

// sum_i x_i y_i                                (len)
inline float dot(const float* x, const float* y, std::size_t len) noexcept { return active().dot(x, y, len); }

// y += a * x                                   (len)
inline void axpy(float a, const float* x, float* y, std::size_t len) noexcept { active().axpy(a, x, y, len); }

// x *= factor                                  (len)
inline void scale_in_place(float factor, float* x, std::size_t len) noexcept {
  active().scale_in_place(factor, x, len);
}

// max_i x_i; -inf when len == 0 or every x_i is -inf
inline float max_value(const float* x, std::size_t len) noexcept { return active().max_value(x, len); }

// x_i <- exp(x_i - shift) for a finite shift; returns sum_i of the new x_i; exp(-inf) = 0
inline float exp_shifted_sum(float* x, std::size_t len, float shift) noexcept {
  return active().exp_shifted_sum(x, len, shift);
}

// x (rows x cols) <- row softmax of x in place; -inf -> 0; a row of only -inf -> zeros
inline void softmax_rows(float* x, std::size_t rows, std::size_t cols) noexcept {
  active().softmax_rows(x, rows, cols);
}

}  // namespace attn::kernels
