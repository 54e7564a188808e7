// attn/attention.hpp — scaled dot-product attention.
//
//   Attention(Q, K, V) = softmax(mask(scale * Q K^T)) V
//
// Shapes (see attn/shapes.hpp): Q n x d_k, K m x d_k, V m x d_v, all n x m
// matrices row i = query i; output n x d_v.
#pragma once

#include <vector>

#include "attn/mask.hpp"
#include "attn/shapes.hpp"

namespace attn {

// How raw scores are scaled: 1/sqrt(d_k) (the default), not at all, or by a
// given finite positive number.
struct Scale {
  enum class Kind { InverseSqrtDk, None, Given };
  Kind kind = Kind::InverseSqrtDk;
  float given = 1.0f;

  static Scale inverse_sqrt_dk() { return {}; }
  static Scale none() { return {Kind::None, 1.0f}; }
  static Scale by(float factor) { return {Kind::Given, factor}; }
  // The factor that multiplies QK^T. ValueError if a given factor is not
  // finite and positive.
  float factor(std::size_t d_k) const;
};

struct AttentionOptions {
  Scale scale;
  Mask mask;
};

// Every intermediate of one attention call, so the walkthrough can show each step.
struct AttentionTrace {
  std::vector<float> scores;   // n x m   QK^T
  std::vector<float> scaled;   // n x m   scale * QK^T
  std::vector<float> masked;   // n x m   scaled, with -inf where the mask forbids
  std::vector<float> weights;  // n x m   row softmax of masked (0 where masked)
  std::vector<float> output;   // n x d_v weights V
  float scale = 1.0f;          // the factor that was applied
};

// q n x d_k, k m x d_k, v m x d_v. Checks that every dimension is >= 1
// (ShapeError), that n*d_k, m*d_k, m*d_v, n*d_v fit (SizeError), the lengths
// (ShapeError naming q/k/v and the expected n*d_k etc.) and that inputs are
// finite (ValueError naming q[i]). Used by every entry point; the tiled path
// needs nothing more, since it never holds an n x m matrix.
void validate_attention_operands(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape);

// validate_attention_operands, and that the n x m matrices fit (SizeError
// naming n*m). Used by the entry points that hold them.
void validate_attention_inputs(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape);

// q n x d_k, k m x d_k, v m x d_v -> trace (n x m matrices, n x d_v output).
// The full trace, computed with the SIMD kernels (attn/kernels.hpp). Raises
// the errors of validate_attention_inputs, Scale::factor and keep_matrix.
AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options = {});

// q n x d_k, k m x d_k, v m x d_v -> output n x d_v only, by the tiled
// online-softmax path (FlashAttention): never holds the n x m matrix, so n*m
// may exceed kMaxMatrixElements. Same result as attention(...).output within
// the tolerance. Raises the errors of validate_attention_operands.
std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options = {});

// The block sizes of the tiled path (FlashAttention's B_r x B_c): each step
// holds one B_r x B_c block of scores, never the n x m matrix.
struct TileSizes {
  std::size_t queries = 64;  // B_r, query rows per block
  std::size_t keys = 64;     // B_c, keys per block
};

// Which kernels a full-path call runs on: the library's SIMD kernels, or the
// plain scalar loops (the benchmarks' baseline in the same build).
enum class KernelSet { Simd, Scalar };

// q n x d_k, k m x d_k, v m x d_v -> output n x d_v through one full n x m
// score matrix (what the tiled path avoids), keeping no trace: the same passes
// as attention(), in place in one buffer. Raises the errors of attention().
std::vector<float> attention_output_full(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                         const AttentionOptions& options = {}, KernelSet kernels = KernelSet::Simd);

// q n x d_k, k m x d_k, v m x d_v -> output n x d_v.
// attention_output with given block sizes (tests use small ones so that n and m
// are shorter than a block, or not a multiple of it). ShapeError if a block
// size is 0.
std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options, const TileSizes& tiles);

}  // namespace attn
