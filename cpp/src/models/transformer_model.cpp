// transformer_model.cpp — the transformer and decoder models
// (transformer_model.hpp): teacher forcing, readings, greedy decoding with and
// without the key/value cache, head ablation.
#include "models/transformer_model.hpp"

#include <cmath>
#include <optional>
#include <string>

#include "attn/error.hpp"
#include "layers/linear.hpp"
#include "models/transformer_stack.hpp"

namespace attn::models {

namespace {

using layers::Recording;

std::string text(std::size_t value) { return std::to_string(value); }

void require_at_least_one(const char* name, std::size_t value) {
  if (value == 0) throw ValueError(std::string(name) + ": expected at least 1, got 0");
}

void check_config(const ModelConfig& c) {
  const bool decoder_only = c.kind == ModelKind::Decoder;
  if (c.kind != ModelKind::Transformer && !decoder_only)
    throw ValueError("config.kind: expected transformer or decoder for this model");
  require_at_least_one("config.d_model", c.d_model);
  require_at_least_one("config.heads", c.heads);
  require_at_least_one("config.layers", c.layers);
  require_at_least_one("config.target_vocabulary", c.target_vocabulary);
  require_at_least_one("config.max_target_length", c.max_target_length);
  if (!decoder_only) {
    require_at_least_one("config.source_vocabulary", c.source_vocabulary);
    require_at_least_one("config.max_source_length", c.max_source_length);
  }
  if (c.d_model % c.heads != 0)
    throw ValueError("config.heads: expected a divisor of d_model = " + text(c.d_model) + ", got " + text(c.heads));
  if (c.attention_only && !decoder_only)
    throw ValueError("config.attention_only: only the decoder model has an attention-only form");
}

// The checks of a batch or a decoding call (names as C strings: no allocation unless they fail).
// ValueError at the first id outside [0, limit): "batch.input[7]: expected a token id below 12, got 14".
void check_ids(const char* name, std::span<const std::int32_t> ids, std::size_t limit) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= limit)
      throw ValueError(std::string(name) + "[" + text(i) + "]: expected a token id below " + text(limit) + ", got " +
                       std::to_string(ids[i]));
}

void check_length(const char* name, std::size_t length, std::size_t limit) {
  if (length == 0 || length > limit)
    throw ValueError(std::string(name) + ": expected 1 to " + text(limit) + " positions, got " + text(length));
}

void check_size(const char* name, std::size_t size, std::size_t expected, const char* formula) {
  if (size != expected)
    throw ShapeError(std::string(name) + ": expected " + formula + " = " + text(expected) + " entries, got " +
                     text(size));
}

// lengths: `count` entries, each in [1, limit].
void check_lengths(const char* name, std::span<const std::int32_t> lengths, std::size_t count, std::size_t limit) {
  check_size(name, lengths.size(), count, "batch.size");
  for (std::size_t i = 0; i < lengths.size(); ++i)
    if (lengths[i] < 1 || static_cast<std::size_t>(lengths[i]) > limit)
      throw ValueError(std::string(name) + "[" + text(i) + "]: expected 1 to " + text(limit) + ", got " +
                       std::to_string(lengths[i]));
}

// One head map of a pass: rows [first_row, first_row + rows) x keys [0, cols) of example b.
template <class T>
AttentionMap map_of(const AttentionTrace<T>& trace, std::size_t b, std::size_t first_row, std::size_t rows,
                    std::size_t cols) {
  AttentionMap map;
  map.kind = trace.kind;
  map.layer = trace.layer;
  map.rows = rows;
  map.cols = cols;
  const AttentionResult<T>& r = trace.result;
  for (std::size_t h = 0; h < r.heads; ++h) {
    const T* p = r.weights_of(b, h);
    std::vector<float>& weights = map.heads.emplace_back(rows * cols);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        weights[i * cols + j] = static_cast<float>(p[(first_row + i) * r.keys + j]);
  }
  return map;
}

template <class T>
class TransformerModel final : public Model<T> {
 public:
  explicit TransformerModel(const ModelConfig& config);

  const ModelConfig& config() const override { return config_; }
  Parameters<T>& parameters() override { return parameters_; }
  Tensor<T> forward(Graph<T>& g, const Batch& batch, Reading* reading) override;
  void start(std::span<const std::int32_t> source, std::span<const std::int32_t> prompt, bool cache) override;
  DecodedStep next(std::int32_t token) override;
  void set_ablation(std::span<const HeadRef> heads) override;

 private:
  bool has_encoder() const { return encoder_.has_value(); }
  void check_batch(const Batch& batch) const;
  // Teacher forcing; `causal`: the decoder's self-attention (always in decoding).
  Tensor<T> run(Graph<T>& g, const Batch& batch, bool causal, std::vector<AttentionTrace<T>>* traces);
  Tensor<T> logits(Graph<T>& g, Tensor<T> h) {
    return layers::linear(g, h, parameters_.tensor(output_w_), parameters_.tensor(output_b_));
  }

  ModelConfig config_;
  Parameters<T> parameters_;
  std::optional<TokenInput<T>> source_input_, target_input_;
  std::optional<TransformerStack<T>> encoder_, decoder_;
  std::size_t output_w_ = 0, output_b_ = 0;
  std::vector<AttentionTrace<T>> traces_;

  // Decoding one sequence.
  Graph<T> decoding_{Recording::Off};
  bool started_ = false;  // start() has run (the caches are sized)
  bool cache_ = true;
  Batch sequence_;  // the source and the decoder's input so far (example 0)
};

template <class T>
TransformerModel<T>::TransformerModel(const ModelConfig& config) : config_(config), parameters_(config.seed) {
  check_config(config);
  const std::size_t d = config.d_model;
  StackShape shape{config.layers, d, config.heads, config.d_ff != 0 ? config.d_ff : 4 * d, false, config.attention_only,
                   config.scaled};
  // Drawn in this order: source input, encoder, target input, decoder, output.
  if (config.kind == ModelKind::Transformer) {
    source_input_.emplace(parameters_, "encoder", config.source_vocabulary, config.max_source_length, d,
                          config.positions);
    encoder_.emplace(parameters_, "encoder", shape, "encoder-self");
    shape.cross = true;
  }
  target_input_.emplace(parameters_, "decoder", config.target_vocabulary, config.max_target_length, d,
                        config.positions);
  decoder_.emplace(parameters_, "decoder", shape, "decoder-self");
  output_w_ = parameters_.add("output.w", d, config.target_vocabulary, layers::Role::Matrix, layers::Init::Normal,
                              1.0 / std::sqrt(static_cast<double>(d)));
  output_b_ = parameters_.add("output.b", 1, config.target_vocabulary, layers::Role::Bias, layers::Init::Zeros);
}

template <class T>
void TransformerModel<T>::check_batch(const Batch& batch) const {
  const std::size_t B = batch.size, T_ = batch.target_length;
  require_at_least_one("batch.size", B);
  check_length("batch.target_length", T_, config_.max_target_length);
  check_size("batch.input", batch.input.size(), B * T_, "size*target_length");
  check_ids("batch.input", batch.input, config_.target_vocabulary);
  if (!batch.target_lengths.empty()) check_lengths("batch.target_lengths", batch.target_lengths, B, T_);
  if (!has_encoder()) {
    if (batch.source_length != 0)
      throw ShapeError("batch.source_length: the decoder model takes no source, got " + text(batch.source_length));
    return;
  }
  const std::size_t S = batch.source_length;
  check_length("batch.source_length", S, config_.max_source_length);
  check_size("batch.source", batch.source.size(), B * S, "size*source_length");
  check_ids("batch.source", batch.source, config_.source_vocabulary);
  check_lengths("batch.source_lengths", batch.source_lengths, B, S);
}

template <class T>
Tensor<T> TransformerModel<T>::run(Graph<T>& g, const Batch& batch, bool causal,
                                   std::vector<AttentionTrace<T>>* traces) {
  typename TransformerStack<T>::Pass pass;
  pass.batch = batch.size;
  pass.causal = causal;
  pass.lengths = batch.target_lengths.empty() ? nullptr : batch.target_lengths.data();
  if (has_encoder()) {
    typename TransformerStack<T>::Pass source;
    source.batch = batch.size;
    source.lengths = batch.source_lengths.data();
    const Tensor<T> x = (*source_input_)(g, parameters_, batch.source, batch.source_length);
    pass.memory = encoder_->forward(g, parameters_, x, source, traces);
    pass.memory_lengths = batch.source_lengths.data();
  }
  const Tensor<T> x = (*target_input_)(g, parameters_, batch.input, batch.target_length);
  return logits(g, decoder_->forward(g, parameters_, x, pass, traces));
}

template <class T>
Tensor<T> TransformerModel<T>::forward(Graph<T>& g, const Batch& batch, Reading* reading) {
  check_batch(batch);
  if (reading == nullptr) return run(g, batch, config_.causal || has_encoder(), nullptr);
  if (reading->example >= batch.size)
    throw ValueError("reading.example: expected below batch.size = " + text(batch.size) + ", got " +
                     text(reading->example));
  traces_.clear();
  const Tensor<T> out = run(g, batch, config_.causal || has_encoder(), &traces_);
  const std::size_t b = reading->example;
  const std::size_t source = has_encoder() ? static_cast<std::size_t>(batch.source_lengths[b]) : 0;
  const std::size_t target =
      batch.target_lengths.empty() ? batch.target_length : static_cast<std::size_t>(batch.target_lengths[b]);
  reading->maps.clear();
  for (const AttentionTrace<T>& trace : traces_) {
    const std::string kind = trace.kind;
    const std::size_t rows = kind == "encoder-self" ? source : target;
    const std::size_t cols = kind == "decoder-self" ? target : source;
    reading->maps.push_back(map_of(trace, b, 0, rows, cols));
  }
  return out;
}

template <class T>
void TransformerModel<T>::start(std::span<const std::int32_t> source, std::span<const std::int32_t> prompt,
                                bool cache) {
  if (has_encoder()) {
    check_length("source", source.size(), config_.max_source_length);
    check_ids("source", source, config_.source_vocabulary);
  } else if (!source.empty()) {
    throw ShapeError("source: the decoder model takes no source (give the sequence as the prompt), got " +
                     text(source.size()) + " tokens");
  }
  if (prompt.size() >= config_.max_target_length)
    throw ValueError("prompt: expected at most max_target_length - 1 = " + text(config_.max_target_length - 1) +
                     " tokens (next() feeds one more), got " + text(prompt.size()));
  check_ids("prompt", prompt, config_.target_vocabulary);
  cache_ = cache;
  started_ = !cache;  // with the cache: once the caches are sized below
  sequence_.size = 1;
  sequence_.source.assign(source.begin(), source.end());
  sequence_.source_length = source.size();
  sequence_.source_lengths.assign(has_encoder() ? 1 : 0, static_cast<std::int32_t>(source.size()));
  sequence_.input.reserve(config_.max_target_length);
  sequence_.input.assign(prompt.begin(), prompt.end());
  sequence_.target_lengths.clear();
  if (!cache) return;
  // The encoder once; each layer's cross-attention K and V from its output; the prompt into the caches.
  decoding_.clear();
  Tensor<T> memory;
  if (has_encoder()) {
    typename TransformerStack<T>::Pass pass;
    memory = encoder_->forward(decoding_, parameters_, (*source_input_)(decoding_, parameters_, source, source.size()),
                               pass, nullptr);
  }
  decoder_->start_decoding(parameters_, memory, config_.max_target_length);
  started_ = true;
  if (!prompt.empty())
    decoder_->decode(decoding_, parameters_, (*target_input_)(decoding_, parameters_, prompt, prompt.size()), nullptr);
}

template <class T>
DecodedStep TransformerModel<T>::next(std::int32_t token) {
  if (!started_) throw ValueError("next: call start() first (the source and the prompt)");
  const std::size_t position = sequence_.input.size();
  if (position >= config_.max_target_length)
    throw ValueError("next: the sequence already has max_target_length = " + text(config_.max_target_length) +
                     " tokens");
  check_ids("token", std::span<const std::int32_t>(&token, 1), config_.target_vocabulary);
  sequence_.input.push_back(token);
  decoding_.clear();
  traces_.clear();
  DecodedStep step;
  Tensor<T> out;
  std::size_t row = 0;  // the new position's row in the traces' weights
  if (cache_) {
    const Tensor<T> x = (*target_input_)(decoding_, parameters_,
                                         std::span<const std::int32_t>(&sequence_.input.back(), 1), 1, position);
    out = logits(decoding_, decoder_->decode(decoding_, parameters_, x, &traces_));
    step.cache_length = decoder_->cached_rows();
  } else {
    sequence_.target_length = sequence_.input.size();
    const Tensor<T> all = run(decoding_, sequence_, true, &traces_);
    out = all.rows_view(all.rows - 1, 1);
    row = position;
  }
  step.logits.assign(out.value, out.value + out.cols);
  for (const AttentionTrace<T>& trace : traces_)
    if (std::string(trace.kind) != "encoder-self") step.maps.push_back(map_of(trace, 0, row, 1, trace.result.keys));
  return step;
}

template <class T>
void TransformerModel<T>::set_ablation(std::span<const HeadRef> heads) {
  // The attentions in reading order: encoder self 0..L-1, then decoder self and cross per layer.
  const std::size_t L = config_.layers, H = config_.heads;
  const std::size_t attentions = has_encoder() ? 3 * L : L;
  for (std::size_t i = 0; i < heads.size(); ++i) {
    if (heads[i].layer >= attentions)
      throw ValueError(
          "heads[" + text(i) + "].layer: expected below " + text(attentions) + " (the model's attentions" +
          (has_encoder() ? ": encoder self 0.." + text(L - 1) + ", then decoder self and cross per layer" : "") +
          "), got " + text(heads[i].layer));
    if (heads[i].head >= H)
      throw ValueError("heads[" + text(i) + "].head: expected below heads = " + text(H) + ", got " +
                       text(heads[i].head));
  }
  std::vector<unsigned char>* flags[3] = {&decoder_->ablated_self(), &decoder_->ablated_cross(), nullptr};
  if (has_encoder()) flags[2] = &encoder_->ablated_self();
  for (std::vector<unsigned char>* f : flags)
    if (f != nullptr) std::fill(f->begin(), f->end(), 0);
  for (const HeadRef& ref : heads) {
    if (!has_encoder()) {
      decoder_->ablated_self()[ref.layer * H + ref.head] = 1;
    } else if (ref.layer < L) {
      encoder_->ablated_self()[ref.layer * H + ref.head] = 1;
    } else {
      const std::size_t index = ref.layer - L, layer = index / 2;
      (index % 2 == 0 ? decoder_->ablated_self() : decoder_->ablated_cross())[layer * H + ref.head] = 1;
    }
  }
}

}  // namespace

template <class T>
std::unique_ptr<Model<T>> make_transformer(const ModelConfig& config) {
  return std::make_unique<TransformerModel<T>>(config);
}

template std::unique_ptr<Model<float>> make_transformer(const ModelConfig&);
template std::unique_ptr<Model<double>> make_transformer(const ModelConfig&);

}  // namespace attn::models
