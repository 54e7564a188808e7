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

// Text a caller gave, quoted for an error message and shortened: "abc", or
// "the first 40 bytes..." (1000000 bytes), cut at a UTF-8 character boundary.
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
