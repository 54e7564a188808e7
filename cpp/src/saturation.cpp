// saturation.cpp — the sqrt(d_k) experiment (articles 000, 002, 003).
//
// Why it saturates: with q, k of d_k independent standard normal entries,
// q . k has variance d_k, so raw logits spread like sqrt(d_k) and the softmax
// of a row puts almost all weight on its largest logit: the max weight goes to
// 1, the entropy to 0 and the gradient sum_j p_j (1 - p_j) to 0. Dividing by
// sqrt(d_k) restores variance 1 and the statistics stop depending on d_k.
//
// Computed in double with plain loops, in a fixed order, from Rng's
// reproducible stream (this file is compiled with -ffp-contract=off): the
// native and the wasm build give the same logits.
#include "attn/saturation.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/random.hpp"
#include "attn/reference.hpp"
#include "row_stats.hpp"
#include "validation.hpp"

namespace attn {

namespace {

constexpr double kSaturatedMaxWeight = 0.99;

// The most normal draws one call may make (about 20 s here); the page's
// largest experiment makes 20000 * 16 * 4096 = 1.3e9.
constexpr std::size_t kMaxDraws = std::size_t{1} << 31;

// Sums over all rows of all trials, for one of the two variants (raw, scaled).
struct RowStatSums {
  double max_weight = 0, entropy = 0, gradient = 0, saturated_rows = 0;
  void add(const SoftmaxRowStats& s) {
    max_weight += s.max_weight;
    entropy += s.entropy;
    gradient += s.jacobian_trace;
    saturated_rows += s.max_weight > kSaturatedMaxWeight ? 1.0 : 0.0;
  }
};

}  // namespace

SaturationResult saturation(const SaturationOptions& options) {
  const std::size_t d_k = options.d_k, queries = options.queries, keys = options.keys;
  detail::require_dimension("d_k", d_k);
  detail::require_dimension("queries", queries);
  detail::require_dimension("keys", keys);
  detail::require_dimension("trials", options.trials);
  detail::checked_product("queries*d_k", queries, d_k);
  detail::checked_product("keys*d_k", keys, d_k);
  detail::checked_product("trials*queries", options.trials, queries);
  // The work: one normal draw per entry of Q and K, every trial.
  const std::size_t draws_per_trial = (queries + keys) * d_k;  // <= 2^29: each product was checked
  if (options.trials > kMaxDraws / draws_per_trial) {
    throw SizeError("trials*(queries+keys)*d_k: expected at most " + std::to_string(kMaxDraws) + " draws, got " +
                    std::to_string(options.trials) + "*" + std::to_string(draws_per_trial));
  }

  Rng rng(options.seed);
  const double inverse_sqrt_dk = 1.0 / std::sqrt(static_cast<double>(d_k));
  RowStatSums raw_sums, scaled_sums;
  double logit_sum = 0, logit_square_sum = 0;
  std::vector<double> raw(keys), scaled(keys);

  for (std::size_t trial = 0; trial < options.trials; ++trial) {
    // Q (queries x d_k) then K (keys x d_k), standard normal
    const std::vector<float> q = rng.normal_matrix(queries, d_k);
    const std::vector<float> k = rng.normal_matrix(keys, d_k);
    for (std::size_t i = 0; i < queries; ++i) {
      // L_i = q_i K^T, and L_i / sqrt(d_k)
      for (std::size_t j = 0; j < keys; ++j) {
        double logit = 0;
        for (std::size_t c = 0; c < d_k; ++c) logit += static_cast<double>(q[i * d_k + c]) * k[j * d_k + c];
        logit_sum += logit;
        logit_square_sum += logit * logit;
        raw[j] = logit;
        scaled[j] = logit * inverse_sqrt_dk;
      }
      reference::softmax_row(raw.data(), keys);
      reference::softmax_row(scaled.data(), keys);
      raw_sums.add(detail::row_stats(raw.data(), keys));
      scaled_sums.add(detail::row_stats(scaled.data(), keys));
    }
  }

  const double rows = static_cast<double>(options.trials) * static_cast<double>(queries);
  const double logit_count = rows * static_cast<double>(keys);
  const double logit_mean = logit_sum / logit_count;
  SaturationResult result;
  // population standard deviation: sqrt(E[L^2] - E[L]^2)
  result.logit_std = std::sqrt(std::max(0.0, logit_square_sum / logit_count - logit_mean * logit_mean));
  result.max_weight = {raw_sums.max_weight / rows, scaled_sums.max_weight / rows};
  result.entropy = {raw_sums.entropy / rows, scaled_sums.entropy / rows};
  result.gradient = {raw_sums.gradient / rows, scaled_sums.gradient / rows};
  result.saturated_share = {raw_sums.saturated_rows / rows, scaled_sums.saturated_rows / rows};
  return result;
}

}  // namespace attn
