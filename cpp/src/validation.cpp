// validation.cpp — the error messages of the core (formats in attn/error.hpp).
#include "validation.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "attn/error.hpp"

namespace attn::detail {

namespace {

std::string to_decimal(std::size_t value) { return std::to_string(value); }

}  // namespace

std::string describe_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string quoted_excerpt(std::string_view text) {
  constexpr std::size_t kShown = 40;
  if (text.size() <= kShown) return "\"" + std::string(text) + "\"";
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return "\"" + std::string(text.substr(0, cut)) + "...\" (" + to_decimal(text.size()) + " bytes)";
}

void require_dimension(const char* name, std::size_t value) {
  if (value < 1) throw ShapeError(std::string(name) + ": expected at least 1, got " + to_decimal(value));
}

std::size_t checked_product(const char* formula, std::size_t a, std::size_t b) {
  // a*b > limit  <=>  a > limit / b  (integer division, b >= 1): no overflow.
  const bool too_large = b != 0 && a > kMaxMatrixElements / b;
  if (!too_large) return a * b;
  std::string given;
  if (a <= std::numeric_limits<std::uint64_t>::max() / b) {
    given = std::to_string(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
  } else {
    given = to_decimal(a) + "*" + to_decimal(b) + " (more than 2^64)";
  }
  throw SizeError(std::string(formula) + ": expected at most " + to_decimal(kMaxMatrixElements) +
                  " elements, got " + given);
}

void require_length(const char* arg, FloatSpan data, const char* formula, std::size_t a, std::size_t b) {
  const std::size_t expected = a * b;  // callers have passed (a, b) through checked_product
  if (data.size() == expected) return;
  throw ShapeError(std::string(arg) + ": expected " + formula + " = " + to_decimal(a) + "*" + to_decimal(b) +
                   " = " + to_decimal(expected) + " floats, got " + to_decimal(data.size()));
}

void require_length(const char* arg, FloatSpan data, const char* what, std::size_t expected) {
  if (data.size() == expected) return;
  throw ShapeError(std::string(arg) + ": expected " + what + " = " + to_decimal(expected) + " floats, got " +
                   to_decimal(data.size()));
}

void require_finite(const char* arg, FloatSpan data, std::size_t offset) {
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (!std::isfinite(data[i])) {
      throw ValueError(std::string(arg) + "[" + to_decimal(offset + i) + "]: expected a finite number, got " +
                       describe_value(data[i]));
    }
  }
}

}  // namespace attn::detail
