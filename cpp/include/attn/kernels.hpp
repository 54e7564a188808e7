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
  // c (n x d) += w (n x m) * v (m x d)           the tiled backward's dV_j and dK_j (each entry: c + its sum from 0)
  void (*matmul_ab_add)(const float* w, const float* v, float* c, std::size_t n, std::size_t m,
                        std::size_t d) noexcept;
  // c (n x d) = w^T v, w stored m x n, v (m x d) a weight's gradient X^T dY: matmul_ab with w read down its
  //                                              columns (no transposed copy); _add: c += w^T v, as matmul_ab_add
  void (*matmul_atb)(const float* w, const float* v, float* c, std::size_t n, std::size_t m, std::size_t d) noexcept;
  void (*matmul_atb_add)(const float* w, const float* v, float* c, std::size_t n, std::size_t m,
                         std::size_t d) noexcept;
  // sum_i x_i y_i                                (len)
  float (*dot)(const float* x, const float* y, std::size_t len) noexcept;
  // max_r sum_c x_rc^2 over the rows of x (rows x cols); +inf if any row's sum is not finite
  // (an element NaN or infinite, or squares beyond the float range)
  float (*max_sum_of_squares)(const float* x, std::size_t rows, std::size_t cols) noexcept;
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

  // ---- the tiled path's block kernels (src/attention/tiled.cpp) ----
  // One block of queries against one block of keys: FlashAttention's inner
  // step, with the query block transposed. Its rows_p query rows (the block's
  // rows, padded to a multiple of `lanes`) run along the vector lanes, so every
  // quantity of a query row (running max, running sum, correction) is one lane
  // of a vector, and nothing is reduced across lanes. Layouts (row-major):
  //   q_t  d_k x rows_p    Q_i^T          s_t  cols x rows_p   S_ij^T, then P_ij^T
  //   o_t  d_v x rows_p    O_i^T (unnormalised), and running_max, running_sum, correction: rows_p each
  //   k    cols x d_k      K_j            v    cols x d_v      V_j
  std::size_t block_queries, block_keys;  // the B_r x B_c this variant runs fastest with (measured)

  // q_t = Q_i^T, padded:  q_t[t*rows_p + r] = q[r*d_k + t] for r < rows, 0 for rows <= r < rows_p
  void (*transpose_block)(const float* q, std::size_t rows, std::size_t d_k, std::size_t rows_p, float* q_t) noexcept;
  // out = diag(row_factor) O_i:  out[r*d_v + j] = row_factor[r] * o_t[j*rows_p + r] for r < rows, j < d_v
  void (*untranspose_block)(const float* o_t, const float* row_factor, std::size_t rows, std::size_t d_v,
                            std::size_t rows_p, float* out) noexcept;
  // s_t = scale K_j Q_i^T:  s_t[c*rows_p + r] = scale * sum_t k[c*d_k + t] q_t[t*rows_p + r],
  // and block_max[r] = max_c s_t[c][r]
  void (*block_scores)(const float* k, const float* q_t, float* s_t, std::size_t cols, std::size_t rows_p,
                       std::size_t d_k, float scale, float* block_max) noexcept;
  // The online softmax on the scaled scores S_ij^T, for every row r < rows_p, with block_max from
  // block_scores, or null (after a mask changed s_t: then computed here):
  //   m_new = max(m_r, max_c s_t[c][r]);  shift = m_new, or 0 where m_new = -inf
  //   s_t[c][r] <- exp(s_t[c][r] - shift)     (P_ij^T; exactly 0 where s = -inf)
  //   correction_r = exp(m_r - shift);  l_r <- correction_r * l_r + sum_c s_t[c][r];  m_r <- m_new
  // running_max holds m_r, -inf before any key is seen.
  void (*block_softmax)(float* s_t, std::size_t cols, std::size_t rows_p, const float* block_max, float* running_max,
                        float* running_sum, float* correction) noexcept;
  // o_t = o_t diag(correction) + V_j^T P_ij^T:
  //   o_t[j*rows_p + r] = correction[r] * o_t[j*rows_p + r] + sum_c v[c*d_v + j] p_t[c*rows_p + r]
  void (*block_accumulate)(const float* v, const float* p_t, const float* correction, float* o_t, std::size_t cols,
                           std::size_t rows_p, std::size_t d_v) noexcept;
  // The weights of a block from the rows' log-sum-exp (the tiled backward,
  // src/attention/attention_backward_tiled.cpp): P_ij^T = exp(S_ij^T - L_i),
  //   s_t[c*rows_p + r] <- exp(s_t[c*rows_p + r] - shift[r])
  // for shift[r] >= max_c s_t[c][r] - 1, or +inf (a row without weights: exactly 0, as where s = -inf).
  void (*block_weights)(float* s_t, std::size_t cols, std::size_t rows_p, const float* shift) noexcept;
  // The gradient of the block's scores (the tiled backward): dS_ij^T = P_ij^T (V_j dO_i^T - D_i),
  //   ds_t[c*rows_p + r] = p_t[c*rows_p + r] * (sum_t v[c*d_v + t] do_t[t*rows_p + r] - d[r]) + 0
  // (the product is the one of block_scores; + 0 makes a -0 where p = 0 a +0).
  void (*block_score_gradients)(const float* v, const float* do_t, const float* p_t, const float* d, float* ds_t,
                                std::size_t cols, std::size_t rows_p, std::size_t d_v) noexcept;
};

}  // namespace attn::kernels
