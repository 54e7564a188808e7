// row_stats.hpp (internal) — the statistics of one probability row, for float
// rows (attn::softmax_row_stats) and double rows (the saturation experiment).
//   max_weight      max_j p_j
//   entropy         -sum_j p_j ln p_j, nats, with 0 ln 0 = 0
//   jacobian_trace  sum_j p_j (1 - p_j): the trace of J = diag(p) - p p^T,
//                   the total gradient the softmax lets through
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "attn/softmax.hpp"

namespace attn::detail {

template <class Real>
SoftmaxRowStats row_stats(const Real* p, std::size_t len) {
  SoftmaxRowStats stats;
  for (std::size_t j = 0; j < len; ++j) {
    const double pj = p[j];
    stats.max_weight = std::max(stats.max_weight, pj);
    if (pj > 0.0) stats.entropy -= pj * std::log(pj);
    stats.jacobian_trace += pj * (1.0 - pj);
  }
  return stats;
}

}  // namespace attn::detail
