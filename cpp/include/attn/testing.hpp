// attn/testing.hpp — for tests and benchmarks, not for applications: the kernel
// variants (list them, force one), the tiled path with chosen block sizes, and
// the portable exp/log of the random stream. attn/attn.hpp does not include it;
// what is here may change without notice.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "attn/attention.hpp"
#include "attn/backward.hpp"
#include "attn/kernels.hpp"

namespace attn::testing {

// ---- kernel variants (attn/kernels.hpp) ----

// The variants compiled into this library that this CPU can run, in the
// dispatcher's order of preference: the first is the one the library uses
// (unless forced), "scalar" (plain loops, never chosen) is last.
std::span<const kernels::KernelTable* const> kernel_variants();

// The variant named `name` (e.g. "avx2"). ValueError naming `variant` if it is
// not in kernel_variants().
const kernels::KernelTable& kernel_variant(std::string_view name);

// The variant every call of the library runs on now.
const kernels::KernelTable& active_kernel_variant();

// While it lives, every call of the library runs on the variant `name`; then
// the previous choice returns. Process-wide: not while other threads call the
// library. ValueError as kernel_variant().
class ForceKernelVariant {
 public:
  explicit ForceKernelVariant(std::string_view name);
  ~ForceKernelVariant();
  ForceKernelVariant(const ForceKernelVariant&) = delete;
  ForceKernelVariant& operator=(const ForceKernelVariant&) = delete;

 private:
  const kernels::KernelTable* previous_;
};

// ---- the tiled path with chosen block sizes ----

// The block sizes of the tiled path (FlashAttention's B_r x B_c): each step
// holds one B_r x B_c block of scores, never the n x m matrix. The defaults
// are not what attn::attention_output uses: it runs with the block sizes of
// the kernel variant in use, active_kernel_variant().block_queries x
// block_keys, measured per instruction set (src/kernels/micro_kernel.hpp).
struct TileSizes {
  std::size_t queries = 64;  // B_r, query rows per block
  std::size_t keys = 64;     // B_c, keys per block
};

// q n x d_k, k m x d_k, v m x d_v -> output n x d_v: attn::attention_output
// with given block sizes (tests use small ones so that n and m are shorter than
// a block, or not a multiple of it). ShapeError naming tiles.queries or
// tiles.keys if one is 0; otherwise the errors of attn::attention_output.
std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options, const TileSizes& tiles);

// attn::attention_forward_tiled and attn::attention_backward_tiled (attn/backward.hpp)
// with given block sizes; the same errors, and ShapeError naming tiles.queries
// or tiles.keys if one is 0.
TiledAttentionForward attention_forward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                              const AttentionOptions& options, const TileSizes& tiles);
AttentionGradients attention_backward_tiled(FloatSpan q, FloatSpan k, FloatSpan v, FloatSpan grad_output,
                                            const TiledAttentionForward& forward, const AttentionShape& shape,
                                            const AttentionOptions& options, const TileSizes& tiles);

}  // namespace attn::testing

namespace attn::detail {

// ln(x) for x > 0 from + - * / only (bit manipulation, then a series), so its
// result is the same bits under glibc, musl or any other libm. About 1 ulp.
// ln(0) = -inf, ln(inf) = inf, NaN for x < 0 or NaN. (src/random.cpp; the
// random stream's layer tables and tail are built from it.)
double portable_log(double x);

// e^x from + - * / only (range reduction by ln2, a Taylor series, then 2^k from
// its bits), the same bits in every build. About 1 ulp for normal results.
// inf above 709.78, 0 below -745.13, NaN for NaN.
double portable_exp(double x);

}  // namespace attn::detail
