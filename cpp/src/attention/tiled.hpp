// tiled.hpp (internal) — the tiled forward pass (tiled.cpp) for its two public
// faces: attn::attention_output (the output) and attn::attention_forward_tiled
// (the output and the row log-sum-exp the tiled backward pass recomputes the
// weights from, attention_forward_tiled.cpp).
#pragma once

#include <cstddef>

#include "attn/attention.hpp"
#include "attn/testing.hpp"
#include "problem.hpp"

namespace attn::detail {

// The checks of the tiled path (no n*m limit: the n x m matrix is never held);
// with tiles, also the block sizes ("tiles.queries: expected at least 1, got 0").
AttentionProblem check_tiled_call(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                  const AttentionOptions& options);
AttentionProblem check_tiled_call(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                  const AttentionOptions& options, const testing::TileSizes& tiles);

// The block sizes the variant in use runs fastest with (KernelTable::block_queries, block_keys).
testing::TileSizes variant_tiles();

// The tiled path on a checked problem: output (n x d_v) and, unless null,
// log_sum_exp (n): L_i = ln sum_j exp(S_ij) in double (it always fits:
// |S_ij| <= scale |q_i| |k_j| <= d_k FLT_MAX^3, about 4e115 d_k), -inf for a
// fully masked row. The
// query blocks split over up to `threads` threads, each block computed the
// same way on whichever thread runs it (bit-identical for any number). A row
// whose float intermediates could leave the float range is computed in double,
// its L_i too.
// The tiled path with the block sizes `tiles`: what attn::attention_output,
// attention_forward_tiled and attention_backward_tiled run with their
// variant's tiles (variant_tiles()), and what attn::testing's versions run with
// a test's (production code calls these, never attn::testing).
std::vector<float> attention_output_with(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                         const AttentionOptions& options, const testing::TileSizes& tiles);
TiledAttentionForward attention_forward_tiled_with(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                                   const AttentionOptions& options, const testing::TileSizes& tiles);
AttentionGradients attention_backward_tiled_with(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                                 const TiledAttentionForward& forward, const AttentionShape& shape,
                                                 const AttentionOptions& options, const testing::TileSizes& tiles);

void tiled_forward(const AttentionProblem& problem, const testing::TileSizes& tiles, std::size_t threads,
                   float* output, double* log_sum_exp);

}  // namespace attn::detail
