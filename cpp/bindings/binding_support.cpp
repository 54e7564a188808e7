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
    return make_error("RangeError", "memory: the inputs need more memory than WebAssembly can provide");
  } catch (const std::length_error&) {
    return make_error("RangeError", "memory: the inputs need more memory than WebAssembly can provide");
  } catch (const std::exception& e) {
    return make_error("Error", e.what());
  }
}

}  // namespace attn_bindings
