// block_kernels.hpp (internal) — the tiled path's block kernels of one vector
// variant (block_kernels.cpp, compiled per variant like vector_kernels.cpp,
// whose table lists them, with the block sizes of micro_kernel.hpp). What they
// compute is written at attn/kernels.hpp (KernelTable::transpose_block,
// untranspose_block, block_scores, block_softmax, block_accumulate, block_weights, block_score_gradients).
#pragma once

#include <cstddef>

#if !defined(ATTN_KERNEL_VARIANT)
#error "block_kernels.hpp is compiled once per kernel variant (see vector.hpp)"
#endif

namespace attn::kernels::ATTN_KERNEL_VARIANT {

void transpose_block(const float* q, std::size_t rows, std::size_t d_k, std::size_t rows_p, float* q_t) noexcept;
void untranspose_block(const float* o_t, const float* row_factor, std::size_t rows, std::size_t d_v, std::size_t rows_p,
                       float* out) noexcept;
void block_scores(const float* k, const float* q_t, float* s_t, std::size_t cols, std::size_t rows_p,
                  std::size_t d_k, float scale, float* block_max) noexcept;
void block_softmax(float* s_t, std::size_t cols, std::size_t rows_p, const float* block_max, float* running_max,
                   float* running_sum, float* correction) noexcept;
void block_accumulate(const float* v, const float* p_t, const float* correction, float* o_t, std::size_t cols,
                      std::size_t rows_p, std::size_t d_v) noexcept;
void block_weights(float* s_t, std::size_t cols, std::size_t rows_p, const float* shift) noexcept;
void block_score_gradients(const float* v, const float* do_t, const float* p_t, const float* d, float* ds_t,
                           std::size_t cols, std::size_t rows_p, std::size_t d_v) noexcept;

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT
