// attn/error.hpp — the errors of the core.
//
// Every error names the argument, what was expected and what was given, e.g.
//   "k: expected m*d_k = 3*2 = 6 floats, got 5"
//   "q[3]: expected a finite number, got NaN"
//   "n*m: expected at most 268435456 elements, got 1099511627776"
// or the returned quantity that would not fit in a float, and where:
//   "scores[0][1]: q_0 . k_1 = 1e+40 is beyond the float range (|x| <= 3.40282347e+38)"
//
// What the core promises (every function, every path): sizes are checked
// before any work (a zero dimension or a product beyond memory raises at
// once); every number returned is finite, never NaN; a quantity that fits in
// a float is computed correctly even when float intermediates would not
// (those rows or products are computed in double); one that does not fit
// raises ValueError as above. Attention's output and weights always fit (a
// convex combination of value rows; numbers in [0, 1]), so attention_output
// and attention_output_full never raise on finite inputs of a valid shape;
// the trace raises when a score itself does not fit. A row is treated as
// masked only when the mask masks all of it.
// The same call gives the same answer on every path: the numbers two paths
// both return agree within float rounding, and a path raises only for a
// number that it returns and that does not fit (the trace returns the
// scores; attention_output, the tiled forward, whose log-sum-exp is kept in
// double, and the backward passes return no score).
// Bindings map ShapeError and SizeError to JavaScript RangeError, ValueError
// to Error and OptionError to TypeError; the message is passed through unchanged.
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

// A value is not allowed: NaN or infinity in an input, a non-positive scale,
// a result beyond the float range, ...
class ValueError : public Error {
 public:
  using Error::Error;
};

// A requested size would not fit in memory (see kMaxMatrixElements).
class SizeError : public Error {
 public:
  using Error::Error;
};

// An option the call does not take: unknown, not one of its choices, of the
// wrong kind, or not applicable to the chosen model or task
// (attn/trainer_options.hpp).
class OptionError : public Error {
 public:
  using Error::Error;
};

}  // namespace attn
