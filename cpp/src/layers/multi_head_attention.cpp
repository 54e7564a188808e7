// multi_head_attention.cpp — multi-head attention, its backward, and the
// key/value cache of decoding (formulas in multi_head_attention.hpp).
#include "layers/multi_head_attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/gemm.hpp"
#include "kernels/kernels.hpp"
#include "layers/linear.hpp"

namespace attn::layers {

using kernels::Accumulate;

namespace {

// Columns [first, first + width) of a rows x d matrix, times factor, as a contiguous rows x width block.
template <class T>
void gather_columns(const T* x, std::size_t rows, std::size_t d, std::size_t first, std::size_t width, T factor,
                    T* block) {
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < width; ++c) block[r * width + c] = factor * x[r * d + first + c];
}

// The same columns transposed: a width x rows block.
template <class T>
void gather_columns_transposed(const T* x, std::size_t rows, std::size_t d, std::size_t first, std::size_t width,
                               T* block) {
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < width; ++c) block[c * rows + r] = x[r * d + first + c];
}

// x[:, first:first+width] = block (Overwrite) or += factor * block (Add).
template <class T>
void scatter_columns(const T* block, std::size_t rows, std::size_t d, std::size_t first, std::size_t width, T factor,
                     Accumulate mode, T* x) {
  for (std::size_t r = 0; r < rows; ++r) {
    T* xr = x + r * d + first;
    const T* br = block + r * width;
    if (mode == Accumulate::Overwrite) {
      std::copy_n(br, width, xr);
    } else {
      kernels::axpy(factor, br, xr, width);
    }
  }
}

// S_ij = -inf where key j is masked for query i (causal: j > i + offset; padding: j >= length).
template <class T>
void mask_scores(T* s, std::size_t n, std::size_t m, bool causal, std::size_t offset, std::size_t length) {
  const T minus_infinity = -std::numeric_limits<T>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t visible = std::min(length, causal ? std::min(m, i + offset + 1) : m);  // keys [0, visible)
    std::fill(s + i * m + visible, s + (i + 1) * m, minus_infinity);
  }
}

// Row softmax in place; -inf -> 0, a row of only -inf -> zeros. float: the kernels'.
void softmax_in_place(float* s, std::size_t n, std::size_t m) { kernels::softmax_rows(s, n, m); }
void softmax_in_place(double* s, std::size_t n, std::size_t m) {
  for (std::size_t i = 0; i < n; ++i) {
    double* row = s + i * m;
    const double largest = *std::max_element(row, row + m);
    if (largest == -std::numeric_limits<double>::infinity()) {
      std::fill(row, row + m, 0.0);
      continue;
    }
    double sum = 0.0;
    for (std::size_t j = 0; j < m; ++j) sum += row[j] = std::exp(row[j] - largest);
    for (std::size_t j = 0; j < m; ++j) row[j] /= sum;
  }
}

// Everything the backward of the heads reads: Q, K, V and the output (values
// and gradients), P, the scratch, the heads' shape.
template <class T>
struct HeadsPass {
  Tensor<T> q, k, v, out;
  const T* p;
  T* scratch;  // scratch_size floats
  std::size_t heads, n, m;
  T scale;
  const unsigned char* ablated;

  static std::size_t scratch_size(std::size_t n, std::size_t m, std::size_t d_k) {
    return 3 * n * d_k + 2 * m * d_k + n * m + std::max(n, m) * d_k;
  }
};

template <class T>
void heads_backward(const HeadsPass<T>& pass) {
  const std::size_t n = pass.n, m = pass.m, d = pass.q.cols, d_k = d / pass.heads;
  T* const q_s = pass.scratch;    // s Q_bh      n x d_k
  T* const d_o = q_s + n * d_k;   // dO_bh       n x d_k
  T* const keys = d_o + n * d_k;  // K_bh        m x d_k
  T* const v_t = keys + m * d_k;  // V_bh^T      d_k x m
  T* const d_s = v_t + m * d_k;   // dP, then dS n x m
  T* const block = d_s + n * m;   // a head's dQ, dK or dV
  T *const dq = pass.q.grad, *const dk = pass.k.grad, *const dv = pass.v.grad;
  for (std::size_t b = 0; b < pass.q.rows / n; ++b) {
    const T* q_b = pass.q.value + b * n * d;
    const T* k_b = pass.k.value + b * m * d;
    const T* v_b = pass.v.value + b * m * d;
    for (std::size_t h = 0; h < pass.heads; ++h) {
      if (pass.ablated != nullptr && pass.ablated[h] != 0) continue;  // O_bh = 0 whatever Q, K, V
      const std::size_t first = h * d_k;
      const T* p = pass.p + (b * pass.heads + h) * n * m;
      gather_columns(pass.out.grad + b * n * d, n, d, first, d_k, T(1), d_o);
      gather_columns_transposed(v_b, m, d, first, d_k, v_t);
      // dP = dO V^T
      kernels::gemm_nn(d_o, v_t, d_s, n, d_k, m, Accumulate::Overwrite);
      // dS = P ⊙ (dP - rowsum(dP ⊙ P))
      for (std::size_t i = 0; i < n; ++i) {
        T* row = d_s + i * m;
        const T* p_row = p + i * m;
        T dot = 0;
        for (std::size_t j = 0; j < m; ++j) dot += row[j] * p_row[j];
        for (std::size_t j = 0; j < m; ++j) row[j] = p_row[j] * (row[j] - dot);
      }
      // dV += P^T dO
      if (dv != nullptr) {
        kernels::gemm_tn(p, d_o, block, m, n, d_k, Accumulate::Overwrite);
        scatter_columns(block, m, d, first, d_k, T(1), Accumulate::Add, dv + b * m * d);
      }
      // dQ += s dS K
      if (dq != nullptr) {
        gather_columns(k_b, m, d, first, d_k, T(1), keys);
        kernels::gemm_nn(d_s, keys, block, n, m, d_k, Accumulate::Overwrite);
        scatter_columns(block, n, d, first, d_k, pass.scale, Accumulate::Add, dq + b * n * d);
      }
      // dK += dS^T (s Q)
      if (dk != nullptr) {
        gather_columns(q_b, n, d, first, d_k, pass.scale, q_s);
        kernels::gemm_tn(d_s, q_s, block, m, n, d_k, Accumulate::Overwrite);
        scatter_columns(block, m, d, first, d_k, T(1), Accumulate::Add, dk + b * m * d);
      }
    }
  }
}

}  // namespace

template <class T>
AttentionResult<T> attend_heads(Graph<T>& g, Tensor<T> q, Tensor<T> k, Tensor<T> v, const AttentionOptions& options) {
  const std::size_t batch = options.batch, heads = options.heads, d = q.cols, d_k = d / heads;
  const std::size_t n = q.rows / batch, m = k.rows / batch;
  const T scale = options.scaled ? static_cast<T>(1.0 / std::sqrt(static_cast<double>(d_k))) : T(1);
  Tensor<T> out = g.tensor(q.rows, d);
  T* const p_all = g.memory(batch * heads * n * m);
  const std::size_t scratch_size = HeadsPass<T>::scratch_size(n, m, d_k);
  T* const scratch = g.memory(scratch_size);
  T* const q_s = scratch;             // s Q_bh   n x d_k
  T* const k_t = q_s + n * d_k;       // K_bh^T   d_k x m
  T* const values = k_t + m * d_k;    // V_bh     m x d_k
  T* const block = values + m * d_k;  // O_bh     n x d_k
  for (std::size_t b = 0; b < batch; ++b) {
    const std::size_t length = options.key_lengths ? static_cast<std::size_t>(std::max(0, options.key_lengths[b])) : m;
    for (std::size_t h = 0; h < heads; ++h) {
      const std::size_t first = h * d_k;
      T* const p = p_all + (b * heads + h) * n * m;
      // S = s Q K^T, masked; P = softmax(S)
      gather_columns(q.value + b * n * d, n, d, first, d_k, scale, q_s);
      gather_columns_transposed(k.value + b * m * d, m, d, first, d_k, k_t);
      kernels::gemm_nn(q_s, k_t, p, n, d_k, m, Accumulate::Overwrite);
      if (options.causal || length < m) mask_scores(p, n, m, options.causal, options.causal_offset, length);
      softmax_in_place(p, n, m);
      // O_bh = P V, or 0
      if (options.ablated != nullptr && options.ablated[h] != 0) {
        for (std::size_t i = 0; i < n; ++i) std::fill_n(out.value + (b * n + i) * d + first, d_k, T(0));
        continue;
      }
      gather_columns(v.value + b * m * d, m, d, first, d_k, T(1), values);
      kernels::gemm_nn(p, values, block, n, m, d_k, Accumulate::Overwrite);
      scatter_columns(block, n, d, first, d_k, T(1), Accumulate::Overwrite, out.value + b * n * d);
    }
  }
  const HeadsPass<T> pass{q, k, v, out, p_all, scratch, heads, n, m, scale, options.ablated};
  g.on_backward([=] { heads_backward(pass); });
  return {out, p_all, batch, heads, n, m};
}

template <class T>
AttentionResult<T> multi_head_attention(Graph<T>& g, Tensor<T> x_q, Tensor<T> x_kv, const AttentionWeights<T>& w,
                                        const AttentionOptions& options) {
  const Tensor<T> q = linear(g, x_q, w.w_q), k = linear(g, x_kv, w.w_k), v = linear(g, x_kv, w.w_v);
  AttentionResult<T> result = attend_heads(g, q, k, v, options);
  result.output = linear(g, result.output, w.w_o);
  return result;
}

template <class T>
void KeyValueCache<T>::reset(std::size_t capacity_rows, std::size_t width) {
  k.resize(capacity_rows * width);
  v.resize(capacity_rows * width);
  rows = 0, capacity = capacity_rows, d = width;
}

template <class T>
AttentionResult<T> cached_self_attention(Graph<T>& g, Tensor<T> x, const AttentionWeights<T>& w,
                                         KeyValueCache<T>& cache, AttentionOptions options) {
  // K, V rows of the new positions, appended
  const std::size_t before = cache.rows;
  kernels::gemm_nn(x.value, w.w_k.value, cache.k.data() + before * cache.d, x.rows, x.cols, cache.d,
                   Accumulate::Overwrite);
  kernels::gemm_nn(x.value, w.w_v.value, cache.v.data() + before * cache.d, x.rows, x.cols, cache.d,
                   Accumulate::Overwrite);
  cache.rows += x.rows;
  options.batch = 1;
  options.causal = true;
  options.causal_offset = before;  // new row i is position before + i
  options.key_lengths = nullptr;
  AttentionResult<T> result = attend_heads(g, linear(g, x, w.w_q), cache.keys(), cache.values(), options);
  result.output = linear(g, result.output, w.w_o);
  return result;
}

template <class T>
void fill_cache(Tensor<T> memory, const AttentionWeights<T>& w, KeyValueCache<T>& cache) {
  cache.reset(memory.rows, memory.cols);
  kernels::gemm_nn(memory.value, w.w_k.value, cache.k.data(), memory.rows, memory.cols, cache.d, Accumulate::Overwrite);
  kernels::gemm_nn(memory.value, w.w_v.value, cache.v.data(), memory.rows, memory.cols, cache.d, Accumulate::Overwrite);
  cache.rows = memory.rows;
}

template <class T>
AttentionResult<T> cached_cross_attention(Graph<T>& g, Tensor<T> x, const AttentionWeights<T>& w,
                                          KeyValueCache<T>& cache, AttentionOptions options) {
  options.batch = 1;
  options.causal = false;
  options.key_lengths = nullptr;
  AttentionResult<T> result = attend_heads(g, linear(g, x, w.w_q), cache.keys(), cache.values(), options);
  result.output = linear(g, result.output, w.w_o);
  return result;
}

#define ATTN_INSTANTIATE(T)                                                                                      \
  template AttentionResult<T> multi_head_attention(Graph<T>&, Tensor<T>, Tensor<T>, const AttentionWeights<T>&,  \
                                                   const AttentionOptions&);                                     \
  template AttentionResult<T> attend_heads(Graph<T>&, Tensor<T>, Tensor<T>, Tensor<T>, const AttentionOptions&); \
  template struct KeyValueCache<T>;                                                                              \
  template AttentionResult<T> cached_self_attention(Graph<T>&, Tensor<T>, const AttentionWeights<T>&,            \
                                                    KeyValueCache<T>&, AttentionOptions);                        \
  template void fill_cache(Tensor<T>, const AttentionWeights<T>&, KeyValueCache<T>&);                            \
  template AttentionResult<T> cached_cross_attention(Graph<T>&, Tensor<T>, const AttentionWeights<T>&,           \
                                                     KeyValueCache<T>&, AttentionOptions);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)
#undef ATTN_INSTANTIATE

}  // namespace attn::layers
