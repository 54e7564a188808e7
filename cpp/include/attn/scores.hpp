// attn/scores.hpp — the family of score functions (Bahdanau, Luong, Vaswani).
//
// Decoder states s_i (rows of S, n x d_s) score encoder states h_j (rows of H,
// m x d_h); the result e is n x m, row i = decoder step i. The alignment matrix
// is softmax_rows(e) and the context vector c_i = sum_j a_ij h_j.
//
//   dot         e_ij = s_i . h_j                          (d_s == d_h)
//   scaled dot  e_ij = s_i . h_j / sqrt(d_h)
//   general     e_ij = s_i^T W_a h_j                      W_a d_s x d_h
//   additive    e_ij = v_a^T tanh(W_a s_i + U_a h_j)      (Bahdanau; Luong's concat
//               is the same with W [s; h] = W_a s + U_a h)
//               row-major: W_a s_i is s_i W_a with W_a d_s x d_a, U_a d_h x d_a, v_a d_a
#pragma once

#include <vector>

#include "attn/shapes.hpp"

namespace attn {

struct ScoreInputs {
  FloatSpan s;  // n x d_s decoder states (queries)
  FloatSpan h;  // m x d_h encoder states (keys)
  std::size_t n = 0, m = 0, d_s = 0, d_h = 0;
};

// Every function checks its inputs: dimensions >= 1 and lengths (ShapeError),
// sizes (SizeError), finite values (ValueError), naming the argument. A score
// that does not fit in a float raises ValueError naming it ("e[0][1]: s_0 .
// h_1 = 1e+40 is beyond the float range ..."); one that fits is computed right
// even when float intermediates would overflow (then in double).

// s n x d_s, h m x d_h -> e n x m.  e_ij = s_i . h_j; ShapeError unless d_s == d_h.
std::vector<float> score_dot(const ScoreInputs& in);
// s n x d_s, h m x d_h -> e n x m.  e_ij = s_i . h_j / sqrt(d_h); d_s == d_h.
std::vector<float> score_scaled_dot(const ScoreInputs& in);
// s n x d_s, h m x d_h, w_a d_s x d_h -> e n x m.  e_ij = s_i^T W_a h_j.
std::vector<float> score_general(const ScoreInputs& in, FloatSpan w_a);
// s n x d_s, h m x d_h, w_a d_s x d_a, u_a d_h x d_a, v_a d_a -> e n x m.
// e_ij = v_a . tanh(s_i W_a + h_j U_a).
std::vector<float> score_additive(const ScoreInputs& in, FloatSpan w_a, FloatSpan u_a, FloatSpan v_a,
                                  std::size_t d_a);

// c (n x d_h) = a (n x m) H (m x d_h): c_i = sum_j a_ij h_j
std::vector<float> context_vectors(FloatSpan alignment, FloatSpan h, std::size_t n, std::size_t m,
                                   std::size_t d_h);

}  // namespace attn
