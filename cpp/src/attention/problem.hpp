// problem.hpp (internal) — one attention call, checked once: what every
// attention path (the trace, the output-only full path, the tiled path, the
// reference, multi-head's heads) starts from.
#pragma once

#include "attn/attention.hpp"
#include "float_range.hpp"
#include "mask_rule.hpp"

namespace attn::detail {

struct AttentionProblem {
  const float* q;  // n x d_k
  const float* k;  // m x d_k
  const float* v;  // m x d_v
  AttentionShape shape;
  float scale;        // the factor that multiplies Q K^T
  KeepRule rule;      // the mask; points into the caller's options.mask
  OperandNorms norms;  // for the float-range check (float_range.hpp)
};

// Whether a path holds n x m matrices (the trace, the full paths: n*m must not
// exceed kMaxMatrixElements) or streams them block by block (the tiled path).
enum class ScoreMatrix { Held, Streamed };

// Every check of an attention call, in this order, each raising the error of
// attn/error.hpp that names the argument:
//   n, m, d_k, d_v >= 1; n*d_k, m*d_k, m*d_v, n*d_v (and n*m if Held) fit;
//   the lengths of q, k, v; their values finite; the scale; the mask.
AttentionProblem check_attention_call(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                      const AttentionOptions& options, ScoreMatrix matrix);

// A problem from operands the caller has already checked (multi-head's heads).
AttentionProblem checked_attention_problem(const float* q, const float* k, const float* v,
                                           const AttentionShape& shape, float scale, const KeepRule& rule);

}  // namespace attn::detail
