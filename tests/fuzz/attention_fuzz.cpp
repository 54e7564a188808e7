// Fuzz target: attention, every path. One decoded call (attention_call.hpp)
// runs through the reference (attn::reference::attention), the trace
// (attn::attention), the full output path (both overloads), the tiled path
// (default blocks and, through attn/testing.hpp, blocks of 1 to 8), on a kernel
// variant the input picks.
//
// Oracles:
// - only documented errors; every path refuses a bad call with the
//   reference's message (the tiled path has no n*m limit), and the
//   output-only paths never refuse a valid call (their output always fits)
// - the trace raises exactly when the reference does (a score beyond float)
// - when a path returns: every number finite, weights in [0, 1], rows that are
//   not fully masked sum to 1, masked weights and exponentials exactly 0, masked
//   scores -inf
// - every result within the derived tolerance of its exact value
//   (error_bounds.hpp); the reference within its own rounding
// - the tiled path gives the same bits whatever the number of threads
#include <cstdint>
#include <cstring>

#include "attention_call.hpp"
#include "error_bounds.hpp"

namespace {

using namespace attn_fuzz;

void check_trace(const attn::AttentionTrace& t, const bounds::AttentionBounds& b, const bounds::Bounded& raw_scores,
                 const std::vector<std::uint8_t>& keep, const attn::AttentionShape& s, const char* path) {
  require_finite(t.scores, "scores");
  require_finite(t.scaled, "scaled");
  require_finite(t.exps, "exps");
  require_finite(t.exp_sums, "exp_sums");
  require_finite(t.exp_shifts, "exp_shifts");
  require_finite(t.output, "output");
  require_weights(t.weights, keep, s.n, s.m, path);
  for (std::size_t i = 0; i < keep.size(); ++i) {
    const float expected = keep[i] ? t.scaled[i] : -INFINITY;
    if (std::memcmp(&t.masked[i], &expected, sizeof expected) != 0)
      finding("%s masked[%zu] = %g, expected %g (the scaled score, or -inf where masked)", path, i, t.masked[i],
              expected);
    if (!keep[i] && t.exps[i] != 0.0f) finding("%s exps[%zu] = %g where masked, expected 0", path, i, t.exps[i]);
  }
  require_close(t.scores, raw_scores.value, raw_scores.tolerances(), "scores");
  require_close(t.scaled, b.scores.value, b.scores.tolerances(), "scaled");
  require_close(t.weights, b.weights.value, b.weights.tolerances(), "weights");
  require_close(t.output, b.output.value, b.output.tolerances(), "output");
}

// A refusal of `path` where the reference refused with `reference_error`.
void require_same_refusal(const std::string& error, const std::string& reference_error, const char* path) {
  if (error != reference_error)
    finding("%s refused with \"%.300s\", the reference with \"%.300s\"", path, error.c_str(), reference_error.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const auto variant = in.kernel_variant();
  const AttentionCall c = AttentionCall::decode(in, 24, 40);
  attn::testing::TileSizes tiles{in.dimension(9), in.dimension(9)};
  const bool wrong_output_length = in.byte() % 32 == 31;

  const auto reference = outcome_of<attn::AttentionTrace>(
      [&] { return attn::reference::attention(c.q, c.k, c.v, c.shape, c.options); });
  const auto trace = outcome_of<attn::AttentionTrace>([&] { return attn::attention(c.q, c.k, c.v, c.shape, c.options); });
  const auto full = outcome_of<std::vector<float>>(
      [&] { return attn::attention_output_full(c.q, c.k, c.v, c.shape, c.options); });
  const auto tiled = outcome_of<std::vector<float>>(
      [&] { return attn::attention_output(c.q, c.k, c.v, c.shape, c.options); });
  const auto small_tiles = outcome_of<std::vector<float>>(
      [&] { return attn::testing::attention_output(c.q, c.k, c.v, c.shape, c.options, tiles); });

  // Refusals agree with the reference's.
  if (trace.error != reference.error) require_same_refusal(trace.error, reference.error, "attention");
  const bool valid = !reference.raised() || is_range_error(reference.error);
  for (const auto* o : {&full, &tiled}) {
    const char* path = o == &full ? "attention_output_full" : "attention_output";
    if (valid && o->raised()) finding("%s refused a valid call: %.300s", path, o->error.c_str());
    if (!valid && o->raised()) require_same_refusal(o->error, reference.error, path);
    if (!valid && !o->raised() && !(o == &tiled && reference.error.rfind("n*m:", 0) == 0))
      finding("%s computed a call the reference refused with \"%.300s\"", path, reference.error.c_str());
  }
  if (tiles.queries == 0 || tiles.keys == 0) {
    require(small_tiles.raised(), "testing::attention_output accepted a block size of 0");
  } else if (valid) {
    require(!small_tiles.raised(), "testing::attention_output refused a valid call");
  }
  if (!valid) return 0;

  const attn::AttentionShape& s = c.shape;
  const std::vector<std::uint8_t> keep = attn::keep_matrix(c.options.mask, s.n, s.m);
  const float scale = c.options.scale.factor(s.d_k);
  const bounds::Bounded q = bounds::exact(c.q, s.n, s.d_k), k = bounds::exact(c.k, s.m, s.d_k),
                        v = bounds::exact(c.v, s.m, s.d_v);
  const bounds::Bounded raw_scores = bounds::product(q, bounds::transpose(k));
  const bounds::AttentionBounds b = bounds::attention(q, k, v, scale, keep);

  if (reference.result) {
    // The reference: in double, rounded once. Its tolerance is the same
    // analysis with double's roundoff (2^-53 for 2^-24): 2^-29 of the float bound.
    const attn::AttentionTrace& r = *reference.result;
    require_weights(r.weights, keep, s.n, s.m, "reference weights");
    for (const auto& [actual, exact] : {std::pair{&r.weights, &b.weights}, std::pair{&r.output, &b.output}}) {
      std::vector<double> tolerance(exact->value.size());
      for (std::size_t i = 0; i < tolerance.size(); ++i)
        tolerance[i] = bounds::u * std::fabs(exact->value[i]) + 0x1p-29 * exact->error[i] + bounds::kDenormal;
      require_close(*actual, exact->value, tolerance, "reference");
    }
    check_trace(*trace.result, b, raw_scores, keep, s, "attention weights");
  }
  for (const auto* o : {&full, &tiled, &small_tiles}) {
    if (o->raised()) continue;  // small_tiles with a block size of 0
    require_finite(*o->result, "output");
    require_close(*o->result, b.output.value, b.output.tolerances(), o == &small_tiles ? "tiled (small blocks)" : "output");
  }

  // The span overload of the full path: the same numbers into the caller's buffer.
  std::vector<float> into(s.n * s.d_v + (wrong_output_length ? 1 : 0), -1.0f);
  const bool wrote = documented([&] { attn::attention_output_full(c.q, c.k, c.v, s, c.options, into); });
  require(wrote != wrong_output_length, "attention_output_full(span): a wrong output length was not refused");
  if (wrote) require(into == *full.result, "attention_output_full(span) differs from the vector overload");

  // Threads do not change a bit.
  attn::AttentionOptions one_thread = c.options;
  one_thread.threads = 1;
  require(attn::attention_output(c.q, c.k, c.v, s, one_thread) == *tiled.result,
          "attention_output: threads changed the result");
  return 0;
}
