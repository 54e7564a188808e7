// first_call — how much slower the first attention call of a fresh process is
// than the later ones (issue 11: within 1.5x at n <= 256, where the page calls
// attention constantly). One process measures one path at one n:
//   build/native/bin/attn_first_call <path> <n> [threads]
//     path: tiled (attn::attention_output into a span) or full (attention_output_full into a span)
// and prints the first call's time, the median of the next 200 and their ratio.
// Inputs are made before the first call (d_k = d_v = 64); what the first call
// pays is the library's own start-up: choosing kernels, first touching its
// buffers, starting threads. Run it several times: each run is one sample.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "attn/attn.hpp"

namespace {

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || (std::strcmp(argv[1], "tiled") != 0 && std::strcmp(argv[1], "full") != 0)) {
    std::fprintf(stderr, "usage: %s tiled|full <n> [threads]\n", argv[0]);
    return 2;
  }
  const bool tiled = std::strcmp(argv[1], "tiled") == 0;
  const std::size_t n = std::strtoull(argv[2], nullptr, 10), d = 64;
  attn::AttentionOptions options;
  options.threads = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 0;

  // inputs without the library (its random stream would warm it up): a fixed pattern
  std::vector<float> q(n * d), k(n * d), v(n * d), output(n * d);
  for (std::size_t i = 0; i < q.size(); ++i) {
    q[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f - 0.5f;
    k[i] = static_cast<float>((i * 104729) % 1000) / 1000.0f - 0.5f;
    v[i] = static_cast<float>((i * 15485863) % 1000) / 1000.0f - 0.5f;
  }
  const attn::AttentionShape shape{n, n, d, d};
  auto call = [&] {
    if (tiled) {
      attn::attention_output(q, k, v, shape, options, output);
    } else {
      attn::attention_output_full(q, k, v, shape, options, output);
    }
  };

  auto start = std::chrono::steady_clock::now();
  call();
  const double first = milliseconds_since(start);
  std::vector<double> later(200);
  for (double& time : later) {
    start = std::chrono::steady_clock::now();
    call();
    time = milliseconds_since(start);
  }
  std::nth_element(later.begin(), later.begin() + 100, later.end());
  const double median = later[100];
  std::printf("%-5s n=%-4zu threads=%zu  first %.4f ms  later (median of 200) %.4f ms  first/later %.2f\n",
              argv[1], n, options.threads, first, median, first / median);
  return 0;
}
