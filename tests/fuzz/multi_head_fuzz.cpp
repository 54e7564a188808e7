// Fuzz target: multi-head attention, self and cross (attn::multi_head), its
// backward (attn::multi_head_backward) and the backward's double reference
// (attn::reference::multi_head_backward), on a kernel variant the input picks.
//
// Oracles:
// - only documented errors; the backward and its reference refuse what the
//   forward refuses, with its message
// - when the forward returns: every number finite; each head's weights in
//   [0, 1], rows not fully masked sum to 1, masked weights exactly 0; the
//   projections, weights, concatenation and output within the derived
//   tolerance of their exact values (error_bounds.hpp)
// - when a backward returns: every gradient finite and within its derived
//   tolerance; the reference's within the double analysis's
#include <cstdint>

#include "attention_call.hpp"
#include "error_bounds.hpp"

namespace {

using namespace attn_fuzz;

void check_close(const std::vector<float>& actual, const bounds::Bounded& exact, const char* name) {
  require_finite(actual, name);
  require_close(actual, exact.value, exact.tolerances(), name);
}

void check_gradients(const attn::MultiHeadGradients& g, const bounds::MultiHeadGradientBounds& b, bool self,
                     const char* path) {
  const std::string p = path;
  check_close(g.x, b.x, (p + " dX").c_str());
  if (!self) check_close(g.context, b.context, (p + " dC").c_str());
  require(self == g.context.empty(), "multi_head_backward: dC is returned for cross-attention only");
  check_close(g.w_q, b.w_q, (p + " dW_Q").c_str());
  check_close(g.w_k, b.w_k, (p + " dW_K").c_str());
  check_close(g.w_v, b.w_v, (p + " dW_V").c_str());
  check_close(g.w_o, b.w_o, (p + " dW_O").c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const auto variant = in.kernel_variant();
  const bool self_requested = in.flag();
  attn::MultiHeadInputs call;
  call.n = in.dimension_or_huge(10);
  call.heads = in.dimension_or_huge(4);
  // d_model: a multiple of heads mostly
  call.d_model = in.byte() % 8 == 7 ? in.dimension_or_huge(16) : call.heads * in.dimension(4);
  const std::size_t requested_m = self_requested ? call.n : in.dimension_or_huge(10);
  // self-attention: m = 0 or n (or a wrong m)
  call.m = self_requested ? (in.byte() % 16 == 15 ? in.dimension(10) : 0) : requested_m;
  const std::vector<float> x = operand(in, call.n, call.d_model);
  const std::vector<float> context = self_requested ? std::vector<float>{} : operand(in, requested_m, call.d_model);
  const bool self = context.empty();  // what the API reads: no context, self-attention
  const std::size_t m = self ? call.n : call.m;
  const std::vector<float> w_q = operand(in, call.d_model, call.d_model), w_k = operand(in, call.d_model, call.d_model),
                           w_v = operand(in, call.d_model, call.d_model), w_o = operand(in, call.d_model, call.d_model);
  call.x = x, call.context = context, call.w_q = w_q, call.w_k = w_k, call.w_v = w_v, call.w_o = w_o;
  call.mask = decode_mask(in, call.n, m);
  const std::vector<float> grad_output = operand(in, call.n, call.d_model);

  const auto forward = outcome_of<attn::MultiHeadResult>([&] { return attn::multi_head(call); });
  const auto backward =
      outcome_of<attn::MultiHeadGradients>([&] { return attn::multi_head_backward(call, grad_output); });
  const auto reference =
      outcome_of<attn::MultiHeadGradients>([&] { return attn::reference::multi_head_backward(call, grad_output); });
  if (forward.raised()) {
    for (const auto* o : {&backward, &reference})
      if (o->error != forward.error) finding("a backward refused with \"%.300s\", the forward with \"%.300s\"",
                                             o->error.c_str(), forward.error.c_str());
    return 0;
  }
  if (backward.raised() != reference.raised())
    finding("multi_head_backward: \"%.300s\", its reference: \"%.300s\"", backward.error.c_str(),
            reference.error.c_str());

  const std::size_t d = call.d_model, d_head = d / call.heads;
  const std::vector<std::uint8_t> keep = attn::keep_matrix(call.mask, call.n, m);
  const double scale = attn::Scale::inverse_sqrt_dk().factor(d_head);
  const bounds::Bounded bx = bounds::exact(x, call.n, d);
  const bounds::Bounded bc = self ? bx : bounds::exact(context, m, d);
  const bounds::Bounded bwq = bounds::exact(w_q, d, d), bwk = bounds::exact(w_k, d, d), bwv = bounds::exact(w_v, d, d),
                        bwo = bounds::exact(w_o, d, d);
  const bounds::MultiHeadBounds b = bounds::multi_head(bx, bc, bwq, bwk, bwv, bwo, call.heads, scale, keep);

  const attn::MultiHeadResult& r = *forward.result;
  check_close(r.q, b.q, "Q");
  check_close(r.k, b.k, "K");
  check_close(r.v, b.v, "V");
  require(r.head_weights.size() == call.heads, "multi_head: one weight matrix per head");
  for (std::size_t h = 0; h < call.heads; ++h) {
    require_weights(r.head_weights[h], keep, call.n, m, "head weights");
    check_close(r.head_weights[h], b.heads[h].weights, "head weights");
  }
  check_close(r.concat, b.concat, "Concat");
  check_close(r.output, b.output, "output");

  if (backward.raised()) {
    // grad_output's length or values, or a gradient beyond the float range; as its reference
    const bool expected = backward.error.rfind("grad_output", 0) == 0 || is_range_error(backward.error);
    if (!expected || backward.error != reference.error)
      finding("multi_head_backward refused \"%.300s\", its reference \"%.300s\"", backward.error.c_str(),
              reference.error.c_str());
    return 0;
  }
  const bounds::MultiHeadGradientBounds gb = bounds::multi_head_backward(
      bx, bc, bwq, bwk, bwv, bwo, call.heads, scale, b, bounds::exact(grad_output, call.n, d), self);
  check_gradients(*backward.result, gb, self, "multi_head_backward");
  // The reference in double: the same analysis with double's roundoff
  const auto in_double = [&](const std::vector<float>& x, std::size_t rows) {
    return bounds::exact(x, rows, d, bounds::kDouble);
  };
  const bounds::Bounded dx = in_double(x, call.n), dc = self ? dx : in_double(context, m), dwq = in_double(w_q, d),
                        dwk = in_double(w_k, d), dwv = in_double(w_v, d), dwo = in_double(w_o, d);
  const bounds::MultiHeadBounds bd = bounds::multi_head(dx, dc, dwq, dwk, dwv, dwo, call.heads, scale, keep);
  check_gradients(*reference.result,
                  bounds::multi_head_backward(dx, dc, dwq, dwk, dwv, dwo, call.heads, scale, bd,
                                              in_double(grad_output, call.n), self),
                  self, "reference::multi_head_backward");
  return 0;
}
