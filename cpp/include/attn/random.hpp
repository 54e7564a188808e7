// attn/random.hpp — a seeded generator whose stream is identical in every build
// (native and wasm): xoshiro256** seeded by splitmix64, and a normal sampler
// built only from + - * / and sqrt (IEEE-exact operations), so no libm
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
//   normal      Marsaglia's polar method: u, v = 2 uniform() - 1 until
//               0 < s = u^2 + v^2 < 1; returns u f, then v f on the next call,
//               f = sqrt(-2 ln(s) / s), ln = detail::portable_log
// normal_matrix(rows, cols, stddev) draws rows*cols normals row by row, each
// times stddev, rounded to float. SizeError if rows*cols is too large,
// ValueError if stddev is not finite and >= 0.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next_u64();
  double uniform();  // [0, 1), 53 random bits
  double normal();   // standard normal N(0, 1)
  std::vector<float> normal_matrix(std::size_t rows, std::size_t cols, double stddev = 1.0);

 private:
  std::uint64_t state_[4];
  bool has_spare_ = false;
  double spare_ = 0;
};

namespace detail {

// ln(x) for x > 0 from + - * / only (bit manipulation, then a series), so its
// result is the same bits under glibc, musl or any other libm. About 1 ulp.
// ln(0) = -inf, ln(inf) = inf, NaN for x < 0 or NaN. Public for its tests.
double portable_log(double x);

}  // namespace detail

}  // namespace attn
