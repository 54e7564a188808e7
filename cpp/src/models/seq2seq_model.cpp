// seq2seq_model.cpp — the forward and backward passes of attn::Seq2SeqModel
// (formulas in attn/seq2seq_model.hpp), composed from the passes of the
// layers and of multi-head attention, into a workspace allocated once.
#include "attn/seq2seq_model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "validation.hpp"
#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "attn/positional_encoding.hpp"
#include "attn/random.hpp"
#include "float_range.hpp"
#include "layers/layer_passes.hpp"
#include "kernels/matrix_ops.hpp"
#include "attention/multi_head_passes.hpp"

namespace attn {

namespace detail {

// The buffers of one forward and backward pass over B examples.
struct Seq2SeqWorkspace {
  // Whether it runs the backward pass too (training), or only the forward
  // pass (predict): then it holds none of the backward pass's buffers.
  bool backward;
  std::size_t batch = 0;
  MultiHeadWorkspace attention;
  std::vector<float> x_source;     // B*S x d_model  C = E[s] + PE
  std::vector<float> y;            // B*T x d_model  MultiHead(X, C)
  std::vector<float> logits;       // B*T x V_t
  std::vector<float> grad_logits;  // B*T x V_t (also the cross-entropy's scratch in predict)
  std::vector<float> row_scratch;  // 2 B*T
  std::vector<float> grad_y;       // B*T x d_model  (backward only)
  std::vector<float> grad_source;  // B*S x d_model  (backward only)
  std::vector<float> transposed;   // V_t x B*T, for dW_out = dZ^T Y  (backward only)

  explicit Seq2SeqWorkspace(bool runs_backward) : backward(runs_backward) {}

  MultiHeadDims dims(const Seq2SeqShape& s) const {
    return {batch, s.target_length, s.source_length, s.d_model, s.heads, /*shared_queries=*/true};
  }

  // Each buffer and its size in floats for B examples (the attention's
  // workspace apart): the one list walked by reserve() and floats_for().
  template <class Visit>
  void each_buffer(const Seq2SeqShape& s, std::size_t b, Visit&& visit) {
    const std::size_t rows_t = b * s.target_length, rows_s = b * s.source_length, d = s.d_model;
    const std::size_t back = backward ? 1 : 0;
    visit(x_source, rows_s * d), visit(y, rows_t * d);
    visit(logits, rows_t * s.target_vocabulary), visit(grad_logits, rows_t * s.target_vocabulary);
    visit(row_scratch, 2 * rows_t);
    visit(grad_y, back * rows_t * d), visit(grad_source, back * rows_s * d);
    visit(transposed, back * rows_t * s.target_vocabulary);
  }

  // Sized for B examples; the same B again allocates nothing.
  void reserve(const Seq2SeqShape& s, std::size_t b) {
    if (b == batch) return;
    batch = b;
    attention.reserve(dims(s), backward);
    each_buffer(s, b, [](std::vector<float>& buffer, std::size_t floats) { buffer.resize(floats); });
  }

  static std::size_t floats_for(const Seq2SeqShape& s, std::size_t b, bool backward) {
    Seq2SeqWorkspace none(backward);
    none.batch = b;
    std::size_t total = MultiHeadWorkspace::floats_for(none.dims(s), backward);
    none.each_buffer(s, b, [&](std::vector<float>&, std::size_t floats) { total += floats; });
    return total;
  }
};

}  // namespace detail

namespace {

Seq2SeqLayout layout_of(const Seq2SeqShape& s) {
  Seq2SeqLayout l{};
  const std::size_t dd = s.d_model * s.d_model;
  l.embedding = 0;
  l.positions = l.embedding + s.source_vocabulary * s.d_model;
  l.w_q = l.positions + s.target_length * s.d_model;
  l.w_k = l.w_q + dd, l.w_v = l.w_k + dd, l.w_o = l.w_v + dd;
  l.w_out = l.w_o + dd;
  l.b_out = l.w_out + s.d_model * s.target_vocabulary;
  l.total = l.b_out + s.target_vocabulary;
  return l;
}

void check_shape(const Seq2SeqShape& s) {
  detail::require_dimension("source_length", s.source_length);
  detail::require_dimension("target_length", s.target_length);
  detail::require_dimension("source_vocabulary", s.source_vocabulary);
  detail::require_dimension("target_vocabulary", s.target_vocabulary);
  detail::require_dimension("d_model", s.d_model);
  detail::require_dimension("heads", s.heads);
  if (s.d_model % s.heads != 0) {
    throw ShapeError("heads: expected a divisor of d_model = " + std::to_string(s.d_model) + ", got " +
                     std::to_string(s.heads));
  }
  detail::checked_product("d_model*d_model", s.d_model, s.d_model);
  detail::checked_product("source_vocabulary*d_model", s.source_vocabulary, s.d_model);
  detail::checked_product("target_vocabulary*d_model", s.target_vocabulary, s.d_model);
  detail::checked_product("target_length*source_length", s.target_length, s.source_length);
}

// The number of examples in `ids` (a multiple of `length`, each id below
// `vocabulary`), else ShapeError / ValueError naming `arg`.
std::size_t count_examples(const char* arg, TokenSpan ids, std::size_t length, std::size_t vocabulary,
                           const char* length_name) {
  if (ids.empty() || ids.size() % length != 0) {
    throw ShapeError(std::string(arg) + ": expected a positive multiple of " + length_name + " = " +
                     std::to_string(length) + " ids, got " + std::to_string(ids.size()));
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= vocabulary) {
      throw ValueError(std::string(arg) + "[" + std::to_string(i) + "]: expected a token id below " +
                       std::to_string(vocabulary) + ", got " + std::to_string(ids[i]));
    }
  }
  return ids.size() / length;
}

// The float-range contract (attn/error.hpp) for the model: its passes run in
// float, so parameters grown too large (a learning rate too large for them)
// make its numbers overflow. ValueError naming `what` and the largest
// parameter unless every one of values is finite.
void require_in_float_range(const char* what, const float* values, std::size_t count, FloatSpan parameters) {
  if (detail::all_finite(values, count)) return;
  float largest = 0.0f;
  for (float p : parameters) largest = std::max(largest, std::fabs(p));
  throw ValueError(std::string(what) + ": expected finite numbers, got a value beyond the float range (|x| <= " +
                   detail::describe_value(3.4028234663852886e38) + ") from parameters as large as " +
                   detail::describe_value(largest) + " (training diverged: a smaller learning rate keeps them in range)");
}

const Mask kNoMask;

}  // namespace

Seq2SeqModel::Seq2SeqModel(const Seq2SeqShape& shape, bool scaled, std::uint64_t seed)
    : shape_(shape),
      layout_((check_shape(shape), layout_of(shape))),
      scale_(scaled ? Scale::inverse_sqrt_dk().factor(shape.d_model / shape.heads) : 1.0f),
      train_work_(std::make_unique<detail::Seq2SeqWorkspace>(true)),
      predict_work_(std::make_unique<detail::Seq2SeqWorkspace>(false)) {
  const std::size_t d = shape.d_model;
  const double w_std = 1.0 / std::sqrt(static_cast<double>(d));
  Rng rng(seed);
  parameters_.reserve(layout_.total);
  const auto append = [&](std::size_t rows, std::size_t cols, double stddev) {
    const std::vector<float> block = rng.normal_matrix(rows, cols, stddev);
    parameters_.insert(parameters_.end(), block.begin(), block.end());
  };
  append(shape.source_vocabulary, d, 1.0);  // E
  append(shape.target_length, d, 1.0);      // P
  for (int w = 0; w < 4; ++w) append(d, d, w_std);  // W_Q, W_K, W_V, W_O
  append(shape.target_vocabulary, d, w_std);  // W_out
  parameters_.resize(layout_.total, 0.0f);    // b_out = 0
  gradients_.assign(layout_.total, 0.0f);
  source_positions_ = positional_encoding(shape.source_length, d);
}

std::size_t Seq2SeqModel::parameter_count(const Seq2SeqShape& shape) {
  check_shape(shape);
  return layout_of(shape).total;
}

std::size_t Seq2SeqModel::floats_held(const Seq2SeqShape& shape, std::size_t train_batch, std::size_t predict_batch) {
  check_shape(shape);
  // θ and dθ, the positional table, and the workspaces of the two batch sizes.
  return 2 * layout_of(shape).total + shape.source_length * shape.d_model +
         detail::Seq2SeqWorkspace::floats_for(shape, train_batch, true) +
         detail::Seq2SeqWorkspace::floats_for(shape, predict_batch, false);
}

Seq2SeqModel::~Seq2SeqModel() = default;
Seq2SeqModel::Seq2SeqModel(Seq2SeqModel&&) noexcept = default;
Seq2SeqModel& Seq2SeqModel::operator=(Seq2SeqModel&&) noexcept = default;

std::size_t Seq2SeqModel::forward(TokenSpan sources, detail::Seq2SeqWorkspace& work) {
  const Seq2SeqShape& s = shape_;
  const std::size_t batch = count_examples("sources", sources, s.source_length, s.source_vocabulary, "S");
  work.reserve(s, batch);
  const float* theta = parameters_.data();
  // C = E[s] + PE;  Y = P + MultiHead(P, C);  Z = Y W_out^T + b_out
  detail::embed_into(theta + layout_.embedding, sources.data(), batch * s.source_length, source_positions_.data(),
                     s.source_length, s.d_model, work.x_source.data());
  const detail::KeepRule every_key(kNoMask, s.target_length, s.source_length);
  detail::multi_head_forward_passes(
      theta + layout_.positions, work.x_source.data(), work.dims(s),
      {theta + layout_.w_q, theta + layout_.w_k, theta + layout_.w_v, theta + layout_.w_o}, scale_, every_key,
      work.attention, work.y.data());
  for (std::size_t b = 0; b < batch; ++b)  // Y += P (the residual path)
    detail::add_in_place(theta + layout_.positions, work.y.data() + b * s.target_length * s.d_model,
                         s.target_length * s.d_model);
  detail::linear_into(work.y.data(), theta + layout_.w_out, theta + layout_.b_out, batch * s.target_length,
                      s.d_model, s.target_vocabulary, work.logits.data());
  // NaN or infinities anywhere in the pass reach the logits (through P V and the read-out).
  require_in_float_range("logits", work.logits.data(), batch * s.target_length * s.target_vocabulary, parameters_);
  return batch;
}

double Seq2SeqModel::loss_and_gradient(TokenSpan sources, TokenSpan targets) {
  const Seq2SeqShape& s = shape_;
  detail::Seq2SeqWorkspace& work = *train_work_;
  const std::size_t batch = count_examples("sources", sources, s.source_length, s.source_vocabulary, "S");
  if (count_examples("targets", targets, s.target_length, s.target_vocabulary, "T") != batch) {
    throw ShapeError("targets: expected B*T = " + std::to_string(batch) + "*" + std::to_string(s.target_length) +
                     " ids, got " + std::to_string(targets.size()));
  }
  forward(sources, work);
  const std::size_t rows_t = batch * s.target_length;
  const float* theta = parameters_.data();
  float* grad = gradients_.data();

  // L = mean cross-entropy; dZ = (softmax(Z) - onehot) / (B T)
  const double loss =
      detail::softmax_cross_entropy_into(work.logits.data(), targets.data(), rows_t, s.target_vocabulary,
                                         work.grad_logits.data(), work.row_scratch.data());
  // dW_out = dZ^T Y, db_out = sum dZ, dY = dZ W_out
  detail::linear_backward_into(work.y.data(), theta + layout_.w_out, work.grad_logits.data(), rows_t, s.d_model,
                               s.target_vocabulary, work.grad_y.data(), grad + layout_.w_out, grad + layout_.b_out,
                               work.transposed.data());
  // dW_Q, dW_K, dW_V, dW_O, dP through Q (summed over the examples) and dC
  detail::multi_head_backward_passes(
      theta + layout_.positions, work.x_source.data(), work.dims(s),
      {theta + layout_.w_q, theta + layout_.w_k, theta + layout_.w_v, theta + layout_.w_o}, scale_, work.attention,
      work.grad_y.data(), {grad + layout_.w_q, grad + layout_.w_k, grad + layout_.w_v, grad + layout_.w_o},
      grad + layout_.positions,
      work.grad_source.data());
  for (std::size_t b = 0; b < batch; ++b)  // dP += sum_b dY_b (the residual path)
    detail::add_in_place(work.grad_y.data() + b * s.target_length * s.d_model, grad + layout_.positions,
                         s.target_length * s.d_model);
  // dE[s_j] += dC_j
  detail::embed_backward_into(sources.data(), batch * s.source_length, work.grad_source.data(),
                              s.source_vocabulary, s.d_model, grad + layout_.embedding);
  require_in_float_range("gradients", gradients_.data(), gradients_.size(), parameters_);
  return loss;
}

Seq2SeqModel::Prediction Seq2SeqModel::predict(TokenSpan sources, TokenSpan targets) {
  const Seq2SeqShape& s = shape_;
  detail::Seq2SeqWorkspace& work = *predict_work_;
  const std::size_t batch = forward(sources, work);
  const std::size_t rows_t = batch * s.target_length, classes = s.target_vocabulary;
  Prediction p;
  p.logits.assign(work.logits.begin(), work.logits.begin() + rows_t * classes);
  p.weights.assign(work.attention.weights.begin(),
                   work.attention.weights.begin() + batch * s.heads * s.target_length * s.source_length);
  if (targets.empty()) return p;
  if (count_examples("targets", targets, s.target_length, classes, "T") != batch) {
    throw ShapeError("targets: expected B*T = " + std::to_string(batch) + "*" + std::to_string(s.target_length) +
                     " ids, got " + std::to_string(targets.size()));
  }
  p.loss = detail::softmax_cross_entropy_into(work.logits.data(), targets.data(), rows_t, classes,
                                              work.grad_logits.data(), work.row_scratch.data());
  for (std::size_t r = 0; r < rows_t; ++r) {
    const float* z = p.logits.data() + r * classes;
    const auto best = static_cast<std::int32_t>(std::max_element(z, z + classes) - z);  // the first largest
    p.correct += best == targets[r];
  }
  return p;
}

}  // namespace attn
