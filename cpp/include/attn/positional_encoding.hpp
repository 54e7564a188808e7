// attn/positional_encoding.hpp — sinusoidal positional encoding (Vaswani et al.).
//
//   PE(pos, 2i)   = sin(pos / 10000^(2i / d_model))
//   PE(pos, 2i+1) = cos(pos / 10000^(2i / d_model))
#pragma once

#include <vector>

#include "attn/shapes.hpp"

namespace attn {

// -> PE n x d_model, row = position (computed in double, rounded to float).
// ShapeError if n or d_model is 0, SizeError if n*d_model is too large.
std::vector<float> positional_encoding(std::size_t n, std::size_t d_model);

}  // namespace attn
