// cross_entropy.cpp — masked softmax cross-entropy and its backward (cross_entropy.hpp).
#include "layers/cross_entropy.hpp"

#include <algorithm>
#include <cmath>

namespace attn::layers {

template <class T>
LossCounts cross_entropy(Graph<T>& g, Tensor<T> z, std::span<const std::int32_t> targets,
                         std::span<const unsigned char> mask) {
  const std::size_t rows = z.rows, classes = z.cols;
  const auto counts = [&](std::size_t i) { return mask.empty() || mask[i] != 0; };
  LossCounts result;
  T* row_max = g.memory(rows);
  T* row_sum = g.memory(rows);  // Σ_c exp(z_c - max)
  double total = 0.0;
  for (std::size_t i = 0; i < rows; ++i) {
    const T* zi = z.row(i);
    const std::size_t best = static_cast<std::size_t>(std::max_element(zi, zi + classes) - zi);
    row_max[i] = zi[best];
    double sum = 0.0;
    for (std::size_t c = 0; c < classes; ++c) sum += std::exp(static_cast<double>(zi[c] - row_max[i]));
    row_sum[i] = static_cast<T>(sum);
    if (!counts(i)) continue;
    // logsumexp(z_i) - z_i[y_i] = log Σ exp(z - max) + max - z[y]
    total += std::log(sum) + static_cast<double>(row_max[i]) - static_cast<double>(zi[targets[i]]);
    ++result.counted;
    result.correct += best == static_cast<std::size_t>(targets[i]);
  }
  if (result.counted == 0) return result;
  result.loss = total / static_cast<double>(result.counted);
  const T inverse_count = static_cast<T>(1.0 / static_cast<double>(result.counted));
  const std::int32_t* ids = targets.data();
  const unsigned char* weights = mask.empty() ? nullptr : mask.data();
  g.on_backward([=] {
    if (z.grad == nullptr) return;
    // dz_i += (softmax(z_i) - onehot(y_i)) / Σ w   for counted rows
    for (std::size_t i = 0; i < rows; ++i) {
      if (weights != nullptr && weights[i] == 0) continue;
      const T* zi = z.row(i);
      T* dz = z.grad_row(i);
      const T inverse_sum = T(1) / row_sum[i];
      for (std::size_t c = 0; c < classes; ++c) dz[c] += std::exp(zi[c] - row_max[i]) * inverse_sum * inverse_count;
      dz[ids[i]] -= inverse_count;
    }
  });
  return result;
}

template LossCounts cross_entropy(Graph<float>&, Tensor<float>, std::span<const std::int32_t>,
                                  std::span<const unsigned char>);
template LossCounts cross_entropy(Graph<double>&, Tensor<double>, std::span<const std::int32_t>,
                                  std::span<const unsigned char>);

}  // namespace attn::layers
