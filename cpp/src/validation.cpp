// validation.cpp — the error messages of the core (formats in attn/error.hpp).
#include "validation.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
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

std::string number_text(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0.0) return "0";  // -0 too, as in JavaScript
  // The shortest digits d1 d2 ... dk that read back as `value` (1 to 17 of them),
  // and n with value = 0.d1...dk * 10^n. (Emscripten 3.1.6's libc++ has no
  // floating-point std::to_chars.)
  char text[40];
  for (int precision = 0; precision <= 16; ++precision) {
    std::snprintf(text, sizeof text, "%.*e", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  std::string digits;
  const char* c = text + (value < 0 ? 1 : 0);
  for (; *c != 'e'; ++c)
    if (*c != '.') digits += *c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int k = static_cast<int>(digits.size()), n = std::atoi(c + 1) + 1;
  // ECMAScript's Number::toString: plain decimals from 1e-7 to 1e21, else d.ddde+x.
  std::string out = value < 0 ? "-" : "";
  if (k <= n && n <= 21) {
    out += digits + std::string(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  } else {
    out += digits[0];
    if (k > 1) out.append(".").append(digits, 1);
    out.append(n - 1 >= 0 ? "e+" : "e-").append(std::to_string(std::abs(n - 1)));
  }
  return out;
}

Utf8Character utf8_character_at(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  const Utf8Character single{lead, 1, lead < 0x80};
  // Lead byte: its length and the bits it carries.
  const std::size_t size = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 1;
  if (size == 1 || at + size > text.size()) return single;
  char32_t code = lead & (0x7F >> size);
  for (std::size_t i = 1; i < size; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return single;
    code = (code << 6) | (byte(at + i) & 0x3F);
  }
  const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[size] || code > 0x10FFFF) return single;  // overlong or beyond Unicode
  return {code, size, !(code >= 0xD800 && code <= 0xDFFF)};
}

namespace {

// Characters that show nothing, look like another (a space that is not U+0020)
// or reorder the text around them: named by code point in messages.
bool is_invisible(char32_t c) {
  static constexpr char32_t kRanges[][2] = {
      {0x00, 0x1F},     {0x7F, 0xA0},     {0xAD, 0xAD},       {0x34F, 0x34F},     {0x61C, 0x61C},
      {0x115F, 0x1160}, {0x1680, 0x1680}, {0x17B4, 0x17B5},   {0x180B, 0x180F},   {0x2000, 0x200F},
      {0x2028, 0x202F}, {0x205F, 0x206F}, {0x3000, 0x3000},   {0x3164, 0x3164},   {0xD800, 0xDFFF},
      {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFFB},   {0xFFFE, 0xFFFF},
      {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
  };
  for (const auto& range : kRanges)
    if (c >= range[0] && c <= range[1]) return true;
  return false;
}

// Combining marks (the main blocks): shown by code point when nothing precedes them to combine with.
bool is_combining_mark(char32_t c) {
  return (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
         (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F);
}

std::string hex(unsigned value, int digits) {
  char text[16];
  std::snprintf(text, sizeof text, "%0*X", digits, value);
  return text;
}

}  // namespace

std::string shown_text(std::string_view text) {
  std::string shown;
  for (std::size_t at = 0; at < text.size();) {
    const Utf8Character c = utf8_character_at(text, at);
    const bool lone_mark = at == 0 && is_combining_mark(c.code_point);
    if (!c.well_formed && c.size == 1) {
      shown += "<0x" + hex(c.code_point, 2) + ">";
    } else if (!c.well_formed || is_invisible(c.code_point) || lone_mark) {
      shown += "<U+" + hex(static_cast<unsigned>(c.code_point), 4) + ">";
    } else {
      shown.append(text.substr(at, c.size));
    }
    at += c.size;
  }
  return shown;
}

std::string quoted_excerpt(std::string_view text) {
  constexpr std::size_t kShown = 40;
  std::string quoted = "\"";
  if (text.size() <= kShown) return quoted.append(shown_text(text)).append("\"");
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return quoted.append(shown_text(text.substr(0, cut))).append("...\" (" + to_decimal(text.size()) + " bytes)");
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
