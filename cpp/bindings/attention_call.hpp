// attention_call.hpp — one attention call as it crosses Embind (AttentionCall,
// registered in attention_bindings.cpp) and its conversion to the core's
// shape and options; shared by attention_bindings.cpp and backward_bindings.cpp.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "attn/attention.hpp"
#include "binding_support.hpp"

namespace attn_bindings {

inline constexpr OptionTable<attn::Scale::Kind, 3> kScaleKinds{"scale", {
    {"inverseSqrtDk", attn::Scale::Kind::InverseSqrtDk},
    {"none", attn::Scale::Kind::None},
    {"given", attn::Scale::Kind::Given},
}};

inline constexpr OptionTable<attn::Mask::Kind, 4> kMaskKinds{"mask", {
    {"none", attn::Mask::Kind::None},
    {"causal", attn::Mask::Kind::Causal},
    {"keyPadding", attn::Mask::Kind::KeyPadding},
    {"keep", attn::Mask::Kind::Keep},
}};

inline attn::Scale scale_from(const std::string& kind, double factor) {
  switch (kScaleKinds.parse(kind)) {
    case attn::Scale::Kind::None: return attn::Scale::none();
    case attn::Scale::Kind::Given: return attn::Scale::by(factor);  // the core checks it, as a double
    case attn::Scale::Kind::InverseSqrtDk: break;
  }
  return attn::Scale::inverse_sqrt_dk();
}

// `keep` is read only for 'keep', `valid_keys` only for 'keyPadding'.
inline attn::Mask mask_from(const std::string& kind, std::size_t valid_keys, const val& keep) {
  switch (kMaskKinds.parse(kind)) {
    case attn::Mask::Kind::Causal: return attn::Mask::causal();
    case attn::Mask::Kind::KeyPadding: return attn::Mask::key_padding(valid_keys);
    case attn::Mask::Kind::Keep: return attn::Mask::explicit_keep(bytes_from(keep));
    case attn::Mask::Kind::None: break;
  }
  return attn::Mask::none();
}

// One attention call. scale: 'inverseSqrtDk' (1/sqrt(d_k)), 'none', 'given'
// (scaleFactor); mask: 'none', 'causal', 'keyPadding' (validKeys), 'keep' (the
// keep argument, n*m bytes).
struct AttentionCall {
  std::size_t n = 0, m = 0, dk = 0, dv = 0;
  std::string scale;
  double scaleFactor = 1.0;
  std::string mask;
  std::size_t validKeys = 0;
};

inline attn::AttentionShape shape_of(const AttentionCall& call) { return {call.n, call.m, call.dk, call.dv}; }

inline attn::AttentionOptions options_of(const AttentionCall& call, const val& keep) {
  return {scale_from(call.scale, call.scaleFactor), mask_from(call.mask, call.validKeys, keep)};
}

}  // namespace attn_bindings
