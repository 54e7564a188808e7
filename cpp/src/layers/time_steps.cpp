// time_steps.cpp — one time step out of and into batched sequences (time_steps.hpp).
#include "layers/time_steps.hpp"

#include <algorithm>

namespace attn::layers {

template <class T>
Tensor<T> step_rows(Graph<T>& g, Tensor<T> x, std::size_t steps, std::size_t t) {
  const std::size_t batch = x.rows / steps, d = x.cols;
  Tensor<T> y = g.tensor(batch, d);
  for (std::size_t b = 0; b < batch; ++b) std::copy_n(x.row(b * steps + t), d, y.row(b));
  g.on_backward([=] {
    if (x.grad == nullptr) return;
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t c = 0; c < d; ++c) x.grad_row(b * steps + t)[c] += y.grad_row(b)[c];
  });
  return y;
}

template <class T>
void put_step_rows(Graph<T>& g, Tensor<T> y, Tensor<T> z, std::size_t steps, std::size_t t) {
  const std::size_t batch = y.rows, d = y.cols;
  for (std::size_t b = 0; b < batch; ++b) std::copy_n(y.row(b), d, z.row(b * steps + t));
  g.on_backward([=] {
    if (y.grad == nullptr) return;
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t c = 0; c < d; ++c) y.grad_row(b)[c] += z.grad_row(b * steps + t)[c];
  });
}

#define ATTN_INSTANTIATE(T)                                                        \
  template Tensor<T> step_rows(Graph<T>&, Tensor<T>, std::size_t, std::size_t); \
  template void put_step_rows(Graph<T>&, Tensor<T>, Tensor<T>, std::size_t, std::size_t);
ATTN_INSTANTIATE(float)
ATTN_INSTANTIATE(double)
#undef ATTN_INSTANTIATE

}  // namespace attn::layers
