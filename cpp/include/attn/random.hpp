// attn/random.hpp — a seeded generator whose stream is identical in every build
// (native and wasm): xoshiro256** seeded by splitmix64, and a normal sampler
// built only from + - * / and sqrt (IEEE-exact operations), so no libm
// difference between glibc and musl can change a single bit. Not
// std::normal_distribution, whose stream differs between standard libraries.
#pragma once

#include <cstdint>
#include <vector>

namespace attn {

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

}  // namespace attn
