// random.cpp — the seeded generator: the same stream, bit for bit, in every
// build. Integer steps are exact everywhere; the floating-point steps use only
// + - * / and sqrt, which IEEE 754 rounds exactly the same on every platform,
// and this file is compiled with -ffp-contract=off so that no multiply-add is
// fused natively (wasm has no fused multiply-add). The one transcendental
// function, ln, is computed here rather than taken from libm (glibc and musl
// may differ in the last bit).
#include "attn/random.hpp"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "attn/error.hpp"
#include "attn/testing.hpp"  // declares detail::portable_log and portable_exp, for their tests
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


// e^x from + - * / only, the mirror of portable_log: the same bits under every
// libm. About 1 ulp for results in the normal range.
// 1. x = k ln2 + r with k = x / ln2 rounded to the nearest integer, so
//    |r| <= ln2 / 2 = 0.3466. r = (x - k ln2_hi) - k ln2_lo, the split of
//    portable_log: k ln2_hi is exact, and so is x - k ln2_hi (for k != 0, x
//    is within a factor 2 of k ln2_hi: Sterbenz's lemma).
// 2. e^r = 1 + r + r^2/2! + ... + r^14/14!: the first term left out is at most
//    0.3466^15 / 15! = 1.1e-19, far below half an ulp of e^r >= 0.707 (about
//    5.5e-17). By Horner's rule, with the coefficients 1/n! each the previous
//    one divided by n.
// 3. e^x = 2^k e^r, 2^k built from its bits (as two factors 2^(k/2), 2^(k-k/2)
//    so that results down to the subnormals are reached).
// e^x = inf for x > 709.79 (overflow), 0 for x < -745.14 (underflow to zero),
// NaN for NaN.
double portable_exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();  // > ln(DBL_MAX)
  if (x < -745.1332191019412) return 0.0;  // e^x < 2^-1075: rounds to 0

  // step 1: x = k ln2 + r
  constexpr double kInverseLn2 = 1.44269504088896338700e+00;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000
  constexpr double kLn2Lo = 1.90821492927058770002e-10;  // ln2 - kLn2Hi
  const double scaled = x * kInverseLn2;
  const int k = static_cast<int>(scaled < 0.0 ? scaled - 0.5 : scaled + 0.5);  // round half away from 0
  const double kd = static_cast<double>(k);
  const double r = (x - kd * kLn2Hi) - kd * kLn2Lo;

  // step 2: e^r = sum over n = 0..14 of r^n / n!, Horner from the r^14 term:
  // coefficient[n] = 1 / n!
  double coefficients[15];
  coefficients[0] = 1.0;
  for (int n = 1; n <= 14; ++n) coefficients[n] = coefficients[n - 1] / n;
  double exp_r = coefficients[14];
  for (int n = 13; n >= 0; --n) exp_r = exp_r * r + coefficients[n];

  // step 3: times 2^k = 2^k1 2^k2, each factor a normal double
  const int k1 = k / 2, k2 = k - k1;
  const double two_to_k1 = double_from_bits(static_cast<std::uint64_t>(k1 + 1023) << 52);
  const double two_to_k2 = double_from_bits(static_cast<std::uint64_t>(k2 + 1023) << 52);
  return exp_r * two_to_k1 * two_to_k2;
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

// The ziggurat method (Marsaglia and Tsang 2000, "The ziggurat method for
// generating random variables"), with Doornik's (2005) fix of drawing the
// layer index, the sign and the uniform from separate bits of one 64-bit draw.
// Exact: every draw is accepted or rejected against the density itself, so the
// output follows N(0, 1) as exactly as the layer tables are computed (double
// precision). Almost every draw (98.5 %) costs one next_u64(), a multiply and
// a compare; the rest fall in a wedge (one portable_exp) or in the tail.
//
// The shape is f(x) = exp(-x^2/2) for x >= 0 (the unnormalized half density;
// the sign is a separate random bit). Under f lie 256 horizontal layers of the
// same area V: layer 0 is the base strip [0, R] x [0, f(R)] plus the whole tail
// x > R; layer i >= 1 is the rectangle [0, x_i] x [f(x_i), f(x_(i+1))], with
//   x_1 = R,  x_(i+1) = f^-1(V / x_i + f(x_i)),  f^-1(y) = sqrt(-2 ln y),
//   x_256 = 0 (the top layer ends at f(0) = 1),
// and x_0 = V / f(R), the width of a rectangle with the base layer's area.
// R and V are the values for which the recursion lands exactly on x_256 = 0:
//   V = R f(R) + integral from R to inf of f = R f(R) + sqrt(pi/2) erfc(R/sqrt2)
// (solved to 50 digits with mpmath; here rounded to double).
//
// A draw: pick layer i and a uniform u in (0, 1); x = u x_i is a uniform point
// across the layer's width.
//   x < x_(i+1): the point lies under f at every height of the layer: accept.
//   i = 0 and x >= R: the point is in the tail: draw from the tail instead.
//   otherwise (a wedge, between the curve and the layer's right edge): pick a
//     height y uniform in [f(x_i), f(x_(i+1))]; accept if y < f(x), else
//     start again from a new draw.
namespace {

constexpr int kLayerCount = 256;
constexpr double kTailStart = 3.654152885361009;        // R, 0x1.d3bb48209ad33p+1
constexpr double kLayerArea = 0.004928673233974655;     // V, 0x1.43016a5a43732p-8

// The largest |normal()| there can be: every draw is below R except a tail draw
// R + a, a = -ln(u1) / R with u1 >= 2^-53 (open_uniform_from_bits), so
// |x| <= R + 53 ln2 / R = 13.71. normal_matrix's stddev is limited so that
// stddev * that fits in a float (FLT_MAX / 13.71 = 2.48e37).
constexpr double kLargestNormal = kTailStart + 53 * 0.6931471805599453 / kTailStart;
constexpr double kLargestStddev = 2.4e37;
static_assert(kLargestStddev * kLargestNormal < FLT_MAX);

double half_density(double x) { return detail::portable_exp(-0.5 * x * x); }  // f(x)

struct ZigguratLayers {
  double x[kLayerCount + 1];        // x_i: layer i spans [0, x_i]
  double f_of_x[kLayerCount + 1];   // f(x_i): layer i spans heights [f(x_i), f(x_(i+1))]
};

// Built once, from + - * / and sqrt only (portable_exp, portable_log), so the
// tables are the same bits in every build.
ZigguratLayers build_ziggurat_layers() {
  ZigguratLayers layers{};
  layers.x[1] = kTailStart;
  layers.f_of_x[1] = half_density(kTailStart);
  layers.x[0] = kLayerArea / layers.f_of_x[1];  // V / f(R)
  layers.f_of_x[0] = 0.0;
  for (int i = 1; i + 1 < kLayerCount; ++i) {
    const double top = kLayerArea / layers.x[i] + layers.f_of_x[i];  // f(x_(i+1)) = V / x_i + f(x_i)
    layers.x[i + 1] = std::sqrt(-2.0 * detail::portable_log(top));   // x_(i+1) = f^-1(top)
    layers.f_of_x[i + 1] = top;
  }
  layers.x[kLayerCount] = 0.0;
  layers.f_of_x[kLayerCount] = 1.0;  // f(0)
  return layers;
}

const ZigguratLayers& ziggurat_layers() {
  static const ZigguratLayers layers = build_ziggurat_layers();
  return layers;
}

// A uniform in (0, 1), never 0 or 1: the top 52 bits b as (b + 1/2) 2^-52
// (exact: b + 1/2 needs 53 bits). Its negative log is finite and > 0.
// b < 2^52 converts through int64 (the signed conversion is one instruction in
// wasm and x86-64; the unsigned one is a longer sequence), with the same value.
double open_uniform_from_bits(std::uint64_t bits) {
  return (static_cast<double>(static_cast<std::int64_t>(bits >> 12)) + 0.5) * 0x1.0p-52;
}

// x >= 0 with its sign bit set to `sign` (0 or 2^63): -x or x without a branch
// (exact, and a 50/50 branch would be mispredicted half the time).
double with_sign(double x, std::uint64_t sign) { return double_from_bits(bits_of(x) | sign); }

}  // namespace

double Rng::normal() {
  const ZigguratLayers& layers = ziggurat_layers();
  for (;;) {
    // One 64-bit draw, three disjoint fields: bits 0-7 the layer, bit 8 the
    // sign, bits 12-63 the uniform.
    const std::uint64_t bits = next_u64();
    const int layer = static_cast<int>(bits & 0xff);
    const std::uint64_t sign = (bits & 0x100) << 55;  // bit 8 moved to the sign bit, bit 63
    const double x = open_uniform_from_bits(bits) * layers.x[layer];

    if (x < layers.x[layer + 1]) return with_sign(x, sign);  // inside the rectangle: most draws

    if (layer == 0) {
      // The tail x > R (Marsaglia 1964): with a = -ln(u1) / R and b = -ln(u2),
      // u1, u2 uniform in (0, 1), accept R + a when 2 b > a^2. a is exponential
      // with rate R, and accepting with probability exp(-a^2/2) turns its
      // density exp(-R a) into exp(-R a - a^2/2), proportional to f(R + a).
      double a, b;
      do {
        a = -detail::portable_log(open_uniform_from_bits(next_u64())) / kTailStart;
        b = -detail::portable_log(open_uniform_from_bits(next_u64()));
      } while (2.0 * b <= a * a);
      return with_sign(kTailStart + a, sign);
    }

    // A wedge: a height y uniform in [f(x_i), f(x_(i+1))]; the point (x, y) is
    // under the curve when y < f(x).
    const double y = layers.f_of_x[layer] + uniform() * (layers.f_of_x[layer + 1] - layers.f_of_x[layer]);
    if (y < half_density(x)) return with_sign(x, sign);
  }
}

std::vector<float> Rng::normal_matrix(std::size_t rows, std::size_t cols, double stddev) {
  const std::size_t count = detail::checked_product("rows*cols", rows, cols);
  if (!(stddev >= 0.0 && stddev <= kLargestStddev)) {  // false for NaN
    throw ValueError("stddev: expected a number from 0 to " + detail::describe_value(kLargestStddev) +
                     " (so that every draw fits in a float), got " + detail::describe_value(stddev));
  }
  std::vector<float> values(count);
  for (auto& value : values) value = static_cast<float>(normal() * stddev);
  return values;
}

}  // namespace attn
