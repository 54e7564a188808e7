// multi_head_attention.hpp (internal) — multi-head attention as a layer of the
// graph: self-attention (X_kv = X_q), cross-attention (X_kv = the encoder's
// output), causal and padding masks, heads ablated, and the key/value cache of
// decoding.
//
// B examples; X_q holds n query rows per example (B*n x d), X_kv m key rows per
// example (B*m x d); H heads of d_k = d / H columns each:
//
//   forward   Q = X_q W_Q,  K = X_kv W_K,  V = X_kv W_V          W_* d x d, no biases (below)
//             per example b and head h (Q_bh: rows of b, columns h d_k .. (h+1) d_k):
//               S = s Q_bh K_bh^T                                 s = 1/sqrt(d_k) (scaled) or 1
//               S_ij = -inf where masked:  causal  j > i + offset
//                                          padding j >= key_length_b
//               P = softmax_rows(S)                               a row with every key masked: zeros
//               O_bh = P V_bh,  or 0 for an ablated head
//             Y = concat_h(O_bh) W_O
//   backward  dO = dY W_O^T,  dW_O += concat^T dY                 (linear.hpp)
//             per (b, h), not ablated:
//               dP = dO_bh V_bh^T
//               dS = P ⊙ (dP - rowsum(dP ⊙ P))                    the softmax's Jacobian
//               dQ_bh += s dS K_bh,  dK_bh += s dS^T Q_bh,  dV_bh += P^T dO_bh
//             then through the projections: dW_Q += X_q^T dQ, dX_q += dQ W_Q^T, ... (linear.hpp)
//
// No biases on the projections: the articles write Q = X W_Q; in the
// transformers every attention reads a LayerNorm's output, whose learned β
// already gives Q, K and V a learned offset (β W); a bias on K adds the same
// q·b_K to every score of a row, which the softmax cancels; and the decoder
// without LayerNorm (attention_only, the induction-head demo) is the form
// Olsson et al. analyse, without biases.
//
// The per-(b, h) products are the kernels' (gemm.hpp) on the head's rows
// gathered into contiguous blocks (Q_bh scaled by s, K_bh^T, V_bh), the
// softmax the kernels' too: at d_k = 16, n = m = 16, B = 32, H = 4 the gathers,
// both products and the scatter take 0.04 ms natively, where plain loops over
// the strided heads took 0.59 (their sums cannot be vectorised without
// reassociation, and in WebAssembly only the kernels have SIMD). P of every
// (b, h) stays in the graph's memory: the backward reads it, and the models
// copy it into their readings. An ablated head's P is computed all the same
// (the readings show where it looks); only its output is zeroed.
//
// Decoding: a KeyValueCache holds K and V of the keys so far (one row per key).
// Self-attention appends the K and V rows of the new tokens and lets each new
// row attend every cached key up to its own position; cross-attention fills
// the cache once from the encoder's output and every step reads it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "layers/graph.hpp"

namespace attn::layers {

template <class T>
struct AttentionWeights {
  Tensor<T> w_q, w_k, w_v, w_o;  // d x d each
};

struct AttentionOptions {
  std::size_t batch = 1;  // B: X_q has B*n rows, X_kv B*m rows
  std::size_t heads = 1;  // H, a divisor of d
  bool scaled = true;     // s = 1/sqrt(d_k), else 1
  bool causal = false;    // query i of an example sees keys j <= i + causal_offset
  std::size_t causal_offset = 0;
  const std::int32_t* key_lengths = nullptr;  // B entries: keys j >= key_lengths[b] masked; null: none
  const unsigned char* ablated = nullptr;     // H entries: 1 = the head's output is zeroed; null: none
};

// What an attention layer gives: its output and its weights P, kept in the
// graph's memory until clear(): P[((b H + h) n + i) m + j].
template <class T>
struct AttentionResult {
  Tensor<T> output;
  const T* weights = nullptr;
  std::size_t batch = 0, heads = 0, queries = 0, keys = 0;  // B, H, n, m
  // P of example b, head h: n x m, row-major.
  const T* weights_of(std::size_t b, std::size_t h) const { return weights + (b * heads + h) * queries * keys; }
};

// Y = concat_h(softmax(s Q_bh K_bh^T + mask) V_bh) W_O with Q = X_q W_Q, K = X_kv W_K, V = X_kv W_V.
template <class T>
AttentionResult<T> multi_head_attention(Graph<T>& g, Tensor<T> x_q, Tensor<T> x_kv, const AttentionWeights<T>& w,
                                        const AttentionOptions& options);

// The heads on projected Q (B*n x d), K and V (B*m x d): concat_h(O_bh), before W_O.
template <class T>
AttentionResult<T> attend_heads(Graph<T>& g, Tensor<T> q, Tensor<T> k, Tensor<T> v, const AttentionOptions& options);

// The keys and values of one attention while decoding one sequence.
template <class T>
struct KeyValueCache {
  std::vector<T> k, v;  // capacity x d each; rows [0, rows) hold K and V of the keys so far
  std::size_t rows = 0, capacity = 0, d = 0;

  // Empty, with room for `capacity` keys (no allocation afterwards, nor when the size is the same).
  void reset(std::size_t capacity_rows, std::size_t width);
  Tensor<T> keys() { return {k.data(), nullptr, rows, d}; }
  Tensor<T> values() { return {v.data(), nullptr, rows, d}; }
};

// Decoding's self-attention: the K and V rows of x (r new rows, the next
// positions of the sequence) appended to the cache, then row i of x attends
// the cached keys 0 .. (rows before) + i. The caller keeps within capacity.
template <class T>
AttentionResult<T> cached_self_attention(Graph<T>& g, Tensor<T> x, const AttentionWeights<T>& w,
                                         KeyValueCache<T>& cache, AttentionOptions options);

// Decoding's cross-attention: the cache filled once with K = M W_K, V = M W_V
// of the encoder's output M (one example), then every step's rows attend all of it.
template <class T>
void fill_cache(Tensor<T> memory, const AttentionWeights<T>& w, KeyValueCache<T>& cache);
template <class T>
AttentionResult<T> cached_cross_attention(Graph<T>& g, Tensor<T> x, const AttentionWeights<T>& w,
                                          KeyValueCache<T>& cache, AttentionOptions options);

}  // namespace attn::layers
