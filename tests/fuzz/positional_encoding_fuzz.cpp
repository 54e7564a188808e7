// Fuzz target: the sinusoidal positional encoding (attn::positional_encoding)
// for sizes from 0 to huge.
//
// Oracles:
// - only documented errors, sizes refused at once
// - PE(pos, 2i) = sin(pos / 10000^(2i / d_model)), PE(pos, 2i+1) = cos(...),
//   recomputed here in double (with pow and sin of libm, independently of
//   the core's order of operations): within 2^-22 (a float rounding of a
//   number in [-1, 1], and the double argument's error for positions below
//   2^20), and in [-1, 1]
#include <cstdint>

#include "attention_call.hpp"

using namespace attn_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::size_t n = in.flag() ? in.dimension_or_huge(4096) : in.dimension_or_huge(64);
  const std::size_t d_model = in.dimension_or_huge(64);
  std::vector<float> pe;
  if (!documented([&] { pe = attn::positional_encoding(n, d_model); })) return 0;
  require(pe.size() == n * d_model, "positional_encoding: not n*d_model entries");
  for (std::size_t pos = 0; pos < n; ++pos)
    for (std::size_t c = 0; c < d_model; ++c) {
      const double angle =
          static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(c - c % 2) / static_cast<double>(d_model));
      const double expected = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
      const float actual = pe[pos * d_model + c];
      if (!(std::fabs(actual - expected) <= 0x1p-22) || actual < -1.0f || actual > 1.0f)
        finding("PE(%zu, %zu) = %.9g, expected %.9g", pos, c, actual, expected);
    }
  return 0;
}
