// attention.cpp — the entry points over the full n x m matrix: the trace
// (attn::attention) and the output alone (attn::attention_output_full), both
// one call of the full pipeline (full_pipeline.hpp).
#include "attn/attention.hpp"

#include "full_pipeline.hpp"
#include "scratch.hpp"
#include "validation.hpp"

namespace attn {

AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options, TraceTerms terms) {
  const detail::AttentionProblem problem =
      detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);
  AttentionTrace trace;
  detail::trace_passes(problem, terms, trace);
  return trace;
}

namespace {

// The output alone: the passes in place in one n x m buffer kept per thread.
void full_output(const detail::AttentionProblem& problem, float* output) {
  detail::Scratch matrix(detail::ScratchUse::ScoreMatrix, problem.shape.n * problem.shape.m);
  detail::full_passes(problem, matrix.data(), output);
}

}  // namespace

std::vector<float> attention_output_full(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                                         const AttentionOptions& options) {
  const detail::AttentionProblem problem =
      detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);
  std::vector<float> output(shape.n * shape.d_v);
  full_output(problem, output.data());
  return output;
}

void attention_output_full(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                           const AttentionOptions& options, std::span<float> output) {
  const detail::AttentionProblem problem =
      detail::check_attention_call(q, k, v, shape, options, detail::ScoreMatrix::Held);
  detail::require_length("output", output, "n*d_v", shape.n, shape.d_v);
  full_output(problem, output.data());
}

}  // namespace attn
