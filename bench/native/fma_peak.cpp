// fma_peak.cpp — see fma_peak.hpp. One generic body (run_chains) for every
// width; each kernel is a thin wrapper compiled for its own instruction set,
// into which the body and its step are inlined. The loop over the chains is
// unrolled so that each chain lives in its own register for the whole run.
#include "fma_peak.hpp"

#include <immintrin.h>

namespace fma_peak {
namespace {

constexpr int kChains512 = 16;
constexpr int kChains256 = 12;
constexpr int kChains128 = 12;

// kChains chains x = step(x) = x * a + b, `iterations` times; returns the sum
// of every lane of every chain. V: a GCC vector type (__m512, __m256, __m128).
template <class V, int kChains, class Step>
[[gnu::always_inline]] inline float run_chains(std::size_t iterations, Step step) {
  V acc[kChains];
#pragma GCC unroll 16
  for (int j = 0; j < kChains; ++j) acc[j] = V{} + (1.0f + 0.01f * static_cast<float>(j));
  for (std::size_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 16
    for (int j = 0; j < kChains; ++j) acc[j] = step(acc[j]);
  }
  V sum = acc[0];
#pragma GCC unroll 16
  for (int j = 1; j < kChains; ++j) sum += acc[j];
  float total = 0;
  for (std::size_t lane = 0; lane < sizeof(V) / sizeof(float); ++lane) total += sum[lane];
  return total;
}

__attribute__((target("avx512f"))) float run_avx512(std::size_t iterations, float a, float b) {
  const __m512 va = _mm512_set1_ps(a), vb = _mm512_set1_ps(b);
  return run_chains<__m512, kChains512>(iterations, [=](__m512 x) __attribute__((target("avx512f"))) {
    return _mm512_fmadd_ps(x, va, vb);
  });
}

__attribute__((target("avx2,fma"))) float run_avx2(std::size_t iterations, float a, float b) {
  const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
  return run_chains<__m256, kChains256>(iterations, [=](__m256 x) __attribute__((target("avx2,fma"))) {
    return _mm256_fmadd_ps(x, va, vb);
  });
}

__attribute__((target("sse2"))) float run_sse(std::size_t iterations, float a, float b) {
  const __m128 va = _mm_set1_ps(a), vb = _mm_set1_ps(b);
  return run_chains<__m128, kChains128>(iterations, [=](__m128 x) { return _mm_add_ps(_mm_mul_ps(x, va), vb); });
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
