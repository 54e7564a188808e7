// attn/kernels.hpp — the hot loops of attention as one table of functions: the
// shape every kernel variant fills in. For tests and benchmarks (through
// attn/testing.hpp), not part of the user API: attn/attn.hpp does not include it.
//
// Variants (src/kernels/): "scalar" (plain float loops) and the vector kernels
// compiled from one source per instruction set: "avx512f" (16 lanes),
// "avx2" (8, with FMA), "sse2" (4) natively on x86-64; "simd128" (4) or
// "one_lane" (1) in WebAssembly; "portable" (4) elsewhere. The library picks
// one at run time (src/kernels/dispatch.cpp); attn/testing.hpp lists and
// forces them.
//
// Pointers are row-major, rows are tokens (attn/shapes.hpp). No validation
// happens here: callers check shapes first.
#pragma once

#include <cstddef>

namespace attn::kernels {

// The kernels of one variant.
struct KernelTable {
  const char* name;   // "avx512f", "avx2", "sse2", "simd128", "one_lane", "portable" or "scalar"
  std::size_t lanes;  // floats per vector register in this variant's kernels (1: scalar code)

  // c (n x m) = a (n x d) * b (m x d)^T          scores = Q K^T
  void (*matmul_abt)(const float* a, const float* b, float* c, std::size_t n, std::size_t m,
                     std::size_t d) noexcept;
  // c (n x d) = w (n x m) * v (m x d)            output = weights V (c is overwritten)
  void (*matmul_ab)(const float* w, const float* v, float* c, std::size_t n, std::size_t m,
                    std::size_t d) noexcept;
  // sum_i x_i y_i                                (len)
  float (*dot)(const float* x, const float* y, std::size_t len) noexcept;
  // y += a * x                                   (len)
  void (*axpy)(float a, const float* x, float* y, std::size_t len) noexcept;
  // x *= factor                                  (len)
  void (*scale_in_place)(float factor, float* x, std::size_t len) noexcept;
  // max_i x_i; -inf when len == 0 or every x_i is -inf
  float (*max_value)(const float* x, std::size_t len) noexcept;
  // x_i <- exp(x_i - shift) for a finite shift; returns sum_i of the new x_i; exp(-inf) = 0
  float (*exp_shifted_sum)(float* x, std::size_t len, float shift) noexcept;
  // x (rows x cols) <- row softmax of x in place; -inf -> 0; a row of only -inf -> zeros
  void (*softmax_rows)(float* x, std::size_t rows, std::size_t cols) noexcept;
};

}  // namespace attn::kernels
