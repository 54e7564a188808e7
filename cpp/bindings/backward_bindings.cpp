// Embind bindings of the attention backward pass (attn/backward.hpp): type
// conversion and the path's option table, under the contract of
// attention_bindings.cpp (arguments checked by the engine, errors RETURNED as
// JavaScript Error objects, results copied out). Part of the learning module only (cpp/bindings/CMakeLists.txt).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "attn/backward.hpp"
#include "attention_call.hpp"
#include "binding_support.hpp"

using emscripten::val;

namespace {

using namespace attn_bindings;

// attentionBackward's paths through the core (attn/backward.hpp).
enum class BackwardPath { Tiled, Full, Reference };
constexpr OptionTable<BackwardPath, 3> kBackwardPaths{"path", {
    {"tiled", BackwardPath::Tiled},          // attention_forward_tiled, then attention_backward_tiled: never n x m
    {"full", BackwardPath::Full},            // attn::attention_backward: the SIMD kernels through n x m matrices
    {"reference", BackwardPath::Reference},  // attn::reference::attention_backward (double)
}};

val gradients_out(const attn::AttentionGradients& gradients) {
  val result = val::object();
  result.set("gradQ", float32_out(gradients.q));
  result.set("gradK", float32_out(gradients.k));
  result.set("gradV", float32_out(gradients.v));
  return result;
}

// attentionBackward(q, k, v, gradOutput, call, keep, path) -> { gradQ n*d_k, gradK m*d_k, gradV m*d_v }:
// the gradients of sum(gradOutput * output), by one of kBackwardPaths.
val attention_backward(val q, val k, val v, val grad_output, AttentionCall call, val keep, std::string path) {
  return guarded([&] {
    const BackwardPath chosen = kBackwardPaths.parse(path);
    const auto options = options_of(call, keep);
    const auto qs = floats_from(q), ks = floats_from(k), vs = floats_from(v), dos = floats_from(grad_output);
    const auto shape = shape_of(call);
    switch (chosen) {
      case BackwardPath::Full: return gradients_out(attn::attention_backward(qs, ks, vs, dos, shape, options));
      case BackwardPath::Reference:
        return gradients_out(attn::reference::attention_backward(qs, ks, vs, dos, shape, options));
      case BackwardPath::Tiled: break;
    }
    const attn::TiledAttentionForward forward = attn::attention_forward_tiled(qs, ks, vs, shape, options);
    return gradients_out(attn::attention_backward_tiled(qs, ks, vs, dos, forward, shape, options));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_backward) {
  emscripten::function("attentionBackward", &attention_backward);
}
