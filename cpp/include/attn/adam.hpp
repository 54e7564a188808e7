// attn/adam.hpp — the Adam optimizer (Kingma and Ba 2015, Algorithm 1), with
// decoupled weight decay (AdamW, Loshchilov and Hutter 2019) when λ > 0.
//
// For step t = 1, 2, ... and every parameter θ with gradient g:
//   θ = θ (1 - α λ)                    decoupled weight decay (none when λ = 0; only the
//                                      parameters the decay mask selects, when one is given)
//   m = β1 m + (1 - β1) g              first moment
//   v = β2 v + (1 - β2) g^2            second moment
//   m̂ = m / (1 - β1^t),  v̂ = v / (1 - β2^t)   bias corrections
//   θ = θ - α m̂ / (sqrt(v̂) + ε)
// In float, from + - * / and sqrt only (IEEE-exact), compiled without fused
// multiply-add: the same gradients give the same parameters, bit for bit, in
// every build. β1^t and β2^t are kept by repeated multiplication in double.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "attn/shapes.hpp"

namespace attn {

struct AdamOptions {
  float learning_rate = 1e-3f;  // α
  float beta1 = 0.9f;           // β1
  float beta2 = 0.999f;         // β2
  float epsilon = 1e-8f;        // ε
  float weight_decay = 0.0f;    // λ (AdamW); 0 is plain Adam
};

class Adam {
 public:
  // Moments for `parameter_count` parameters, all 0. `decays`: 1 for each
  // parameter weight decay applies to, 0 for the others (the model engine
  // decays matrices only: layers/parameters.hpp); empty: every parameter.
  // ShapeError if it is given with another length. ValueError unless
  // learning_rate and epsilon are finite and > 0, 0 <= beta < 1 and 0 <= α λ < 1
  // ("learning_rate: expected a finite number > 0, got 0"); ShapeError if
  // parameter_count is 0.
  Adam(std::size_t parameter_count, const AdamOptions& options = {}, std::vector<unsigned char> decays = {});

  // One update of `parameters` from `gradients` (both parameter_count long,
  // else ShapeError naming them). ValueError, and nothing changed, if either
  // holds NaN or an infinity ("gradients[2]: expected a finite number, got
  // NaN"), if a gradient's moments would leave the float range (|g| above
  // about 1.8e19: g^2 overflows), or if the update would ("parameters[0]:
  // the update gives 1e+40, beyond the float range ...": the learning rate is
  // too large for these numbers), or if the gradients share memory with the
  // parameters ("gradients: expected an array apart from parameters, got one
  // that overlaps it"). Every parameter it leaves is finite.
  void step(std::span<float> parameters, FloatSpan gradients);

  std::size_t steps_taken() const { return steps_; }
  const AdamOptions& options() const { return options_; }

 private:
  AdamOptions options_;
  std::vector<float> first_moment_, second_moment_;  // m, v
  // Per parameter, the factor of the decay step: 1 - α λ where weight decay
  // applies, 1 elsewhere (θ * 1 is θ, bit for bit). Floats, not the mask's
  // bytes: a loop that reads a float per entry vectorises with SSE2 too (the
  // byte mask's select kept the portable build's loop scalar: 15% of a
  // transformer step natively, against 3% built with AVX-512).
  std::vector<float> decay_factors_;
  double beta1_power_ = 1.0, beta2_power_ = 1.0;     // β1^t, β2^t
  std::size_t steps_ = 0;
};

}  // namespace attn
