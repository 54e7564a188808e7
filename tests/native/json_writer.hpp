// json_writer.hpp — the few JSON pieces the vector writers print, with fprintf
// (no JSON library): floats with %.9g and doubles with %.17g, enough digits
// to read back the same value. Commas between elements are the caller's.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace attn_test {

class JsonWriter {
 public:
  explicit JsonWriter(std::FILE* file) : file_(file) {}
  void raw(const char* text) { std::fputs(text, file_); }
  void key(const char* name) { std::fprintf(file_, "\"%s\":", name); }
  void string(const char* text) { std::fprintf(file_, "\"%s\"", text); }  // (no escaping: no quotes or backslashes)
  void strings(const std::vector<std::string>& texts) {
    raw("[");
    for (std::size_t i = 0; i < texts.size(); ++i) raw(i ? "," : ""), string(texts[i].c_str());
    raw("]");
  }
  void number(double value) { std::fprintf(file_, "%.17g", value); }
  void integer(long long value) { std::fprintf(file_, "%lld", value); }
  void floats(std::span<const float> values) {
    raw("[");
    for (std::size_t i = 0; i < values.size(); ++i) std::fprintf(file_, i ? ",%.9g" : "%.9g", values[i]);
    raw("]");
  }
  template <class Integer>
  void integers(std::span<const Integer> values) {
    raw("[");
    for (std::size_t i = 0; i < values.size(); ++i) std::fprintf(file_, i ? ",%lld" : "%lld", static_cast<long long>(values[i]));
    raw("]");
  }

 private:
  std::FILE* file_;
};

}  // namespace attn_test
