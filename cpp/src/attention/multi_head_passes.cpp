// multi_head_passes.cpp — multi-head attention forward and backward over a
// batch, on the SIMD kernels, into a workspace allocated once. Formulas in
// attn/multi_head_backward.hpp.
#include "multi_head_passes.hpp"

#include <algorithm>

#include "attention_backward_passes.hpp"
#include "kernels/kernels.hpp"
#include "kernels/matrix_ops.hpp"

namespace attn::detail {

namespace {

float* head_weights(MultiHeadWorkspace& work, const MultiHeadDims& dims, std::size_t example, std::size_t head) {
  return work.weights.data() + (example * dims.heads + head) * dims.n * dims.m;
}

// The first row of example b's queries in x, Q and dQ.
std::size_t query_offset(const MultiHeadDims& dims, std::size_t example) {
  return dims.shared_queries ? 0 : example * dims.n * dims.d_model;
}

// Q_i, K_i, V_i of example b and head i, as contiguous n x d_head, m x d_head
// matrices in work.head_q, head_k, head_v.
void gather_head(MultiHeadWorkspace& work, const MultiHeadDims& dims, std::size_t example, std::size_t head) {
  const std::size_t n = dims.n, m = dims.m, d = dims.d_model, d_head = dims.d_head(), first = head * d_head;
  copy_columns(work.q.data() + query_offset(dims, example), n, d, first, d_head, work.head_q.data());
  copy_columns(work.k.data() + example * m * d, m, d, first, d_head, work.head_k.data());
  copy_columns(work.v.data() + example * m * d, m, d, first, d_head, work.head_v.data());
}

}  // namespace

void multi_head_forward_passes(const float* x, const float* context, const MultiHeadDims& dims,
                               const MultiHeadWeights& weights, float scale, const KeepRule& rule,
                               MultiHeadWorkspace& work, float* output) {
  const std::size_t n = dims.n, m = dims.m, d = dims.d_model, d_head = dims.d_head();
  const std::size_t rows_q = dims.batch * n, rows_kv = dims.batch * m;

  // pass 1: Q = X W_Q, K = C W_K, V = C W_V
  kernels::matmul_ab(x, weights.w_q, work.q.data(), dims.query_rows(), d, d);
  kernels::matmul_ab(context, weights.w_k, work.k.data(), rows_kv, d, d);
  kernels::matmul_ab(context, weights.w_v, work.v.data(), rows_kv, d, d);

  // pass 2: per example b and head i, H_i = softmax(scale Q_i K_i^T) V_i into
  // columns [i d_head, (i+1) d_head) of Concat
  const AttentionShape head_shape{n, m, d_head, d_head};
  for (std::size_t b = 0; b < dims.batch; ++b) {
    for (std::size_t head = 0; head < dims.heads; ++head) {
      const std::size_t first = head * d_head;
      gather_head(work, dims, b, head);
      attention_forward_into(work.head_q.data(), work.head_k.data(), work.head_v.data(), head_shape, scale, rule,
                             head_weights(work, dims, b, head), work.head_out.data(),
                             work.attention_scratch.data());
      copy_into_columns(work.head_out.data(), n, d, first, d_head, work.concat.data() + b * n * d);
    }
  }

  // pass 3: Y = Concat W_O
  kernels::matmul_ab(work.concat.data(), weights.w_o, output, rows_q, d, d);
}

void multi_head_backward_passes(const float* x, const float* context, const MultiHeadDims& dims,
                                const MultiHeadWeights& weights, float scale, MultiHeadWorkspace& work,
                                const float* grad_output, const MultiHeadWeightGradients& grads, float* grad_x,
                                float* grad_context) {
  const std::size_t n = dims.n, m = dims.m, d = dims.d_model, d_head = dims.d_head();
  const std::size_t rows_q = dims.batch * n, rows_kv = dims.batch * m;

  // pass 1: dW_O = Concat^T dY;  dConcat = dY W_O^T
  matmul_atb(work.concat.data(), grad_output, grads.w_o, rows_q, d, d, work.transposed.data());
  float* wt = work.weight_transposed.data();
  product_abt(grad_output, weights.w_o, work.grad_concat.data(), rows_q, d, d, wt);

  // pass 2: per example and head, the attention backward of head i with
  // dH_i = dConcat_i, from the weights P the forward pass kept (shared
  // queries: dQ sums the examples' gradients)
  const AttentionShape head_shape{n, m, d_head, d_head};
  if (dims.shared_queries) std::fill(work.grad_q.begin(), work.grad_q.end(), 0.0f);
  for (std::size_t b = 0; b < dims.batch; ++b) {
    for (std::size_t head = 0; head < dims.heads; ++head) {
      const std::size_t first = head * d_head;
      gather_head(work, dims, b, head);
      copy_columns(work.grad_concat.data() + b * n * d, n, d, first, d_head, work.head_out.data());  // dH_i
      attention_backward_from_weights(work.head_q.data(), work.head_k.data(), work.head_v.data(),
                                      head_weights(work, dims, b, head), work.head_out.data(), head_shape, scale,
                                      work.head_grad_q.data(), work.head_grad_k.data(), work.head_grad_v.data(),
                                      work.attention_scratch.data());
      if (dims.shared_queries) {
        add_into_columns(work.head_grad_q.data(), n, d, first, d_head, work.grad_q.data());
      } else {
        copy_into_columns(work.head_grad_q.data(), n, d, first, d_head, work.grad_q.data() + b * n * d);
      }
      copy_into_columns(work.head_grad_k.data(), m, d, first, d_head, work.grad_k.data() + b * m * d);
      copy_into_columns(work.head_grad_v.data(), m, d, first, d_head, work.grad_v.data() + b * m * d);
    }
  }

  // pass 3: dW_Q = X^T dQ, dW_K = C^T dK, dW_V = C^T dV
  matmul_atb(x, work.grad_q.data(), grads.w_q, dims.query_rows(), d, d, work.transposed.data());
  matmul_atb(context, work.grad_k.data(), grads.w_k, rows_kv, d, d, work.transposed.data());
  matmul_atb(context, work.grad_v.data(), grads.w_v, rows_kv, d, d, work.transposed.data());

  // pass 4: dX = dQ W_Q^T;  dC = dK W_K^T + dV W_V^T
  if (grad_x) product_abt(work.grad_q.data(), weights.w_q, grad_x, dims.query_rows(), d, d, wt);
  if (grad_context) {
    product_abt(work.grad_k.data(), weights.w_k, grad_context, rows_kv, d, d, wt);
    product_abt(work.grad_v.data(), weights.w_v, work.context_term.data(), rows_kv, d, d, wt);
    add_in_place(work.context_term.data(), grad_context, rows_kv * d);
  }
}

}  // namespace attn::detail
