// attn/random.hpp — a seeded generator whose stream is identical in every build
// (native and wasm): xoshiro256** seeded by splitmix64, and a normal sampler
// (a ziggurat) built only from + - * / and sqrt (IEEE-exact operations), so no libm
// difference between glibc and musl can change a single bit. Not
// std::normal_distribution, whose stream differs between standard libraries.
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

// The stream, step by step (src/random.cpp has the formulas):
//   state       four 64-bit words, the first four outputs of splitmix64(seed)
//   next_u64    xoshiro256** (Blackman and Vigna)
//   uniform     (next_u64() >> 11) * 2^-53
//   normal      the ziggurat method (Marsaglia and Tsang 2000), 256 layers:
//               one next_u64() gives the layer (bits 0-7), the sign (bit 8)
//               and a uniform u = (bits 12-63 + 1/2) 2^-52; x = u x_layer is
//               returned if inside the layer's rectangle, else a wedge test
//               against exp(-x^2/2) or Marsaglia's tail algorithm decides.
//               Layer tables built once from an exp and a ln written
//               with + - * / only (src/random.cpp). Exact N(0, 1), no pairs, no state
//               beyond the four words.
// normal_matrix(rows, cols, stddev) draws rows*cols normals row by row, each
// times stddev, rounded to float. SizeError if rows*cols is too large,
// ValueError naming stddev unless 0 <= stddev <= 2.4e37 (every draw is at most
// 13.71 in magnitude, so every product fits in a float).
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next_u64();
  double uniform();  // [0, 1), 53 random bits
  double normal();   // standard normal N(0, 1)
  std::vector<float> normal_matrix(std::size_t rows, std::size_t cols, double stddev = 1.0);

 private:
  std::uint64_t state_[4];
};

}  // namespace attn
