// Embind bindings of the attention core. They convert types, and do three
// things more, each named below: they refuse an option string their table
// does not hold, a scale a float cannot hold and a randomStream count beyond
// the core's matrix limit (before the core is called),
// they force the scalar kernel variant for the test path 'scalar' and report
// the build's kernel facts (kernelFacts), and they turn the core's
// exceptions into returned JavaScript Error objects. Every other check is the
// engine's (web/src/engine/arguments.js) or the core's.
//
// In:  Float32Array / Uint8Array arguments are copied into std::vector (one
//      TypedArray.set per argument); sizes arrive as numbers; every option
//      arrives as a STRING naming the core's enum value ('causal', 'given',
//      'tiled', 'additive', ...), parsed here by one table per option. A
//      string the table does not hold is a named TypeError, never a default.
//      The scale factor arrives as a double and is narrowed to the core's
//      float only if a float can hold it (else a RangeError showing the value).
// Out: results are copied out of wasm memory into fresh Float32Arrays
//      (new Float32Array(typed_memory_view(...))) before the vectors are freed,
//      so growing the memory later never detaches what JavaScript holds;
//      attentionOutput copies into the caller's `out` array instead when given.
//
// What the caller must guarantee (the engine, web/src/engine/arguments.js,
// checks it before every call): each array argument is a plain, attached,
// non-shared view outside this module's memory; each number fits its C++
// type; each string is a string. Then no Embind conversion and no call back
// into JavaScript can throw inside these functions.
//
// Errors: every function catches the core's exceptions and RETURNS a JavaScript
// Error object (RangeError for attn::ShapeError / attn::SizeError and for out of
// memory, Error for attn::ValueError, TypeError for an unknown option string)
// carrying the exact message. The engine throws it. Throwing a JavaScript
// exception through wasm frames would skip C++ destructors and leave the
// shadow-stack pointer where the deepest frame put it; returning the Error
// keeps the stack pointer and the Embind handle table as they were.
//
// Shapes follow attn/shapes.hpp: n queries, m keys, d_k, d_v, h heads, d_model,
// row-major, rows are tokens. Shape legend and validation live in the core.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "attn/attn.hpp"
#include "attn/testing.hpp"  // the "scalar" path (ForceKernelVariant) and kernelFacts
#include "attention_call.hpp"
#include "binding_support.hpp"

using emscripten::val;

namespace {

using namespace attn_bindings;

// ---- option strings -> the core's enums (OptionTable: binding_support.hpp; scale and
// mask: attention_call.hpp) ----------------------------------------------------------

// attentionOutput's paths through the core.
enum class Path { Tiled, Full, Scalar, Reference };
constexpr OptionTable<Path, 4> kPaths{"path", {
    {"tiled", Path::Tiled},          // attn::attention_output: online softmax, never n x m
    {"full", Path::Full},            // attn::attention_output_full: one n x m matrix
    {"scalar", Path::Scalar},        // the same with the scalar kernels (benchmarks, tests)
    {"reference", Path::Reference},  // attn::reference::attention (double accumulation)
}};

enum class ScoreKind { Dot, ScaledDot, General, Additive };
constexpr OptionTable<ScoreKind, 4> kScoreKinds{"kind", {
    {"dot", ScoreKind::Dot},
    {"scaledDot", ScoreKind::ScaledDot},
    {"general", ScoreKind::General},
    {"additive", ScoreKind::Additive},
}};

// ---- attention ----------------------------------------------------------------------

// The trace's arrays by their JavaScript names, copied out in one loop (one
// call site instead of one per array: each inlined copy costs ~110 bytes of wasm).
using TraceArray = std::vector<float> attn::AttentionTrace::*;
constexpr std::pair<const char*, TraceArray> kTraceArrays[] = {
    {"scores", &attn::AttentionTrace::scores},   {"scaled", &attn::AttentionTrace::scaled},
    {"masked", &attn::AttentionTrace::masked},   {"exps", &attn::AttentionTrace::exps},
    {"expSums", &attn::AttentionTrace::exp_sums}, {"expShifts", &attn::AttentionTrace::exp_shifts},
    {"weights", &attn::AttentionTrace::weights}, {"terms", &attn::AttentionTrace::terms},
    {"output", &attn::AttentionTrace::output},
};

// `terms` is present only when asked: absent, never an empty array a caller could take for a result.
val trace_out(const attn::AttentionTrace& trace, attn::TraceTerms terms) {
  val result = val::object();
  for (const auto& [name, array] : kTraceArrays) {
    if (array != &attn::AttentionTrace::terms || terms == attn::TraceTerms::Included)
      result.set(name, float32_out(trace.*array));
  }
  result.set("scale", trace.scale);
  return result;
}

// attentionTrace(q, k, v, call, keep, terms, reference) -> { scores, scaled, masked, exps, expSums,
// expShifts, weights, terms (when `terms`), output, scale }: the trace by the fast path, or by the
// scalar reference (double accumulation, the ground truth) when `reference`.
val attention_trace(val q, val k, val v, AttentionCall call, val keep, bool terms, bool reference) {
  return guarded([&] {
    const auto options = options_of(call, keep);
    const auto qs = floats_from(q), ks = floats_from(k), vs = floats_from(v);
    const auto parts = terms ? attn::TraceTerms::Included : attn::TraceTerms::Omitted;
    const auto shape = shape_of(call);
    return trace_out(reference ? attn::reference::attention(qs, ks, vs, shape, options, parts)
                               : attn::attention(qs, ks, vs, shape, options, parts),
                     parts);
  });
}

// attentionOutput(q, k, v, call, keep, path, out) -> Float32Array n*d_v, by one of kPaths:
// written into `out` and `out` returned (a Float32Array of n*d_v floats, checked by the
// engine), or a fresh Float32Array when `out` is undefined.
val attention_output(val q, val k, val v, AttentionCall call, val keep, std::string path, val out) {
  return guarded([&] {
    const Path chosen = kPaths.parse(path);
    const auto options = options_of(call, keep);
    const auto qs = floats_from(q), ks = floats_from(k), vs = floats_from(v);
    const auto shape = shape_of(call);
    switch (chosen) {
      case Path::Full: return float32_into(attn::attention_output_full(qs, ks, vs, shape, options), out);
      case Path::Scalar:
        {
          const attn::testing::ForceKernelVariant scalar_kernels("scalar");
          return float32_into(attn::attention_output_full(qs, ks, vs, shape, options), out);
        }
      case Path::Reference: return float32_into(attn::reference::attention(qs, ks, vs, shape, options).output, out);
      case Path::Tiled: break;
    }
    return float32_into(attn::attention_output(qs, ks, vs, shape, options), out);
  });
}

// ---- multi-head -----------------------------------------------------------------------

// mask as in AttentionCall.
struct MultiHeadCall {
  std::size_t n = 0, m = 0, dModel = 0, heads = 1;
  std::string mask;
  std::size_t validKeys = 0;
};

// The result's arrays by their JavaScript names (one call site, as kTraceArrays).
constexpr std::pair<const char*, std::vector<float> attn::MultiHeadResult::*> kMultiHeadArrays[] = {
    {"output", &attn::MultiHeadResult::output}, {"q", &attn::MultiHeadResult::q}, {"k", &attn::MultiHeadResult::k},
    {"v", &attn::MultiHeadResult::v}, {"concat", &attn::MultiHeadResult::concat},
};

// multiHead(x, context, wq, wk, wv, wo, call, keep) -> { output, headWeights, q, k, v, concat }
// `context` of length 0 means self-attention.
val multi_head(val x, val context, val wq, val wk, val wv, val wo, MultiHeadCall call, val keep) {
  return guarded([&] {
    attn::MultiHeadInputs in;
    in.mask = mask_from(call.mask, call.validKeys, keep);
    const auto xs = floats_from(x), cs = floats_from(context);
    const auto wqs = floats_from(wq), wks = floats_from(wk), wvs = floats_from(wv), wos = floats_from(wo);
    in.x = xs;
    in.context = cs;
    in.n = call.n;
    in.m = call.m;
    in.d_model = call.dModel;
    in.heads = call.heads;
    in.w_q = wqs;
    in.w_k = wks;
    in.w_v = wvs;
    in.w_o = wos;
    const auto r = attn::multi_head(in);
    val head_weights = val::array();
    for (const auto& weights : r.head_weights) head_weights.call<void>("push", float32_out(weights));
    val result = val::object();
    for (const auto& [name, array] : kMultiHeadArrays) result.set(name, float32_out(r.*array));
    result.set("headWeights", head_weights);
    return result;
  });
}

// ---- the sqrt(d_k) experiment -------------------------------------------------------

struct SaturationCall {
  std::size_t dk = 64, queries = 8, keys = 8, trials = 200;
  std::uint32_t seedHigh = 0, seedLow = 0;
};

val raw_scaled_out(const attn::RawScaled& value) {
  val out = val::object();
  out.set("raw", value.raw);
  out.set("scaled", value.scaled);
  return out;
}

// The statistics by their JavaScript names (one call site, as kTraceArrays).
constexpr std::pair<const char*, attn::RawScaled attn::SaturationResult::*> kSaturationStatistics[] = {
    {"maxWeight", &attn::SaturationResult::max_weight}, {"entropy", &attn::SaturationResult::entropy},
    {"gradient", &attn::SaturationResult::gradient}, {"saturatedShare", &attn::SaturationResult::saturated_share},
};

// saturation(call) -> { logitStd, maxWeight, entropy, gradient, saturatedShare } ({raw, scaled} each)
val saturation(SaturationCall call) {
  return guarded([&] {
    attn::SaturationOptions options;
    options.d_k = call.dk;
    options.queries = call.queries;
    options.keys = call.keys;
    options.trials = call.trials;
    options.seed = seed_from(call.seedHigh, call.seedLow);
    const auto r = attn::saturation(options);
    val result = val::object();
    result.set("logitStd", r.logit_std);
    for (const auto& [name, statistic] : kSaturationStatistics) result.set(name, raw_scaled_out(r.*statistic));
    return result;
  });
}

// ---- score functions (Bahdanau, Luong, Vaswani) -------------------------------------

// kind: one of kScoreKinds.
struct ScoresCall {
  std::string kind;
  std::size_t n = 0, m = 0, ds = 0, dh = 0, da = 0;
};

// scores(s, h, call, wa, ua, va) -> Float32Array n*m (wa, ua, va read only by the kinds that use them)
val scores(val s, val h, ScoresCall call, val wa, val ua, val va) {
  return guarded([&] {
    const ScoreKind kind = kScoreKinds.parse(call.kind);
    const auto ss = floats_from(s), hs = floats_from(h);
    const attn::ScoreInputs in{ss, hs, call.n, call.m, call.ds, call.dh};
    switch (kind) {
      case ScoreKind::Dot: return float32_out(attn::score_dot(in));
      case ScoreKind::ScaledDot: return float32_out(attn::score_scaled_dot(in));
      case ScoreKind::General: return float32_out(attn::score_general(in, floats_from(wa)));
      case ScoreKind::Additive: break;
    }
    const auto was = floats_from(wa), uas = floats_from(ua), vas = floats_from(va);
    return float32_out(attn::score_additive(in, was, uas, vas, call.da));
  });
}

// context(alignment, h, n, m, dh) -> Float32Array n*dh
val context(val alignment, val h, std::size_t n, std::size_t m, std::size_t dh) {
  return guarded([&] {
    const auto as = floats_from(alignment), hs = floats_from(h);
    return float32_out(attn::context_vectors(as, hs, n, m, dh));
  });
}

// ---- softmax and its statistics ----------------------------------------------------

val softmax(val logits, std::size_t rows, std::size_t cols) {
  return guarded([&] { return float32_out(attn::softmax_rows(floats_from(logits), rows, cols)); });
}

val row_stats(val probabilities) {
  return guarded([&] {
    const auto stats = attn::softmax_row_stats(floats_from(probabilities));
    val result = val::object();
    result.set("maxWeight", stats.max_weight);
    result.set("entropy", stats.entropy);
    result.set("jacobianTrace", stats.jacobian_trace);
    return result;
  });
}

val softmax_jacobian(val probabilities) {
  return guarded([&] { return float64_out(attn::softmax_jacobian(floats_from(probabilities))); });
}

// ---- positional encoding and random numbers ----------------------------------------

val positional_encoding(std::size_t n, std::size_t d_model) {
  return guarded([&] { return float32_out(attn::positional_encoding(n, d_model)); });
}

// randomNormal(seedHigh, seedLow, rows, cols, stddev) -> Float32Array rows*cols
val random_normal(std::uint32_t seed_high, std::uint32_t seed_low, std::size_t rows, std::size_t cols,
                  double stddev) {
  return guarded([&] {
    attn::Rng rng(seed_from(seed_high, seed_low));
    return float32_out(rng.normal_matrix(rows, cols, stddev));
  });
}

// Test entry only (web/src/engine/testing.js): the raw streams of attn::Rng.
// randomStream(seedHigh, seedLow, count) -> { normals: Float64Array, u64High, u64Low: Uint32Array }:
// `count` normal() draws from one generator and `count` next_u64() draws from
// another with the same seed (the native test vectors hold the same two streams).
val random_stream(std::uint32_t seed_high, std::uint32_t seed_low, std::size_t count) {
  return guarded([&] {
    if (count > attn::kMaxMatrixElements) {
      throw attn::SizeError("count: expected at most " + std::to_string(attn::kMaxMatrixElements) +
                            " draws, got " + std::to_string(count));
    }
    const std::uint64_t seed = seed_from(seed_high, seed_low);
    attn::Rng normals(seed), integers(seed);
    std::vector<double> normal_values(count);
    std::vector<std::uint32_t> high(count), low(count);
    for (auto& value : normal_values) value = normals.normal();
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t value = integers.next_u64();
      high[i] = static_cast<std::uint32_t>(value >> 32);
      low[i] = static_cast<std::uint32_t>(value);
    }
    val result = val::object();
    result.set("normals", float64_out(normal_values));
    result.set("u64High", copy_out("Uint32Array", high));
    result.set("u64Low", copy_out("Uint32Array", low));
    return result;
  });
}

// kernelFacts() -> { lanes, blockQueries, blockKeys }: this build's kernel variant:
// floats per vector register (4 with SIMD128, 1 without) and the tiled path's
// B_r x B_c, the block sizes attn::attention_output runs with. One function
// for all three (each Embind function costs code).
val kernel_facts() {
  const attn::kernels::KernelTable& variant = attn::testing::active_kernel_variant();
  val facts = val::object();
  facts.set("lanes", static_cast<double>(variant.lanes));
  facts.set("blockQueries", static_cast<double>(variant.block_queries));
  facts.set("blockKeys", static_cast<double>(variant.block_keys));
  return facts;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
  using emscripten::function;
  using emscripten::value_object;

  value_object<AttentionCall>("AttentionCall")
      .field("n", &AttentionCall::n)
      .field("m", &AttentionCall::m)
      .field("dk", &AttentionCall::dk)
      .field("dv", &AttentionCall::dv)
      .field("scale", &AttentionCall::scale)
      .field("scaleFactor", &AttentionCall::scaleFactor)
      .field("mask", &AttentionCall::mask)
      .field("validKeys", &AttentionCall::validKeys);
  value_object<MultiHeadCall>("MultiHeadCall")
      .field("n", &MultiHeadCall::n)
      .field("m", &MultiHeadCall::m)
      .field("dModel", &MultiHeadCall::dModel)
      .field("heads", &MultiHeadCall::heads)
      .field("mask", &MultiHeadCall::mask)
      .field("validKeys", &MultiHeadCall::validKeys);
  value_object<SaturationCall>("SaturationCall")
      .field("dk", &SaturationCall::dk)
      .field("queries", &SaturationCall::queries)
      .field("keys", &SaturationCall::keys)
      .field("trials", &SaturationCall::trials)
      .field("seedHigh", &SaturationCall::seedHigh)
      .field("seedLow", &SaturationCall::seedLow);
  value_object<ScoresCall>("ScoresCall")
      .field("kind", &ScoresCall::kind)
      .field("n", &ScoresCall::n)
      .field("m", &ScoresCall::m)
      .field("ds", &ScoresCall::ds)
      .field("dh", &ScoresCall::dh)
      .field("da", &ScoresCall::da);

  function("attentionTrace", &attention_trace);
  function("attentionOutput", &attention_output);
  function("multiHead", &multi_head);
  function("saturation", &saturation);
  function("scores", &scores);
  function("context", &context);
  function("softmax", &softmax);
  function("rowStats", &row_stats);
  function("softmaxJacobian", &softmax_jacobian);
  function("positionalEncoding", &positional_encoding);
  function("randomNormal", &random_normal);
  function("randomStream", &random_stream);
  function("kernelFacts", &kernel_facts);
}
