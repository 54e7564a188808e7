// attn/seq2seq_model.hpp — the small sequence-to-sequence model the trainer
// teaches: one layer of cross-attention from target positions to the source
// tokens. For one example (source s, S tokens; target length T):
//
//   C  = E[s_j] + PE_j                        S x d_model   source encoding: token embedding plus the
//                                                           sinusoidal positional encoding (attn/layers.hpp embed)
//   P                                         T x d_model   learned target-position embeddings: the queries
//   Y  = P + MultiHead(P, C)                  T x d_model   h heads: Q = P W_Q, K = C W_K, V = C W_V,
//                                                           Concat(heads) W_O (attn/multi_head_backward.hpp),
//                                                           plus the residual path P
//   Z  = Y W_out^T + b_out                    T x V_t       logits over the target vocabulary (attn/layers.hpp linear)
//   L  = mean over positions of cross-entropy(softmax(Z_t), target_t)
//
// Each target position asks "which source token do I translate?" from its
// position alone, so the attention weights (T x S) are the alignment the model
// learned. The scale of the scores is 1/sqrt(d_k) (d_k = d_model / h) or 1.
//
// Two choices, both measured (cpp/src/training/README.md): the target positions are a
// learned table rather than fixed sinusoids, whose neighbouring rows are so
// alike that every query first moved to the same source position; and the
// residual path P gives each target position its own prior (which words can
// stand there) without attending anything, where without it the model
// attended a constant token to get one and kept looking there.
//
// Parameters, one flat float array in this order:
//   E      V_s x d_model     N(0, 1)
//   P      T x d_model       N(0, 1)
//   W_Q, W_K, W_V, W_O       d_model x d_model each, N(0, 1/d_model)
//   W_out  V_t x d_model     N(0, 1/d_model)   one row per target word
//   b_out  V_t               0
// drawn from attn::Rng(seed) in that order, row by row: the same initial
// weights, bit for bit, in every build.
//
// A batch is B examples, their sources B x S and targets B x T ids, row-major.
// The forward and backward passes run on the SIMD kernels into buffers that
// are allocated once for the largest batch seen: no allocation per step.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "attn/layers.hpp"
#include "attn/shapes.hpp"

namespace attn {

struct Seq2SeqShape {
  std::size_t source_length = 0;      // S
  std::size_t target_length = 0;      // T
  std::size_t source_vocabulary = 0;  // V_s
  std::size_t target_vocabulary = 0;  // V_t
  std::size_t d_model = 0;
  std::size_t heads = 1;              // h, a divisor of d_model
};

// Where each parameter lives in the flat array.
struct Seq2SeqLayout {
  std::size_t embedding, positions, w_q, w_k, w_v, w_o, w_out, b_out, total;
};

namespace detail {
struct Seq2SeqWorkspace;
}

class Seq2SeqModel {
 public:
  // ShapeError if a size is 0 or heads does not divide d_model, SizeError if
  // too large. scaled: scores times 1/sqrt(d_model / heads), else times 1.
  Seq2SeqModel(const Seq2SeqShape& shape, bool scaled, std::uint64_t seed);
  ~Seq2SeqModel();
  Seq2SeqModel(Seq2SeqModel&&) noexcept;
  Seq2SeqModel& operator=(Seq2SeqModel&&) noexcept;

  // The floats a model of this shape holds once it has run loss_and_gradient on
  // batches of train_batch examples and predict on up to predict_batch
  // (parameters, gradients, the workspaces), computed without making it.
  // Errors as the constructor's.
  // The parameters of a model of this shape (layout().total).
  static std::size_t parameter_count(const Seq2SeqShape& shape);
  static std::size_t floats_held(const Seq2SeqShape& shape, std::size_t train_batch, std::size_t predict_batch);

  const Seq2SeqShape& shape() const { return shape_; }
  const Seq2SeqLayout& layout() const { return layout_; }
  float scale() const { return scale_; }
  std::span<float> parameters() { return parameters_; }
  FloatSpan parameters() const { return parameters_; }
  // dL/dθ of the last loss_and_gradient call, in the layout of the parameters.
  FloatSpan gradients() const { return gradients_; }

  // sources B x S, targets B x T -> L, the mean cross-entropy over the B*T
  // target positions; gradients() then holds dL/dθ. ValueError for an id out
  // of its vocabulary, ShapeError for lengths that are not B*S and B*T.
  // Never NaN: parameters so large that the float passes overflow (a
  // learning rate too large for them) raise ValueError naming the logits or
  // the gradients and the largest parameter ("training diverged"); predict too.
  double loss_and_gradient(TokenSpan sources, TokenSpan targets);

  // What the forward pass gives for B examples.
  struct Prediction {
    std::vector<float> logits;   // B*T x V_t
    std::vector<float> weights;  // B x h x T x S, the attention weights of each example and head
    double loss = 0.0;           // mean cross-entropy, when targets were given (else 0)
    std::size_t correct = 0;     // target positions whose argmax logit is the target (when given)
  };
  // sources B x S (and targets B x T, or empty) -> the forward pass only.
  Prediction predict(TokenSpan sources, TokenSpan targets = {});

 private:
  // Fills the workspace for B examples (forward pass); returns B.
  std::size_t forward(TokenSpan sources, detail::Seq2SeqWorkspace& work);

  Seq2SeqShape shape_;
  Seq2SeqLayout layout_;
  float scale_;
  std::vector<float> parameters_, gradients_;
  std::vector<float> source_positions_;  // PE: S x d_model
  std::unique_ptr<detail::Seq2SeqWorkspace> train_work_, predict_work_;
};

}  // namespace attn
