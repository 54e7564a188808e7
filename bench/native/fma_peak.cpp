// fma_peak.cpp — see fma_peak.hpp. Every loop is unrolled over the chains so
// that each chain lives in its own register for the whole run.
#include "fma_peak.hpp"

#include <immintrin.h>

namespace fma_peak {
namespace {

constexpr int kChains512 = 16;
constexpr int kChains256 = 12;
constexpr int kChains128 = 12;

template <std::size_t kLanes>
float sum_of(const float (&lanes)[kLanes]) {
  float sum = 0;
  for (float lane : lanes) sum += lane;
  return sum;
}

__attribute__((target("avx512f"))) float run_avx512(std::size_t iterations, float a, float b) {
  const __m512 va = _mm512_set1_ps(a), vb = _mm512_set1_ps(b);
  __m512 acc[kChains512];
#pragma GCC unroll 16
  for (int j = 0; j < kChains512; ++j) acc[j] = _mm512_set1_ps(1.0f + 0.01f * static_cast<float>(j));
  for (std::size_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < kChains512; ++j) acc[j] = _mm512_fmadd_ps(acc[j], va, vb);
  }
  __m512 sum = acc[0];
#pragma GCC unroll 16
  for (int j = 1; j < kChains512; ++j) sum = _mm512_add_ps(sum, acc[j]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  return sum_of(lanes);
}

__attribute__((target("avx2,fma"))) float run_avx2(std::size_t iterations, float a, float b) {
  const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
  __m256 acc[kChains256];
#pragma GCC unroll 16
  for (int j = 0; j < kChains256; ++j) acc[j] = _mm256_set1_ps(1.0f + 0.01f * static_cast<float>(j));
  for (std::size_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < kChains256; ++j) acc[j] = _mm256_fmadd_ps(acc[j], va, vb);
  }
  __m256 sum = acc[0];
#pragma GCC unroll 16
  for (int j = 1; j < kChains256; ++j) sum = _mm256_add_ps(sum, acc[j]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  return sum_of(lanes);
}

__attribute__((target("sse2"))) float run_sse(std::size_t iterations, float a, float b) {
  const __m128 va = _mm_set1_ps(a), vb = _mm_set1_ps(b);
  __m128 acc[kChains128];
#pragma GCC unroll 16
  for (int j = 0; j < kChains128; ++j) acc[j] = _mm_set1_ps(1.0f + 0.01f * static_cast<float>(j));
  for (std::size_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < kChains128; ++j) acc[j] = _mm_add_ps(_mm_mul_ps(acc[j], va), vb);
  }
  __m128 sum = acc[0];
#pragma GCC unroll 16
  for (int j = 1; j < kChains128; ++j) sum = _mm_add_ps(sum, acc[j]);
  alignas(16) float lanes[4];
  _mm_store_ps(lanes, sum);
  return sum_of(lanes);
}

}  // namespace

std::vector<Kernel> supported_kernels() {
  __builtin_cpu_init();
  std::vector<Kernel> kernels;
  if (__builtin_cpu_supports("avx512f")) {
    kernels.push_back({Isa::Avx512, "AVX-512 FMA, 16 chains", kChains512 * 16 * 2.0, run_avx512});
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    kernels.push_back({Isa::Avx2, "AVX2 FMA, 12 chains", kChains256 * 8 * 2.0, run_avx2});
  }
  kernels.push_back({Isa::Sse, "SSE mul+add, 12 chains", kChains128 * 4 * 2.0, run_sse});
  return kernels;
}

}  // namespace fma_peak
