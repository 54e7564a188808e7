// validation.hpp (internal) — the checks every public entry point makes, once,
// before any kernel runs. Each raises the error of attn/error.hpp with a message
// that names the argument, what was expected and what was given:
//   require_dimension    "n: expected at least 1, got 0"                      ShapeError
//   checked_product      "n*m: expected at most 268435456 elements, got ..."  SizeError
//   require_length       "k: expected m*d_k = 3*2 = 6 floats, got 5"          ShapeError
//   require_finite       "q[3]: expected a finite number, got NaN"            ValueError
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "attn/shapes.hpp"

namespace attn::detail {

// "NaN", "inf", "-inf" or the number, as printed in error messages.
std::string describe_value(double value);

// A number as JavaScript writes it (Number.prototype.toString): the fewest
// digits that read back as the same double, so that an option is shown as the
// caller gave it (-0.01, not -0.00999999978); 1e+21, 1e-7, "NaN", "Infinity".
std::string number_text(double value);

// One character of UTF-8 text: its code point and its length in bytes. A byte
// that starts no well-formed character is a character of its own (size 1,
// well_formed false, code_point the byte). A surrogate encoded like a
// character (ED A0..BF xx: how the bindings pass a lone surrogate of a
// JavaScript string) is read as that surrogate, not well-formed.
struct Utf8Character {
  char32_t code_point = 0;
  std::size_t size = 1;
  bool well_formed = true;
};
Utf8Character utf8_character_at(std::string_view text, std::size_t at);

// Text a caller gave, as an error message shows it: every visible character as
// typed; a character that shows nothing or moves other text (controls, NUL,
// format and bidirectional controls such as U+202E, spaces other than U+0020,
// a lone surrogate, a combining mark with nothing to combine with) as
// <U+XXXX>; a byte that is not UTF-8 as <0xXX>. So the message is valid UTF-8,
// has no NUL to cut it short, and cannot reorder the text around it.
std::string shown_text(std::string_view text);

// shown_text quoted and shortened: "abc", or "the first 40 bytes..." (1000000
// bytes), cut at a UTF-8 character boundary.
std::string quoted_excerpt(std::string_view text);

// ShapeError unless value >= 1.
void require_dimension(const char* name, std::size_t value);

// a*b, or SizeError if it exceeds kMaxMatrixElements (checked without overflow).
// `formula` names the product, e.g. "n*m".
std::size_t checked_product(const char* formula, std::size_t a, std::size_t b);

// ShapeError unless data.size() == a*b. `formula` names the product, e.g. "m*d_k".
void require_length(const char* arg, FloatSpan data, const char* formula, std::size_t a, std::size_t b);

// ShapeError unless data.size() == expected; `what` names the expected length, e.g. "d_a".
void require_length(const char* arg, FloatSpan data, const char* what, std::size_t expected);

// ValueError naming arg[offset + i] at the first NaN or infinity of data
// (data = arg[offset ...], a part of the argument).
void require_finite(const char* arg, FloatSpan data, std::size_t offset = 0);

}  // namespace attn::detail
