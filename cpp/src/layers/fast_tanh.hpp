// fast_tanh.hpp (internal) — tanh and the logistic σ for the inner loops of
// the recurrent layers (the GRU's gates, the additive score), where libm's
// tanhf and expf were half of a training step's time: one call per element,
// never vectorised.
//
// In float: Eigen's generic_fast_tanh_float (Eigen 3.4, MathFunctionsImpl.h),
// a 13/6 rational approximation of tanh on [-c, c], c = 7.90531110763549805
// (the clamp for a build without FMA contraction, as ours), within a few ulp;
// beyond c the result is ±1 to float precision. (Eigen returns x itself below
// |x| = 0.0004, where p/q = x α1/β0 = x (1 - 1.3e-7), one ulp away; we keep
// p/q: a select there stopped GCC from vectorising the GRU's loops.) Only
// arithmetic and an integer minimum: the compiler vectorises the loops that
// call it, natively and in WebAssembly alike, and both builds compute the same
// bits (no libm involved). Inputs are finite (a NaN would come out as ±1).
//   σ(x) = (1 + tanh(x/2)) / 2        (an identity; σ is then in [0, 1], 0 or 1 to float precision far out)
// In double (the gradient checks): std::tanh and 1 / (1 + e^-x).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace attn::layers {

// A float's bits and back (std::bit_cast is not in Emscripten 3.1.6's libc++;
// a memcpy of 4 bytes compiles to a register move).
inline std::uint32_t bits_of(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
inline float float_of(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

inline float fast_tanh(float x) {
  // y = x with |x| clamped to c, by the bits: a float's magnitude bits order
  // like unsigned integers, and an integer minimum needs no float comparison
  // (GCC keeps a loop with float compares scalar unless -fno-trapping-math).
  const std::uint32_t bits = bits_of(x), magnitude = bits & 0x7fffffffu, limit = bits_of(7.90531110763549805f);
  const float y = float_of((magnitude < limit ? magnitude : limit) | (bits & 0x80000000u));
  const float y2 = y * y;
  // numerator: y (α1 + α3 y² + ... + α13 y¹²), odd
  float p = y2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
  p = y2 * p + -8.60467152213735e-11f;
  p = y2 * p + 5.12229709037114e-08f;
  p = y2 * p + 1.48572235717979e-05f;
  p = y2 * p + 6.37261928875436e-04f;
  p = y2 * p + 4.89352455891786e-03f;
  p = y * p;
  // denominator: β0 + β2 y² + β4 y⁴ + β6 y⁶, even
  float q = y2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
  q = y2 * q + 2.26843463243900e-03f;
  q = y2 * q + 4.89352518554385e-03f;
  return p / q;
}

template <class T>
T tanh_value(T x) {
  if constexpr (std::is_same_v<T, float>) return fast_tanh(x);
  else return std::tanh(x);
}

template <class T>
T sigmoid_value(T x) {
  if constexpr (std::is_same_v<T, float>) return 0.5f + 0.5f * fast_tanh(0.5f * x);
  else return T(1) / (T(1) + std::exp(-x));
}

}  // namespace attn::layers
