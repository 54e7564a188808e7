// adam.cpp — the Adam update (formulas in attn/adam.hpp). Compiled with
// -ffp-contract=off: every * and + rounds on its own, as in wasm.
#include "attn/adam.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
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

Adam::Adam(std::size_t parameter_count, const AdamOptions& options, std::vector<unsigned char> decays)
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
  if (!decays.empty() && decays.size() != parameter_count) {
    throw ShapeError("decays: expected parameter_count = " + std::to_string(parameter_count) + " entries, got " +
                     std::to_string(decays.size()));
  }
  // θ (1 - α λ) where the decay applies (every parameter when no mask is given), θ * 1 elsewhere
  // (1 - α λ is exactly 1 when λ = 0).
  decay_factors_.assign(parameter_count, 1.0f - options.learning_rate * options.weight_decay);
  for (std::size_t i = 0; i < decays.size(); ++i) {
    if (decays[i] == 0) decay_factors_[i] = 1.0f;
  }
  first_moment_.assign(parameter_count, 0.0f);
  second_moment_.assign(parameter_count, 0.0f);
}

namespace {

// Whether x is an infinity or a NaN, as 0 or 1 from its exponent bits: an
// integer the loops below can OR together, which the compiler vectorises (a
// branch or a throw in the loop would keep it scalar).
inline unsigned nonfinite_bit(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return (bits & 0x7f800000u) == 0x7f800000u ? 1u : 0u;
}

// The step's constants: θ = θ f; m = β1 m + (1 - β1) g; v = β2 v + (1 - β2) g²;
// θ -= a m / (sqrt(v c2) + ε), with a = α / (1 - β1^t), c2 = 1 / (1 - β2^t), f the decay factor.
struct StepConstants {
  float step_size, inverse_correction2, beta1, beta2, one_minus_beta1, one_minus_beta2, epsilon;
};

// The update of one parameter, on (θ, m, v) passed in and out: the one formula every loop below runs.
inline void update_one(const StepConstants& c, float decay_factor, float g, float& theta, float& m, float& v) {
  theta *= decay_factor;
  m = c.beta1 * m + c.one_minus_beta1 * g;
  v = c.beta2 * v + c.one_minus_beta2 * (g * g);
  theta -= c.step_size * m / (std::sqrt(v * c.inverse_correction2) + c.epsilon);
}

// Every update on copies: 1 if one leaves the float range (or starts outside
// it: a parameter or a gradient that is not finite), else 0.
unsigned any_update_nonfinite(const StepConstants& c, const float* theta, const float* m, const float* v, const float* g,
                              const float* decay_factor, std::size_t count) {
  unsigned nonfinite = 0;
  for (std::size_t i = 0; i < count; ++i) {
    float theta_i = theta[i], m_i = m[i], v_i = v[i];
    update_one(c, decay_factor[i], g[i], theta_i, m_i, v_i);
    nonfinite |= nonfinite_bit(m_i) | nonfinite_bit(v_i) | nonfinite_bit(v_i * c.inverse_correction2) | nonfinite_bit(theta_i);
  }
  return nonfinite;
}

// The same updates in place. The arrays never overlap (m, v and the factors
// are Adam's own; step() refuses gradients that overlap the parameters):
// restrict says so, and Clang then vectorises the loop for WebAssembly (with
// five arrays it would not check their overlaps at run time, and kept it scalar).
void update_in_place(const StepConstants& c, float* __restrict theta, float* __restrict m, float* __restrict v,
                     const float* __restrict g, const float* __restrict decay_factor, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) update_one(c, decay_factor[i], g[i], theta[i], m[i], v[i]);
}

}  // namespace

void Adam::step(std::span<float> parameters, FloatSpan gradients) {
  const std::size_t count = first_moment_.size();
  const FloatSpan theta_in(parameters.data(), parameters.size());
  detail::require_length("parameters", theta_in, "parameter_count", count);
  detail::require_length("gradients", gradients, "parameter_count", count);
  // (std::less: a total order on pointers into different arrays.)
  const std::less<const float*> before;
  if (before(gradients.data(), theta_in.data() + count) && before(theta_in.data(), gradients.data() + count)) {
    throw ValueError("gradients: expected an array apart from parameters, got one that overlaps it");
  }

  const double beta1_power = beta1_power_ * options_.beta1, beta2_power = beta2_power_ * options_.beta2;
  // θ = θ (1 - α λ); θ -= α m̂ / (sqrt(v̂) + ε) with m̂ = m / (1 - β1^t), v̂ = v / (1 - β2^t)
  const StepConstants c{static_cast<float>(options_.learning_rate / (1.0 - beta1_power)),
                        static_cast<float>(1.0 / (1.0 - beta2_power)),
                        options_.beta1,
                        options_.beta2,
                        1.0f - options_.beta1,
                        1.0f - options_.beta2,
                        options_.epsilon};
  if (!std::isfinite(c.step_size)) {
    throw ValueError("learning_rate: expected a rate whose step learning_rate / (1 - beta1^t) fits in a float, got " +
                     detail::describe_value(options_.learning_rate) + " (step " + std::to_string(steps_ + 1) + ": " +
                     detail::describe_value(options_.learning_rate / (1.0 - beta1_power)) + ")");
  }
  const float* g = gradients.data();
  const float* decay_factor = decay_factors_.data();
  float* m = first_moment_.data();
  float* v = second_moment_.data();
  float* theta = parameters.data();

  // First every update on copies, only to see whether one leaves the float
  // range, so that such a step is refused before anything changes; then the
  // same arithmetic in place (the same bits). Both loops vectorise.
  if (any_update_nonfinite(c, theta, m, v, g, decay_factor, count) != 0) {
    // Refused: the error names the first entry at fault (rare, so checked again one by one here).
    detail::require_finite("parameters", theta_in);
    detail::require_finite("gradients", gradients);
    for (std::size_t i = 0; i < count; ++i) {
      float theta_i = theta[i], m_i = m[i], v_i = v[i];
      update_one(c, decay_factor[i], g[i], theta_i, m_i, v_i);
      if (!std::isfinite(m_i) || !std::isfinite(v_i) || !std::isfinite(v_i * c.inverse_correction2)) {
        throw ValueError("gradients[" + std::to_string(i) + "]: expected a gradient whose moments fit in a float (g^2 " +
                         "and its running mean below 3.4e+38, |g| below about 1.8e+19), got " +
                         detail::describe_value(g[i]));
      }
      if (!std::isfinite(theta_i)) {
        throw ValueError("parameters[" + std::to_string(i) + "]: the update gives " +
                         detail::describe_value(static_cast<double>(theta[i]) * decay_factor[i] -
                                                static_cast<double>(c.step_size) * m_i /
                                                    (std::sqrt(static_cast<double>(v_i) * c.inverse_correction2) + c.epsilon)) +
                         ", beyond the float range (|x| <= 3.40282347e+38): learning_rate " +
                         detail::describe_value(options_.learning_rate) + " is too large for it");
      }
    }
  }
  update_in_place(c, theta, m, v, g, decay_factor, count);
  ++steps_;
  beta1_power_ = beta1_power;
  beta2_power_ = beta2_power;
}

}  // namespace attn
