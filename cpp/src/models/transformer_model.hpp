// transformer_model.hpp (internal) — the two transformers of the engine, one
// class (they differ only in whether an encoder is there):
//
//   transformer (ModelKind::Transformer), encoder-decoder (Vaswani et al. 2017, pre-LayerNorm):
//     M = Encoder(E_s[source] + positions)         self-attention over the source, padding masked
//     H = Decoder(E_t[input] + positions, M)       causal self-attention, cross-attention over M
//                                                  (source padding masked), MLP; final LayerNorm each
//     logits = H W_out + b_out                     B*T x target_vocabulary
//   decoder (ModelKind::Decoder), decoder-only over one sequence (Batch::source_length 0):
//     H = Decoder(E[input] + positions)            self-attention causal when ModelConfig::causal (the
//                                                  padding after each sequence masked), no cross-attention;
//                                                  attention_only: X = X + MHA(X) per layer, no LayerNorm,
//                                                  no MLP (Olsson et al. 2022's attention-only transformer)
//     logits = H W_out + b_out                     one vocabulary (target_vocabulary) for input and output
//
// The blocks and the initialisation are transformer_stack.hpp's; W_out ~ N(0, 1/d), b_out = 0.
//
// Decoding (start/next) runs the decoder causally whatever ModelConfig::causal
// (the future does not exist yet). With cache: the encoder runs once in
// start(), each layer's cross-attention K and V are computed once from its
// output, and each token adds one row to every self-attention's K and V cache
// (DecodedStep::cache_length = its rows). Without: every step runs forward() on
// the whole prefix (and the source) again and reads its last row
// (cache_length 0). DecodedStep::maps: this step's row of each decoder
// attention, per layer self then cross.
//
// Readings (forward with a Reading): the maps of one example, trimmed to its
// real lengths (source_lengths; target_lengths when given), in the order the
// pass computes them: encoder self-attention of layers 0..L-1, then per decoder
// layer its self-attention and its cross-attention. Ablation: HeadRef::layer
// indexes the attentions in that same order (the decoder-only model: the layer).
#pragma once

#include <memory>

#include "models/model.hpp"

namespace attn::models {

// config.kind Transformer or Decoder; ValueError naming the field for a size that does not fit.
template <class T>
std::unique_ptr<Model<T>> make_transformer(const ModelConfig& config);

}  // namespace attn::models
