// gru.cpp — the GRU step and the unrolled sequence, each with its backward (gru.hpp).
#include "layers/gru.hpp"

#include <algorithm>
#include <cstring>

#include "kernels/gemm.hpp"
#include "layers/fast_tanh.hpp"

namespace attn::layers {

using kernels::Accumulate;

namespace {

// hh = h W_h + b_h   (B x 3H)
template <class T>
void hidden_gates(const T* h, const GruWeights<T>& w, T* hh, std::size_t batch) {
  const std::size_t hidden = w.w_hidden.rows, width = 3 * hidden;
  kernels::gemm_nn(h, w.w_hidden.value, hh, batch, hidden, width, Accumulate::Overwrite);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t c = 0; c < width; ++c) hh[b * width + c] += w.b_hidden.value[c];
}

// One row of the step: the gates r, z, n and h' from the input part x, the
// hidden part y = h W_h + b_h and h. (Each pointer __restrict, distinct
// memory, so that the compiler vectorises the loop.)
template <class T>
void row_forward(const T* __restrict x, const T* __restrict y, const T* __restrict h, T* __restrict r,
                 T* __restrict z, T* __restrict n, T* __restrict out, std::size_t hidden) {
  for (std::size_t c = 0; c < hidden; ++c) {
    r[c] = sigmoid_value(x[c] + y[c]);                                // r = σ(x W_ir + b_ir + h W_hr + b_hr)
    z[c] = sigmoid_value(x[hidden + c] + y[hidden + c]);              // z = σ(x W_iz + b_iz + h W_hz + b_hz)
    n[c] = tanh_value(x[2 * hidden + c] + r[c] * y[2 * hidden + c]);  // n = tanh(x W_in + b_in + r ⊙ (h W_hn + b_hn))
    out[c] = (T(1) - z[c]) * n[c] + z[c] * h[c];                      // h' = (1 - z) ⊙ n + z ⊙ h
  }
}

// One row of the backward from dh' (dout): dy = [da_r | da_z | da_n] (the input
// part's gradient; the caller multiplies the last block by r for the hidden part).
template <class T>
void row_backward(const T* __restrict r, const T* __restrict z, const T* __restrict n, const T* __restrict y,
                  const T* __restrict h, const T* __restrict dout, T* __restrict dy, std::size_t hidden) {
  for (std::size_t c = 0; c < hidden; ++c) {
    const T da_n = dout[c] * (T(1) - z[c]) * (T(1) - n[c] * n[c]);     // dn (1 - n²), dn = dh' (1 - z)
    dy[c] = da_n * y[2 * hidden + c] * r[c] * (T(1) - r[c]);           // da_r = (da_n ⊙ hh_n) r (1 - r)
    dy[hidden + c] = dout[c] * (h[c] - n[c]) * z[c] * (T(1) - z[c]);   // da_z = dz z (1 - z), dz = dh' (h - n)
    dy[2 * hidden + c] = da_n;
  }
}

// The step for B rows. gx row b at gx + b * gx_stride; hh, gates (r | z | n,
// saved for the backward) B x 3H; h, h_new B x H. A row that is not active(b)
// keeps its state: h_new = h.
template <class T, class Active>
void cell_forward(const T* gx, std::size_t gx_stride, const T* hh, const T* h, T* gates, T* h_new, std::size_t batch,
                  std::size_t hidden, Active active) {
  const std::size_t width = 3 * hidden;
  for (std::size_t b = 0; b < batch; ++b) {
    if (!active(b)) {
      std::copy_n(h + b * hidden, hidden, h_new + b * hidden);
      continue;
    }
    T* r = gates + b * width;
    row_forward(gx + b * gx_stride, hh + b * width, h + b * hidden, r, r + hidden, r + 2 * hidden,
                h_new + b * hidden, hidden);
  }
}

// From dh_new (B x H): dgx += [da_r | da_z | da_n] (rows at dgx + b * gx_stride,
// skipped when dgx is null), dhh = [da_r | da_z | da_n ⊙ r] (overwritten; 0 for
// a row that is not active), dh += dh' ⊙ z (or dh' for a row not active; skipped
// when dh is null). The caller adds dhh W_h^T to dh.
template <class T, class Active>
void cell_backward(const T* gates, const T* hh, const T* h, const T* dh_new, T* dgx, std::size_t gx_stride, T* dhh,
                   T* dh, std::size_t batch, std::size_t hidden, Active active) {
  const std::size_t width = 3 * hidden;
  for (std::size_t b = 0; b < batch; ++b) {
    const T* dout = dh_new + b * hidden;
    T* dy = dhh + b * width;
    T* dhb = dh ? dh + b * hidden : nullptr;
    if (!active(b)) {
      std::fill_n(dy, width, T(0));
      if (dhb)
        for (std::size_t c = 0; c < hidden; ++c) dhb[c] += dout[c];
      continue;
    }
    const T* r = gates + b * width;
    const T* z = r + hidden;
    row_backward(r, z, z + hidden, hh + b * width, h + b * hidden, dout, dy, hidden);
    if (dgx)
      for (std::size_t c = 0; c < width; ++c) dgx[b * gx_stride + c] += dy[c];
    for (std::size_t c = 0; c < hidden; ++c) dy[2 * hidden + c] *= r[c];
    if (dhb)
      for (std::size_t c = 0; c < hidden; ++c) dhb[c] += dout[c] * z[c];
  }
}

// The recurrence's share of the parameter gradients, over `rows` (state, dhh)
// pairs stacked: dW_h += h^T dhh, db_h += Σ_rows dhh.
template <class T>
void hidden_weight_gradients(const T* h, const T* dhh, std::size_t rows, const GruWeights<T>& w) {
  const std::size_t hidden = w.w_hidden.rows, width = 3 * hidden;
  if (w.w_hidden.grad) kernels::gemm_tn(h, dhh, w.w_hidden.grad, hidden, rows, width, Accumulate::Add);
  if (w.b_hidden.grad)
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < width; ++c) w.b_hidden.grad[c] += dhh[r * width + c];
}

}  // namespace

template <class T>
Tensor<T> gru_cell(Graph<T>& g, Tensor<T> gx, Tensor<T> h, const GruWeights<T>& w) {
  const std::size_t batch = h.rows, hidden = h.cols, width = 3 * hidden;
  T* hh = g.memory(batch * width);
  T* gates = g.memory(batch * width);
  Tensor<T> h_new = g.tensor(batch, hidden);
  hidden_gates(h.value, w, hh, batch);
  const auto every_row = [](std::size_t) { return true; };
  cell_forward(gx.value, width, hh, h.value, gates, h_new.value, batch, hidden, every_row);
  if (!g.recording()) return h_new;
  T* dhh = g.memory(batch * width);
  g.on_backward([=] {
    cell_backward(gates, hh, h.value, h_new.grad, gx.grad, width, dhh, h.grad, batch, hidden, every_row);
    if (h.grad) kernels::gemm_nt(dhh, w.w_hidden.value, h.grad, batch, width, hidden, Accumulate::Add);
    hidden_weight_gradients(h.value, dhh, batch, w);
  });
  return h_new;
}

template <class T>
GruSequence<T> gru_sequence(Graph<T>& g, Tensor<T> x, std::span<const std::int32_t> lengths, std::size_t length,
                            const GruWeights<T>& w, Direction direction) {
  const std::size_t batch = lengths.size(), hidden = w.w_hidden.rows, width = 3 * hidden, steps = length;
  const std::size_t block = batch * hidden;  // one step's states
  const Tensor<T> gx = gru_input(g, x, w);  // B*S x 3H in one product
  const GruSequence<T> out{g.tensor(batch * steps, hidden), g.tensor(batch, hidden)};
  // The recurrence runs time-major so that each step's product reads B contiguous rows:
  // h_time[k] (B x H) is the state before step k, h_time[0] = 0.
  T* h_time = g.memory((steps + 1) * block);
  T* hh_all = g.memory(steps * batch * width);
  T* gates_all = g.memory(steps * batch * width);
  std::fill_n(h_time, block, T(0));
  const std::int32_t* length_of = lengths.data();
  const auto position_of = [=](std::size_t k) { return direction == Direction::Forward ? k : steps - 1 - k; };
  for (std::size_t k = 0; k < steps; ++k) {
    const std::size_t p = position_of(k);
    const auto real = [=](std::size_t b) { return p < static_cast<std::size_t>(length_of[b]); };
    T* hh = hh_all + k * batch * width;
    hidden_gates(h_time + k * block, w, hh, batch);
    cell_forward(gx.value + p * width, steps * width, hh, h_time + k * block, gates_all + k * batch * width,
                 h_time + (k + 1) * block, batch, hidden, real);
    for (std::size_t b = 0; b < batch; ++b)
      std::copy_n(h_time + (k + 1) * block + b * hidden, hidden, out.states.row(b * steps + p));
  }
  std::copy_n(h_time + steps * block, block, out.final.value);
  if (!g.recording()) return out;
  T* dh_time = g.memory((steps + 1) * block);  // dL/d h_time[k]
  T* dhh_all = g.memory(steps * batch * width);
  T* w_hidden_t = g.memory(width * hidden);  // W_h^T, made once for every step's dhh W_h^T
  g.on_backward([=] {
    for (std::size_t i = 0; i < hidden; ++i)
      for (std::size_t j = 0; j < width; ++j) w_hidden_t[j * hidden + i] = w.w_hidden.value[i * width + j];
    std::fill_n(dh_time, steps * block, T(0));
    std::copy_n(out.final.grad, block, dh_time + steps * block);
    for (std::size_t k = steps; k-- > 0;) {
      const std::size_t p = position_of(k);
      const auto real = [=](std::size_t b) { return p < static_cast<std::size_t>(length_of[b]); };
      T* dh_new = dh_time + (k + 1) * block;  // h_time[k + 1] is also states[b, p]
      for (std::size_t b = 0; b < batch; ++b) {
        const T* ds = out.states.grad_row(b * steps + p);
        for (std::size_t c = 0; c < hidden; ++c) dh_new[b * hidden + c] += ds[c];
      }
      T* dhh = dhh_all + k * batch * width;
      cell_backward(gates_all + k * batch * width, hh_all + k * batch * width, h_time + k * block, dh_new,
                    gx.grad ? gx.grad + p * width : nullptr, steps * width, dhh, dh_time + k * block, batch, hidden,
                    real);
      kernels::gemm_nn(dhh, w_hidden_t, dh_time + k * block, batch, width, hidden, Accumulate::Add);
    }
    // Every step's (h_time[k], dhh_k) pair at once: h_time[0 .. S-1] are S*B contiguous rows.
    hidden_weight_gradients(h_time, dhh_all, steps * batch, w);
  });
  return out;
}

#define ATTN_INSTANTIATE(T)                                                                              \
  template Tensor<T> gru_cell(Graph<T>&, Tensor<T>, Tensor<T>, const GruWeights<T>&);                    \
  template GruSequence<T> gru_sequence(Graph<T>&, Tensor<T>, std::span<const std::int32_t>, std::size_t, \
                                       const GruWeights<T>&, Direction);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)
#undef ATTN_INSTANTIATE

}  // namespace attn::layers
