// Computes article 001's worked example through the installed library and
// checks it against the formula: w_j = e^{s_j} / sum_l e^{s_l}, s = q.k_j / sqrt(2).
#include <attn/attn.hpp>

#include <cmath>
#include <cstdio>

int main() {
  const float q[] = {1, 0};
  const float k[] = {1, 0, 0, 1, 1, 1};
  const float v[] = {2, 0, 0, 2, 1, 1};
  const attn::AttentionTrace trace = attn::attention(q, k, v, {.n = 1, .m = 3, .d_k = 2, .d_v = 2});

  const double e = std::exp(1 / std::sqrt(2.0));
  const double w1 = e / (2 * e + 1), w2 = 1 / (2 * e + 1);
  const double out0 = 2 * w1 + w1, out1 = 2 * w2 + w1;
  const bool ok = std::fabs(trace.weights[0] - w1) < 1e-6 && std::fabs(trace.weights[1] - w2) < 1e-6 &&
                  std::fabs(trace.output[0] - out0) < 1e-5 && std::fabs(trace.output[1] - out1) < 1e-5;
  std::printf("weights %.3f %.3f %.3f output (%.3f, %.3f): %s\n", trace.weights[0], trace.weights[1],
              trace.weights[2], trace.output[0], trace.output[1], ok ? "ok" : "WRONG");

  try {
    const float short_k[] = {1, 0, 0, 1, 1};
    attn::attention(q, short_k, v, {.n = 1, .m = 3, .d_k = 2, .d_v = 2});
    std::printf("no error for a short k\n");
    return 1;
  } catch (const attn::ShapeError& error) {
    std::printf("short k rejected: %s\n", error.what());
  }
  return ok ? 0 : 1;
}
