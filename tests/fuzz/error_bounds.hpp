// error_bounds.hpp — the tolerance the fuzz targets hold the float paths to,
// derived for each element of each result from the inputs (a running
// rounding-error analysis in the style of Higham, "Accuracy and Stability of
// Numerical Algorithms", chapter 3), not a fixed number.
//
// Every quantity is a Bounded matrix: its exact value (computed here from the
// float inputs with long double sums, expl and logl, then stored as a double:
// independent of the core's float and double code), its magnitude (the sum of
// the absolute values of the terms that make it, >= |value|: what rounding
// errors scale with, even when the terms cancel) and an error bound (how far
// any computation of it in the Bounded's arithmetic, float or double, in any
// order of summation, with or without fused multiply-add, on any kernel
// variant, may be from the stored value; it includes the stored value's own
// rounding to double). With u the arithmetic's unit roundoff (2^-24 for float,
// 2^-53 for double) and gamma(k) = k u / (1 - k u):
//
//   inputs                 error 0 (they are the floats given)
//   C = A B (inner k)      |Â - A| <= eA, |B̂ - B| <= eB: Higham's bound for a
//                          float dot product, gamma(k) sum |Â||B̂|, plus the
//                          inputs' errors carried through:
//                          eC = sum (eA (|B| + eB) + |A| eB) + gamma(k) sum (|A| + eA)(|B| + eB) + k 2^-149
//   c A                    e = c eA + u c |A| (one rounding)
//   softmax of a row s     with |ŝ_j - s_j| <= Δ for the row's kept keys: the
//                          ratio p̂_j / p_j of any computation of the weights
//                          (exp(s_j - max) / sum, or the online softmax of
//                          the tiled path, rescaled once per block of keys,
//                          B_c >= 1) lies within
//                            ρ = expm1(2Δ + 2u(max|s| + ln m + 1))    the scores' errors (and the
//                                                                    row log-sum-exp of the tiled backward)
//                              + 2 ε_exp + gamma(m + 2)                 exp, the sum, the division
//                              + 2 m (ε_exp + 2u)                       a rescale per key block
//                          of 1, where ε_exp = 4u (the vector exp is accurate
//                          to 2e-7 relative, tests/native/test_support.hpp);
//                          plus 2^-126 absolute per weight for exponentials
//                          that underflow: ep = min(1, ρ p + 2^-126), with
//                          p e^x computed as e^(ln p + x) (p may underflow in
//                          double where p e^x does not). Masked weights are
//                          exact (0).
//   attention              S = scale Q K^T, P = softmax(S) per row, O = P V
//   attention backward     dV = P^T dO, dP = dO V^T, D_i = sum_c dO_ic O_ic,
//                          dS = P * (dP - D), dQ = scale dS K, dK = scale dS^T Q
//                          (attn/backward.hpp), each step by the rules above;
//                          dS: e = eP (|dP| + |D| + e) + P e(dP - D) + u P (|dP| + |D|)
//   multi-head             the projections, each head's attention, the
//                          concatenation and W_O (attn/multi_head.hpp), and
//                          its backward (attn/multi_head_backward.hpp) likewise
//
// A float result r passes if |r - value| <= tolerance = kSafety * error +
// u_float |value| + 2^-149: kSafety = 2 covers what the first-order reasoning
// above leaves out (products of two error terms, e.g. (1 + ρ)(1 + gamma));
// u_float |value| the final rounding of a result computed in double. The
// float analysis holds the fast paths; the double analysis (the same rules
// with double's u, exp error and underflow) holds the reference, and the rows
// and passes the core computes in double because their floats could overflow
// (src/float_range.hpp): there the float bound usually covers the whole range
// (scores of 1e40 have float errors of 1e33), the double one does not.
// Where the inputs make the problem ill-conditioned (a score error Δ of 10
// or more) the bound grows to the whole range of the result and the
// comparison checks nothing; the other oracles (finite, weights in [0, 1]
// summing to 1, masked weights 0) still do.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace attn_fuzz::bounds {

inline constexpr double u = 0x1p-24;             // float's unit roundoff
inline constexpr double kExpError = 4 * u;       // the vector exp: 2e-7 relative, rounded up
inline constexpr double kUnderflow = 0x1p-126;   // a result near underflow (exp flushed to 0, denormals)
inline constexpr double kDenormal = 0x1p-149;    // the spacing of denormal floats
inline constexpr double kSafety = 2.0;
inline constexpr double kHuge = 1e300;           // bounds are capped here so that no inf * 0 makes NaN
inline constexpr double kStored = 0x1p-53;       // a value stored as a double: its own rounding, relative

// The arithmetic a result is computed in.
struct Arithmetic {
  double u;          // unit roundoff
  double exp_error;  // relative error of its exp
  double underflow;  // its smallest normal number: exponentials below it flush or lose bits
  double denormal;   // the spacing of its denormals
};
inline constexpr Arithmetic kFloat{u, kExpError, kUnderflow, kDenormal};  // the fast paths
inline constexpr Arithmetic kDouble{0x1p-53, 4 * 0x1p-53, 0x1p-1022, 0x1p-1074};  // libm's exp: within 1 ulp

inline double gamma(std::size_t k, double unit = u) {
  const double ku = static_cast<double>(k) * unit;
  return ku < 0.5 ? ku / (1.0 - ku) : kHuge;
}

// a * b where 0 times anything is 0, capped at kHuge.
inline double mul(double a, double b) { return a == 0.0 || b == 0.0 ? 0.0 : std::min(kHuge, a * b); }
inline double add(double a, double b) { return std::min(kHuge, a + b); }

struct Bounded {
  std::size_t rows = 0, cols = 0;
  std::vector<double> value, magnitude, error;
  Arithmetic arithmetic = kFloat;  // what `error` bounds: a computation in float, or in double

  Bounded() = default;
  Bounded(std::size_t r, std::size_t c, const Arithmetic& a = kFloat)
      : rows(r), cols(c), value(r * c), magnitude(r * c), error(r * c), arithmetic(a) {}
  std::size_t at(std::size_t r, std::size_t c) const { return r * cols + c; }

  // The tolerance of element i (above).
  double tolerance(std::size_t i) const { return add(mul(kSafety, error[i]), u * std::fabs(value[i]) + kDenormal); }
  std::vector<double> tolerances() const {
    std::vector<double> t(value.size());
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = tolerance(i);
    return t;
  }
};

// Float inputs, rows x cols: exact, to be computed with in `arithmetic`.
inline Bounded exact(std::span<const float> x, std::size_t rows, std::size_t cols, const Arithmetic& arithmetic = kFloat) {
  Bounded b(rows, cols, arithmetic);
  for (std::size_t i = 0; i < x.size() && i < rows * cols; ++i) {
    b.value[i] = x[i];
    b.magnitude[i] = std::fabs(static_cast<double>(x[i]));
  }
  return b;
}

inline Bounded transpose(const Bounded& a) {
  Bounded t(a.cols, a.rows, a.arithmetic);
  for (std::size_t r = 0; r < a.rows; ++r)
    for (std::size_t c = 0; c < a.cols; ++c) {
      t.value[t.at(c, r)] = a.value[a.at(r, c)];
      t.magnitude[t.at(c, r)] = a.magnitude[a.at(r, c)];
      t.error[t.at(c, r)] = a.error[a.at(r, c)];
    }
  return t;
}

// Columns [first, first + count) of a.
inline Bounded columns(const Bounded& a, std::size_t first, std::size_t count) {
  Bounded s(a.rows, count, a.arithmetic);
  for (std::size_t r = 0; r < a.rows; ++r)
    for (std::size_t c = 0; c < count; ++c) {
      s.value[s.at(r, c)] = a.value[a.at(r, first + c)];
      s.magnitude[s.at(r, c)] = a.magnitude[a.at(r, first + c)];
      s.error[s.at(r, c)] = a.error[a.at(r, first + c)];
    }
  return s;
}

// The blocks side by side (same rows): Concat(head_1 .. head_h).
inline Bounded join_columns(const std::vector<Bounded>& blocks) {
  std::size_t cols = 0;
  for (const Bounded& b : blocks) cols += b.cols;
  Bounded j(blocks.empty() ? 0 : blocks[0].rows, cols, blocks.empty() ? kFloat : blocks[0].arithmetic);
  std::size_t first = 0;
  for (const Bounded& b : blocks) {
    for (std::size_t r = 0; r < b.rows; ++r)
      for (std::size_t c = 0; c < b.cols; ++c) {
        j.value[j.at(r, first + c)] = b.value[b.at(r, c)];
        j.magnitude[j.at(r, first + c)] = b.magnitude[b.at(r, c)];
        j.error[j.at(r, first + c)] = b.error[b.at(r, c)];
      }
    first += b.cols;
  }
  return j;
}

// C = A B (in A's arithmetic). The value: a long double sum (64-bit
// mantissa: within k 2^-64 of the magnitude), stored as a double (kStored).
inline Bounded product(const Bounded& a, const Bounded& b) {
  const std::size_t k = a.cols;
  Bounded c(a.rows, b.cols, a.arithmetic);
  const double g = gamma(k, a.arithmetic.u);
  for (std::size_t r = 0; r < a.rows; ++r)
    for (std::size_t col = 0; col < b.cols; ++col) {
      long double value = 0;
      double magnitude = 0, carried = 0, rounding = 0;
      for (std::size_t i = 0; i < k; ++i) {
        const std::size_t ia = a.at(r, i), ib = b.at(i, col);
        value += static_cast<long double>(a.value[ia]) * b.value[ib];
        magnitude = add(magnitude, mul(a.magnitude[ia], b.magnitude[ib]));
        carried = add(carried, add(mul(a.error[ia], add(b.magnitude[ib], b.error[ib])), mul(a.magnitude[ia], b.error[ib])));
        rounding = add(rounding, mul(add(a.magnitude[ia], a.error[ia]), add(b.magnitude[ib], b.error[ib])));
      }
      const double stored = static_cast<double>(value);
      c.value[c.at(r, col)] = stored;
      c.magnitude[c.at(r, col)] = magnitude;
      c.error[c.at(r, col)] = add(add(add(carried, mul(g, rounding)), static_cast<double>(k) * a.arithmetic.denormal),
                                  kStored * (std::fabs(stored) + static_cast<double>(k) * 0x1p-11 * magnitude));
    }
  return c;
}

// factor * A, one rounding (and the stored value's).
inline Bounded scaled(Bounded a, double factor) {
  for (std::size_t i = 0; i < a.value.size(); ++i) {
    a.value[i] *= factor;
    a.magnitude[i] = mul(a.magnitude[i], factor);
    a.error[i] = add(add(mul(a.error[i], factor), (a.arithmetic.u + kStored) * a.magnitude[i]), a.arithmetic.denormal);
  }
  return a;
}

// A + B, one rounding (and the stored value's).
inline Bounded sum(Bounded a, const Bounded& b) {
  for (std::size_t i = 0; i < a.value.size(); ++i) {
    a.value[i] += b.value[i];
    a.magnitude[i] = add(a.magnitude[i], b.magnitude[i]);
    a.error[i] = add(add(a.error[i], b.error[i]), (a.arithmetic.u + kStored) * a.magnitude[i]);
  }
  return a;
}

// The rows the core must compute in double (src/float_range.hpp: a row whose
// bound on its scores, max(1, scale) |q_i| max_j |k_j|, or on its values,
// max_j |v_j|, exceeds kSafeMagnitude = 2^126 takes the double path, and so
// does every backward pass with such a row): here beyond 2^127, clear of the
// rounding of the core's float norms. The other rows may take either path.
inline std::vector<bool> double_path_rows(const Bounded& q, const Bounded& k, const Bounded& v, double scale) {
  const auto row_norm = [](const Bounded& x, std::size_t r) {
    long double sum = 0;
    for (std::size_t c = 0; c < x.cols; ++c) sum += static_cast<long double>(x.value[x.at(r, c)]) * x.value[x.at(r, c)];
    return static_cast<double>(std::sqrt(sum));
  };
  double key = 0, value = 0;
  for (std::size_t j = 0; j < k.rows; ++j) key = std::max(key, row_norm(k, j));
  for (std::size_t j = 0; j < v.rows; ++j) value = std::max(value, row_norm(v, j));
  std::vector<bool> rows(q.rows);
  for (std::size_t i = 0; i < q.rows; ++i)
    rows[i] = std::max(1.0, scale) * row_norm(q, i) * key > 0x1p127 || value > 0x1p127;
  return rows;
}

// The tolerance of each element of a rows x cols result: the float analysis's,
// or the double analysis's in the rows computed in double.
inline std::vector<double> tolerances_by_row(const Bounded& in_float, const Bounded& in_double,
                                             const std::vector<bool>& double_rows) {
  std::vector<double> t(in_float.value.size());
  for (std::size_t i = 0; i < t.size(); ++i)
    t[i] = double_rows[i / in_float.cols] ? in_double.tolerance(i) : in_float.tolerance(i);
  return t;
}

struct AttentionBounds {
  Bounded scores;   // S = scale Q K^T (kept and masked entries alike)
  Bounded weights;  // P
  Bounded output;   // O
};

// q n x d_k, k m x d_k, v m x d_v, the float factor `scale`, keep n x m; in
// q's arithmetic. The weights from expl and logl of the stored scores.
inline AttentionBounds attention(const Bounded& q, const Bounded& k, const Bounded& v, double scale,
                                 const std::vector<std::uint8_t>& keep) {
  const std::size_t n = q.rows, m = k.rows;
  const Arithmetic& arithmetic = q.arithmetic;
  AttentionBounds a;
  a.scores = scaled(product(q, transpose(k)), scale);
  a.weights = Bounded(n, m, arithmetic);
  for (std::size_t i = 0; i < n; ++i) {
    double largest = -std::numeric_limits<double>::infinity(), largest_abs = 0, delta = 0;
    for (std::size_t j = 0; j < m; ++j) {
      if (!keep[i * m + j]) continue;
      largest = std::max(largest, a.scores.value[a.scores.at(i, j)]);
      largest_abs = std::max(largest_abs, std::fabs(a.scores.value[a.scores.at(i, j)]));
      delta = std::max(delta, a.scores.error[a.scores.at(i, j)]);
    }
    if (largest == -std::numeric_limits<double>::infinity()) continue;  // fully masked: exact zeros
    long double total = 0;
    for (std::size_t j = 0; j < m; ++j)
      if (keep[i * m + j]) total += std::exp(static_cast<long double>(a.scores.value[a.scores.at(i, j)]) - largest);
    const double md = static_cast<double>(m), unit = arithmetic.u, exp_error = arithmetic.exp_error;
    const double exponent = 2 * delta + 2 * unit * (largest_abs + std::log(md) + 1);
    const double rounding = 2 * exp_error + gamma(m + 2, unit) + 2 * md * (exp_error + 2 * unit) + kStored;
    for (std::size_t j = 0; j < m; ++j) {
      if (!keep[i * m + j]) continue;
      const long double log_p =
          static_cast<long double>(a.scores.value[a.scores.at(i, j)]) - largest - std::log(total);
      const double p = static_cast<double>(std::exp(log_p));
      // p (e^x - 1), computed as e^(ln p + x) when x is large: p may underflow
      // in double (ln p = -1e13) while p e^x does not.
      const double growth = exponent < 1 ? p * std::expm1(exponent)
                                         : std::exp(std::min(static_cast<double>(log_p) + exponent, 0.0));
      const std::size_t at = a.weights.at(i, j);
      a.weights.value[at] = p;
      a.weights.magnitude[at] = p;
      a.weights.error[at] = std::min(1.0, growth + mul(rounding, p) + arithmetic.underflow);
    }
  }
  a.output = product(a.weights, v);
  return a;
}

struct GradientBounds {
  Bounded q, k, v;
};

// The backward pass of attention(q, k, v) for grad_output dO (n x d_v).
inline GradientBounds attention_backward(const Bounded& q, const Bounded& k, const Bounded& v,
                                         const Bounded& grad_output, const AttentionBounds& forward, double scale) {
  const std::size_t n = q.rows, m = k.rows, d_v = v.cols;
  const Bounded& p = forward.weights;
  const Arithmetic& arithmetic = q.arithmetic;
  GradientBounds g;
  g.v = product(transpose(p), grad_output);  // dV = P^T dO
  const Bounded dp = product(grad_output, transpose(v));  // dP = dO V^T
  // D_i = sum_c dO_ic O_ic
  Bounded d(n, 1, arithmetic);
  const double gd = gamma(d_v, arithmetic.u);
  for (std::size_t i = 0; i < n; ++i) {
    long double value = 0;
    double magnitude = 0, carried = 0, rounding = 0;
    for (std::size_t c = 0; c < d_v; ++c) {
      const std::size_t at = i * d_v + c;
      const double go = grad_output.magnitude[at], ego = grad_output.error[at];
      const double o = forward.output.magnitude[at], eo = forward.output.error[at];
      value += static_cast<long double>(grad_output.value[at]) * forward.output.value[at];
      magnitude = add(magnitude, mul(go, o));
      carried = add(carried, add(mul(ego, add(o, eo)), mul(go, eo)));
      rounding = add(rounding, mul(add(go, ego), add(o, eo)));
    }
    d.value[i] = static_cast<double>(value);
    d.magnitude[i] = magnitude;
    d.error[i] = add(add(add(carried, mul(gd, rounding)), static_cast<double>(d_v) * arithmetic.denormal),
                     kStored * (std::fabs(d.value[i]) + static_cast<double>(d_v) * 0x1p-11 * magnitude));
  }
  // dS = P * (dP - D)
  Bounded ds(n, m, arithmetic);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      const std::size_t at = ds.at(i, j);
      const long double difference = static_cast<long double>(dp.value[at]) - d.value[i];
      const double difference_magnitude = add(dp.magnitude[at], d.magnitude[i]);
      const double difference_error = add(add(dp.error[at], d.error[i]), (arithmetic.u + kStored) * difference_magnitude);
      ds.value[at] = static_cast<double>(p.value[at] * difference);
      ds.magnitude[at] = mul(p.magnitude[at], difference_magnitude);
      ds.error[at] = add(add(mul(p.error[at], add(difference_magnitude, difference_error)),
                             mul(p.magnitude[at], difference_error)),
                         add((arithmetic.u + kStored) * ds.magnitude[at], arithmetic.denormal));
    }
  g.q = scaled(product(ds, k), scale);             // dQ = scale dS K
  g.k = scaled(product(transpose(ds), q), scale);  // dK = scale dS^T Q
  return g;
}

// Multi-head attention (attn/multi_head.hpp): Q = X W_Q, K = C W_K, V = C W_V,
// head i = attention on columns [i d_k, (i+1) d_k) with the float factor
// `scale`, Y = Concat W_O.
struct MultiHeadBounds {
  Bounded q, k, v;
  std::vector<AttentionBounds> heads;
  Bounded concat, output;
};

inline MultiHeadBounds multi_head(const Bounded& x, const Bounded& context, const Bounded& w_q, const Bounded& w_k,
                                  const Bounded& w_v, const Bounded& w_o, std::size_t heads, double scale,
                                  const std::vector<std::uint8_t>& keep) {
  MultiHeadBounds b;
  b.q = product(x, w_q);
  b.k = product(context, w_k);
  b.v = product(context, w_v);
  const std::size_t d_head = w_q.cols / heads;
  std::vector<Bounded> outputs;
  for (std::size_t h = 0; h < heads; ++h) {
    const std::size_t first = h * d_head;
    b.heads.push_back(attention(columns(b.q, first, d_head), columns(b.k, first, d_head),
                                columns(b.v, first, d_head), scale, keep));
    outputs.push_back(b.heads.back().output);
  }
  b.concat = join_columns(outputs);
  b.output = product(b.concat, w_o);
  return b;
}

// Its backward (attn/multi_head_backward.hpp) for dY = grad_output:
// dW_O = Concat^T dY, dConcat = dY W_O^T, each head's attention backward,
// dW_Q = X^T dQ, dW_K = C^T dK, dW_V = C^T dV, dX = dQ W_Q^T (+ dC for
// self-attention), dC = dK W_K^T + dV W_V^T.
struct MultiHeadGradientBounds {
  Bounded x, context, w_q, w_k, w_v, w_o;
};

inline MultiHeadGradientBounds multi_head_backward(const Bounded& x, const Bounded& context, const Bounded& w_q,
                                                   const Bounded& w_k, const Bounded& w_v, const Bounded& w_o,
                                                   std::size_t heads, double scale, const MultiHeadBounds& forward,
                                                   const Bounded& grad_output, bool self_attention) {
  MultiHeadGradientBounds g;
  g.w_o = product(transpose(forward.concat), grad_output);
  const Bounded grad_concat = product(grad_output, transpose(w_o));
  const std::size_t d_head = w_q.cols / heads;
  std::vector<Bounded> dq, dk, dv;
  for (std::size_t h = 0; h < heads; ++h) {
    const std::size_t first = h * d_head;
    const GradientBounds head = attention_backward(columns(forward.q, first, d_head), columns(forward.k, first, d_head),
                                                   columns(forward.v, first, d_head), columns(grad_concat, first, d_head),
                                                   forward.heads[h], scale);
    dq.push_back(head.q);
    dk.push_back(head.k);
    dv.push_back(head.v);
  }
  const Bounded grad_q = join_columns(dq), grad_k = join_columns(dk), grad_v = join_columns(dv);
  g.w_q = product(transpose(x), grad_q);
  g.w_k = product(transpose(context), grad_k);
  g.w_v = product(transpose(context), grad_v);
  const Bounded grad_context = sum(product(grad_k, transpose(w_k)), product(grad_v, transpose(w_v)));
  g.x = product(grad_q, transpose(w_q));
  if (self_attention) {
    g.x = sum(g.x, grad_context);
  } else {
    g.context = grad_context;
  }
  return g;
}

}  // namespace attn_fuzz::bounds
