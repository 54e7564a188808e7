// attn/multi_head.hpp — multi-head attention, self and cross.
//
//   Q = X W_Q (n x d_model)   K = C W_K, V = C W_V (m x d_model)
//   C = X for self-attention; a second sequence of m tokens for cross-attention.
//   head_i = Attention(Q[:, i*d_k:(i+1)*d_k], K[...], V[...]),  d_k = d_v = d_model / h
//   MultiHead = Concat(head_1 .. head_h) W_O          (n x d_model)
// Each W is d_model x d_model, row-major.
#pragma once

#include <vector>

#include "attn/attention.hpp"

namespace attn {

struct MultiHeadInputs {
  FloatSpan x;        // n x d_model  (queries come from here)
  FloatSpan context;  // m x d_model  (keys and values); empty = self-attention (C = X, m = n)
  std::size_t n = 0, m = 0, d_model = 0, heads = 1;
  FloatSpan w_q, w_k, w_v, w_o;  // each d_model x d_model
  Mask mask;
};

struct MultiHeadResult {
  std::vector<float> q, k, v;                    // projections: n x d_model, m x d_model, m x d_model
  std::vector<std::vector<float>> head_weights;  // h arrays of n x m
  std::vector<float> concat;                     // n x d_model  Concat(head_1 .. head_h)
  std::vector<float> output;                     // n x d_model  concat W_O
};

// x n x d_model, context m x d_model (or empty), each W d_model x d_model ->
// output n x d_model, h weight matrices n x m. Scale 1/sqrt(d_model / h).
// ShapeError if d_model % heads != 0, a dimension is 0, a length is wrong, or
// m is given without context and differs from n; SizeError if too large;
// ValueError on non-finite input, or naming a projection or output element
// that does not fit in a float ("q[0][1]: (X W_Q)[0][1] = ... is beyond the
// float range ..."). Uses the vector kernels.
MultiHeadResult multi_head(const MultiHeadInputs& in);

}  // namespace attn
