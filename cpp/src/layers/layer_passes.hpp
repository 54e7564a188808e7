// layer_passes.hpp (internal) — the model pieces of attn/layers.hpp on checked
// inputs, into the caller's buffers (no allocation): shared by the public
// functions and the training step. Batches: `count` tokens in sequences of
// `length`, token i at position i % length.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attn::detail {

// x (count x d) = E[t_i] + PE[i % length], table vocabulary x d, pe length x d.
void embed_into(const float* table, const std::int32_t* tokens, std::size_t count, const float* pe,
                std::size_t length, std::size_t d, float* x) noexcept;

// grad_table (vocabulary x d) = 0, then row t_i += dX_i for every i.
void embed_backward_into(const std::int32_t* tokens, std::size_t count, const float* grad_x, std::size_t vocabulary,
                         std::size_t d, float* grad_table) noexcept;

// y (rows x d_out) = x w^T + b, w d_out x d_in
void linear_into(const float* x, const float* w, const float* b, std::size_t rows, std::size_t d_in,
                 std::size_t d_out, float* y) noexcept;

// grad_w (d_out x d_in) = dY^T x, grad_b = column sums of dY, grad_x (rows x
// d_in) = dY w unless null. scratch: rows*d_out floats.
void linear_backward_into(const float* x, const float* w, const float* grad_y, std::size_t rows, std::size_t d_in,
                          std::size_t d_out, float* grad_x, float* grad_w, float* grad_b, float* scratch) noexcept;

// logits rows x classes, targets (rows) -> mean cross-entropy; grad_logits
// (rows x classes) = (softmax - onehot) / rows. Row losses summed in double,
// the logarithm by detail::portable_log (the same bits in every build).
// scratch: 2 rows floats.
double softmax_cross_entropy_into(const float* logits, const std::int32_t* targets, std::size_t rows,
                                  std::size_t classes, float* grad_logits, float* scratch) noexcept;

}  // namespace attn::detail
