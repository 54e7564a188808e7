// Fuzz target: the score functions (attn/scores.hpp): dot, scaled dot,
// general, additive, and the context vectors, on a kernel variant the input
// picks.
//
// Oracles:
// - only documented errors (a score beyond the float range names it)
// - every score finite and within the derived tolerance of its exact value
//   (error_bounds.hpp): e = S H^T, S H^T / sqrt(d_h), (S W_a) H^T, and
//   v_a . tanh(a_i + b_j) with a = S W_a, b = H U_a, where tanh adds its
//   argument's error (it is 1-Lipschitz) and 2u of rounding; c = A H
#include <cstdint>

#include "attention_call.hpp"
#include "error_bounds.hpp"

using namespace attn_fuzz;

namespace {

void check_close(const std::vector<float>& actual, const bounds::Bounded& exact, const char* name) {
  require_finite(actual, name);
  require_close(actual, exact.value, exact.tolerances(), name);
}

// e_ij = v_a . tanh(a_i + b_j)
bounds::Bounded additive(const bounds::Bounded& a, const bounds::Bounded& b, const bounds::Bounded& v_a) {
  const std::size_t n = a.rows, m = b.rows, d_a = a.cols;
  bounds::Bounded e(n, m);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      bounds::Bounded hidden(1, d_a);
      for (std::size_t c = 0; c < d_a; ++c) {
        const double x = a.value[a.at(i, c)] + b.value[b.at(j, c)];
        const double x_error = a.error[a.at(i, c)] + b.error[b.at(j, c)] +
                               bounds::u * (a.magnitude[a.at(i, c)] + b.magnitude[b.at(j, c)]);
        hidden.value[c] = std::tanh(x);
        hidden.magnitude[c] = std::fabs(hidden.value[c]);
        hidden.error[c] = std::min(2.0, x_error + 2 * bounds::u * hidden.magnitude[c]);
      }
      const bounds::Bounded one = bounds::product(hidden, bounds::transpose(v_a));
      e.value[e.at(i, j)] = one.value[0];
      e.magnitude[e.at(i, j)] = one.magnitude[0];
      e.error[e.at(i, j)] = one.error[0];
    }
  return e;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const auto variant = in.kernel_variant();
  attn::ScoreInputs call;
  call.n = in.dimension_or_huge(10);
  call.m = in.dimension_or_huge(10);
  call.d_s = in.dimension_or_huge(24);
  call.d_h = in.flag() ? call.d_s : in.dimension_or_huge(24);
  const std::vector<float> s = operand(in, call.n, call.d_s), h = operand(in, call.m, call.d_h);
  call.s = s, call.h = h;
  // (exact values only once a call has returned: its sizes are then holdable)
  const auto exact_s = [&] { return bounds::exact(s, call.n, call.d_s); };
  const auto exact_h = [&] { return bounds::exact(h, call.m, call.d_h); };
  std::vector<float> e;

  switch (in.below(5)) {
    case 0:
      if (documented([&] { e = attn::score_dot(call); })) check_close(e, bounds::product(exact_s(), bounds::transpose(exact_h())), "dot");
      break;
    case 1:
      if (documented([&] { e = attn::score_scaled_dot(call); })) {
        const double scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(call.d_h)));
        check_close(e, bounds::scaled(bounds::product(exact_s(), bounds::transpose(exact_h())), scale), "scaled dot");
      }
      break;
    case 2: {
      const std::vector<float> w_a = operand(in, call.d_s, call.d_h);
      if (documented([&] { e = attn::score_general(call, w_a); }))
        check_close(e, bounds::product(bounds::product(exact_s(), bounds::exact(w_a, call.d_s, call.d_h)), bounds::transpose(exact_h())),
                    "general");
      break;
    }
    case 3: {
      const std::size_t d_a = in.dimension_or_huge(12);
      const std::vector<float> w_a = operand(in, call.d_s, d_a), u_a = operand(in, call.d_h, d_a), v_a = operand(in, 1, d_a);
      if (documented([&] { e = attn::score_additive(call, w_a, u_a, v_a, d_a); })) {
        const bounds::Bounded a = bounds::product(exact_s(), bounds::exact(w_a, call.d_s, d_a));
        const bounds::Bounded b = bounds::product(exact_h(), bounds::exact(u_a, call.d_h, d_a));
        check_close(e, additive(a, b, bounds::exact(v_a, 1, d_a)), "additive");
      }
      break;
    }
    default: {
      const std::vector<float> alignment = operand(in, call.n, call.m);
      if (documented([&] { e = attn::context_vectors(alignment, h, call.n, call.m, call.d_h); }))
        check_close(e, bounds::product(bounds::exact(alignment, call.n, call.m), exact_h()), "context");
      break;
    }
  }
  return 0;
}
