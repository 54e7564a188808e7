// attn/layers.hpp — the pieces of a small model around attention, each with its
// backward pass (the gradient of a loss L given dL/d(output)).
//
//   embed          X_i = E[t_i] + PE_i                      E vocabulary x d_model, X len x d_model
//                  (token embedding lookup plus the sinusoidal positional
//                  encoding of attn/positional_encoding.hpp; PE is fixed, so
//                  d X_i / d E[t_i] = I and the positions pass dX through)
//   embed_backward dE[t] = sum over i with t_i = t of dX_i  (rows of unused tokens 0)
//   linear         Y = X W^T + b                            X rows x d_in, W d_out x d_in, b d_out
//                  (W holds one row per output, as torch.nn.Linear's weight:
//                  for a read-out over the vocabulary, one row per word)
//   linear_backward dX = dY W,  dW = dY^T X,  db = sum_i dY_i
//   softmax_cross_entropy
//                  L = (1/rows) sum_i (logsumexp(Z_i) - Z_i[y_i])      Z rows x classes
//                  dZ = (softmax(Z) - onehot(y)) / rows
//
// Tokens and classes are int32 ids (a JavaScript Int32Array). Row-major, rows
// are tokens. Every function checks its arguments and raises the errors of
// attn/error.hpp, naming the argument ("tokens[3]: expected a token id below
// vocabulary = 10, got 12"). Uses the SIMD kernels. Every number returned is
// finite (attn/error.hpp): a sum whose float partial sums overflow is computed
// again in double; a result beyond the float range raises ValueError naming it
// ("y[0][1]: (X W^T + b)[0][1] = 1e+40 is beyond the float range ...").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "attn/shapes.hpp"

namespace attn {

using TokenSpan = std::span<const std::int32_t>;

// table vocabulary x d_model, tokens (len) -> X len x d_model, X_i = E[t_i] + PE_i.
std::vector<float> embed(FloatSpan table, std::size_t vocabulary, std::size_t d_model, TokenSpan tokens);

// tokens (len), grad_output dX len x d_model -> dE vocabulary x d_model.
std::vector<float> embed_backward(TokenSpan tokens, FloatSpan grad_output, std::size_t vocabulary,
                                  std::size_t d_model);

// x rows x d_in, w d_out x d_in, b d_out -> Y rows x d_out.
std::vector<float> linear(FloatSpan x, FloatSpan w, FloatSpan b, std::size_t rows, std::size_t d_in,
                          std::size_t d_out);

struct LinearGradients {
  std::vector<float> x;  // rows x d_in
  std::vector<float> w;  // d_out x d_in
  std::vector<float> b;  // d_out
};

// x rows x d_in, w d_out x d_in, grad_output dY rows x d_out -> dX, dW, db.
LinearGradients linear_backward(FloatSpan x, FloatSpan w, FloatSpan grad_output, std::size_t rows, std::size_t d_in,
                                std::size_t d_out);

struct CrossEntropy {
  double loss = 0.0;                // mean over the rows, in nats
  std::vector<float> grad_logits;   // dZ rows x classes
};

// logits Z rows x classes, targets y (rows, each in [0, classes)) -> the mean
// cross-entropy of softmax(Z_i) against y_i and its gradient. Stable: computed
// as logsumexp(Z_i) - Z_i[y_i] with the row maximum subtracted.
CrossEntropy softmax_cross_entropy(FloatSpan logits, TokenSpan targets, std::size_t rows, std::size_t classes);

}  // namespace attn
