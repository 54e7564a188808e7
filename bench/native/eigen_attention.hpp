// eigen_attention.hpp — softmax(Q K^T / sqrt(d)) V written with Eigen 3.4 at
// its best, the native peer of the race (attention_bench.cpp):
//   - every buffer preallocated once (the scaled Q, the score block, the row sums):
//     no allocation per call, unlike an expression that builds n x m each time;
//   - .noalias() on both products (Eigen's GEMM writes straight into the buffer);
//   - one pass per row over contiguous row-major scores: max, exp(s - max), sum,
//     vectorized by Eigen's own pexp;
//   - the 1/rowsum applied to the n x d output instead of the n x m weights;
//   - compiled with -O3 -march=native -DNDEBUG (bench/native/CMakeLists.txt), so
//     Eigen uses the widest vectors of the CPU that builds it (AVX-512 where
//     __AVX512F__ is defined: EIGEN_VECTORIZE_AVX512, 16-float packets).
//
// block_rows = n: the whole n x m score matrix at once. block_rows < n: query rows
// in blocks of block_rows (the block_rows x m scores stay in cache).
// Shapes: q n x d, k m x d, v m x d, out n x d, all row-major.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

class EigenAttention {
 public:
  EigenAttention(std::size_t n, std::size_t m, std::size_t d, std::size_t block_rows);
  ~EigenAttention();
  EigenAttention(const EigenAttention&) = delete;
  EigenAttention& operator=(const EigenAttention&) = delete;

  void run(const float* q, const float* k, const float* v, float* out);

  // Eigen::SimdInstructionSetsInUse() of this build, e.g. "AVX512, FMA, AVX2, AVX, SSE, ...".
  static std::string instruction_sets();
  // "3.4.0"
  static std::string version();

 private:
  struct Buffers;
  std::unique_ptr<Buffers> buffers_;
};
