// attn/shapes.hpp — the one shape legend of the library.
//
//   n        number of queries (rows of Q)           — "tokens that ask"
//   m        number of keys = number of values       — "tokens that answer"
//   d_k      width of a query and of a key
//   d_v      width of a value (and of an output row)
//   h        number of heads in multi-head attention
//   d_model  width of a token embedding; each head has d_k = d_v = d_model / h
//
// Every matrix is a flat, row-major float array whose rows are tokens:
//   Q  n x d_k     K  m x d_k     V  m x d_v
//   scores, scaled, masked, weights   n x m      (row i = query i, column j = key j)
//   output                            n x d_v
// Element (r, c) of an R x C matrix lives at index r * C + c.
//
// (Article 000 writes the column convention V Softmax(K^T Q); that is the same
// computation transposed: its columns are our rows.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace attn {

using FloatSpan = std::span<const float>;

// The sizes of one scaled-dot-product attention call.
struct AttentionShape {
  std::size_t n = 0;    // queries
  std::size_t m = 0;    // keys / values
  std::size_t d_k = 0;  // query / key width
  std::size_t d_v = 0;  // value / output width
};

// The largest number of floats one matrix may hold (1 GiB of floats). Larger
// requests raise SizeError instead of exhausting memory.
inline constexpr std::size_t kMaxMatrixElements = std::size_t{1} << 28;

}  // namespace attn
