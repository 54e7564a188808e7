// multi_head_backward.cpp — attn::multi_head_backward (the SIMD path: the
// forward pass of attn::multi_head, then multi_head_backward_passes on one
// example) and attn::reference::multi_head_backward (plain loops in double).
#include "attn/multi_head_backward.hpp"

#include <algorithm>
#include <utility>

#include "attention_backward_passes.hpp"
#include "attn/attention.hpp"
#include "matrix_ops.hpp"
#include "multi_head_passes.hpp"
#include "reference_backward.hpp"

namespace attn {

namespace {

// The sequence keys and values come from: C = X for self-attention.
std::size_t key_count(const MultiHeadInputs& in) { return in.context.empty() ? in.n : in.m; }
FloatSpan key_tokens(const MultiHeadInputs& in) { return in.context.empty() ? in.x : in.context; }

// attn::multi_head validates the inputs and gives the forward intermediates.
MultiHeadResult checked_forward(const MultiHeadInputs& in, FloatSpan grad_output) {
  MultiHeadResult forward = multi_head(in);
  detail::require_finite_matrix("grad_output", grad_output, "n*d_model", in.n, in.d_model);
  return forward;
}

// For self-attention dX gathers the paths through Q, K and V: dX = dX_Q + dC.
void merge_self_attention(MultiHeadGradients& g, const MultiHeadInputs& in) {
  if (!in.context.empty()) return;
  detail::add_in_place(g.context.data(), g.x.data(), g.x.size());
  g.context.clear();
}

}  // namespace

MultiHeadGradients multi_head_backward(const MultiHeadInputs& in, FloatSpan grad_output) {
  MultiHeadResult forward = checked_forward(in, grad_output);
  const detail::MultiHeadDims dims{1, in.n, key_count(in), in.d_model, in.heads};
  const float scale = Scale::inverse_sqrt_dk().factor(dims.d_head());

  detail::MultiHeadWorkspace work;
  work.reserve(dims);
  work.q = std::move(forward.q), work.k = std::move(forward.k), work.v = std::move(forward.v);
  work.concat = std::move(forward.concat);
  for (std::size_t head = 0; head < in.heads; ++head) {
    std::copy(forward.head_weights[head].begin(), forward.head_weights[head].end(),
              work.weights.begin() + head * in.n * dims.m);
  }

  const std::size_t dd = in.d_model * in.d_model;
  MultiHeadGradients g{std::vector<float>(in.n * in.d_model), std::vector<float>(dims.m * in.d_model),
                       std::vector<float>(dd), std::vector<float>(dd), std::vector<float>(dd), std::vector<float>(dd)};
  detail::multi_head_backward_passes(in.x.data(), key_tokens(in).data(), dims,
                                     {in.w_q.data(), in.w_k.data(), in.w_v.data(), in.w_o.data()}, scale, work,
                                     grad_output.data(), {g.w_q.data(), g.w_k.data(), g.w_v.data(), g.w_o.data()},
                                     g.x.data(), g.context.data());
  merge_self_attention(g, in);
  return g;
}

namespace reference {

namespace {

using Matrix = std::vector<double>;

Matrix to_double(FloatSpan values) { return Matrix(values.begin(), values.end()); }
std::vector<float> to_float(const Matrix& values) { return std::vector<float>(values.begin(), values.end()); }

// c (rows x cols) = a (rows x inner) b (inner x cols), with a or b read
// transposed when the flag says so (a stored inner x rows, b stored cols x inner).
Matrix product(const Matrix& a, bool transpose_a, const Matrix& b, bool transpose_b, std::size_t rows,
               std::size_t inner, std::size_t cols) {
  Matrix c(rows * cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t i = 0; i < inner; ++i) {
      const double a_ri = transpose_a ? a[i * rows + r] : a[r * inner + i];
      for (std::size_t col = 0; col < cols; ++col)
        c[r * cols + col] += a_ri * (transpose_b ? b[col * inner + i] : b[i * cols + col]);
    }
  return c;
}

Matrix columns(const Matrix& a, std::size_t rows, std::size_t cols, std::size_t first, std::size_t width) {
  Matrix slice(rows * width);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < width; ++c) slice[r * width + c] = a[r * cols + first + c];
  return slice;
}

void set_columns(Matrix& a, const Matrix& slice, std::size_t rows, std::size_t cols, std::size_t first,
                 std::size_t width) {
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < width; ++c) a[r * cols + first + c] = slice[r * width + c];
}

}  // namespace

MultiHeadGradients multi_head_backward(const MultiHeadInputs& in, FloatSpan grad_output) {
  checked_forward(in, grad_output);  // the checks and errors of attn::multi_head
  const std::size_t n = in.n, m = key_count(in), d = in.d_model, d_head = d / in.heads;
  const double scale = Scale::inverse_sqrt_dk().factor(d_head);
  const std::vector<std::uint8_t> keep = keep_matrix(in.mask, n, m);
  const Matrix x = to_double(in.x), c = to_double(key_tokens(in)), dy = to_double(grad_output);
  const Matrix w_q = to_double(in.w_q), w_k = to_double(in.w_k), w_v = to_double(in.w_v), w_o = to_double(in.w_o);

  // forward: Q = X W_Q, K = C W_K, V = C W_V
  const Matrix q = product(x, false, w_q, false, n, d, d);
  const Matrix k = product(c, false, w_k, false, m, d, d);
  const Matrix v = product(c, false, w_v, false, m, d, d);

  // per head: H_i forward (for Concat), then its backward with dH_i = (dY W_O^T)_i
  const Matrix grad_concat = product(dy, false, w_o, true, n, d, d);
  Matrix concat(n * d), grad_q(n * d), grad_k(m * d), grad_v(m * d);
  const AttentionShape shape{n, m, d_head, d_head};
  for (std::size_t head = 0; head < in.heads; ++head) {
    const std::size_t first = head * d_head;
    const Matrix q_i = columns(q, n, d, first, d_head), k_i = columns(k, m, d, first, d_head);
    const Matrix v_i = columns(v, m, d, first, d_head), dh_i = columns(grad_concat, n, d, first, d_head);
    Matrix p(n * m), h_i(n * d_head), dq_i(n * d_head), dk_i(m * d_head), dv_i(m * d_head);
    detail::reference_attention_forward(q_i.data(), k_i.data(), v_i.data(), shape, scale, keep.data(), p.data(),
                                        h_i.data());
    detail::reference_attention_backward(q_i.data(), k_i.data(), v_i.data(), dh_i.data(), shape, scale, keep.data(),
                                         dq_i.data(), dk_i.data(), dv_i.data());
    set_columns(concat, h_i, n, d, first, d_head);
    set_columns(grad_q, dq_i, n, d, first, d_head);
    set_columns(grad_k, dk_i, m, d, first, d_head);
    set_columns(grad_v, dv_i, m, d, first, d_head);
  }

  // dW_O = Concat^T dY; dW_Q = X^T dQ; dW_K = C^T dK; dW_V = C^T dV
  // dX = dQ W_Q^T; dC = dK W_K^T + dV W_V^T
  MultiHeadGradients g;
  g.w_o = to_float(product(concat, true, dy, false, d, n, d));
  g.w_q = to_float(product(x, true, grad_q, false, d, n, d));
  g.w_k = to_float(product(c, true, grad_k, false, d, m, d));
  g.w_v = to_float(product(c, true, grad_v, false, d, m, d));
  Matrix grad_x = product(grad_q, false, w_q, true, n, d, d);
  Matrix grad_c = product(grad_k, false, w_k, true, m, d, d);
  const Matrix through_v = product(grad_v, false, w_v, true, m, d, d);
  for (std::size_t i = 0; i < grad_c.size(); ++i) grad_c[i] += through_v[i];
  if (in.context.empty()) {
    for (std::size_t i = 0; i < grad_x.size(); ++i) grad_x[i] += grad_c[i];
  } else {
    g.context = to_float(grad_c);
  }
  g.x = to_float(grad_x);
  return g;
}

}  // namespace reference

}  // namespace attn
