// binding_support.cpp — the errors of the bindings and the copy into a caller's array (binding_support.hpp).
#include "binding_support.hpp"

#include <new>

namespace attn_bindings {

val make_error(const char* constructor, const std::string& message) {
  return val::global(constructor).new_(message);
}

val float32_into(const std::vector<float>& data, const val& out) {
  if (out.isUndefined()) return float32_out(data);
  out.call<void>("set", emscripten::typed_memory_view(data.size(), data.data()));
  return out;
}

std::string utf8_from_utf16(const val& units) {
  std::vector<std::uint16_t> u(units["length"].as<std::size_t>());
  val(emscripten::typed_memory_view(u.size(), u.data())).call<void>("set", units);
  std::string out;
  for (std::size_t i = 0; i < u.size(); ++i) {
    char32_t c = u[i];
    const bool pair = c >= 0xD800 && c <= 0xDBFF && i + 1 < u.size() && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF;
    if (pair) c = 0x10000 + ((c - 0xD800) << 10) + (u[++i] - 0xDC00);
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6)), out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12)), out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18)), out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F)), out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

val error_from_current_exception() {
  try {
    throw;
  } catch (const attn::ShapeError& e) {
    return make_error("RangeError", e.what());
  } catch (const attn::SizeError& e) {
    return make_error("RangeError", e.what());
  } catch (const attn::ValueError& e) {
    return make_error("Error", e.what());
  } catch (const OptionError& e) {
    return make_error("TypeError", e.what());
  } catch (const std::bad_alloc&) {
    return make_error("RangeError", kOutOfMemory);
  } catch (const std::length_error&) {
    return make_error("RangeError", kOutOfMemory);
  } catch (const std::exception& e) {
    return make_error("Error", e.what());
  }
}

}  // namespace attn_bindings
