// Fuzz target: the attention backward passes (attn/backward.hpp). One decoded
// call and an upstream gradient dO run through the reference
// (attn::reference::attention_backward), the full path (attn::attention_backward),
// the tiled forward (attn::attention_forward_tiled, which keeps the row
// log-sum-exp) and the tiled backward (attn::attention_backward_tiled, default
// blocks and blocks of 1 to 8), on a kernel variant the input picks. One input
// in four hands the tiled backward a forward that is not the forward of this
// call (entries changed, a length one off), as a caller may.
//
// Oracles:
// - only documented errors; the full and tiled paths refuse what the
//   reference refuses (a bad call, a gradient beyond the float range), with its
//   message, and nothing else: the same call, the same answer; the tiled
//   forward never refuses a valid call (its log-sum-exp is kept in double)
// - when a path returns: every gradient finite; rows of dQ of fully masked
//   queries, and rows of dK and dV of keys no query sees, exactly 0
// - every gradient within the derived tolerance of its exact value
//   (error_bounds.hpp), the forward's output and log-sum-exp too: the double
//   analysis's for the reference and for a call every path must compute in
//   double, the float analysis's otherwise
#include <algorithm>
#include <cstdint>

#include "attention_call.hpp"
#include "error_bounds.hpp"

namespace {

using namespace attn_fuzz;

void check_gradients(const attn::AttentionGradients& g, const bounds::GradientBounds& b,
                     const std::vector<std::uint8_t>& keep, const attn::AttentionShape& s, const char* path) {
  require_finite(g.q, path);
  require_finite(g.k, path);
  require_finite(g.v, path);
  std::vector<bool> query_masked(s.n, true), key_unseen(s.m, true);
  for (std::size_t i = 0; i < s.n; ++i)
    for (std::size_t j = 0; j < s.m; ++j)
      if (keep[i * s.m + j]) query_masked[i] = key_unseen[j] = false;
  require_zero_rows(g.q, s.d_k, query_masked, "dQ");
  require_zero_rows(g.k, s.d_k, key_unseen, "dK");
  require_zero_rows(g.v, s.d_v, key_unseen, "dV");
  const std::string name = path;
  require_close(g.q, b.q.value, b.q.tolerances(), (name + " dQ").c_str());
  require_close(g.k, b.k.value, b.k.tolerances(), (name + " dK").c_str());
  require_close(g.v, b.v.value, b.v.tolerances(), (name + " dV").c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const auto variant = in.kernel_variant();
  const AttentionCall c = AttentionCall::decode(in, 12, 20);
  const attn::AttentionShape& s = c.shape;
  const std::vector<float> grad_output = operand(in, s.n, s.d_v);
  const attn::testing::TileSizes tiles{in.dimension(9), in.dimension(9)};
  const bool foreign_forward = in.byte() % 4 == 3;

  const auto reference = outcome_of<attn::AttentionGradients>(
      [&] { return attn::reference::attention_backward(c.q, c.k, c.v, grad_output, s, c.options); });
  const auto full = outcome_of<attn::AttentionGradients>(
      [&] { return attn::attention_backward(c.q, c.k, c.v, grad_output, s, c.options); });
  const auto forward = outcome_of<attn::TiledAttentionForward>(
      [&] { return attn::testing::attention_forward_tiled(c.q, c.k, c.v, s, c.options, tiles); });

  if (full.error != reference.error)
    finding("attention_backward refused with \"%.300s\", the reference with \"%.300s\"", full.error.c_str(),
            reference.error.c_str());
  const bool bad_tiles = tiles.queries == 0 || tiles.keys == 0;
  if (bad_tiles) require(forward.raised(), "attention_forward_tiled accepted a block size of 0");
  if (reference.raised() && !is_range_error(reference.error)) {
    const bool about_forward = reference.error.rfind("n*m:", 0) != 0 && reference.error.rfind("grad_output", 0) != 0;
    if (!bad_tiles && !forward.raised() && about_forward)
      finding("attention_forward_tiled computed a call the reference refused: %.300s", reference.error.c_str());
    return 0;
  }
  if (bad_tiles) return 0;

  const std::vector<std::uint8_t> keep = attn::keep_matrix(c.options.mask, s.n, s.m);
  const float scale = c.options.scale.factor(s.d_k);
  const bounds::Bounded q = bounds::exact(c.q, s.n, s.d_k), k = bounds::exact(c.k, s.m, s.d_k),
                        v = bounds::exact(c.v, s.m, s.d_v), d_o = bounds::exact(grad_output, s.n, s.d_v);
  const bounds::AttentionBounds fb = bounds::attention(q, k, v, scale, keep);
  const bounds::GradientBounds gradients_in_float = bounds::attention_backward(q, k, v, d_o, fb, scale);
  const bounds::Bounded qd = bounds::exact(c.q, s.n, s.d_k, bounds::kDouble),
                        kd = bounds::exact(c.k, s.m, s.d_k, bounds::kDouble),
                        vd = bounds::exact(c.v, s.m, s.d_v, bounds::kDouble),
                        d_od = bounds::exact(grad_output, s.n, s.d_v, bounds::kDouble);
  const bounds::AttentionBounds fbd = bounds::attention(qd, kd, vd, scale, keep);
  const bounds::GradientBounds gradients_in_double = bounds::attention_backward(qd, kd, vd, d_od, fbd, scale);
  // The backward passes go to double as a whole when any row must (backward_range.hpp)
  const std::vector<bool> double_rows = bounds::double_path_rows(q, k, v, scale);
  const bool in_double = std::find(double_rows.begin(), double_rows.end(), true) != double_rows.end();
  const bounds::GradientBounds& b = in_double ? gradients_in_double : gradients_in_float;

  if (reference.result) {
    const attn::AttentionGradients& r = *reference.result;
    check_gradients(r, gradients_in_double, keep, s, "reference");
  }
  if (full.result) check_gradients(*full.result, b, keep, s, "attention_backward");

  // The tiled forward: its output, and L_i = ln sum_j exp(S_ij) (-inf for a fully masked row).
  if (forward.raised()) finding("attention_forward_tiled refused a valid call: %.300s", forward.error.c_str());
  const attn::TiledAttentionForward& f = *forward.result;
  require_finite(f.output, "forward.output");
  require_close(f.output, fb.output.value, bounds::tolerances_by_row(fb.output, fbd.output, double_rows),
                "forward.output");
  for (std::size_t i = 0; i < s.n; ++i) {
    const bounds::AttentionBounds& rows = double_rows[i] ? fbd : fb;  // the row's analysis
    double largest = -INFINITY, delta = 0;
    for (std::size_t j = 0; j < s.m; ++j)
      if (keep[i * s.m + j]) {
        largest = std::max(largest, rows.scores.value[i * s.m + j]);
        delta = std::max(delta, rows.scores.error[i * s.m + j]);
      }
    if (largest == -INFINITY) {
      require(f.log_sum_exp[i] == -INFINITY, "log_sum_exp of a fully masked row is not -inf");
      continue;
    }
    long double total = 0;
    for (std::size_t j = 0; j < s.m; ++j)
      if (keep[i * s.m + j]) total += std::exp(static_cast<long double>(rows.scores.value[i * s.m + j]) - largest);
    const double exact = static_cast<double>(largest + std::log(total));
    // |L^ - L| <= the scores' error + the error of ln of the sum + rounding (of L, kept in double)
    const double unit = rows.scores.arithmetic.u;
    const double tolerance = bounds::kSafety * (delta + bounds::gamma(s.m + 4, unit) + 2 * unit * std::fabs(exact)) +
                             bounds::kDenormal;
    if (!(std::fabs(f.log_sum_exp[i] - exact) <= tolerance))
      finding("log_sum_exp[%zu] = %.9g, expected %.9g within %.3g", i, f.log_sum_exp[i], exact, tolerance);
  }

  attn::TiledAttentionForward given = f;
  if (foreign_forward) {
    const std::size_t which = in.below(4);
    if (which == 0) given.output = in.values(given.output.size());
    if (which == 1) {
      const std::vector<float> values = in.values(given.log_sum_exp.size());
      given.log_sum_exp.assign(values.begin(), values.end());
    }
    if (which == 2) given.log_sum_exp.push_back(0.0f);
    if (which == 3) given.output.pop_back();
  }
  for (const bool small : {false, true}) {
    const auto tiled = outcome_of<attn::AttentionGradients>([&] {
      return small ? attn::testing::attention_backward_tiled(c.q, c.k, c.v, grad_output, given, s, c.options, tiles)
                   : attn::attention_backward_tiled(c.q, c.k, c.v, grad_output, given, s, c.options);
    });
    if (!foreign_forward && tiled.error != reference.error)
      finding("attention_backward_tiled: \"%.300s\", the reference: \"%.300s\"", tiled.error.c_str(),
              reference.error.c_str());
    if (!tiled.result) continue;
    if (foreign_forward) {
      // Not this call's forward: no exact value to compare with, but finite.
      require_finite(tiled.result->q, "dQ");
      require_finite(tiled.result->k, "dK");
      require_finite(tiled.result->v, "dV");
      continue;
    }
    check_gradients(*tiled.result, b, keep, s, small ? "tiled backward (small blocks)" : "tiled backward");
  }
  return 0;
}
