// fma_peak.hpp — the floating-point peak of one core, measured: independent
// chains of acc = acc * a + b, one vector instruction each (a fused
// multiply-add where the instruction set has one), enough chains to keep every
// FMA port busy (latency 4 x 2 ports = 8 in flight at least):
//
//   AVX-512  16 chains of _mm512_fmadd_ps   16 lanes x 2 flops = 32 flops each
//   AVX2     12 chains of _mm256_fmadd_ps    8 lanes x 2 flops = 16 flops each
//   SSE      12 chains of _mm_mul_ps + _mm_add_ps (the SIMD128 shape; no FMA)
//
// Each kernel is compiled for its own instruction set (target attributes) and
// run only where __builtin_cpu_supports says the CPU has it, so the binary
// runs on any x86-64.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fma_peak {

enum class Isa { Avx512, Avx2, Sse };

struct Kernel {
  Isa isa;
  std::string name;               // e.g. "AVX-512 FMA, 16 chains"
  double flops_per_iteration;     // chains x lanes x 2
  float (*run)(std::size_t iterations, float a, float b);  // returns a sum of the chains
};

// The kernels this CPU can run, the widest first.
std::vector<Kernel> supported_kernels();

}  // namespace fma_peak
