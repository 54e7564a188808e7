// dispatch.cpp — the one place that chooses the kernels (as XNNPACK's config
// and ggml's CPU feature code do): which variants this library was compiled
// with (CMake defines ATTN_HAS_KERNELS_<name> for each, cpp/CMakeLists.txt),
// which of them this CPU runs, and the fastest of those.
//
//   x86-64:       avx512f (AVX-512F + FMA), avx2 (AVX2 + FMA), sse2 (always)
//   WebAssembly:  simd128 (-msimd128) or one_lane (one build has one of them)
//   elsewhere:    portable (4-lane vectors: NEON where there is one)
//   every build:  scalar (plain loops; listed for tests and benchmarks, never chosen)
//
// The CPU is asked once, through __builtin_cpu_supports, which also checks
// that the operating system saves the wide registers (XGETBV).
#include <atomic>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/testing.hpp"
#include "kernels.hpp"

namespace attn::kernels {

// Each variant's table (vector_kernels.cpp compiled per variant; scalar_kernels.cpp).
#ifdef ATTN_HAS_KERNELS_avx512f
namespace avx512f { extern const KernelTable kernel_table; }
#endif
#ifdef ATTN_HAS_KERNELS_avx2
namespace avx2 { extern const KernelTable kernel_table; }
#endif
#ifdef ATTN_HAS_KERNELS_sse2
namespace sse2 { extern const KernelTable kernel_table; }
#endif
#ifdef ATTN_HAS_KERNELS_simd128
namespace simd128 { extern const KernelTable kernel_table; }
#endif
#ifdef ATTN_HAS_KERNELS_one_lane
namespace one_lane { extern const KernelTable kernel_table; }
#endif
#ifdef ATTN_HAS_KERNELS_portable
namespace portable { extern const KernelTable kernel_table; }
#endif
namespace scalar { extern const KernelTable kernel_table; }

namespace {

struct Candidate {
  const KernelTable* table;
  bool (*cpu_runs_it)();
};

bool always() { return true; }

#if defined(__x86_64__) || defined(__i386__)
bool cpu_has_avx512f() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
bool cpu_has_avx2_fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

// Every compiled variant, fastest first.
const Candidate kCandidates[] = {
#ifdef ATTN_HAS_KERNELS_avx512f
    {&avx512f::kernel_table, cpu_has_avx512f},
#endif
#ifdef ATTN_HAS_KERNELS_avx2
    {&avx2::kernel_table, cpu_has_avx2_fma},
#endif
#ifdef ATTN_HAS_KERNELS_sse2
    {&sse2::kernel_table, always},
#endif
#ifdef ATTN_HAS_KERNELS_simd128
    {&simd128::kernel_table, always},
#endif
#ifdef ATTN_HAS_KERNELS_one_lane
    {&one_lane::kernel_table, always},
#endif
#ifdef ATTN_HAS_KERNELS_portable
    {&portable::kernel_table, always},
#endif
    {&scalar::kernel_table, always},
};

// The candidates this CPU runs, in order; the first is the choice.
const std::vector<const KernelTable*>& runnable_variants() {
  static const std::vector<const KernelTable*> runnable = [] {
    std::vector<const KernelTable*> tables;
    for (const Candidate& candidate : kCandidates)
      if (candidate.cpu_runs_it()) tables.push_back(candidate.table);
    return tables;
  }();
  return runnable;
}

std::atomic<const KernelTable*> active_table{nullptr};

// The CPU is asked when the program starts, so that the first call does not
// pay for it (active() still chooses if it is called during static
// initialisation, before this line runs).
const bool chosen_at_start = [] {
  const KernelTable* expected = nullptr;
  active_table.compare_exchange_strong(expected, runnable_variants().front());
  return true;
}();

}  // namespace

const KernelTable& active() noexcept {
  const KernelTable* table = active_table.load(std::memory_order_acquire);
  if (table == nullptr) {
    table = runnable_variants().front();  // every thread computes the same choice
    active_table.store(table, std::memory_order_release);
  }
  return *table;
}

}  // namespace attn::kernels

namespace attn::testing {

std::span<const kernels::KernelTable* const> kernel_variants() { return kernels::runnable_variants(); }

const kernels::KernelTable& kernel_variant(std::string_view name) {
  std::string available;
  for (const kernels::KernelTable* table : kernel_variants()) {
    if (name == table->name) return *table;
    available += (available.empty() ? "" : ", ") + std::string(table->name);
  }
  throw ValueError("variant: expected one of the kernel variants this CPU runs (" + available + "), got '" +
                   std::string(name) + "'");
}

const kernels::KernelTable& active_kernel_variant() { return kernels::active(); }

ForceKernelVariant::ForceKernelVariant(std::string_view name) : previous_(&kernels::active()) {
  kernels::active_table.store(&kernel_variant(name), std::memory_order_release);
}

ForceKernelVariant::~ForceKernelVariant() { kernels::active_table.store(previous_, std::memory_order_release); }

}  // namespace attn::testing
