// layer_passes.cpp — embedding, linear read-out and softmax cross-entropy,
// forward and backward, on the SIMD kernels. Formulas in attn/layers.hpp.
#include "layer_passes.hpp"

#include <algorithm>

#include "kernels/kernels.hpp"
#include "attn/random.hpp"
#include "attn/testing.hpp"  // detail::portable_log
#include "kernels/matrix_ops.hpp"

namespace attn::detail {

void embed_into(const float* table, const std::int32_t* tokens, std::size_t count, const float* pe,
                std::size_t length, std::size_t d, float* x) noexcept {
  for (std::size_t i = 0; i < count; ++i) {
    // X_i = E[t_i] + PE[i mod length]
    const float* e = table + static_cast<std::size_t>(tokens[i]) * d;
    const float* p = pe + (i % length) * d;
    for (std::size_t c = 0; c < d; ++c) x[i * d + c] = e[c] + p[c];
  }
}

void embed_backward_into(const std::int32_t* tokens, std::size_t count, const float* grad_x, std::size_t vocabulary,
                         std::size_t d, float* grad_table) noexcept {
  std::fill(grad_table, grad_table + vocabulary * d, 0.0f);
  // dE[t_i] += dX_i, in the order of i (the same sum in every build)
  for (std::size_t i = 0; i < count; ++i) {
    add_in_place(grad_x + i * d, grad_table + static_cast<std::size_t>(tokens[i]) * d, d);
  }
}

void linear_into(const float* x, const float* w, const float* b, std::size_t rows, std::size_t d_in,
                 std::size_t d_out, float* y) noexcept {
  kernels::matmul_abt(x, w, y, rows, d_out, d_in);  // Y = X W^T (dot products of length d_in)
  for (std::size_t r = 0; r < rows; ++r) add_in_place(b, y + r * d_out, d_out);  // + b
}

void linear_backward_into(const float* x, const float* w, const float* grad_y, std::size_t rows, std::size_t d_in,
                          std::size_t d_out, float* grad_x, float* grad_w, float* grad_b, float* scratch) noexcept {
  matmul_atb(grad_y, x, grad_w, rows, d_out, d_in, scratch);  // dW = dY^T X
  std::fill(grad_b, grad_b + d_out, 0.0f);                     // db = sum_i dY_i
  for (std::size_t r = 0; r < rows; ++r) add_in_place(grad_y + r * d_out, grad_b, d_out);
  if (grad_x) kernels::matmul_ab(grad_y, w, grad_x, rows, d_out, d_in);  // dX = dY W
}

double softmax_cross_entropy_into(const float* logits, const std::int32_t* targets, std::size_t rows,
                                  std::size_t classes, float* grad_logits, float* scratch) noexcept {
  // g_rc = exp(Z_rc - mx_r), l_r = sum_c g_rc >= 1 (logits are finite)
  float* row_max = scratch;
  float* row_sum = scratch + rows;
  std::copy_n(logits, rows * classes, grad_logits);
  row_exponentials(grad_logits, rows, classes, row_max, row_sum);
  // L_r = logsumexp(Z_r) - Z_r[y_r] = mx_r + ln(l_r) - Z_r[y_r];
  // dZ_r = (softmax(Z_r) - onehot(y_r)) / rows
  double total = 0.0;
  const float inverse_rows = 1.0f / static_cast<float>(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const auto target = static_cast<std::size_t>(targets[r]);
    total += static_cast<double>(row_max[r]) + portable_log(row_sum[r]) -
             static_cast<double>(logits[r * classes + target]);
    float* g = grad_logits + r * classes;
    kernels::scale_in_place(inverse_rows / row_sum[r], g, classes);
    g[target] -= inverse_rows;
  }
  return total / static_cast<double>(rows);
}

}  // namespace attn::detail
