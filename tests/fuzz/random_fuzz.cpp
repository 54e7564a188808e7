// Fuzz target: the seeded generator (attn::Rng): normal_matrix with hostile
// sizes and standard deviations, uniform and normal.
//
// Oracles:
// - only documented errors: sizes beyond memory refused at once, a stddev
//   outside [0, 2.4e37] (NaN, negative, 1e300) refused naming it
// - every draw finite; |x| <= 13.71 stddev (the ziggurat's largest draw, as
//   attn/random.hpp states); uniform in [0, 1)
// - the same seed gives the same stream: a matrix equals its draws one by one
#include <cstdint>

#include "attention_call.hpp"

using namespace attn_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  std::uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = (seed << 8) | in.byte();
  const std::size_t rows = in.dimension_or_huge(64), cols = in.dimension_or_huge(64);
  const double stddev = in.flag() ? 1.0 : in.option_value();

  attn::Rng rng(seed), again(seed);
  std::vector<float> x;
  if (!documented([&] { x = rng.normal_matrix(rows, cols, stddev); })) return 0;
  require(x.size() == rows * cols, "normal_matrix: not rows*cols draws");
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float expected = static_cast<float>(again.normal() * stddev);
    if (!std::isfinite(x[i]) || std::fabs(x[i]) > 13.71 * stddev || x[i] != expected)
      finding("normal_matrix[%zu] = %g (stddev %g), drawn alone %g", i, x[i], stddev, expected);
  }
  const double u = rng.uniform();
  require(u >= 0.0 && u < 1.0, "uniform outside [0, 1)");
  return 0;
}
