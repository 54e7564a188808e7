// adam.cpp — the Adam update (formulas in attn/adam.hpp). Compiled with
// -ffp-contract=off: every * and + rounds on its own, as in wasm.
#include "attn/adam.hpp"

#include <cmath>
#include <string>

#include "validation.hpp"
#include "attn/error.hpp"

namespace attn {

namespace {

void require_positive(const char* name, float value) {
  if (!std::isfinite(value) || !(value > 0.0f)) {
    throw ValueError(std::string(name) + ": expected a finite number > 0, got " + detail::describe_value(value));
  }
}

void require_decay(const char* name, float value) {
  if (!(value >= 0.0f && value < 1.0f)) {
    throw ValueError(std::string(name) + ": expected a number in [0, 1), got " + detail::describe_value(value));
  }
}

}  // namespace

Adam::Adam(std::size_t parameter_count, const AdamOptions& options)
    : options_(options) {
  detail::require_dimension("parameter_count", parameter_count);
  require_positive("learning_rate", options.learning_rate);
  require_positive("epsilon", options.epsilon);
  require_decay("beta1", options.beta1);
  require_decay("beta2", options.beta2);
  if (!(options.weight_decay >= 0.0f && options.learning_rate * options.weight_decay < 1.0f)) {
    throw ValueError("weight_decay: expected a number >= 0 with learning_rate * weight_decay < 1, got " +
                     detail::describe_value(options.weight_decay));
  }
  first_moment_.assign(parameter_count, 0.0f);
  second_moment_.assign(parameter_count, 0.0f);
}

void Adam::step(std::span<float> parameters, FloatSpan gradients) {
  const std::size_t count = first_moment_.size();
  detail::require_length("parameters", FloatSpan(parameters.data(), parameters.size()), "parameter_count", count);
  detail::require_length("gradients", gradients, "parameter_count", count);

  ++steps_;
  beta1_power_ *= options_.beta1;
  beta2_power_ *= options_.beta2;
  // θ = θ (1 - α λ); θ -= α m̂ / (sqrt(v̂) + ε) with m̂ = m / (1 - β1^t), v̂ = v / (1 - β2^t)
  const float step_size = static_cast<float>(options_.learning_rate / (1.0 - beta1_power_));
  const float inverse_correction2 = static_cast<float>(1.0 / (1.0 - beta2_power_));
  const float beta1 = options_.beta1, beta2 = options_.beta2, epsilon = options_.epsilon;
  const float one_minus_beta1 = 1.0f - beta1, one_minus_beta2 = 1.0f - beta2;
  float* m = first_moment_.data();
  float* v = second_moment_.data();
  float* theta = parameters.data();
  const float* g = gradients.data();
  const float decay = 1.0f - options_.learning_rate * options_.weight_decay;  // 1 - α λ
  const bool decays = options_.weight_decay != 0.0f;
  for (std::size_t i = 0; i < count; ++i) {
    if (decays) theta[i] *= decay;
    m[i] = beta1 * m[i] + one_minus_beta1 * g[i];
    v[i] = beta2 * v[i] + one_minus_beta2 * (g[i] * g[i]);
    theta[i] -= step_size * m[i] / (std::sqrt(v[i] * inverse_correction2) + epsilon);
  }
}

}  // namespace attn
