// scalar_kernels.cpp — the "scalar" kernel variant: plain float loops,
// whatever the compiler makes of them (float reductions stay sequential: the
// compiler may not reassociate them). Never chosen by the dispatcher; the
// baseline of the benchmarks and a second opinion in the tests.
#include <algorithm>
#include <cmath>
#include <limits>

#include "attn/kernels.hpp"
#include "softmax_steps.hpp"

namespace attn::kernels::scalar {

namespace {

float dot(const float* x, const float* y, std::size_t len) noexcept {
  float sum = 0.0f;
  for (std::size_t i = 0; i < len; ++i) sum += x[i] * y[i];
  return sum;
}

float max_sum_of_squares(const float* x, std::size_t rows, std::size_t cols) noexcept {
  float largest = 0.0f;
  for (std::size_t r = 0; r < rows; ++r) {
    const float sum = dot(x + r * cols, x + r * cols, cols);
    if (!std::isfinite(sum)) return std::numeric_limits<float>::infinity();
    largest = std::max(largest, sum);
  }
  return largest;
}

void axpy(float a, const float* x, float* y, std::size_t len) noexcept {
  for (std::size_t i = 0; i < len; ++i) y[i] += a * x[i];
}

float max_value(const float* x, std::size_t len) noexcept {
  float best = -std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < len; ++i) best = x[i] > best ? x[i] : best;
  return best;
}

float exp_shifted_sum(float* x, std::size_t len, float shift) noexcept {
  float sum = 0.0f;
  for (std::size_t i = 0; i < len; ++i) {
    x[i] = std::exp(x[i] - shift);
    sum += x[i];
  }
  return sum;
}

void scale_in_place(float factor, float* x, std::size_t len) noexcept {
  for (std::size_t i = 0; i < len; ++i) x[i] *= factor;
}

// c_ij = a_i . b_j
void matmul_abt(const float* a, const float* b, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) c[i * m + j] = dot(a + i * d, b + j * d, d);
}

// c_i = sum_j w(i, j) v_j (kAdd: c_i += that sum, formed from 0 first), w(i, j) =
// w[i * w_row + j * w_step]: w itself (m, 1) or w stored m x n, transposed (1, n)
template <bool kAdd>
void weighted_rows(const float* w, std::size_t w_row, std::size_t w_step, const float* v, float* c, std::size_t n,
                   std::size_t m, std::size_t d) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const float* w_i = w + i * w_row;
    float* c_row = c + i * d;
    if constexpr (kAdd) {
      for (std::size_t col = 0; col < d; ++col) {
        float sum = 0.0f;
        for (std::size_t j = 0; j < m; ++j) sum += w_i[j * w_step] * v[j * d + col];
        c_row[col] += sum;
      }
    } else {
      for (std::size_t col = 0; col < d; ++col) c_row[col] = 0.0f;
      for (std::size_t j = 0; j < m; ++j) axpy(w_i[j * w_step], v + j * d, c_row, d);
    }
  }
}

void matmul_ab(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  weighted_rows<false>(w, m, 1, v, c, n, m, d);
}
void matmul_ab_add(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  weighted_rows<true>(w, m, 1, v, c, n, m, d);
}
void matmul_atb(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  weighted_rows<false>(w, 1, n, v, c, n, m, d);
}
void matmul_atb_add(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept {
  weighted_rows<true>(w, 1, n, v, c, n, m, d);
}

void softmax_rows(float* x, std::size_t rows, std::size_t cols) noexcept {
  softmax_rows_by_steps(x, rows, cols, max_value, exp_shifted_sum, scale_in_place);
}

// The tiled path's block kernels (attn/kernels.hpp), as their formulas read.

void transpose_block(const float* q, std::size_t rows, std::size_t d_k, std::size_t rows_p, float* q_t) noexcept {
  for (std::size_t t = 0; t < d_k; ++t)
    for (std::size_t r = 0; r < rows_p; ++r) q_t[t * rows_p + r] = r < rows ? q[r * d_k + t] : 0.0f;
}

void untranspose_block(const float* o_t, const float* row_factor, std::size_t rows, std::size_t d_v, std::size_t rows_p,
                       float* out) noexcept {
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < d_v; ++j) out[r * d_v + j] = row_factor[r] * o_t[j * rows_p + r];
}

// s_t[c][r] = scale * sum_t k[c][t] q_t[t][r]
void block_scores(const float* k, const float* q_t, float* s_t, std::size_t cols, std::size_t rows_p,
                  std::size_t d_k, float scale, float* block_max) noexcept {
  for (std::size_t r = 0; r < rows_p; ++r) block_max[r] = -std::numeric_limits<float>::infinity();
  for (std::size_t c = 0; c < cols; ++c)
    for (std::size_t r = 0; r < rows_p; ++r) {
      float sum = 0.0f;
      for (std::size_t t = 0; t < d_k; ++t) sum += k[c * d_k + t] * q_t[t * rows_p + r];
      s_t[c * rows_p + r] = scale * sum;
      block_max[r] = std::max(block_max[r], s_t[c * rows_p + r]);
    }
}

void block_softmax(float* s_t, std::size_t cols, std::size_t rows_p, const float* block_max, float* running_max,
                   float* running_sum, float* correction) noexcept {
  for (std::size_t r = 0; r < rows_p; ++r) {
    float this_max = -std::numeric_limits<float>::infinity();
    if (block_max != nullptr) this_max = block_max[r];
    else for (std::size_t c = 0; c < cols; ++c) this_max = std::max(this_max, s_t[c * rows_p + r]);
    const float new_max = std::max(running_max[r], this_max);
    const float shift = new_max == -std::numeric_limits<float>::infinity() ? 0.0f : new_max;
    float sum = 0.0f;
    for (std::size_t c = 0; c < cols; ++c) sum += s_t[c * rows_p + r] = std::exp(s_t[c * rows_p + r] - shift);
    correction[r] = std::exp(running_max[r] - shift);
    running_sum[r] = correction[r] * running_sum[r] + sum;
    running_max[r] = new_max;
  }
}

// o_t[j][r] = correction[r] o_t[j][r] + sum_c v[c][j] p_t[c][r]
void block_accumulate(const float* v, const float* p_t, const float* correction, float* o_t, std::size_t cols,
                      std::size_t rows_p, std::size_t d_v) noexcept {
  for (std::size_t j = 0; j < d_v; ++j)
    for (std::size_t r = 0; r < rows_p; ++r) {
      float sum = 0.0f;
      for (std::size_t c = 0; c < cols; ++c) sum += v[c * d_v + j] * p_t[c * rows_p + r];
      o_t[j * rows_p + r] = correction[r] * o_t[j * rows_p + r] + sum;
    }
}

// s_t[c][r] <- exp(s_t[c][r] - shift[r])
void block_weights(float* s_t, std::size_t cols, std::size_t rows_p, const float* shift) noexcept {
  for (std::size_t c = 0; c < cols; ++c)
    for (std::size_t r = 0; r < rows_p; ++r) s_t[c * rows_p + r] = std::exp(s_t[c * rows_p + r] - shift[r]);
}

// ds_t[c][r] = p_t[c][r] (sum_t v[c][t] do_t[t][r] - d[r]) + 0
void block_score_gradients(const float* v, const float* do_t, const float* p_t, const float* d, float* ds_t,
                           std::size_t cols, std::size_t rows_p, std::size_t d_v) noexcept {
  for (std::size_t c = 0; c < cols; ++c)
    for (std::size_t r = 0; r < rows_p; ++r) {
      float sum = 0.0f;
      for (std::size_t t = 0; t < d_v; ++t) sum += v[c * d_v + t] * do_t[t * rows_p + r];
      ds_t[c * rows_p + r] = p_t[c * rows_p + r] * (sum - d[r]) + 0.0f;
    }
}

}  // namespace

extern const KernelTable kernel_table;
const KernelTable kernel_table = {"scalar", 1, matmul_abt, matmul_ab, matmul_ab_add, matmul_atb, matmul_atb_add, dot, max_sum_of_squares, axpy, scale_in_place, max_value, exp_shifted_sum,
                                  softmax_rows, 64, 64, transpose_block, untranspose_block, block_scores, block_softmax,
                                  block_accumulate, block_weights, block_score_gradients};

}  // namespace attn::kernels::scalar
