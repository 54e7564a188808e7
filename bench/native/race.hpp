// race.hpp — an interleaved race of contenders on one problem, natively (the
// same method as the wasm race, bench/race/harness.mjs):
//
//   for round r = 1..R:
//     for sample s = 1..S:
//       for each contender, in an order rotated each sample:
//         time one sample = `calls` calls in a row (calls chosen at warm-up so that
//         one sample lasts >= kMinSampleMs; 1 for any call longer than that)
//     round median of each contender = median of its S samples (ms per call)
//   figure = median over rounds of the round medians;
//   ratio A/B = median over rounds of (round median A / round median B), so both
//   sides of a ratio come from the same minutes of this shared machine.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace bench {

inline constexpr double kMinSampleMs = 1.0;

// Keeps a value alive and opaque to the optimizer (as Google Benchmark's DoNotOptimize).
template <class T>
inline void keep(T const& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

struct Contender {
  std::string name;
  std::function<void()> call;  // one call; keeps its result with keep()
};

struct RaceTiming {
  std::string name;
  std::size_t calls_per_sample = 1;
  std::vector<double> round_ms;  // the median ms per call of each round
  double median_ms = 0;          // median of round_ms
};

inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

inline double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs the race: `rounds` rounds of `samples` samples per contender, interleaved.
inline std::vector<RaceTiming> run_race(const std::vector<Contender>& contenders, std::size_t rounds,
                                        std::size_t samples) {
  std::vector<RaceTiming> timings(contenders.size());
  for (std::size_t c = 0; c < contenders.size(); ++c) {
    timings[c].name = contenders[c].name;
    contenders[c].call();  // warm-up (first touch of buffers, caches)
    const double start = now_ms();
    contenders[c].call();
    const double once = std::max(now_ms() - start, 1e-6);
    timings[c].calls_per_sample = once >= kMinSampleMs ? 1 : static_cast<std::size_t>(kMinSampleMs / once) + 1;
  }
  for (std::size_t round = 0; round < rounds; ++round) {
    std::vector<std::vector<double>> sample_ms(contenders.size());
    for (std::size_t sample = 0; sample < samples; ++sample) {
      for (std::size_t i = 0; i < contenders.size(); ++i) {
        const std::size_t c = (i + sample + round) % contenders.size();
        const std::size_t calls = timings[c].calls_per_sample;
        const double start = now_ms();
        for (std::size_t call = 0; call < calls; ++call) contenders[c].call();
        sample_ms[c].push_back((now_ms() - start) / static_cast<double>(calls));
      }
    }
    for (std::size_t c = 0; c < contenders.size(); ++c) timings[c].round_ms.push_back(median(sample_ms[c]));
  }
  for (auto& timing : timings) timing.median_ms = median(timing.round_ms);
  return timings;
}

// Median over rounds of a.round_ms[r] / b.round_ms[r]: how many times slower a is than b.
inline double paired_ratio(const RaceTiming& a, const RaceTiming& b) {
  std::vector<double> ratios;
  for (std::size_t r = 0; r < std::min(a.round_ms.size(), b.round_ms.size()); ++r) {
    ratios.push_back(a.round_ms[r] / b.round_ms[r]);
  }
  return median(ratios);
}

}  // namespace bench
