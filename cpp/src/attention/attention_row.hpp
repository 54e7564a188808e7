// attention_row.hpp (internal) — one query row of attention in double: the
// reference's loops (attn::reference::attention runs it for every row) and the
// safe path of the fast paths for rows whose float intermediates could leave
// the float range (float_range.hpp).
#pragma once

#include <cstddef>

#include "attention/problem.hpp"

namespace attn::detail {

// Where row i goes: each pointer is the whole n x m (or n x d_v) matrix, or
// null when the caller does not want that quantity.
struct RowOutputs {
  float* scores = nullptr;   // n x m   q_i . k_j
  float* scaled = nullptr;   // n x m   scale q_i . k_j
  float* masked = nullptr;   // n x m   scaled, or -inf where the mask forbids
  float* weights = nullptr;  // n x m   softmax of the masked row
  float* output = nullptr;   // n x d_v sum_j p_ij v_j
  double* log_sum_exp = nullptr;  // n  L_i = ln sum_j exp(masked_ij), -inf for a fully masked row
};

// Every matrix of a trace (each already sized) as the destination of its rows.
inline RowOutputs outputs_of(AttentionTrace& trace) {
  return {trace.scores.data(), trace.scaled.data(), trace.masked.data(), trace.weights.data(), trace.output.data()};
}

// Row i of the problem, every sum in double; `row` is scratch for m doubles.
// A requested score or scaled score that is beyond the float range raises
// ValueError naming it ("scores[0][1]: q_0 . k_1 = 1e+40 is beyond the float
// range ..."); weights (in [0, 1]) and the output (a convex combination of
// value rows) are always representable, and so is the log-sum-exp, kept in
// double.
void attention_row_in_double(const AttentionProblem& problem, std::size_t i, double* row, const RowOutputs& out);

}  // namespace attn::detail
