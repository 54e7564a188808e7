// binding_support.hpp — what every Embind binding file of the core shares:
// errors returned as JavaScript Error objects, the copies in and out of wasm
// memory, and the tables that turn option strings into the core's enums.
// (The contract of the bindings is at the top of attention_bindings.cpp.)
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <stdexcept>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "attn/error.hpp"

namespace attn_bindings {

using emscripten::val;

// ---- errors -------------------------------------------------------------------------

// An option string no table holds (TypeError): the core's error for an option
// it does not take, raised by the conversions like the core's errors.
using OptionError = attn::OptionError;

val make_error(const char* constructor, const std::string& message);

// The message of a call that needed more memory than WebAssembly could give
// (the engine names the call: web/src/engine/arguments.js unwrap).
inline constexpr const char* kOutOfMemory = "memory: the call needs more memory than WebAssembly can provide";

// The Error object for the exception being handled (call it only inside a
// catch block): RangeError for attn::ShapeError, attn::SizeError and out of
// memory, Error for attn::ValueError, TypeError for an OptionError, Error for
// any other std::exception. One function (binding_support.cpp) rather than
// catch clauses in every binding: each clause costs code in every function.
val error_from_current_exception();

// Runs `compute` and turns every exception into a returned Error object.
template <class Compute>
val guarded(Compute&& compute) {
  try {
    return compute();
  } catch (...) {
    return error_from_current_exception();
  }
}

// ---- conversion helpers -------------------------------------------------------------

// A std::allocator whose value-initialisation leaves the floats unset, for the
// vectors that receive a whole TypedArray.set: convertJSArrayToNumberVector
// zero-fills its vector first, which at n = m = 256, d = 64 writes 192 KiB of
// zeros per attention call only to overwrite them.
template <class T>
struct NoZeroFill : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = NoZeroFill<U>;
  };
  NoZeroFill() = default;
  template <class U>
  NoZeroFill(const NoZeroFill<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;  // default-initialised: a float keeps whatever the memory held
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using Floats = std::vector<float, NoZeroFill<float>>;

// A Float32Array (or any array-like the engine allows) copied into wasm memory.
inline Floats floats_from(const val& array) {
  Floats floats(array["length"].as<std::size_t>());
  val(emscripten::typed_memory_view(floats.size(), floats.data())).call<void>("set", array);
  return floats;
}

inline std::vector<std::uint8_t> bytes_from(const val& array) {
  return emscripten::convertJSArrayToNumberVector<std::uint8_t>(array);
}

// A fresh typed array (`array_type`, e.g. "Float32Array") holding a copy of `data`.
template <class T>
val copy_out(const char* array_type, const T* data, std::size_t size) {
  return val::global(array_type).new_(emscripten::typed_memory_view(size, data));
}

template <class T>
val copy_out(const char* array_type, const std::vector<T>& data) {
  return copy_out(array_type, data.data(), data.size());
}

inline val float32_out(const std::vector<float>& data) { return copy_out("Float32Array", data); }
inline val float64_out(const std::vector<double>& data) { return copy_out("Float64Array", data); }

// `data` copied into `out` (a Float32Array of data.size() floats outside wasm
// memory: the caller checks it) and `out` returned; a fresh Float32Array when
// `out` is undefined. Writing into the caller's array allocates nothing in
// JavaScript, which a fresh result does on every call.
val float32_into(const std::vector<float>& data, const val& out);

// A JavaScript array of strings (UTF-8 in wasm, UTF-16 in JavaScript).
inline val strings_out(const std::vector<std::string>& strings) {
  val array = val::array();
  for (const std::string& s : strings) array.call<void>("push", val(s));
  return array;
}

// A JavaScript string's UTF-16 code units (a Uint16Array) as UTF-8. A lone
// surrogate, which UTF-8 cannot hold, is written as a surrogate pair's halves
// are in the generalized form (ED A0..BF xx): the core reads it back as that
// code point and names it (Embind's own std::string conversion pairs a lone
// surrogate with whatever follows it and makes up another character).
std::string utf8_from_utf16(const val& units);

inline std::uint64_t seed_from(std::uint32_t high, std::uint32_t low) {
  return (std::uint64_t{high} << 32) | low;
}

// ---- option strings -> the core's enums -------------------------------------------
//
// One table per option; each string names the core's value. A string that is
// not in the table raises OptionError listing the table (never a default).

template <class Kind, std::size_t N>
struct OptionTable {
  const char* option;  // the argument's name in the error message
  struct Entry {
    const char* name;
    Kind kind;
  } entries[N];

  Kind parse(const std::string& given) const {
    for (const auto& entry : entries)
      if (given == entry.name) return entry.kind;
    std::string expected;
    for (std::size_t i = 0; i < N; ++i) {
      expected += (i == 0 ? "'" : i + 1 == N ? " or '" : ", '") + std::string(entries[i].name) + "'";
    }
    throw OptionError(std::string(option) + ": expected " + expected + ", got '" + given + "'");
  }
};

}  // namespace attn_bindings
