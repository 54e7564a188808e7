// matrix_ops.hpp (internal) — the matrix products the backward passes need
// beyond the kernels' A B and A B^T: A^T B (through a transpose into a scratch
// buffer, then kernels::matmul_ab), and small helpers on row-major
// matrices. No validation: callers have checked shapes.
#pragma once

#include <cstddef>

namespace attn::detail {

// at (cols x rows) = a^T, a rows x cols whose rows are `stride` floats apart
// (stride >= cols). In blocks, so that both the reads and the writes stay in
// cache for large matrices.
void transpose(const float* a, std::size_t rows, std::size_t cols, std::size_t stride, float* at) noexcept;
inline void transpose(const float* a, std::size_t rows, std::size_t cols, float* at) noexcept {
  transpose(a, rows, cols, cols, at);
}

// c (n x d) = a^T b, a k x n, b k x d: by blocks of 64 columns of a, each
// transposed into `scratch` (64 x k, stays in cache) and multiplied by b with
// the kernels' matmul_ab. Never writes the whole a^T (for the full backward
// pass, an n x m matrix less).
void matmul_atb(const float* a, const float* b, float* c, std::size_t k, std::size_t n, std::size_t d,
                float* scratch) noexcept;
// Floats of scratch matmul_atb needs: min(n, 64) * k.
std::size_t matmul_atb_scratch_floats(std::size_t k, std::size_t n) noexcept;

// c (n x m) = a b^T, a n x d, b m x d, by the kernel that suits the shape:
// when a row of c fills at least one vector (m >= kSimdWidth), as a (b^T) with
// b^T (d x m) in `scratch` (d*m floats): the kernels' matmul_ab broadcasts a's
// entries over rows of b^T, where matmul_abt takes m dot products of length d
// and a horizontal sum for each, which costs more when d is short (a head's
// d_k, a d_model of 32). Shorter rows: matmul_abt, whose dot products fill
// whole vectors where c's rows would not.
void product_abt(const float* a, const float* b, float* c, std::size_t n, std::size_t m, std::size_t d,
                             float* scratch) noexcept;

// Each row of x (rows x cols) becomes exp(x_rj - max_j x_rj); row_max[r] and
// row_sum[r] receive the max and the sum of the exponentials. A row of only
// -inf gets max -inf, zeros, sum 0. Long rows go through the kernels row by
// row; short rows (a head's few keys, a small vocabulary) have their max
// subtracted first and then one sweep of the vector exp over the whole matrix,
// since each short row alone would end in a partial vector. Sums in float,
// in a fixed order.
void row_exponentials(float* x, std::size_t rows, std::size_t cols, float* row_max, float* row_sum) noexcept;

// x (rows x cols) <- row softmax of x: row_exponentials, then each row divided
// by its sum; -inf -> 0; a row of only -inf -> zeros. `scratch`: 2 rows floats.
void softmax_rows_any_length(float* x, std::size_t rows, std::size_t cols, float* scratch) noexcept;

// y (len) += x (len)
void add_in_place(const float* x, float* y, std::size_t len) noexcept;

// The columns [first, first + width) of a rows x cols matrix, copied into a
// contiguous rows x width matrix, and back.
void copy_columns(const float* matrix, std::size_t rows, std::size_t cols, std::size_t first, std::size_t width,
                  float* slice) noexcept;
void copy_into_columns(const float* slice, std::size_t rows, std::size_t cols, std::size_t first, std::size_t width,
                       float* matrix) noexcept;
// matrix[:, first:first+width] += slice
void add_into_columns(const float* slice, std::size_t rows, std::size_t cols, std::size_t first, std::size_t width,
                      float* matrix) noexcept;

}  // namespace attn::detail
