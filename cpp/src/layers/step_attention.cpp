// step_attention.cpp — the scores, softmax and context of one recurrent
// decoder step, each with its backward (step_attention.hpp).
#include "layers/step_attention.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "kernels/kernels.hpp"
#include "layers/fast_tanh.hpp"

namespace attn::layers {

namespace {

// Σ_i a_i b_i and y += alpha x: in float the SIMD kernels of the active
// variant (several accumulators: a plain float sum loop is never vectorised),
// in double plain loops.
template <class T>
T dot_of(const T* a, const T* b, std::size_t n) {
  if constexpr (std::is_same_v<T, float>) {
    return kernels::dot(a, b, n);
  } else {
    T sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += a[i] * b[i];
    return sum;
  }
}

template <class T>
void axpy_of(T alpha, const T* x, T* y, std::size_t n) {
  if constexpr (std::is_same_v<T, float>) {
    kernels::axpy(alpha, x, y, n);
  } else {
    for (std::size_t i = 0; i < n; ++i) y[i] += alpha * x[i];
  }
}

// t = tanh(q + k), one (b, j) pair of the additive score.
template <class T>
void additive_row(const T* __restrict q, const T* __restrict k, T* __restrict t, std::size_t d) {
  for (std::size_t c = 0; c < d; ++c) t[c] = tanh_value(q[c] + k[c]);
}

// u = de v ⊙ (1 - t²): dq += u, dk += u (when wanted), dv += de t.
template <class T>
void additive_row_backward(T de, const T* __restrict v, const T* __restrict t, T* __restrict dq, T* __restrict dk,
                           T* __restrict dv, std::size_t d) {
  for (std::size_t c = 0; c < d; ++c) {
    const T u = de * v[c] * (T(1) - t[c] * t[c]);
    dq[c] += u;
    dk[c] += u;
    dv[c] += de * t[c];
  }
}

}  // namespace

template <class T>
Tensor<T> step_dot_scores(Graph<T>& g, Tensor<T> q, Tensor<T> keys, std::size_t length, T scale) {
  const std::size_t batch = q.rows, d = q.cols;
  Tensor<T> e = g.tensor(batch, length);
  // e_bj = scale q_b · k_bj
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t j = 0; j < length; ++j) e.row(b)[j] = scale * dot_of(q.row(b), keys.row(b * length + j), d);
  g.on_backward([=] {
    // dq_b += scale Σ_j de_bj k_bj;  dk_bj += scale de_bj q_b
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t j = 0; j < length; ++j) {
        const T de = scale * e.grad_row(b)[j];
        if (q.grad) axpy_of(de, keys.row(b * length + j), q.grad_row(b), d);
        if (keys.grad) axpy_of(de, q.row(b), keys.grad_row(b * length + j), d);
      }
  });
  return e;
}

template <class T>
Tensor<T> step_additive_scores(Graph<T>& g, Tensor<T> q, Tensor<T> keys, Tensor<T> v, std::size_t length) {
  const std::size_t batch = q.rows, d = q.cols;
  Tensor<T> e = g.tensor(batch, length);
  T* t = g.memory(batch * length * d);  // tanh(q_b + k_bj), kept for the backward
  // e_bj = v · tanh(q_b + k_bj)
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t j = 0; j < length; ++j) {
      T* tj = t + (b * length + j) * d;
      additive_row(q.row(b), keys.row(b * length + j), tj, d);
      e.row(b)[j] = dot_of(v.value, tj, d);
    }
  if (!g.recording()) return e;
  // The gradients of q, keys and v: those not wanted go into scratch.
  T* scratch = g.memory(3 * d);
  g.on_backward([=] {
    std::fill_n(scratch, 3 * d, T(0));
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t j = 0; j < length; ++j) {
        T* dq = q.grad ? q.grad_row(b) : scratch;
        T* dk = keys.grad ? keys.grad_row(b * length + j) : scratch + d;
        T* dv = v.grad ? v.grad : scratch + 2 * d;
        additive_row_backward(e.grad_row(b)[j], v.value, t + (b * length + j) * d, dq, dk, dv, d);
      }
  });
  return e;
}

template <class T>
Tensor<T> step_softmax(Graph<T>& g, Tensor<T> e, std::span<const std::int32_t> lengths) {
  const std::size_t batch = e.rows, length = e.cols;
  Tensor<T> a = g.tensor(batch, length);
  const std::int32_t* length_of = lengths.data();
  for (std::size_t b = 0; b < batch; ++b) {
    const std::size_t real = static_cast<std::size_t>(length_of[b]);
    const T* eb = e.row(b);
    T* ab = a.row(b);
    std::fill(ab + real, ab + length, T(0));  // the padding: exactly 0
    if (real == 0) continue;
    const T m = *std::max_element(eb, eb + real);
    T sum = 0;
    for (std::size_t j = 0; j < real; ++j) sum += ab[j] = std::exp(eb[j] - m);
    for (std::size_t j = 0; j < real; ++j) ab[j] /= sum;
  }
  g.on_backward([=] {
    if (e.grad == nullptr) return;
    // de_bj += a_bj (da_bj - Σ_i a_bi da_bi)
    for (std::size_t b = 0; b < batch; ++b) {
      const std::size_t real = static_cast<std::size_t>(length_of[b]);
      const T* ab = a.row(b);
      const T* da = a.grad_row(b);
      T dot = 0;
      for (std::size_t j = 0; j < real; ++j) dot += ab[j] * da[j];
      for (std::size_t j = 0; j < real; ++j) e.grad_row(b)[j] += ab[j] * (da[j] - dot);
    }
  });
  return a;
}

template <class T>
Tensor<T> step_context(Graph<T>& g, Tensor<T> a, Tensor<T> values) {
  const std::size_t batch = a.rows, length = a.cols, d = values.cols;
  Tensor<T> c = g.tensor(batch, d);
  // c_b = Σ_j a_bj v_bj
  for (std::size_t b = 0; b < batch; ++b) {
    std::fill_n(c.row(b), d, T(0));
    for (std::size_t j = 0; j < length; ++j) axpy_of(a.row(b)[j], values.row(b * length + j), c.row(b), d);
  }
  g.on_backward([=] {
    // da_bj += dc_b · v_bj;  dv_bj += a_bj dc_b
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t j = 0; j < length; ++j) {
        if (a.grad) a.grad_row(b)[j] += dot_of(c.grad_row(b), values.row(b * length + j), d);
        if (values.grad) axpy_of(a.row(b)[j], c.grad_row(b), values.grad_row(b * length + j), d);
      }
  });
  return c;
}

#define ATTN_INSTANTIATE(T)                                                                           \
  template Tensor<T> step_dot_scores(Graph<T>&, Tensor<T>, Tensor<T>, std::size_t, T);                \
  template Tensor<T> step_additive_scores(Graph<T>&, Tensor<T>, Tensor<T>, Tensor<T>, std::size_t);   \
  template Tensor<T> step_softmax(Graph<T>&, Tensor<T>, std::span<const std::int32_t>);               \
  template Tensor<T> step_context(Graph<T>&, Tensor<T>, Tensor<T>);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)
#undef ATTN_INSTANTIATE

}  // namespace attn::layers
