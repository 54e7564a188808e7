// attention_forward_tiled.cpp — attn::attention_forward_tiled: the tiled
// forward pass of attn::attention_output (attention/tiled.cpp: FlashAttention-2,
// Algorithm 1, on the variant's block kernels and threads), which also keeps,
// per query row, the log-sum-exp of its scores for the backward pass:
//   L_r = m_r + ln(l_r)   (m_r the row max, l_r = sum_j exp(S_rj - m_r)).
// One forward for both: the output is bit-identical to attention_output's with
// the same tiles, and the backward pass is timed against the forward it needs.
//
// Float range: as in attn::attention_output, a row whose float intermediates
// could overflow is computed in double. L is kept in double, so a row whose
// scores (and L_i) lie beyond the float range is no error: its gradients may
// fit, and the tiled backward then computes them in double, as the full path
// and the reference do.
#include <limits>
#include <vector>

#include "attention/tiled.hpp"
#include "attn/backward.hpp"

namespace attn {

TiledAttentionForward detail::attention_forward_tiled_with(FloatSpan q, FloatSpan k, FloatSpan v,
                                                           const AttentionShape& shape, const AttentionOptions& options,
                                                           const testing::TileSizes& tiles) {
  const detail::AttentionProblem problem = detail::check_tiled_call(q, k, v, shape, options, tiles);
  TiledAttentionForward result{std::vector<float>(shape.n * shape.d_v),
                               std::vector<double>(shape.n, -std::numeric_limits<double>::infinity())};
  detail::tiled_forward(problem, tiles, options.threads, result.output.data(), result.log_sum_exp.data());
  return result;
}

TiledAttentionForward attention_forward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                              const AttentionOptions& options) {
  return detail::attention_forward_tiled_with(q, k, v, shape, options, detail::variant_tiles());
}

TiledAttentionForward testing::attention_forward_tiled(FloatSpan q, FloatSpan k, FloatSpan v,
                                                       const AttentionShape& shape, const AttentionOptions& options,
                                                       const TileSizes& tiles) {
  return detail::attention_forward_tiled_with(q, k, v, shape, options, tiles);
}

}  // namespace attn
