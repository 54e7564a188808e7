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

  const VecI underflows = x < kLowest;  // includes -inf
  x = select(x > kUpper, kUpper, x);
  x = select(underflows, kLowest, x);

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
