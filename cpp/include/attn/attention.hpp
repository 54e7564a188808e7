// attn/attention.hpp — scaled dot-product attention.
//
//   Attention(Q, K, V) = softmax(mask(scale * Q K^T)) V
//
// Shapes (see attn/shapes.hpp): Q n x d_k, K m x d_k, V m x d_v, all n x m
// matrices row i = query i; output n x d_v.
#pragma once

#include <span>
#include <vector>

#include "attn/mask.hpp"
#include "attn/shapes.hpp"

namespace attn {

// How raw scores are scaled: 1/sqrt(d_k) (the default), not at all, or by a
// given positive number at most FLT_MAX (3.40282347e+38).
struct Scale {
  enum class Kind { InverseSqrtDk, None, Given };
  Kind kind = Kind::InverseSqrtDk;
  double given = 1.0;  // double, so that an error can show the value given (1e39, not "inf")

  static Scale inverse_sqrt_dk() { return {}; }
  static Scale none() { return {Kind::None, 1.0}; }
  static Scale by(double factor) { return {Kind::Given, factor}; }
  // The factor that multiplies QK^T, as a float. ValueError if a given factor
  // is not a finite positive number at most FLT_MAX.
  float factor(std::size_t d_k) const;
};

struct AttentionOptions {
  Scale scale;
  Mask mask;
  // How many threads the tiled path (attention_output, attention_forward_tiled)
  // may split its query blocks over, and the tiled backward
  // (attention_backward_tiled) its key blocks, then its query blocks: 0 = the hardware's concurrency (the
  // default), 1 = the calling thread only (no thread is started). Small calls
  // use fewer. The results are bit-identical whatever the number. The
  // WebAssembly builds have no threads.
  std::size_t threads = 0;
};

// Every intermediate of one attention call, so the walkthrough can show each step.
//
//   exps_ij = e^(masked_ij - c_i),  exp_sums_i = sum_j exps_ij,  weights_ij = exps_ij / exp_sums_i
//
// The shift c_i (exp_shifts) is 0 while the textbook form e^(masked_ij), as
// article 001 writes it, stays in the float range: every kept e^(masked_ij) at
// least FLT_MIN and max_j masked_ij + ln m <= 88, so that their sum is below
// e^88 < FLT_MAX. Beyond, c_i = max_j masked_ij, the stable form every
// softmax kernel computes (exps in [0, 1], exp_sums in [1, m]). Both give the
// same weights; a fully masked row has c_i = 0, exps 0 and exp_sums 0. The
// exponentials are the softmax kernels' own vector exp (about 1 ulp; a term
// below FLT_MIN, e^-87.34, is 0, as its weight is); attention_reference's
// are computed in double, each rounded to float once.
struct AttentionTrace {
  std::vector<float> scores;      // n x m        QK^T
  std::vector<float> scaled;      // n x m        scale * QK^T
  std::vector<float> masked;      // n x m        scaled, with -inf where the mask forbids
  std::vector<float> exps;        // n x m        e^(masked_ij - exp_shifts_i) (0 where masked)
  std::vector<float> exp_sums;    // n            sum_j exps_ij
  std::vector<float> exp_shifts;  // n            c_i: 0 (textbook) or max_j masked_ij (stable)
  std::vector<float> weights;     // n x m        row softmax of masked (0 where masked)
  std::vector<float> terms;       // n x m x d_v  weights_ij v_j, at (i*m + j)*d_v; empty unless asked
  std::vector<float> output;      // n x d_v      weights V = sum_j terms_ij
  float scale = 1.0f;             // the factor that was applied
};

// Whether a trace holds the per-key terms weights_ij v_j (n*m*d_v floats,
// which must not exceed kMaxMatrixElements: SizeError "n*m*d_v: ...").
enum class TraceTerms { Omitted, Included };

// Every function below checks its call before computing anything, raising:
//   ShapeError  a dimension is 0 ("n: expected at least 1, got 0"), or q, k, v
//               do not hold n*d_k, m*d_k, m*d_v floats ("k: expected m*d_k =
//               3*2 = 6 floats, got 5"), or an explicit mask has not n*m entries
//   SizeError   n*d_k, m*d_k, m*d_v, n*d_v (or n*m, for the paths that hold
//               the n x m matrix) exceed kMaxMatrixElements
//   ValueError  an input is NaN or infinite ("q[3]: expected a finite number,
//               got NaN"), the scale is not finite and positive, a mask entry
//               is not 0 or 1, mask.valid_keys > m
// Every number returned is finite (attn/error.hpp states the promise): rows
// whose float intermediates could overflow are computed in double.

// q n x d_k, k m x d_k, v m x d_v -> trace (n x m matrices, n-vectors, n x d_v
// output; the n x m x d_v terms when `terms` is Included). The full trace, on
// the vector kernels this CPU runs best. ValueError
// "scores[0][1]: q_0 . k_1 = 1e+40 is beyond the float range (|x| <=
// 3.40282347e+38)" (or scaled[i][j]) when a score itself does not fit in a
// float; the output paths below return the output (it always fits) instead.
AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options = {}, TraceTerms terms = TraceTerms::Omitted);

// q n x d_k, k m x d_k, v m x d_v -> output n x d_v only, by the tiled
// online-softmax path (FlashAttention): never holds the n x m matrix, so n*m
// may exceed kMaxMatrixElements. Same result as attention(...).output within
// the tolerance. No n*m limit.
std::vector<float> attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                    const AttentionOptions& options = {});

// The same, written into `output` (n*d_v floats, else ShapeError naming
// `output`). Allocates nothing in a steady state: the working buffers stay
// with each thread between calls.
void attention_output(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                      const AttentionOptions& options, std::span<float> output);

// q n x d_k, k m x d_k, v m x d_v -> output n x d_v through one full n x m
// score matrix (what the tiled path avoids), keeping no trace: the same passes
// as attention(), in place in one buffer.
std::vector<float> attention_output_full(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                         const AttentionOptions& options = {});

// The same, written into `output` (n*d_v floats, else ShapeError naming
// `output`). Allocates nothing in a steady state while the n x m matrix fits
// in the buffer kept per thread (1 MiB: n*m <= 262144).
void attention_output_full(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                           const AttentionOptions& options, std::span<float> output);

}  // namespace attn
