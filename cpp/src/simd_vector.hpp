// simd_vector.hpp (internal) — one portable float vector for the SIMD kernels,
// written with GCC/Clang vector extensions:
//
//   build                       lanes   compiles to
//   native x86-64 with AVX        8     ymm registers (vmulps, vaddps, ...)
//   native SSE2 / ARM NEON        4     xmm / q registers
//   wasm with -msimd128           4     f32x4 instructions
//   wasm without -msimd128        1     scalar f32 (the "vector" has one lane)
//
// Arithmetic (+ - * /) and comparisons act lane-wise. A comparison yields an
// integer vector whose lanes are all ones (true) or zero, used by select().
// Loads and stores go through memcpy: any alignment, no aliasing questions, and
// the compiler emits one unaligned vector load/store for it. The partial
// variants move the first `count` < kLanes floats, the other lanes being `fill`:
// every kernel finishes its leftover elements with one such padded vector.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__AVX__)
#define ATTN_VECTOR_BYTES 32
#elif defined(__SSE2__) || defined(__wasm_simd128__) || defined(__ARM_NEON)
#define ATTN_VECTOR_BYTES 16
#else
#define ATTN_VECTOR_BYTES 4
#endif

namespace attn::kernels::detail {

typedef float VecF __attribute__((vector_size(ATTN_VECTOR_BYTES)));
typedef std::int32_t VecI __attribute__((vector_size(ATTN_VECTOR_BYTES)));

inline constexpr std::size_t kLanes = ATTN_VECTOR_BYTES / sizeof(float);

// value in every lane. Written as a vector-scalar operation, which GCC and Clang
// broadcast (one f32x4.splat under SIMD128): a loop over lanes is compiled by
// clang 14 for wasm into a store/insert/reload through the stack on each call.
// value - 0 is value exactly, -0 and infinities included.
inline VecF splat(float value) { return value - VecF{}; }

inline VecF load(const float* p) {
  VecF v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store(float* p, VecF v) { std::memcpy(p, &v, sizeof v); }

inline VecF load_partial(const float* p, std::size_t count, float fill) {
  VecF v = splat(fill);
  std::memcpy(&v, p, count * sizeof(float));
  return v;
}

inline void store_partial(float* p, VecF v, std::size_t count) { std::memcpy(p, &v, count * sizeof(float)); }

// Lane-wise mask ? if_true : if_false, mask lanes all ones or zero.
inline VecF select(VecI mask, VecF if_true, VecF if_false) {
  return (VecF)((mask & (VecI)if_true) | (~mask & (VecI)if_false));
}

inline VecF max(VecF a, VecF b) { return select(a > b, a, b); }

inline float horizontal_sum(VecF v) {
#if ATTN_VECTOR_BYTES == 16
  return (v[0] + v[1]) + (v[2] + v[3]);  // constant lanes: extract_lane, no trip through memory
#else
  float sum = 0.0f;
  for (std::size_t lane = 0; lane < kLanes; ++lane) sum += v[lane];
  return sum;
#endif
}

// (sum a, sum b, sum c, sum d) as one vector: the four horizontal sums of a
// 4 x 4 block by a transpose-and-add of shuffles (4 lanes only).
#if ATTN_VECTOR_BYTES == 16
inline VecF horizontal_sums4(VecF a, VecF b, VecF c, VecF d) {
  const VecF ab = __builtin_shufflevector(a, b, 0, 4, 1, 5) + __builtin_shufflevector(a, b, 2, 6, 3, 7);
  const VecF cd = __builtin_shufflevector(c, d, 0, 4, 1, 5) + __builtin_shufflevector(c, d, 2, 6, 3, 7);
  return __builtin_shufflevector(ab, cd, 0, 1, 4, 5) + __builtin_shufflevector(ab, cd, 2, 3, 6, 7);
}
#endif

inline float horizontal_max(VecF v) {
  float best = v[0];
  for (std::size_t lane = 1; lane < kLanes; ++lane) best = v[lane] > best ? v[lane] : best;
  return best;
}

}  // namespace attn::kernels::detail
