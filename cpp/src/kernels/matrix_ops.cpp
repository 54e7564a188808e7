// matrix_ops.cpp — A^T B, transposes and column slices for the backward passes.
#include "matrix_ops.hpp"

#include <algorithm>
#include <limits>

#include "kernels/kernels.hpp"

namespace attn::detail {

namespace {

constexpr std::size_t kColumnBlock = 64;  // columns of a per block of matmul_atb

}  // namespace

// 16 x 16 blocks, each written row by row of at: with rows a power of two
// apart (16 KiB for 4096 floats) a larger block would map more lines to one
// cache set than it has ways (measured at 4096 x 4096: 32 x 32 61 ms, 16 x 16
// column-major 44 ms).
void transpose(const float* a, std::size_t rows, std::size_t cols, std::size_t stride, float* at) noexcept {
  constexpr std::size_t kBlock = 16;
  for (std::size_t c0 = 0; c0 < cols; c0 += kBlock) {
    const std::size_t c1 = std::min(cols, c0 + kBlock);
    for (std::size_t r0 = 0; r0 < rows; r0 += kBlock) {
      const std::size_t r1 = std::min(rows, r0 + kBlock);
      for (std::size_t c = c0; c < c1; ++c)
        for (std::size_t r = r0; r < r1; ++r) at[c * rows + r] = a[r * stride + c];
    }
  }
}

// a^T b, 64 columns of a (64 rows of c) at a time: c[c0:c0+64] = (a[:, c0:c0+64])^T b
void matmul_atb(const float* a, const float* b, float* c, std::size_t k, std::size_t n, std::size_t d,
                float* scratch) noexcept {
  for (std::size_t c0 = 0; c0 < n; c0 += kColumnBlock) {
    const std::size_t width = std::min(kColumnBlock, n - c0);
    transpose(a + c0, k, width, n, scratch);
    kernels::matmul_ab(scratch, b, c + c0 * d, width, k, d);
  }
}

std::size_t matmul_atb_scratch_floats(std::size_t k, std::size_t n) noexcept { return std::min(n, kColumnBlock) * k; }

void product_abt(const float* a, const float* b, float* c, std::size_t n, std::size_t m, std::size_t d,
                 float* scratch) noexcept {
  if (m < kernels::active().lanes) {
    kernels::matmul_abt(a, b, c, n, m, d);
    return;
  }
  transpose(b, m, d, scratch);
  kernels::matmul_ab(a, scratch, c, n, d, m);
}

void row_exponentials(float* x, std::size_t rows, std::size_t cols, float* row_max, float* row_sum) noexcept {
  constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();
  if (cols >= 4 * kernels::active().lanes) {  // long rows: the kernels, row by row
    for (std::size_t r = 0; r < rows; ++r) {
      float* row = x + r * cols;
      row_max[r] = kernels::max_value(row, cols);
      if (row_max[r] == kMinusInfinity) {
        std::fill(row, row + cols, 0.0f);
        row_sum[r] = 0.0f;
        continue;
      }
      row_sum[r] = kernels::exp_shifted_sum(row, cols, row_max[r]);
    }
    return;
  }
  // short rows: x_rj - max_r (a row of only -inf stays -inf), one exp sweep, the sums
  for (std::size_t r = 0; r < rows; ++r) {
    float* row = x + r * cols;
    row_max[r] = *std::max_element(row, row + cols);
    if (row_max[r] == kMinusInfinity) continue;
    for (std::size_t c = 0; c < cols; ++c) row[c] -= row_max[r];
  }
  kernels::exp_shifted_sum(x, rows * cols, 0.0f);  // exp(-inf) = 0
  for (std::size_t r = 0; r < rows; ++r) {
    float sum = 0.0f;
    for (std::size_t c = 0; c < cols; ++c) sum += x[r * cols + c];
    row_sum[r] = sum;
  }
}

void softmax_rows_any_length(float* x, std::size_t rows, std::size_t cols, float* scratch) noexcept {
  float* row_max = scratch;
  float* row_sum = scratch + rows;
  row_exponentials(x, rows, cols, row_max, row_sum);
  for (std::size_t r = 0; r < rows; ++r) {
    if (row_sum[r] > 0.0f) kernels::scale_in_place(1.0f / row_sum[r], x + r * cols, cols);  // else zeros
  }
}

void add_in_place(const float* x, float* y, std::size_t len) noexcept { kernels::axpy(1.0f, x, y, len); }

void copy_columns(const float* matrix, std::size_t rows, std::size_t cols, std::size_t first, std::size_t width,
                  float* slice) noexcept {
  for (std::size_t r = 0; r < rows; ++r) std::copy_n(matrix + r * cols + first, width, slice + r * width);
}

void copy_into_columns(const float* slice, std::size_t rows, std::size_t cols, std::size_t first, std::size_t width,
                       float* matrix) noexcept {
  for (std::size_t r = 0; r < rows; ++r) std::copy_n(slice + r * width, width, matrix + r * cols + first);
}

}  // namespace attn::detail

namespace attn::detail {

void add_into_columns(const float* slice, std::size_t rows, std::size_t cols, std::size_t first, std::size_t width,
                      float* matrix) noexcept {
  for (std::size_t r = 0; r < rows; ++r) add_in_place(slice + r * width, matrix + r * cols + first, width);
}

}  // namespace attn::detail
