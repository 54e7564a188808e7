// attention_call.hpp — one attention call decoded from fuzz bytes, shared by
// the attention, backward, mask and multi-head targets: the shape, q, k, v
// (their lengths sometimes one off), the scale, the mask and the threads.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "attn/attn.hpp"
#include "fuzz_input.hpp"
#include "oracles.hpp"

namespace attn_fuzz {

// A length that is right 31 times in 32, else one more or one less.
inline std::size_t maybe_wrong_length(FuzzInput& in, std::size_t right) {
  if (in.byte() % 32 != 31) return right;
  return in.flag() || right == 0 ? right + 1 : right - 1;
}

// n*d floats when the product is small enough to hold, else a few (the call
// must then be refused for its size before it reads them).
inline std::vector<float> operand(FuzzInput& in, std::size_t rows, std::size_t cols) {
  const bool holdable = rows <= (std::size_t{1} << 16) && cols <= (std::size_t{1} << 16) && rows * cols <= 1u << 16;
  return in.values(holdable ? maybe_wrong_length(in, rows * cols) : 3);
}

// Scale: the default 1/sqrt(d_k), none, or a given factor (hostile doubles).
inline attn::Scale decode_scale(FuzzInput& in) {
  switch (in.below(4)) {
    case 0: return attn::Scale::inverse_sqrt_dk();
    case 1: return attn::Scale::none();
    case 2: return attn::Scale::by(in.option_value());
    default: return attn::Scale::by(static_cast<double>(1 + in.below(16)) / 4.0);
  }
}

// Every kind of mask, right and wrong: causal; key padding with valid_keys in
// range, just out of range or huge; keep-matrices of n*m entries (and of
// other sizes) whose entries are mostly 0 and 1; an unknown kind.
inline attn::Mask decode_mask(FuzzInput& in, std::size_t n, std::size_t m) {
  switch (in.below(8)) {
    case 0:
    case 1: return attn::Mask::none();
    case 2: return attn::Mask::causal();
    case 3: {
      const std::uint8_t b = in.byte();
      const std::size_t valid = b % 16 == 15 ? kHugeSizes[b % std::size(kHugeSizes)] : in.below(m + 2);
      return attn::Mask::key_padding(valid);
    }
    case 4:
    case 5:
    case 6: {
      const bool holdable = n <= 4096 && m <= 4096;
      const std::size_t count = holdable ? maybe_wrong_length(in, n * m) : in.below(8);
      std::vector<std::uint8_t> keep(count);
      const bool dense = in.flag();
      for (auto& entry : keep) {
        const std::uint8_t b = in.byte();
        entry = b == 255 ? in.byte() : dense ? (b % 8 != 0) : (b % 3 == 0);
      }
      return attn::Mask::explicit_keep(std::move(keep));
    }
    default: {
      attn::Mask mask;
      mask.kind = static_cast<attn::Mask::Kind>(4 + in.below(4));  // not one of the four kinds
      return mask;
    }
  }
}

struct AttentionCall {
  attn::AttentionShape shape;
  std::vector<float> q, k, v;
  attn::AttentionOptions options;

  // Sizes up to max_rows queries and keys and max_width columns (or huge).
  static AttentionCall decode(FuzzInput& in, std::size_t max_rows, std::size_t max_width) {
    AttentionCall c;
    c.shape.n = in.dimension_or_huge(max_rows);
    c.shape.m = in.dimension_or_huge(max_rows);
    c.shape.d_k = in.dimension_or_huge(max_width);
    c.shape.d_v = in.dimension_or_huge(max_width);
    c.q = operand(in, c.shape.n, c.shape.d_k);
    c.k = operand(in, c.shape.m, c.shape.d_k);
    c.v = operand(in, c.shape.m, c.shape.d_v);
    c.options.scale = decode_scale(in);
    c.options.mask = decode_mask(in, c.shape.n, c.shape.m);
    c.options.threads = in.below(4);
    if (std::getenv("ATTN_FUZZ_VERBOSE")) c.print();
    return c;
  }

  // The call on stderr (ATTN_FUZZ_VERBOSE=1 fuzz_x crash-file): to write a regression test from.
  void print() const {
    std::fprintf(stderr, "n %zu m %zu d_k %zu d_v %zu; scale kind %d given %.9g; mask kind %d valid_keys %zu keep %zu; threads %zu\n",
                 shape.n, shape.m, shape.d_k, shape.d_v, static_cast<int>(options.scale.kind), options.scale.given,
                 static_cast<int>(options.mask.kind), options.mask.valid_keys, options.mask.keep.size(), options.threads);
    const auto list = [](const char* name, const auto& x) {
      std::fprintf(stderr, "%s = {", name);
      for (std::size_t i = 0; i < x.size(); ++i) std::fprintf(stderr, "%s%.9g", i ? ", " : "", static_cast<double>(x[i]));
      std::fprintf(stderr, "}\n");
    };
    list("q", q);
    list("k", k);
    list("v", v);
    list("keep", options.mask.keep);
  }
};

// What a call gave: its result, or the documented error's message.
template <class Result>
struct Outcome {
  std::optional<Result> result;
  std::string error;  // empty when it returned
  bool raised() const { return !result; }
};

template <class Result, class Call>
Outcome<Result> outcome_of(Call&& call) {
  Outcome<Result> o;
  std::string message;
  const bool returned = documented([&] {
    try {
      o.result.emplace(call());
    } catch (const attn::Error& e) {
      message = e.what();
      throw;
    }
  });
  if (!returned) o.error = message;
  return o;
}

// The float range refusal ("scores[0][1]: ... is beyond the float range"):
// only the paths that return scores or projections raise it.
inline bool is_range_error(const std::string& message) {
  return message.find("is beyond the float range") != std::string::npos;
}

}  // namespace attn_fuzz
