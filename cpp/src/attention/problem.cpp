// problem.cpp — the checks of an attention call (problem.hpp).
#include "problem.hpp"

#include "validation.hpp"

namespace attn::detail {

AttentionProblem check_attention_call(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                      const AttentionOptions& options, ScoreMatrix matrix) {
  // Sizes before lengths: n*d_k is only meaningful if it does not overflow.
  require_dimension("n", shape.n);
  require_dimension("m", shape.m);
  require_dimension("d_k", shape.d_k);
  require_dimension("d_v", shape.d_v);
  checked_product("n*d_k", shape.n, shape.d_k);
  checked_product("m*d_k", shape.m, shape.d_k);
  checked_product("m*d_v", shape.m, shape.d_v);
  checked_product("n*d_v", shape.n, shape.d_v);
  if (matrix == ScoreMatrix::Held) checked_product("n*m", shape.n, shape.m);
  require_length("q", q, "n*d_k", shape.n, shape.d_k);
  require_length("k", k, "m*d_k", shape.m, shape.d_k);
  require_length("v", v, "m*d_v", shape.m, shape.d_v);
  const OperandNorms norms = measure_operands(q.data(), k.data(), v.data(), shape);  // and finite
  const float scale = options.scale.factor(shape.d_k);
  const KeepRule rule(options.mask, shape.n, shape.m);
  return {q.data(), k.data(), v.data(), shape, scale, rule, norms};
}

AttentionProblem checked_attention_problem(const float* q, const float* k, const float* v,
                                           const AttentionShape& shape, float scale, const KeepRule& rule) {
  return {q, k, v, shape, scale, rule, measure_operands(q, k, v, shape)};
}

}  // namespace attn::detail
