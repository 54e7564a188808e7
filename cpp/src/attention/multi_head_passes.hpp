// multi_head_passes.hpp (internal) — multi-head attention forward and backward
// over a batch of independent examples that share the weights, into buffers of
// a workspace that is allocated once (no allocation when called again with the
// same sizes). attn::multi_head_backward runs the backward on one example; the
// training step runs both on a whole batch.
//
// Shapes: x batch*n x d_model (queries' sequence), context batch*m x d_model
// (keys' and values' sequence; the same pointer as x for self-attention), each
// W d_model x d_model; example b owns rows [b n, (b+1) n) of x and [b m, (b+1) m)
// of context. Heads: d_head = d_model / heads columns each.
// With shared_queries, x has only n rows, the same queries for every example
// (the model's target positions): Q = X W_Q is computed once, and dQ, dW_Q and
// dX sum over the examples.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "attention/attention_backward_passes.hpp"
#include "attention/mask_rule.hpp"

namespace attn::detail {

struct MultiHeadDims {
  std::size_t batch = 1, n = 0, m = 0, d_model = 0, heads = 1;
  bool shared_queries = false;
  std::size_t d_head() const { return d_model / heads; }
  std::size_t query_rows() const { return shared_queries ? n : batch * n; }  // rows of x, Q, dQ
};

struct MultiHeadWeights {
  const float *w_q, *w_k, *w_v, *w_o;
};

// Where the backward pass writes dW_Q, dW_K, dW_V, dW_O (overwritten).
struct MultiHeadWeightGradients {
  float *w_q, *w_k, *w_v, *w_o;
};

// The forward pass's intermediates, kept for the backward pass, and the
// scratch of both. Sized by reserve(); reserve() with sizes already reserved
// allocates nothing.
struct MultiHeadWorkspace {
  std::vector<float> q, k, v;      // query_rows x d_model, batch*m x d_model (twice)
  std::vector<float> weights;      // batch x heads x n x m: P of example b, head i at (b heads + i) n m
  std::vector<float> concat;       // batch*n x d_model
  std::vector<float> grad_concat;  // batch*n x d_model
  std::vector<float> grad_q, grad_k, grad_v;  // query_rows, batch*m, batch*m x d_model
  std::vector<float> head_q, head_k, head_v, head_out;  // one head of one example: n, m, m, n x d_head
  std::vector<float> head_grad_q, head_grad_k, head_grad_v;
  std::vector<float> attention_scratch;  // 2 n m
  std::vector<float> transposed;         // max(batch n, batch m) x d_model
  std::vector<float> context_term;       // batch*m x d_model
  std::vector<float> weight_transposed;  // d_model x d_model

  // Each buffer and its size in floats for `dims`: visit(buffer, floats); the
  // backward pass's own buffers 0 floats unless `backward` (a workspace that
  // only runs forward holds none of them). The one list of sizes, walked by
  // reserve() and floats_for().
  template <class Visit>
  void each_buffer(const MultiHeadDims& dims, bool backward, Visit&& visit);

  void reserve(const MultiHeadDims& dims, bool backward = true) {
    each_buffer(dims, backward, [](std::vector<float>& buffer, std::size_t floats) { buffer.resize(floats); });
  }
  // The floats reserve(dims, backward) holds, without reserving them.
  static std::size_t floats_for(const MultiHeadDims& dims, bool backward) {
    std::size_t total = 0;
    MultiHeadWorkspace().each_buffer(dims, backward, [&](std::vector<float>&, std::size_t floats) { total += floats; });
    return total;
  }
};

template <class Visit>
void MultiHeadWorkspace::each_buffer(const MultiHeadDims& dims, bool backward, Visit&& visit) {
  const std::size_t rows_q = dims.batch * dims.n, rows_kv = dims.batch * dims.m, d = dims.d_model;
  const std::size_t d_head = dims.d_head(), rows_x = dims.query_rows();
  const std::size_t b = backward ? 1 : 0;
  // forward and backward
  visit(q, rows_x * d), visit(k, rows_kv * d), visit(v, rows_kv * d);
  visit(weights, dims.batch * dims.heads * dims.n * dims.m);
  visit(concat, rows_q * d);
  visit(head_q, dims.n * d_head), visit(head_k, dims.m * d_head), visit(head_v, dims.m * d_head);
  visit(head_out, dims.n * d_head);
  visit(attention_scratch, attention_backward_scratch_floats({dims.n, dims.m, d_head, d_head}));
  // backward only
  visit(grad_concat, b * rows_q * d);
  visit(grad_q, b * rows_x * d), visit(grad_k, b * rows_kv * d), visit(grad_v, b * rows_kv * d);
  visit(head_grad_q, b * dims.n * d_head), visit(head_grad_k, b * dims.m * d_head), visit(head_grad_v, b * dims.m * d_head);
  visit(transposed, b * std::max(rows_q, rows_kv) * d);
  visit(context_term, b * rows_kv * d);
  visit(weight_transposed, b * d * d);
}

// Q = X W_Q, K = C W_K, V = C W_V; per example and head P = softmax(scale
// Q_i K_i^T, masked by `rule`), H_i = P V_i; output (batch*n x d_model) =
// Concat(H) W_O. Keeps Q, K, V, P and Concat in `work` (reserve()d for dims).
void multi_head_forward_passes(const float* x, const float* context, const MultiHeadDims& dims,
                               const MultiHeadWeights& weights, float scale, const KeepRule& rule,
                               MultiHeadWorkspace& work, float* output);

// After multi_head_forward_passes on the same inputs (or with work.q, k, v,
// weights and concat filled otherwise): grad_output dY (batch*n x d_model) ->
// the weight gradients (summed over the batch), grad_x (query_rows x d_model,
// through Q only) unless null, grad_context (batch*m x d_model, through K and V)
// unless null. For self-attention dX is grad_x + grad_context.
void multi_head_backward_passes(const float* x, const float* context, const MultiHeadDims& dims,
                                const MultiHeadWeights& weights, float scale, MultiHeadWorkspace& work,
                                const float* grad_output, const MultiHeadWeightGradients& grads, float* grad_x,
                                float* grad_context);

}  // namespace attn::detail
