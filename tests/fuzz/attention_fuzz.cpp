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
//   (error_bounds.hpp): the float analysis's, or the double analysis's for the
//   reference and for the rows every path must compute in double
// - the tiled path gives the same bits whatever the number of threads
#include <cstdint>
#include <cstring>

#include "attention_call.hpp"
#include "error_bounds.hpp"

namespace {

using namespace attn_fuzz;

// The exact values and their tolerances in float and in double, and the rows
// computed in double.
struct Expected {
  bounds::AttentionBounds in_float, in_double;
  bounds::Bounded raw_scores, raw_scores_in_double;  // Q K^T
  std::vector<bool> double_rows;
  std::vector<double> tolerances(const bounds::Bounded& in_float_result, const bounds::Bounded& in_double_result) const {
    return bounds::tolerances_by_row(in_float_result, in_double_result, double_rows);
  }
};

void check_trace(const attn::AttentionTrace& t, const Expected& e, const std::vector<std::uint8_t>& keep,
                 const attn::AttentionShape& s, const char* path) {
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
  const bounds::AttentionBounds &b = e.in_float, &d = e.in_double;
  require_close(t.scores, e.raw_scores.value, e.tolerances(e.raw_scores, e.raw_scores_in_double), "scores");
  require_close(t.scaled, b.scores.value, e.tolerances(b.scores, d.scores), "scaled");
  require_close(t.weights, b.weights.value, e.tolerances(b.weights, d.weights), "weights");
  require_close(t.output, b.output.value, e.tolerances(b.output, d.output), "output");
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
  const bounds::Bounded qd = bounds::exact(c.q, s.n, s.d_k, bounds::kDouble),
                        kd = bounds::exact(c.k, s.m, s.d_k, bounds::kDouble),
                        vd = bounds::exact(c.v, s.m, s.d_v, bounds::kDouble);
  const Expected e{bounds::attention(q, k, v, scale, keep), bounds::attention(qd, kd, vd, scale, keep),
                   bounds::product(q, bounds::transpose(k)), bounds::product(qd, bounds::transpose(kd)),
                   bounds::double_path_rows(q, k, v, scale)};
  const bounds::AttentionBounds& b = e.in_float;

  if (reference.result) {
    // The reference: in double, rounded once; held to the double analysis.
    const attn::AttentionTrace& r = *reference.result;
    require_weights(r.weights, keep, s.n, s.m, "reference weights");
    require_close(r.weights, b.weights.value, e.in_double.weights.tolerances(), "reference weights");
    require_close(r.output, b.output.value, e.in_double.output.tolerances(), "reference output");
    check_trace(*trace.result, e, keep, s, "attention weights");
  }
  const std::vector<double> output_tolerances = e.tolerances(b.output, e.in_double.output);
  for (const auto* o : {&full, &tiled, &small_tiles}) {
    if (o->raised()) continue;  // small_tiles with a block size of 0
    require_finite(*o->result, "output");
    require_close(*o->result, b.output.value, output_tolerances, o == &small_tiles ? "tiled (small blocks)" : "output");
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
