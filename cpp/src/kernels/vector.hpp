// vector.hpp (internal) — one portable float vector for the vector kernels,
// written with GCC/Clang vector extensions. Its width is the variant's:
//
//   variant     ATTN_VECTOR_BYTES  lanes  compiles to
//   avx512f            64           16    zmm registers (-mavx512f -mfma)
//   avx2               32            8    ymm registers (-mavx2 -mfma)
//   sse2, portable     16            4    xmm registers (x86-64 baseline), NEON
//   simd128            16            4    wasm f32x4 instructions (-msimd128)
//   one_lane            4            1    scalar f32 (wasm without -msimd128)
//
// CMake compiles src/kernels/vector_kernels.cpp once per variant with
// ATTN_KERNEL_VARIANT (the namespace) and ATTN_VECTOR_BYTES set; everything
// here lives in that namespace, so the variants' inline functions, which have
// different bodies for different instruction sets, never meet at link time.
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

#if !defined(ATTN_KERNEL_VARIANT) || !defined(ATTN_VECTOR_BYTES)
#error "vector.hpp is compiled once per kernel variant: CMake defines ATTN_KERNEL_VARIANT and ATTN_VECTOR_BYTES"
#endif

namespace attn::kernels::ATTN_KERNEL_VARIANT::vec {

typedef float VecF __attribute__((vector_size(ATTN_VECTOR_BYTES)));
typedef std::int32_t VecI __attribute__((vector_size(ATTN_VECTOR_BYTES)));
typedef float Vec4 __attribute__((vector_size(16)));  // what wider vectors reduce to

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

// Lane-wise a > b ? a : b (b where either is NaN): one instruction where
// the target has it (x86 maxps; SIMD128's pmax, which V8 compiles to maxps,
// where f32x4.max, with NaN propagation, takes several).
inline VecF max(VecF a, VecF b) {
#if defined(__wasm_simd128__) && ATTN_VECTOR_BYTES == 16
  return __builtin_wasm_pmax_f32x4(b, a);  // pmax(b, a) = b < a ? a : b
#elif defined(__GNUC__) && !defined(__clang__)
  return a > b ? a : b;
#else
  return select(a > b, a, b);
#endif
}

#if ATTN_VECTOR_BYTES >= 16
// The lane-wise sum of the vector's 16-byte quarters (or halves): 16 or 8
// lanes folded to 4 by adding halves, each a shuffle and an add.
inline Vec4 fold_to_4(VecF v) {
#if ATTN_VECTOR_BYTES == 64
  typedef float Vec8 __attribute__((vector_size(32)));
  const Vec8 half = __builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7) +
                    __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15);
  return __builtin_shufflevector(half, half, 0, 1, 2, 3) + __builtin_shufflevector(half, half, 4, 5, 6, 7);
#elif ATTN_VECTOR_BYTES == 32
  return __builtin_shufflevector(v, v, 0, 1, 2, 3) + __builtin_shufflevector(v, v, 4, 5, 6, 7);
#else
  return v;
#endif
}

// (sum a, sum b, sum c, sum d) as one 4-lane vector: each folded to 4 lanes,
// then the four horizontal sums of the 4 x 4 block by a transpose-and-add of
// shuffles.
inline Vec4 horizontal_sums4(VecF a_wide, VecF b_wide, VecF c_wide, VecF d_wide) {
  const Vec4 a = fold_to_4(a_wide), b = fold_to_4(b_wide), c = fold_to_4(c_wide), d = fold_to_4(d_wide);
  const Vec4 ab = __builtin_shufflevector(a, b, 0, 4, 1, 5) + __builtin_shufflevector(a, b, 2, 6, 3, 7);
  const Vec4 cd = __builtin_shufflevector(c, d, 0, 4, 1, 5) + __builtin_shufflevector(c, d, 2, 6, 3, 7);
  return __builtin_shufflevector(ab, cd, 0, 1, 4, 5) + __builtin_shufflevector(ab, cd, 2, 3, 6, 7);
}

inline void store4(float* p, Vec4 v) { std::memcpy(p, &v, sizeof v); }

inline float horizontal_sum(VecF v) {
  const Vec4 q = fold_to_4(v);
  return (q[0] + q[1]) + (q[2] + q[3]);  // constant lanes: extract_lane, no trip through memory
}
#else
inline float horizontal_sum(VecF v) { return v[0]; }
#endif

inline float horizontal_max(VecF v) {
  float best = v[0];
  for (std::size_t lane = 1; lane < kLanes; ++lane) best = v[lane] > best ? v[lane] : best;
  return best;
}

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT::vec
