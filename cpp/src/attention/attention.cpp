// attention.cpp — the entry points over the full n x m matrix: the trace
// (attn::attention) and the output alone (attn::attention_output_full), both
// one call of the full pipeline (full_pipeline.hpp).
#include "attn/attention.hpp"

#include "full_pipeline.hpp"

namespace attn {

AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options) {
  const detail::AttentionProblem problem =
      detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);
  const std::size_t count = shape.n * shape.m;
  AttentionTrace trace;
  trace.scale = problem.scale;
  trace.scores.resize(count);
  trace.scaled.resize(count);
  trace.masked.resize(count);
  trace.weights.resize(count);
  trace.output.resize(shape.n * shape.d_v);
  detail::full_passes(problem, {trace.scores.data(), trace.scaled.data(), trace.masked.data(), trace.weights.data(),
                                trace.output.data()});
  return trace;
}

std::vector<float> attention_output_full(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                         const AttentionOptions& options) {
  const detail::AttentionProblem problem =
      detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);
  std::vector<float> matrix(shape.n * shape.m);  // S, then scaled, masked, P, in place
  std::vector<float> output(shape.n * shape.d_v);
  detail::full_passes(problem, {.weights = matrix.data(), .output = output.data()});
  return output;
}

}  // namespace attn
