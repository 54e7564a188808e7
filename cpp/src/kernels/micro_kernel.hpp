// micro_kernel.hpp (internal, compiled per variant like vector.hpp) — the
// register-blocked product every fast product of the kernels is made of:
//
//   C[i][v] (+)= sum_{t < depth} a(i, t) * B_t[v]        i < MR, v < NRV
//
// a(i, t) = a[i * a_row + t * a_step] is one float, broadcast to every lane;
// B_t = b + t * b_step holds NRV whole vectors side by side. The MR x NRV
// accumulators stay in registers for the whole sweep over t: each step loads
// NRV vectors and MR floats and does MR * NRV vector multiply-adds (one
// fused multiply-add each where the variant has FMA), so every loaded vector
// is used MR times and every broadcast NRV times. This is the outer-product
// form of the GEMM micro-kernels of XNNPACK (f32-gemm MRxNR, "splat" and
// "broadcast" variants) and of Eigen's gebp: results come out as whole vectors
// along b's rows, so nothing is summed across lanes.
//
// The register-block shape is the variant's (kTileRows x kTileVectors): the
// accumulators, the NRV loaded vectors and one broadcast must fit in the
// register file, or the compiler spills them to memory on every step:
//
//   variant   registers  MR x NRV  accumulators           the block products, d = 64 (bench/README.md)
//   avx512f   32 zmm     8 x 3     24 (+ 3 loads + 1)     ~215 GFLOP/s = 98% of the FMA peak; 8x2, 4x6
//                                                          as fast, 12x2, 6x4, 16x1 slower
//   avx2      16 ymm     6 x 2     12 (+ 2 + 1)           ~95 GFLOP/s; 4x2, 4x3, 3x4 the same, 8x1 slower
//   sse2      16 xmm     6 x 2     12 (+ 2 + 1 product)   4x2, 3x3 within 5%, 4x3 slower (no FMA)
//   simd128   16 xmm     4 x 2      8 (+ 2 + 1 + 1)       ~97% of the mul+add peak; 6x2, 4x3, 3x4,
//                                                          8x1, 2x4 within 2% (V8 is bound by the FP ports)
//   one_lane  scalars    4 x 2      8
//
// broadcast_product() covers a whole C of `count` x `vectors` with such tiles,
// and the edges with smaller ones (MR halved down to 1 along i, one vector
// along v), handing each finished tile to `finish`, which stores it.
#pragma once

#include <cstddef>

#include "vector.hpp"

namespace attn::kernels::ATTN_KERNEL_VARIANT::vec {

// The variant's tile (kTileRows x kTileVectors) and the tiled path's block
// sizes B_r x B_c (kBlockQueries x kBlockKeys): B_r a multiple of the tile's
// kTileVectors * kLanes query rows and B_c of its kTileRows keys, so that no
// edge tile runs inside the blocks of a long sequence. WebAssembly (simd128,
// one_lane): 64 x 64. The page's memory model (web/src/sections/cost/memory.js)
// reads them from the engine (engine.tileSizes), not from here.
#if ATTN_VECTOR_BYTES == 64
inline constexpr std::size_t kTileRows = 8, kTileVectors = 3, kBlockQueries = 48, kBlockKeys = 64;
#elif ATTN_VECTOR_BYTES == 32
inline constexpr std::size_t kTileRows = 6, kTileVectors = 2, kBlockQueries = 32, kBlockKeys = 60;
#elif ATTN_VECTOR_BYTES == 16 && !defined(__wasm__)  // sse2, portable
inline constexpr std::size_t kTileRows = 6, kTileVectors = 2, kBlockQueries = 64, kBlockKeys = 60;
#else  // simd128, one_lane
inline constexpr std::size_t kTileRows = 4, kTileVectors = 2, kBlockQueries = 64, kBlockKeys = 64;
#endif

// One MR x NRV tile: acc = sum_t a(i, t) B_t, then finish(i, v, acc).
template <std::size_t MR, std::size_t NRV, class Finish>
inline __attribute__((always_inline)) void product_tile(const float* a, std::size_t a_row, std::size_t a_step,
                                                        const float* b, std::size_t b_step, std::size_t depth,
                                                        Finish finish, std::size_t i0, std::size_t v0) {
  VecF acc[MR][NRV];
#pragma GCC unroll 16
  for (std::size_t i = 0; i < MR; ++i)
#pragma GCC unroll 16
    for (std::size_t v = 0; v < NRV; ++v) acc[i][v] = splat(0.0f);
  // (pointers stepped, not t * step: wasm has no scaled addressing, and V8
  // would multiply on every step)
  for (const float* const b_end = b + depth * b_step; b != b_end; b += b_step, a += a_step) {
    VecF loaded[NRV];
#pragma GCC unroll 16
    for (std::size_t v = 0; v < NRV; ++v) loaded[v] = load(b + v * kLanes);
#pragma GCC unroll 16
    for (std::size_t i = 0; i < MR; ++i) {
      const VecF broadcast = splat(a[i * a_row]);
#pragma GCC unroll 16
      for (std::size_t v = 0; v < NRV; ++v) acc[i][v] += broadcast * loaded[v];
    }
  }
  finish.template operator()<MR, NRV>(i0, v0, acc);
}

// Rows [i0, count) of one column of tiles (NRV vectors from v0): whole MR
// tiles, then the leftover rows in tiles of MR/2, MR/4, ..., 1.
template <std::size_t MR, std::size_t NRV, class Finish>
inline __attribute__((always_inline)) void product_column(const float* a, std::size_t a_row, std::size_t a_step,
                                                          std::size_t count, const float* b, std::size_t b_step,
                                                          std::size_t depth, Finish finish, std::size_t i0,
                                                          std::size_t v0) {
  for (; i0 + MR <= count; i0 += MR) product_tile<MR, NRV>(a + i0 * a_row, a_row, a_step, b, b_step, depth, finish, i0, v0);
  if constexpr (MR > 1) {
    if (i0 < count) product_column<MR / 2, NRV>(a, a_row, a_step, count, b, b_step, depth, finish, i0, v0);
  }
}

// C (count x vectors*kLanes) (+)= A B, A's element (i, t) at a[i*a_row + t*a_step],
// B_t at b + t*b_step (vectors*kLanes floats); finish.operator()<mr, nrv>(i0, v0, acc)
// receives each tile: rows [i0, i0 + mr), vectors [v0, v0 + nrv).
template <class Finish>
inline void broadcast_product(const float* a, std::size_t a_row, std::size_t a_step, std::size_t count,
                              const float* b, std::size_t b_step, std::size_t vectors, std::size_t depth,
                              Finish finish) {
  std::size_t v0 = 0;
  for (; v0 + kTileVectors <= vectors; v0 += kTileVectors)
    product_column<kTileRows, kTileVectors>(a, a_row, a_step, count, b + v0 * kLanes, b_step, depth, finish, 0, v0);
  for (; v0 < vectors; ++v0) product_column<kTileRows, 1>(a, a_row, a_step, count, b + v0 * kLanes, b_step, depth, finish, 0, v0);
}

}  // namespace attn::kernels::ATTN_KERNEL_VARIANT::vec
