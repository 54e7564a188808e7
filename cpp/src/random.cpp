// random.cpp — the seeded generator: the same stream, bit for bit, in every
// build. Integer steps are exact everywhere; the floating-point steps use only
// + - * / and sqrt, which IEEE 754 rounds exactly the same on every platform,
// and this file is compiled with -ffp-contract=off so that no multiply-add is
// fused natively (wasm has no fused multiply-add). The one transcendental
// function, ln, is computed here rather than taken from libm (glibc and musl
// may differ in the last bit).
#include "attn/random.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "attn/error.hpp"
#include "validation.hpp"

namespace attn {

namespace {

// splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): one output per
// step, used only to spread a 64-bit seed over xoshiro's 256-bit state.
std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotate_left(std::uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

// The bits of a double and back (std::bit_cast is missing from Emscripten
// 3.1.6's libc++).
std::uint64_t bits_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}
double double_from_bits(std::uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

}  // namespace

namespace detail {

// ln x = e ln2 + ln m, with x = 2^e m and m in [sqrt(1/2), sqrt(2)):
// 1. e and m come from the bits of x: the exponent field and the mantissa with
//    the exponent field set to that of 1.0 (subnormals are first scaled by 2^54).
// 2. ln m = 2 atanh(z) = 2 (z + z^3/3 + z^5/5 + ...), z = (m - 1) / (m + 1).
//    |z| <= 0.1716, so z^2 <= 0.0295 and the term z^(2k+1)/(2k+1) has fallen
//    below 2^-53 of the sum by k = 10: eleven terms, by Horner's rule in z^2.
// 3. e ln2 is added as e ln2_hi + e ln2_lo: the low 21 bits of ln2_hi are zero,
//    so e ln2_hi is exact for |e| < 2^21.
double portable_log(double x) {
  if (std::isnan(x) || x < 0.0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0.0) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x)) return x;

  // step 1: x = 2^e m
  int e = 0;
  std::uint64_t bits = bits_of(x);
  if ((bits >> 52) == 0) {  // subnormal: scale into the normal range
    bits = bits_of(x * 18014398509481984.0);  // 2^54
    e -= 54;
  }
  e += static_cast<int>(bits >> 52) - 1023;
  const std::uint64_t mantissa_bits = bits & ((std::uint64_t{1} << 52) - 1);
  double m = double_from_bits(mantissa_bits | (std::uint64_t{1023} << 52));  // [1, 2)
  if (m > 1.4142135623730951) {  // bring m into [sqrt(1/2), sqrt(2))
    m *= 0.5;
    e += 1;
  }

  // step 2: ln m = 2 z (1 + z^2/3 + z^4/5 + ... + z^20/21)
  const double z = (m - 1.0) / (m + 1.0);
  const double z2 = z * z;
  double series = 1.0 / 21.0;
  for (int k = 9; k >= 0; --k) series = series * z2 + 1.0 / (2 * k + 1);
  const double ln_m = 2.0 * z * series;

  // step 3: + e ln2
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000
  constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln2 - kLn2Hi
  const double ed = static_cast<double>(e);
  return ed * kLn2Hi + (ln_m + ed * kLn2Lo);
}

}  // namespace detail

Rng::Rng(std::uint64_t seed) {
  std::uint64_t sm = seed;
  for (auto& word : state_) word = splitmix64(sm);
}

// xoshiro256** (Blackman and Vigna 2018, reference code xoshiro256starstar.c)
std::uint64_t Rng::next_u64() {
  const std::uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotate_left(state_[3], 45);
  return result;
}

// The top 53 bits as a multiple of 2^-53: every double in [0, 1) so spaced.
double Rng::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

// Marsaglia's polar method: a point (u, v) uniform in the unit disc gives two
// independent normals u f and v f with f = sqrt(-2 ln(s) / s), s = u^2 + v^2.
double Rng::normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  double u, v, s;
  do {
    u = 2.0 * uniform() - 1.0;
    v = 2.0 * uniform() - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double f = std::sqrt(-2.0 * detail::portable_log(s) / s);
  spare_ = v * f;
  has_spare_ = true;
  return u * f;
}

std::vector<float> Rng::normal_matrix(std::size_t rows, std::size_t cols, double stddev) {
  const std::size_t count = detail::checked_product("rows*cols", rows, cols);
  if (!std::isfinite(stddev) || stddev < 0.0) {
    throw ValueError("stddev: expected a finite number >= 0, got " + detail::describe_value(stddev));
  }
  std::vector<float> values(count);
  for (auto& value : values) value = static_cast<float>(normal() * stddev);
  return values;
}

}  // namespace attn
