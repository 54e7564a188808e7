// block_kernels.hpp (internal) — the tiled path's three block kernels of one
// vector variant (block_kernels.cpp, compiled per variant like
// vector_kernels.cpp, whose table lists them). What they compute is written at
// attn/kernels.hpp (KernelTable::block_scores, block_softmax,
// block_accumulate).
#pragma once

#include <cstddef>

#if !defined(ATTN_KERNEL_VARIANT)
#error "block_kernels.hpp is compiled once per kernel variant (see vector.hpp)"
#endif

namespace attn::kernels::ATTN_KERNEL_VARIANT {

// The block sizes B_r x B_c the tiled path uses with this variant, measured
// (attention_output at d = 64, n = 64 .. 4096; bench/README.md): B_r a multiple
// of the micro-kernel's rows (kTileVectors * kLanes) and B_c of its keys per
// tile (kTileRows), so that no edge tile runs in the blocks of a long sequence.
// WebAssembly (simd128, one_lane): 64 x 64, which the page's memory model
// (web/src/sections/cost/memory.js) assumes.
#if defined(ATTN_BLOCK_QUERIES) && defined(ATTN_BLOCK_KEYS)  // for measuring other sizes
inline constexpr std::size_t kBlockQueries = ATTN_BLOCK_QUERIES, kBlockKeys = ATTN_BLOCK_KEYS;
#elif ATTN_VECTOR_BYTES == 64
inline constexpr std::size_t kBlockQueries = 48, kBlockKeys = 64;
#elif ATTN_VECTOR_BYTES == 32
inline constexpr std::size_t kBlockQueries = 32, kBlockKeys = 60;
#else
inline constexpr std::size_t kBlockQueries = 64, kBlockKeys = 64;
#endif

void transpose_block(const float* q, std::size_t rows, std::size_t d_k, std::size_t rows_p, float* q_t) noexcept;
void untranspose_block(const float* o_t, const float* row_factor, std::size_t rows, std::size_t d_v, std::size_t rows_p,
                       float* out) noexcept;
void block_scores(const float* k, const float* q_t, float* s_t, std::size_t cols, std::size_t rows_p,
                  std::size_t d_k, float scale, float* block_max) noexcept;
void block_softmax(float* s_t, std::size_t cols, std::size_t rows_p, const float* block_max, float* running_max,
                   float* running_sum, float* correction) noexcept;
void block_accumulate(const float* v, const float* p_t, const float* correction, float* o_t, std::size_t cols,
                      std::size_t rows_p, std::size_t d_v) noexcept;

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT
