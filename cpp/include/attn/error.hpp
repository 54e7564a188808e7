// attn/error.hpp — the errors of the core.
//
// Every error names the argument, what was expected and what was given, e.g.
//   "k: expected m*d_k = 3*2 = 6 floats, got 5"
//   "q[3]: expected a finite number, got NaN"
//   "n*m: expected at most 268435456 elements, got 1099511627776"
// Bindings map ShapeError and SizeError to JavaScript RangeError and
// ValueError to TypeError/Error; the message is passed through unchanged.
#pragma once

#include <stdexcept>
#include <string>

namespace attn {

// Base of every error the core raises.
class Error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A length or dimension does not match the shape it must have.
class ShapeError : public Error {
 public:
  using Error::Error;
};

// A value is not allowed: NaN or infinity in an input, a non-positive scale, ...
class ValueError : public Error {
 public:
  using Error::Error;
};

// A requested size would not fit in memory (see kMaxMatrixElements).
class SizeError : public Error {
 public:
  using Error::Error;
};

}  // namespace attn
