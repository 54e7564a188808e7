// vector_exp.hpp (internal) — exp(x) on a whole vector at once, for the softmax.
//
// libm's expf works on one float; a vector needs an exp built from vector
// arithmetic. This is the Cephes expf algorithm, as Eigen's pexp_float uses it:
//
// 1. Range reduction. Write x = n ln2 + r with n = floor(x / ln2 + 1/2), an
//    integer, so that |r| <= ln2 / 2. Then exp(x) = 2^n exp(r). The product
//    n ln2 is subtracted in two parts (Cody and Waite): ln2 = C1 + C2 with
//    C1 = 0.693359375, which has so few significant bits that n*C1 is exact,
//    and the small correction C2 = -2.12194440e-4, so r keeps its accuracy
//    even when n is large.
// 2. Polynomial. On |r| <= 0.347, exp(r) = 1 + r + r^2 P(r), P a degree-5
//    minimax polynomial (Cephes' coefficients), evaluated by Horner's rule:
//    about 1 ulp of float.
// 3. Reconstruction. 2^n is a float whose exponent field holds n + 127 and
//    whose mantissa is zero: build those bits in an integer vector and
//    reinterpret them; multiply.
//
// Limits. For x above 88 the result would pass FLT_MAX's neighbourhood; x is
// clamped to 88 (the softmax never gets there: its inputs are x - max <= 0).
// For x below ln(FLT_MIN) = -87.3365 the true result is subnormal (< 1.2e-38)
// and the function returns exactly 0, as it does for x = -inf: a masked score
// gets weight exactly 0. The floor of step 1 is computed as a truncation to
// integer corrected by one where truncation rounded up (negative values).
#pragma once

#include "vector.hpp"

namespace attn::kernels::ATTN_KERNEL_VARIANT::vec {

inline VecF exp_vector(VecF x) {
  const VecF kUpper = splat(88.0f);
  const VecF kLowest = splat(-87.33654475f);  // ln(FLT_MIN)
  const VecF kLog2e = splat(1.44269504088896341f);
  const VecF kC1 = splat(0.693359375f);
  const VecF kC2 = splat(-2.12194440e-4f);

  // Underflowing lanes (the result is 0, selected at the end) are computed at
  // x = 0: at x = ln(FLT_MIN) the product of step 3 was 2^-126 exp(r), r <= 0,
  // a subnormal, and on x86 every multiply with a subnormal result takes a
  // microcode assist (~100 cycles, in WebAssembly too): rows with a causal mask
  // took 5x as long as unmasked ones.
  const VecI underflows = x < kLowest;  // includes -inf
  x = select(x > kUpper, kUpper, x);
  x = select(underflows, splat(0.0f), x);

  // step 1: n = floor(x log2(e) + 1/2), r = x - n C1 - n C2
  const VecF t = x * kLog2e + splat(0.5f);
  VecF n = __builtin_convertvector(__builtin_convertvector(t, VecI), VecF);  // truncation
  n += __builtin_convertvector(n > t, VecF);                                  // -1 where it rounded up
  const VecF r = x - n * kC1 - n * kC2;

  // step 2: exp(r) = 1 + r + r^2 P(r)
  VecF p = splat(1.9875691500e-4f);
  p = p * r + splat(1.3981999507e-3f);
  p = p * r + splat(8.3334519073e-3f);
  p = p * r + splat(4.1665795894e-2f);
  p = p * r + splat(1.6666665459e-1f);
  p = p * r + splat(5.0000001201e-1f);
  const VecF exp_r = p * (r * r) + r + splat(1.0f);

  // step 3: 2^n from its bits, n + 127 in the exponent field (bits 23..30)
  const VecI biased_exponent = __builtin_convertvector(n, VecI) + 127;
  const VecF two_to_n = (VecF)(biased_exponent << 23);

  return select(underflows, splat(0.0f), exp_r * two_to_n);
}

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT::vec

namespace attn::kernels::ATTN_KERNEL_VARIANT::vec {

// 2^x on a whole vector, for x <= 0: the tiled path's softmax weights
// exp(s - max) = 2^((s - max) log2 e) (block_kernels.cpp). In base 2 the range
// reduction needs no split of ln 2. The steps, as XNNPACK's f32 exp kernels do them:
//
// 1. Round by a magic number: t = x + (1.5 * 2^23 + 127). Floats near 1.5 * 2^23
//    are 1 apart, so the addition rounds x to the nearest integer n, and t's
//    low mantissa bits hold n + 127. n = t - (1.5 * 2^23 + 127) exactly, and
//    r = x - n in [-1/2, 1/2] exactly (no Cody-Waite split: the base is 2).
// 2. Polynomial: 2^r = 1 + r P(r), P of degree 5, fitted by the Remez algorithm
//    for relative error on [-1/2, 1/2] (2e-9 before float rounding; within 2 ulp
//    after it).
// 3. 2^n: shifting t's bits left by 23 moves n + 127 into the exponent field.
//
// Limits. x is first raised to at least -127: then n >= -127, and n = -127 gives
// the exponent field 0 and mantissa 0, which is +0 exactly. So 2^x is exactly 0
// for x = -inf (a masked score) and for x < -126.5 (where the true value is
// subnormal, below 1.2e-38), with one max and no select. For -126.5 <= x <= 0
// it is 2^x within 2 ulp (x a little above 0 is fine too: 2^r covers r up to 1/2).
inline VecF exp2_vector(VecF x) {
  const VecF kMagic = splat(12582912.0f + 127.0f);  // 1.5 * 2^23 + 127
  const VecF kLowest = splat(-127.0f);
  x = max(x, kLowest);

  const VecF t = x + kMagic;  // step 1
  const VecF n = t - kMagic;
  const VecF r = x - n;

  VecF p = splat(1.534732000e-4f);  // step 2
  p = p * r + splat(1.340015442e-3f);
  p = p * r + splat(9.618484415e-3f);
  p = p * r + splat(5.550327897e-2f);
  p = p * r + splat(2.402264625e-1f);
  p = p * r + splat(6.931471825e-1f);
  const VecF two_to_r = p * r + splat(1.0f);

  const VecF two_to_n = (VecF)((VecI)t << 23);  // step 3
  return two_to_r * two_to_n;
}

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT::vec
