// fuzz_input.hpp — the one decoder every fuzz target shares: libFuzzer's bytes
// -> small sizes, hostile floats, choices and text, read front to back. When
// the bytes run out, the reads go on from a generator seeded by a hash of the
// input (xorshift32), so that any input decodes, and a short input can still
// describe a large call (a 20 x 70 attention needs thousands of floats).
//
// The first byte picks how floats are drawn for the whole input (the value
// profile), so that most inputs are finite and reach deep into the code while
// some carry NaN and infinities into every argument:
//   ordinary   multiples of 1/16 in [-8, 8), and -0
//   hostile    ordinary, or one of the specials below except NaN and +-inf,
//              or any finite float from its raw bits
//   any        hostile, or NaN, +inf, -inf
// The specials: 0, -0, +-1, the smallest denormal (1.4e-45) and a larger one
// (1e-40), +-FLT_MIN, +-1e-30, +-1e19, +-1e20, +-1e30, +-1e37, +-FLT_MAX.
//
// Sizes: dimension(max) reads one byte: 0 to max, most often 1 to max; with
// huge() one size in 64 is one of kHugeSizes instead (a product beyond memory
// whatever the others are, so the call must be refused before any work).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attn/testing.hpp"

namespace attn_fuzz {

enum class ValueProfile { Ordinary, Hostile, Any };

// Sizes no valid call can have (each times any dimension >= 1 exceeds
// attn::kMaxMatrixElements = 2^28).
inline constexpr std::size_t kHugeSizes[] = {(std::size_t{1} << 28) + 1, std::size_t{1} << 32, std::size_t{1} << 63,
                                             std::numeric_limits<std::size_t>::max()};

inline constexpr float kSpecials[] = {0.0f,     -0.0f,     1.0f,     -1.0f,    1.4e-45f, 1e-40f,  FLT_MIN,
                                      -FLT_MIN, 1e-30f,    -1e-30f,  1e19f,    -1e19f,   1e20f,   -1e20f,
                                      1e30f,    -1e30f,    1e37f,    -1e37f,   FLT_MAX,  -FLT_MAX};

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {
    std::uint32_t hash = 2166136261u;  // FNV-1a
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 16777619u;
    after_end_ = hash | 1u;
    const std::uint8_t first = byte();
    profile_ = first % 8 < 4 ? ValueProfile::Ordinary : first % 8 < 7 ? ValueProfile::Hostile : ValueProfile::Any;
  }

  ValueProfile profile() const { return profile_; }
  bool exhausted() const { return at_ >= size_; }

  std::uint8_t byte() {
    if (at_ < size_) return data_[at_++];
    after_end_ ^= after_end_ << 13;
    after_end_ ^= after_end_ >> 17;
    after_end_ ^= after_end_ << 5;
    return static_cast<std::uint8_t>(after_end_ >> 24);
  }
  bool flag() { return (byte() & 1) != 0; }

  // 0 .. count-1 (count >= 1, at most 65536).
  std::size_t below(std::size_t count) {
    const std::size_t raw = count <= 256 ? byte() : (std::size_t{byte()} << 8) | byte();
    return raw % count;
  }

  // A dimension: 1 .. max mostly, 0 one time in 16.
  std::size_t dimension(std::size_t max) {
    const std::uint8_t b = byte();
    if (b % 16 == 15) return 0;
    return 1 + (b / 16 + 16 * below(16)) % max;
  }

  // dimension(max), or one time in 64 a huge size (kHugeSizes).
  std::size_t dimension_or_huge(std::size_t max) {
    if (byte() % 64 == 63) return kHugeSizes[below(std::size(kHugeSizes))];
    return dimension(max);
  }

  // One float of the input's profile.
  float value() {
    const std::uint8_t kind = byte();
    if (profile_ == ValueProfile::Ordinary || kind < 128) return ordinary(kind);
    if (profile_ == ValueProfile::Any && kind >= 240) {
      const float non_finite[] = {std::numeric_limits<float>::quiet_NaN(), INFINITY, -INFINITY};
      return non_finite[kind % 3];
    }
    if (kind < 200) return kSpecials[below(std::size(kSpecials))];
    // any finite float from 4 bytes
    std::uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits = (bits << 8) | byte();
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return std::isfinite(x) ? x : 0.0f;
  }

  std::vector<float> values(std::size_t count) {
    std::vector<float> x(count);
    for (float& v : x) v = value();
    return x;
  }

  // A double for options that take one (a scale factor, a stddev): a float of
  // the profile, or sometimes beyond the float range (1e39, 1e300).
  double option_value() {
    const std::uint8_t kind = byte();
    if (profile_ != ValueProfile::Ordinary && kind % 16 == 15) return kind < 128 ? 1e39 : -1e300;
    return value();
  }

  // Text of at most max_length bytes, for tokenizers: `words` (a vocabulary)
  // separated by spaces, mixed with digits, spaces, punctuation and letters,
  // and any byte at all one time in eight.
  std::string text(std::size_t max_length, const std::vector<std::string>& words = {}) {
    std::string s;
    const std::size_t length = below(max_length + 1);
    while (s.size() < length) {
      const std::uint8_t b = byte();
      if (!words.empty() && b < 192) {
        if (!s.empty()) s += ' ';
        s += words[b % words.size()];
      } else {
        s += static_cast<char>(b < 224 ? "0123456789 .!?aZ"[b % 16] : byte());
      }
    }
    return s;
  }

  // Forces one of the kernel variants this CPU runs (attn/testing.hpp), for
  // the lifetime of the returned object.
  attn::testing::ForceKernelVariant kernel_variant() {
    const auto variants = attn::testing::kernel_variants();
    return attn::testing::ForceKernelVariant(variants[below(variants.size())]->name);
  }

 private:
  // Multiples of 1/16 in [-8, 8), -0 for 0 one time in two.
  float ordinary(std::uint8_t kind) {
    const int raw = static_cast<int>(byte()) - 128;
    if (raw == 0 && (kind & 1)) return -0.0f;
    return static_cast<float>(raw) / 16.0f;
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
  std::uint32_t after_end_ = 1;  // the generator's state once the bytes have run out
  ValueProfile profile_ = ValueProfile::Ordinary;
};

}  // namespace attn_fuzz
