// attention_bench — the native race (npm run bench; scripts/bench.sh), d = 64,
// n = m = 64, 256, 1024, 4096, one interleaved run (race.hpp):
//
//   project   attn::attention_output (the tiled path), linked as a user links
//             the library: this file is compiled without -march=native, against
//             the installed package when built standalone (scripts/bench.sh)
//   Eigen     eigen_attention.cpp at its best, two forms: the whole n x m score
//             matrix, and blocks of 128 query rows; the faster one is Eigen's figure
//   peak      the widest FMA kernel of this CPU (fma_peak.hpp), in the same rounds
//
// Every attention output is first checked against attn::reference::attention
// (double accumulation) on the first and the last kCheckRows query rows; a
// contender whose output is out of tolerance is reported WRONG and not timed.
// Flops: 4 n m d per call (2 n m d for QK^T, 2 n m d for PV).
//
//   attn_bench [--json FILE] [--sizes 64,256,1024,4096] [--rounds 7]
// A benchmark, not a test: prints figures, exits 0 unless it cannot run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "attn/attn.hpp"
#include "eigen_attention.hpp"
#include "fma_peak.hpp"
#include "race.hpp"

namespace {

constexpr std::size_t kWidth = 64;       // d = d_k = d_v
constexpr std::size_t kCheckRows = 128;  // query rows checked at each end
constexpr std::size_t kEigenBlockRows = 128;

// The tolerance rule of the whole bench (the same in bench/race/attention/workload.mjs):
// per element |x - reference| <= kAbsolute + kRelative * |reference|.
constexpr double kAbsolute = 1e-5;
constexpr double kRelative = 1e-4;

struct Problem {
  std::size_t n;
  attn::AttentionShape shape;
  std::vector<float> q, k, v;
  std::vector<std::size_t> checked_rows;  // query rows with a reference
  std::vector<double> reference;          // their outputs, checked_rows.size() x d
};

// Q, K, V ~ N(0, 1) from the core's generator; the reference on the checked rows
// (each output row depends on its own query row and on all of K and V).
Problem make_problem(std::size_t n) {
  Problem p{n, {n, n, kWidth, kWidth}, {}, {}, {}, {}, {}};
  attn::Rng rng(1000 + n);
  p.q = rng.normal_matrix(n, kWidth);
  p.k = rng.normal_matrix(n, kWidth);
  p.v = rng.normal_matrix(n, kWidth);
  auto check_block = [&](std::size_t first, std::size_t rows) {
    const std::vector<float> q_rows(p.q.begin() + first * kWidth, p.q.begin() + (first + rows) * kWidth);
    const auto trace = attn::reference::attention(q_rows, p.k, p.v, {rows, n, kWidth, kWidth});
    for (std::size_t r = 0; r < rows; ++r) p.checked_rows.push_back(first + r);
    p.reference.insert(p.reference.end(), trace.output.begin(), trace.output.end());
  };
  if (n <= 2 * kCheckRows) {
    check_block(0, n);
  } else {
    check_block(0, kCheckRows);
    check_block(n - kCheckRows, kCheckRows);
  }
  return p;
}

struct Check {
  bool ok = true;
  double max_error = 0;  // max |x - reference|
  std::size_t failures = 0;
};

Check check_output(const Problem& p, const float* out) {
  Check check;
  for (std::size_t r = 0; r < p.checked_rows.size(); ++r) {
    for (std::size_t c = 0; c < kWidth; ++c) {
      const double expected = p.reference[r * kWidth + c];
      const double actual = out[p.checked_rows[r] * kWidth + c];
      const double error = std::fabs(actual - expected);
      check.max_error = std::max(check.max_error, std::isnan(error) ? INFINITY : error);
      if (!(error <= kAbsolute + kRelative * std::fabs(expected))) ++check.failures;
    }
  }
  check.ok = check.failures == 0;
  return check;
}

double flops(std::size_t n) { return 4.0 * static_cast<double>(n) * static_cast<double>(n) * kWidth; }

struct Entry {
  std::string role;  // "project", "peer" (Eigen), "peak"
  std::string form;  // what exactly was measured
  bench::Contender contender;
  const std::vector<float>* output;  // what the call writes (nullptr for the peak)
  Check check = {};
  double flops_per_call = 0;
};

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

std::string json_numbers(const std::vector<double>& values) {
  std::ostringstream out;
  out << "[";
  for (std::size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
  return out.str() + "]";
}

std::vector<double> load_average() {
  double loads[3] = {0, 0, 0};
  if (getloadavg(loads, 3) != 3) return {};
  return {loads[0], loads[1], loads[2]};
}

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown";
}

std::vector<std::size_t> parse_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  std::stringstream stream(text);
  for (std::string item; std::getline(stream, item, ',');) sizes.push_back(std::stoul(item));
  return sizes;
}

// Samples per round: enough at small n, where one call is short and noisy.
std::size_t samples_for(std::size_t n) { return n <= 256 ? 9 : n <= 1024 ? 5 : 3; }

}  // namespace

int main(int argc, char** argv) {
  std::string json_path;
  std::vector<std::size_t> sizes{64, 256, 1024, 4096};
  std::size_t rounds = 7;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json" && i + 1 < argc) json_path = argv[++i];
    else if (arg == "--sizes" && i + 1 < argc) sizes = parse_sizes(argv[++i]);
    else if (arg == "--rounds" && i + 1 < argc) rounds = std::stoul(argv[++i]);
    else {
      std::fprintf(stderr, "usage: attn_bench [--json FILE] [--sizes 64,256,1024,4096] [--rounds 7]\n");
      return 2;
    }
  }

  const auto load_before = load_average();
  const auto kernels = fma_peak::supported_kernels();
  const fma_peak::Kernel& widest = kernels.front();
  volatile float peak_a = 0.999f, peak_b = 0.001f;  // opaque to the compiler
  // About 5 ms of work per peak call at ~200 GFLOP/s.
  const std::size_t peak_iterations = static_cast<std::size_t>(1e9 / widest.flops_per_iteration);

  // Every peak kernel of this CPU, raced against each other, for the record
  // (the attention races below include the widest one in their own rounds).
  std::vector<std::pair<std::string, double>> standalone_peaks;
  {
    std::vector<bench::Contender> peak_contenders;
    for (const auto& kernel : kernels) {
      const std::size_t iterations = static_cast<std::size_t>(5e8 / kernel.flops_per_iteration);
      peak_contenders.push_back({kernel.name, [&kernel, iterations, &peak_a, &peak_b] {
                                   bench::keep(kernel.run(iterations, peak_a, peak_b));
                                 }});
    }
    const auto timings = bench::run_race(peak_contenders, 3, 5);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      const double iterations = static_cast<double>(static_cast<std::size_t>(5e8 / kernels[i].flops_per_iteration));
      const double gflops = kernels[i].flops_per_iteration * iterations / timings[i].median_ms / 1e6;
      standalone_peaks.emplace_back(kernels[i].name, gflops);
      std::fprintf(stderr, "  peak %-24s %7.1f GFLOP/s\n", kernels[i].name.c_str(), gflops);
    }
  }

  std::ostringstream json;
  json << "{\n  \"workload\": \"attention\",\n  \"environment\": \"native\",\n  \"cpu\": " << json_string(cpu_model()) << ",\n  \"hardwareThreads\": "
       << std::thread::hardware_concurrency() << ",\n  \"eigenInstructionSets\": "
       << json_string(EigenAttention::instruction_sets()) << ",\n  \"eigenVersion\": " << json_string(EigenAttention::version())
       << ",\n  \"d\": " << kWidth << ",\n  \"rounds\": " << rounds << ",\n  \"tolerance\": {\"absolute\": "
       << kAbsolute << ", \"relative\": " << kRelative << "},\n  \"standalonePeaks\": [";
  for (std::size_t i = 0; i < standalone_peaks.size(); ++i) {
    json << (i ? ", " : "") << "{\"name\": " << json_string(standalone_peaks[i].first)
         << ", \"gflops\": " << standalone_peaks[i].second << "}";
  }
  json << "],\n  \"sizes\": [";

  const unsigned hardware_threads = std::thread::hardware_concurrency();
  std::fprintf(stderr, "  Eigen %s, instruction sets: %s\n", EigenAttention::version().c_str(),
               EigenAttention::instruction_sets().c_str());
  for (std::size_t size_index = 0; size_index < sizes.size(); ++size_index) {
    const std::size_t n = sizes[size_index];
    const Problem p = make_problem(n);
    std::vector<float> project_out(n * kWidth), project_threads_out(n * kWidth), eigen_whole_out(n * kWidth),
        eigen_block_out(n * kWidth);
    EigenAttention eigen_whole(n, n, kWidth, n), eigen_blocks(n, n, kWidth, kEigenBlockRows);

    std::vector<Entry> entries;
    // The project as a user links it: attn::attention_output on one thread, and
    // on every thread of the machine (AttentionOptions::threads = 0).
    attn::AttentionOptions one_thread, all_threads;
    one_thread.threads = 1;
    all_threads.threads = 0;
    entries.push_back({"project", "attn::attention_output (tiled), 1 thread",
                       {"project", [&] {
                          attn::attention_output(p.q, p.k, p.v, p.shape, one_thread, project_out);
                          bench::keep(project_out.data());
                        }},
                       &project_out, {}, flops(n)});
    if (hardware_threads > 1) {
      entries.push_back({"project", "attn::attention_output (tiled), " + std::to_string(hardware_threads) + " threads",
                         {"project-all-threads", [&] {
                            attn::attention_output(p.q, p.k, p.v, p.shape, all_threads, project_threads_out);
                            bench::keep(project_threads_out.data());
                          }},
                         &project_threads_out, {}, flops(n)});
    }
    entries.push_back({"peer", "Eigen, whole n x m score matrix, 1 thread",
                       {"eigen-whole", [&] {
                          eigen_whole.run(p.q.data(), p.k.data(), p.v.data(), eigen_whole_out.data());
                          bench::keep(eigen_whole_out.data());
                        }},
                       &eigen_whole_out, {}, flops(n)});
    if (n > kEigenBlockRows) {
      entries.push_back({"peer", "Eigen, blocks of 128 query rows, 1 thread",
                         {"eigen-blocks", [&] {
                            eigen_blocks.run(p.q.data(), p.k.data(), p.v.data(), eigen_block_out.data());
                            bench::keep(eigen_block_out.data());
                          }},
                         &eigen_block_out, {}, flops(n)});
    }
    entries.push_back({"peak", widest.name,
                       {"fma-peak", [&] { bench::keep(widest.run(peak_iterations, peak_a, peak_b)); }},
                       nullptr, {}, widest.flops_per_iteration * static_cast<double>(peak_iterations)});

    // Check each attention output once before timing it.
    std::vector<bench::Contender> racing;
    std::vector<Entry*> racing_entries;
    for (auto& entry : entries) {
      if (entry.role != "peak") {
        entry.contender.call();
        entry.check = check_output(p, entry.output->data());
        if (!entry.check.ok) {
          std::fprintf(stderr, "  n=%zu %s: WRONG, %zu elements out of tolerance (max error %.3g); not timed\n", n,
                       entry.form.c_str(), entry.check.failures, entry.check.max_error);
          continue;
        }
      }
      racing.push_back(entry.contender);
      racing_entries.push_back(&entry);
    }
    const auto timings = bench::run_race(racing, rounds, samples_for(n));

    json << (size_index ? "," : "") << "\n    {\"n\": " << n << ", \"m\": " << n << ", \"samplesPerRound\": "
         << samples_for(n) << ", \"contenders\": [";
    bool first = true;
    for (auto& entry : entries) {
      const auto timing = std::find_if(timings.begin(), timings.end(),
                                       [&](const bench::RaceTiming& t) { return t.name == entry.contender.name; });
      json << (first ? "" : ",") << "\n      {\"name\": " << json_string(entry.contender.name)
           << ", \"role\": " << json_string(entry.role)
           << (entry.role == "peer" ? ", \"library\": \"Eigen\"" : "") << ", \"label\": " << json_string(entry.form)
           << ", \"flopsPerCall\": " << entry.flops_per_call << ", \"ok\": " << (entry.check.ok ? "true" : "false")
           << ", \"maxError\": " << (std::isfinite(entry.check.max_error) ? entry.check.max_error : -1);
      if (timing != timings.end()) {
        json << ", \"callsPerSample\": " << timing->calls_per_sample << ", \"medianMs\": " << timing->median_ms
             << ", \"roundMs\": " << json_numbers(timing->round_ms);
        std::fprintf(stderr, "  n=%-5zu %-44s %10.4f ms %7.1f GFLOP/s\n", n, entry.form.c_str(), timing->median_ms,
                     entry.flops_per_call / timing->median_ms / 1e6);
      }
      json << "}";
      first = false;
    }
    json << "]}";
  }
  const auto load_after = load_average();
  json << "\n  ],\n  \"loadAverageBefore\": " << json_numbers(load_before) << ",\n  \"loadAverageAfter\": "
       << json_numbers(load_after) << "\n}\n";

  if (!json_path.empty()) {
    std::ofstream(json_path) << json.str();
  } else {
    std::fputs(json.str().c_str(), stdout);
  }
  return 0;
}
