// learning_bench — the figures of the learning code (a program that prints, not
// a test):
//   1. attention backward at d = 64: time of the backward pass against the
//      forward pass (full path: attn::attention_backward against
//      attn::attention_output_full; tiled path: attn::attention_backward_tiled
//      against attn::attention_forward_tiled, which is attn::attention_output's
//      forward with the row log-sum-exp), one thread, and the peak heap of each call;
//   2. the training step: steps per second of attn::Trainer with the default
//      options, and the heap it allocates per step once warm (should be 0);
//   3. learning: steps and seconds of training (evaluation excluded) until the
//      held-out accuracy target is met and the probe's alignment is right,
//      over seeds 1..N.
//   build/native/bin/learning_bench [max_n=4096] [seeds=20] [figures.json]
// With a third argument it also writes the figures of 1 and 2 as JSON (read by
// bench/race/training/report.mjs, printed by npm run bench).
// Timings interleave the contenders call by call, report the median of the
// rounds, and print the load average: the machine is shared.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "attn/testing.hpp"
#include "peak_memory.hpp"

namespace {

double seconds_of(const std::function<void()>& call) {
  const auto start = std::chrono::steady_clock::now();
  call();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

void read_load(double (&load)[3]) {
  load[0] = load[1] = load[2] = 0;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
    std::fclose(f);
  }
}

void print_load(const double (&load)[3]) { std::printf("load average %.2f %.2f %.2f\n", load[0], load[1], load[2]); }

struct BackwardRow {
  std::size_t n = 0;
  double full_forward_ms = 0, full_backward_ms = 0, tiled_forward_ms = 0, tiled_backward_ms = 0;
  std::size_t full_peak_bytes = 0, tiled_peak_bytes = 0;
};

struct StepFigure {
  std::string task;
  double us_per_step = 0;
  std::size_t heap_bytes = 0;
};

std::vector<BackwardRow> attention_backward_figures(std::size_t max_n) {
  std::vector<BackwardRow> rows;
  constexpr std::size_t d = 64;
  std::printf("\n== attention forward and backward, d = %zu, one thread (median of 3 interleaved rounds)\n", d);
  std::printf("%6s | %12s %12s %7s | %12s %12s %7s | %10s %10s %7s\n", "n", "full fwd ms", "full bwd ms", "ratio",
              "tiled fwd ms", "tiled bwd ms", "ratio", "full MiB", "tiled MiB", "tiled/full");
  for (std::size_t n = 256; n <= max_n; n *= 4) {
    const attn::AttentionShape shape{n, n, d, d};
    attn::AttentionOptions one_thread;
    one_thread.threads = 1;  // as in wasm; the tiled passes would otherwise split over the cores
    attn::Rng rng(n);
    const auto q = rng.normal_matrix(n, d), k = rng.normal_matrix(n, d), v = rng.normal_matrix(n, d);
    const auto grad_output = rng.normal_matrix(n, d);
    const int rounds = 3;
    std::vector<double> full_forward, full_backward, tiled_forward, tiled_backward;
    std::size_t full_peak = 0, tiled_peak = 0;
    for (int round = 0; round < rounds; ++round) {
      full_forward.push_back(seconds_of([&] { (void)attn::attention_output_full(q, k, v, shape, one_thread); }));
      peak_memory::reset();
      full_backward.push_back(seconds_of([&] { (void)attn::attention_backward(q, k, v, grad_output, shape, one_thread); }));
      full_peak = peak_memory::peak_since_reset();
      attn::TiledAttentionForward forward;
      peak_memory::reset();
      tiled_forward.push_back(seconds_of([&] { forward = attn::attention_forward_tiled(q, k, v, shape, one_thread); }));
      tiled_backward.push_back(
          seconds_of([&] { (void)attn::attention_backward_tiled(q, k, v, grad_output, forward, shape, one_thread); }));
      tiled_peak = peak_memory::peak_since_reset();  // forward and backward together
    }
    const double ff = median(full_forward) * 1e3, fb = median(full_backward) * 1e3;
    const double tf = median(tiled_forward) * 1e3, tb = median(tiled_backward) * 1e3;
    std::printf("%6zu | %12.2f %12.2f %7.2f | %12.2f %12.2f %7.2f | %10.1f %10.1f %7.3f\n", n, ff, fb, fb / ff, tf, tb,
                tb / tf, full_peak / 1048576.0, tiled_peak / 1048576.0,
                static_cast<double>(tiled_peak) / static_cast<double>(full_peak));
    rows.push_back({n, ff, fb, tf, tb, full_peak, tiled_peak});
  }
  std::printf("(full bwd recomputes P from Q and K; tiled MiB counts the tiled forward and backward together,\n"
              " with the saved output and log-sum-exp; the n x d inputs are not counted)\n");
  return rows;
}

std::vector<StepFigure> training_step_figures() {
  std::vector<StepFigure> figures;
  std::printf("\n== training step, default options (median of 5 rounds of 200 steps, CPU time)\n");
  for (const auto task : {attn::TaskKind::Reverse, attn::TaskKind::Translate}) {
    attn::TrainerOptions options;
    options.task = task;
    attn::Trainer trainer(options);
    trainer.step(20);  // warm: the workspace is allocated
    std::vector<double> per_step;
    per_step.reserve(5);
    peak_memory::reset();
    for (int round = 0; round < 5; ++round) {
      const std::clock_t start = std::clock();
      trainer.step(200);
      per_step.push_back(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC / 200);
    }
    const std::size_t heap_bytes = peak_memory::peak_since_reset();  // before printf, which allocates its buffer
    const attn::TrainerOptions& o = trainer.options();
    std::printf("%-9s d_model %zu, heads %zu, batch %zu: %.1f us/step, %.0f steps/s; heap allocated by 1000 warm steps: "
                "%zu bytes\n",
                trainer.task().name().c_str(), *o.d_model, *o.heads, *o.batch_size, median(per_step) * 1e6,
                1.0 / median(per_step), heap_bytes);
    figures.push_back({trainer.task().name(), median(per_step) * 1e6, heap_bytes});
  }
  return figures;
}

void write_json(const char* path, const std::vector<BackwardRow>& rows, const std::vector<StepFigure>& steps,
                const double (&load)[3]) {
  std::FILE* f = std::fopen(path, "w");
  if (!f) {
    std::perror(path);
    return;
  }
  std::fprintf(f, "{\"workload\":\"backward\",\"environment\":\"native\",\"d\":64,\"simdWidth\":%zu,"
               "\"loadAverageBefore\":[%.2f,%.2f,%.2f],\"rows\":[",
               attn::testing::active_kernel_variant().lanes, load[0], load[1], load[2]);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const BackwardRow& r = rows[i];
    std::fprintf(f, "%s{\"n\":%zu,\"fullForwardMs\":%.4f,\"fullBackwardMs\":%.4f,\"tiledForwardMs\":%.4f,"
                 "\"tiledBackwardMs\":%.4f,\"fullPeakBytes\":%zu,\"tiledPeakBytes\":%zu}",
                 i ? "," : "", r.n, r.full_forward_ms, r.full_backward_ms, r.tiled_forward_ms, r.tiled_backward_ms,
                 r.full_peak_bytes, r.tiled_peak_bytes);
  }
  std::fprintf(f, "],\"trainingSteps\":[");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    std::fprintf(f, "%s{\"task\":\"%s\",\"usPerStep\":%.2f,\"heapBytesPer1000Steps\":%zu}", i ? "," : "",
                 steps[i].task.c_str(), steps[i].us_per_step, steps[i].heap_bytes);
  }
  std::fprintf(f, "]}\n");
  std::fclose(f);
}

// Steps in chunks of 10 (CPU time of training only) until held-out accuracy >=
// target and every probe row's largest weight is on its aligned source position.
struct Learned {
  std::size_t steps = 0;
  double seconds = 0;
  bool reached = false;
};

Learned learn(attn::TaskKind task, std::uint64_t seed, double target, std::size_t max_steps) {
  attn::TrainerOptions options;
  options.task = task, options.seed = seed;
  attn::Trainer trainer(options);
  Learned result;
  while (trainer.steps_taken() < max_steps) {
    const std::clock_t start = std::clock();
    trainer.step(10);
    result.seconds += static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    result.steps = trainer.steps_taken();
    if (trainer.evaluate().accuracy < target) continue;
    const auto alignment = trainer.task().alignment();
    if (trainer.probe().strongest_sources() == std::vector<std::size_t>(alignment.begin(), alignment.end())) {
      result.reached = true;
      return result;
    }
  }
  return result;
}

void learning_figures(int seeds) {
  std::printf("\n== learning to the targets, default options, seeds 1..%d (training CPU time, checked every 10 steps)\n",
              seeds);
  for (const auto task : {attn::TaskKind::Reverse, attn::TaskKind::Translate}) {
    const double target = task == attn::TaskKind::Reverse ? 0.98 : 0.95;
    std::vector<double> steps, seconds;
    int reached = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
      const Learned l = learn(task, static_cast<std::uint64_t>(seed), target, 3000);
      if (!l.reached) continue;
      ++reached;
      steps.push_back(static_cast<double>(l.steps));
      seconds.push_back(l.seconds);
    }
    std::printf("%-9s accuracy >= %.2f and aligned probe: %d/%d seeds; steps median %.0f, max %.0f; seconds median "
                "%.4f, max %.4f\n",
                task == attn::TaskKind::Reverse ? "reverse" : "translate", target, reached, seeds,
                steps.empty() ? 0.0 : median(steps), steps.empty() ? 0.0 : *std::max_element(steps.begin(), steps.end()),
                seconds.empty() ? 0.0 : median(seconds),
                seconds.empty() ? 0.0 : *std::max_element(seconds.begin(), seconds.end()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t max_n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 4096;
  const int seeds = argc > 2 ? std::atoi(argv[2]) : 20;
  std::printf("learning_bench: SIMD width %zu floats\n", attn::testing::active_kernel_variant().lanes);
  double load[3];
  read_load(load);
  print_load(load);
  const auto rows = attention_backward_figures(max_n);
  const auto steps = training_step_figures();
  if (argc > 3) write_json(argv[3], rows, steps, load);
  learning_figures(seeds);
  double load_after[3];
  read_load(load_after);
  print_load(load_after);
}
