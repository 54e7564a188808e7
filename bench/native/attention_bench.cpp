// attention_bench — attention at d = 64, n = m = 64 .. 4096, four ways:
//   Reference         attn::reference::attention   plain loops in double (the baseline)
//   SimdTrace         attn::attention              SIMD kernels, full trace (4 n x m matrices)
//   TiledOutput       attn::attention_output       SIMD kernels, online softmax by blocks
//   EigenExpression   softmax(QK^T / sqrt(d)) V as an Eigen expression
// and the three hot kernels, scalar against SIMD, at n = m = 1024.
//
// Counters: FLOP/s counts 4 n^2 d per call (2 n^2 d for QK^T, 2 n^2 d for PV;
// the softmax's O(n^2) is not counted); peak_MiB is the largest extra heap the
// call held at once (peak_memory.hpp; Eigen allocates with malloc and is not
// counted). The reference at n = 4096 takes seconds: one iteration.
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "attn/attn.hpp"
#include "attn/testing.hpp"
#include "peak_memory.hpp"

namespace {

constexpr std::size_t kWidth = 64;  // d = d_k = d_v

struct Inputs {
  attn::AttentionShape shape;
  std::vector<float> q, k, v;
  explicit Inputs(std::size_t n) : shape{n, n, kWidth, kWidth} {
    attn::Rng rng(n);
    q = rng.normal_matrix(n, kWidth);
    k = rng.normal_matrix(n, kWidth);
    v = rng.normal_matrix(n, kWidth);
  }
};

void set_counters(benchmark::State& state, std::size_t n, std::size_t peak_bytes, bool count_memory = true) {
  const double flops = 4.0 * static_cast<double>(n) * static_cast<double>(n) * kWidth;
  state.counters["FLOP/s"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * flops));
  if (count_memory) state.counters["peak_MiB"] = static_cast<double>(peak_bytes) / (1 << 20);
}

// Runs `call` in the timed loop; the peak heap of one call is the high-water
// mark over the loop, since each call frees what it returned before the next.
template <class Call>
void run_attention(benchmark::State& state, Call call) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const Inputs in(n);
  peak_memory::reset();
  for (auto _ : state) {
    auto result = call(in);
    benchmark::DoNotOptimize(result.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, peak_memory::peak_since_reset());
}

void Reference(benchmark::State& state) {
  run_attention(state, [](const Inputs& in) { return attn::reference::attention(in.q, in.k, in.v, in.shape).output; });
}

void SimdTrace(benchmark::State& state) {
  run_attention(state, [](const Inputs& in) { return attn::attention(in.q, in.k, in.v, in.shape).output; });
}

void TiledOutput(benchmark::State& state) {
  run_attention(state, [](const Inputs& in) { return attn::attention_output(in.q, in.k, in.v, in.shape); });
}

void EigenExpression(benchmark::State& state) {
  using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const Inputs in(n);
  const Eigen::Map<const RowMatrix> q(in.q.data(), n, kWidth), k(in.k.data(), n, kWidth), v(in.v.data(), n, kWidth);
  const float scale = 1.0f / std::sqrt(static_cast<float>(kWidth));
  for (auto _ : state) {
    RowMatrix s = (q * k.transpose()) * scale;                           // S = QK^T / sqrt(d)
    s = (s.colwise() - s.rowwise().maxCoeff()).array().exp().matrix();   // exp(S - rowmax)
    s.array().colwise() /= s.rowwise().sum().array();                    // / rowsum
    RowMatrix output = s * v;                                            // P V
    benchmark::DoNotOptimize(output.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, n, 0, false);
}

// One kernel, scalar or SIMD, on the n x n problem of attention (n = 1024).
enum class Kernel { MatmulAbt, SoftmaxRows, MatmulAb };

template <Kernel kKernel, bool kSimd>
void KernelAt1024(benchmark::State& state) {
  const attn::kernels::KernelTable& scalar = attn::testing::kernel_variant("scalar");
  const attn::kernels::KernelTable& simd = *attn::testing::kernel_variants().front();
  const std::size_t n = 1024;
  const Inputs in(n);
  std::vector<float> scores(n * n), weights, output(n * kWidth);
  simd.matmul_abt(in.q.data(), in.k.data(), scores.data(), n, n, kWidth);
  weights = scores;
  simd.softmax_rows(weights.data(), n, n);
  for (auto _ : state) {
    if constexpr (kKernel == Kernel::MatmulAbt) {
      (kSimd ? simd : scalar).matmul_abt(in.q.data(), in.k.data(), scores.data(), n, n, kWidth);
    } else if constexpr (kKernel == Kernel::SoftmaxRows) {
      state.PauseTiming();
      weights = scores;
      state.ResumeTiming();
      (kSimd ? simd : scalar).softmax_rows(weights.data(), n, n);
    } else {
      (kSimd ? simd : scalar).matmul_ab(weights.data(), in.v.data(), output.data(), n, n, kWidth);
    }
    benchmark::ClobberMemory();
  }
  if constexpr (kKernel != Kernel::SoftmaxRows) {
    state.counters["FLOP/s"] = benchmark::Counter(2.0 * n * n * kWidth, benchmark::Counter::kIsIterationInvariantRate);
  } else {
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n * n));  // exps per second
  }
}

void all_sizes(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->Arg(64)->Arg(256)->Arg(1024)->Arg(4096);
}

}  // namespace

BENCHMARK(Reference)->Unit(benchmark::kMillisecond)->Arg(64)->Arg(256)->Arg(1024);
BENCHMARK(Reference)->Unit(benchmark::kMillisecond)->Arg(4096)->Iterations(1);
BENCHMARK(SimdTrace)->Apply(all_sizes);
BENCHMARK(TiledOutput)->Apply(all_sizes);
BENCHMARK(EigenExpression)->Apply(all_sizes);
BENCHMARK(KernelAt1024<Kernel::MatmulAbt, false>)->Name("ScalarMatmulAbt/1024")->Unit(benchmark::kMillisecond);
BENCHMARK(KernelAt1024<Kernel::MatmulAbt, true>)->Name("SimdMatmulAbt/1024")->Unit(benchmark::kMillisecond);
BENCHMARK(KernelAt1024<Kernel::SoftmaxRows, false>)->Name("ScalarSoftmaxRows/1024")->Unit(benchmark::kMillisecond);
BENCHMARK(KernelAt1024<Kernel::SoftmaxRows, true>)->Name("SimdSoftmaxRows/1024")->Unit(benchmark::kMillisecond);
BENCHMARK(KernelAt1024<Kernel::MatmulAb, false>)->Name("ScalarMatmulAb/1024")->Unit(benchmark::kMillisecond);
BENCHMARK(KernelAt1024<Kernel::MatmulAb, true>)->Name("SimdMatmulAb/1024")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
