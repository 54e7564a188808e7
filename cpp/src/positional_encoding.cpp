// positional_encoding.cpp — sinusoidal positional encoding (Vaswani et al. 2017).
//   PE(pos, 2i)   = sin(pos / 10000^(2i / d_model))
//   PE(pos, 2i+1) = cos(pos / 10000^(2i / d_model))
#include "attn/positional_encoding.hpp"

#include <cmath>

#include "validation.hpp"

namespace attn {

std::vector<float> positional_encoding(std::size_t n, std::size_t d_model) {
  detail::require_dimension("n", n);
  detail::require_dimension("d_model", d_model);
  std::vector<float> pe(detail::checked_product("n*d_model", n, d_model));
  for (std::size_t pos = 0; pos < n; ++pos)
    for (std::size_t col = 0; col < d_model; ++col) {
      const std::size_t two_i = col - col % 2;  // the pair (2i, 2i+1) shares one frequency
      const double angle =
          static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(two_i) / static_cast<double>(d_model));
      pe[pos * d_model + col] = static_cast<float>(col % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  return pe;
}

}  // namespace attn
