// Fuzz target: Adam (attn::Adam): hostile options (learning rate, betas,
// epsilon, weight decay), parameter counts, parameters and gradients, over a
// few steps.
//
// Oracles:
// - only documented errors; a step refused leaves the parameters as they were
//   (bit for bit), and the optimizer usable
// - after a step every parameter is finite
// - the first step is the formula: m^ = g, v^ = g^2, so
//   theta' = theta (1 - a l) - a g / (|g| + e), within 16 u (|theta| + a)
//   + 4 2^-149 (1 + 1 / (|g| + e)) (denormal intermediates of tiny learning
//   rates, then divided by |g| + e),
//   where the float second moment (1 - b2) g^2 does not underflow (below
//   FLT_MIN float Adam, like any float32 Adam, divides by e alone: with a
//   denormal e that is far from the formula, as it is by definition)
#include <cstdint>
#include <cstring>

#include "attention_call.hpp"
#include "attn/adam.hpp"

using namespace attn_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::size_t count = in.byte() % 64 == 63 ? 0 : 1 + in.below(16);
  attn::AdamOptions options;
  if (in.flag()) options.learning_rate = in.value();
  if (in.flag()) options.beta1 = in.value();
  if (in.flag()) options.beta2 = in.value();
  if (in.flag()) options.epsilon = in.value();
  if (in.flag()) options.weight_decay = in.value();

  if (std::getenv("ATTN_FUZZ_VERBOSE"))
    std::fprintf(stderr, "count %zu lr %.9g beta1 %.9g beta2 %.9g epsilon %.9g weight_decay %.9g\n", count,
                 options.learning_rate, options.beta1, options.beta2, options.epsilon, options.weight_decay);
  std::optional<attn::Adam> adam;
  if (!documented([&] { adam.emplace(count, options); })) return 0;
  std::vector<float> theta = in.values(count);
  if (in.byte() % 32 == 31) theta.push_back(0.0f);
  const std::size_t steps = 1 + in.below(4);
  bool first = true;
  for (std::size_t s = 0; s < steps; ++s) {
    std::vector<float> g = in.values(count);
    if (in.byte() % 32 == 31) g.pop_back();
    const std::vector<float> before = theta;
    if (!documented([&] { adam->step(theta, g); })) {
      require(std::memcmp(before.data(), theta.data(), theta.size() * sizeof(float)) == 0,
              "Adam::step refused but changed the parameters");
      continue;
    }
    require_finite(theta, "parameters");
    if (first) {
      const double a = options.learning_rate, decay = 1.0 - static_cast<double>(a) * options.weight_decay;
      for (std::size_t i = 0; i < count; ++i) {
        const double gi = g[i];
        const float second_moment = (1.0f - options.beta2) * (g[i] * g[i]);
        if (second_moment < FLT_MIN && gi != 0) continue;
        const double expected = before[i] * decay - a * gi / (std::fabs(gi) + options.epsilon);
        // a denormal step * m (tiny learning rates) loses up to 2^-150, then divided by |g| + e
        const double tolerance = 16 * 0x1p-24 * (std::fabs(static_cast<double>(before[i])) + a) +
                                 4 * 0x1p-149 * (1 + 1 / (std::fabs(gi) + options.epsilon));
        if (!(std::fabs(theta[i] - expected) <= tolerance))
          finding("Adam's first step: parameters[%zu] = %.9g, expected %.9g (theta %.9g, g %.9g)", i, theta[i], expected,
                  before[i], gi);
      }
    }
    first = false;
  }
  return 0;
}
