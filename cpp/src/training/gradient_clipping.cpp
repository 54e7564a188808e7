// gradient_clipping.cpp — clip_by_global_norm (gradient_clipping.hpp).
#include "training/gradient_clipping.hpp"

#include <cmath>

namespace attn::training {

double clip_by_global_norm(std::span<float> gradients, double max_norm) {
  // N = sqrt(Σ g²), four partial sums so the additions need not wait for one another
  double partial[4] = {0.0, 0.0, 0.0, 0.0};
  const std::size_t count = gradients.size();
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4)
    for (std::size_t lane = 0; lane < 4; ++lane) {
      const double g = gradients[i + lane];
      partial[lane] += g * g;
    }
  for (; i < count; ++i) partial[0] += static_cast<double>(gradients[i]) * gradients[i];
  const double norm = std::sqrt((partial[0] + partial[1]) + (partial[2] + partial[3]));
  if (!std::isfinite(norm) || norm <= max_norm) return norm;
  // g <- g · max_norm / N
  const float factor = static_cast<float>(max_norm / norm);
  for (float& g : gradients) g *= factor;
  return norm;
}

}  // namespace attn::training
