// Fuzz target: masks (attn::keep_matrix). Every kind (none, causal, key
// padding with valid_keys in range, out of range and huge, keep-matrices of
// every size with entries 0, 1 and others, unknown kinds) against sizes from 0
// to huge.
//
// Oracles:
// - only documented errors, and sizes refused before any work (a huge n or m
//   answers at once: libFuzzer's timeout catches a loop over them)
// - the keep-matrix is what the rule says, recomputed here: causal j <= i,
//   padding j < valid_keys, an explicit matrix copied as given
// - a refusal names the mask (mask.valid_keys, mask.keep, mask.kind) or a size
// - the same mask gives the same refusal or the same masked weights in
//   attention: masked weights exactly 0 (fuzz_attention checks the rest)
#include <cstdint>

#include "attention_call.hpp"

using namespace attn_fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::size_t n = in.dimension_or_huge(40), m = in.dimension_or_huge(40);
  const attn::Mask mask = decode_mask(in, n, m);

  std::vector<std::uint8_t> keep;
  std::string error;
  const bool returned = documented([&] {
    try {
      keep = attn::keep_matrix(mask, n, m);
    } catch (const attn::Error& e) {
      error = e.what();
      throw;
    }
  });
  if (!returned) {
    const bool names_it = error.rfind("mask.", 0) == 0 || error.rfind("n:", 0) == 0 || error.rfind("m:", 0) == 0 ||
                          error.rfind("n*m:", 0) == 0;
    if (!names_it) finding("keep_matrix refused without naming the mask or a size: %.300s", error.c_str());
    return 0;
  }
  require(keep.size() == n * m, "keep_matrix: not n*m entries");
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      bool expected = true;
      switch (mask.kind) {
        case attn::Mask::Kind::None: expected = true; break;
        case attn::Mask::Kind::Causal: expected = j <= i; break;
        case attn::Mask::Kind::KeyPadding: expected = j < mask.valid_keys; break;
        case attn::Mask::Kind::Keep: expected = mask.keep[i * m + j] == 1; break;
        default: finding("keep_matrix accepted an unknown mask kind %d", static_cast<int>(mask.kind));
      }
      if (keep[i * m + j] != (expected ? 1 : 0)) finding("keep[%zu][%zu] = %d, expected %d", i, j, keep[i * m + j], expected);
    }

  // The same mask in attention (ones everywhere: every score equal).
  const attn::AttentionShape shape{n, m, 1, 1};
  const std::vector<float> q(n, 1.0f), k(m, 1.0f), v(m, 1.0f);
  attn::AttentionOptions options;
  options.mask = mask;
  attn::AttentionTrace trace;
  require(documented([&] { trace = attn::attention(q, k, v, shape, options); }), "attention refused a valid mask");
  require_weights(trace.weights, keep, n, m, "weights");
  return 0;
}
