// multi_head_backward.cpp — attn::multi_head_backward (the SIMD path: the
// forward pass of attn::multi_head, then multi_head_backward_passes on one
// example; the double path when float intermediates could overflow) and
// attn::reference::multi_head_backward (plain loops in double, each gradient
// rounded to float or refused with a ValueError naming it).
#include "attn/multi_head_backward.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "attention_backward_passes.hpp"
#include "attn/attention.hpp"
#include "backward_range.hpp"
#include "float_range.hpp"
#include "kernels/matrix_ops.hpp"
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

double frobenius_norm(FloatSpan w) {
  double sum = 0.0;
  for (float x : w) sum += static_cast<double>(x) * x;
  return std::sqrt(sum);
}

// Whether every float intermediate of the backward passes stays within
// kSafeMagnitude (float_range.hpp), from the largest row norms of the
// forward's Q, K, V and Concat, of X, C and dY, and the Frobenius norms of
// the weights (|x W| <= |x| |W|_F): dConcat = dY W_O^T, each head's attention
// backward (backward_range.hpp; a head's columns are part of a row), then
//   |dW_O| <= n |Concat| |dY|            |dW_Q| <= n |X| sqrt(h) |dQ_head|
//   |dW_K| <= m |C| sqrt(h) |dK_head|    |dW_V| <= m |C| sqrt(h) |dV_head|
//   |dX|, |dC| <= sqrt(h) (|dQ_head| |W_Q| + |dK_head| |W_K| + |dV_head| |W_V|)
bool backward_fits_float(const MultiHeadInputs& in, FloatSpan grad_output, const MultiHeadResult& forward) {
  const std::size_t n = in.n, m = key_count(in), d = in.d_model;
  const auto norm = [d](const char* name, FloatSpan x) { return detail::largest_row_norm(name, x.data(), x.size() / d, d); };
  const double grad = norm("grad_output", grad_output), concat = norm("concat", forward.concat);
  const double x = norm("x", in.x), c = norm("context", key_tokens(in));
  const double w_q = frobenius_norm(in.w_q), w_k = frobenius_norm(in.w_k), w_v = frobenius_norm(in.w_v),
               w_o = frobenius_norm(in.w_o);
  const double grad_concat = grad * w_o;
  const detail::BackwardNorms head{norm("q", forward.q), norm("k", forward.k), norm("v", forward.v), grad_concat,
                                   norm("v", forward.v)};
  const float scale = Scale::inverse_sqrt_dk().factor(d / in.heads);
  const detail::BackwardBounds b = detail::backward_bounds(head, scale, n, m, 1.0);
  const double root_heads = std::sqrt(static_cast<double>(in.heads));
  const double nd = static_cast<double>(n), md = static_cast<double>(m);
  const double bounds[] = {grad_concat,
                           nd * concat * grad,
                           nd * x * root_heads * b.grad_q,
                           md * c * root_heads * b.grad_k,
                           md * c * root_heads * b.grad_v,
                           root_heads * (b.grad_q * w_q + b.grad_k * w_k + b.grad_v * w_v)};
  return b.fits_float && std::all_of(std::begin(bounds), std::end(bounds),
                                     [](double bound) { return bound <= detail::kSafeMagnitude; });
}

}  // namespace

MultiHeadGradients multi_head_backward(const MultiHeadInputs& in, FloatSpan grad_output) {
  MultiHeadResult forward = checked_forward(in, grad_output);
  // Float intermediates that could leave the float range: the pass in double.
  if (!backward_fits_float(in, grad_output, forward)) return reference::multi_head_backward(in, grad_output);
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

// The gradient `name` (rows x cols) rounded to float, or ValueError naming the
// first element beyond the float range ("grad_w_q[0][1]: dW_Q[0][1] = ...").
std::vector<float> to_float(const Matrix& values, std::size_t cols, const detail::ElementName& name) {
  std::vector<float> rounded(values.size());
  detail::to_floats_or_raise(values, rounded.data(), cols, name);
  return rounded;
}

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
  g.w_o = to_float(product(concat, true, dy, false, d, n, d), d, {"grad_w_o", "(Concat^T dY)[{i}][{j}]"});
  g.w_q = to_float(product(x, true, grad_q, false, d, n, d), d, {"grad_w_q", "(X^T dQ)[{i}][{j}]"});
  g.w_k = to_float(product(c, true, grad_k, false, d, m, d), d, {"grad_w_k", "(C^T dK)[{i}][{j}]"});
  g.w_v = to_float(product(c, true, grad_v, false, d, m, d), d, {"grad_w_v", "(C^T dV)[{i}][{j}]"});
  Matrix grad_x = product(grad_q, false, w_q, true, n, d, d);
  Matrix grad_c = product(grad_k, false, w_k, true, m, d, d);
  const Matrix through_v = product(grad_v, false, w_v, true, m, d, d);
  for (std::size_t i = 0; i < grad_c.size(); ++i) grad_c[i] += through_v[i];
  if (in.context.empty()) {
    for (std::size_t i = 0; i < grad_x.size(); ++i) grad_x[i] += grad_c[i];
  } else {
    g.context = to_float(grad_c, d, {"grad_context", "(dK W_K^T + dV W_V^T)[{i}][{j}]"});
  }
  g.x = to_float(grad_x, d, {"grad_x", "dX[{i}][{j}]"});
  return g;
}

}  // namespace reference

}  // namespace attn
