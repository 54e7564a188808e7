// recurrent_model.cpp — the steps every recurrent model runs: teacher-forced
// forward over a batch, greedy decoding with the state kept or recomputed
// (recurrent_model.hpp).
#include "models/recurrent_model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "attn/error.hpp"
#include "layers/combine.hpp"
#include "layers/time_steps.hpp"

namespace attn::models {

using layers::Init;
using layers::Role;

namespace {

void require_positive(const char* name, std::size_t value) {
  if (value == 0) throw ValueError(std::string("config.") + name + ": expected a positive size, got 0");
}

// ValueError at the first id outside [0, limit): "source[2]: expected a token id below 12, got 15".
void require_ids(const char* name, std::span<const std::int32_t> ids, std::size_t limit) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= limit)
      throw ValueError(std::string(name) + "[" + std::to_string(i) + "]: expected a token id below " +
                       std::to_string(limit) + ", got " + std::to_string(ids[i]));
}

void require_size(const char* name, std::size_t size, std::size_t expected, const char* formula) {
  if (size != expected)
    throw ShapeError(std::string("batch.") + name + ": expected " + formula + " = " + std::to_string(expected) +
                     " entries, got " + std::to_string(size));
}

void check_batch(const Batch& batch, const ModelConfig& config) {
  const std::size_t b = batch.size, s = batch.source_length, t = batch.target_length;
  if (b == 0 || s == 0 || t == 0)
    throw ShapeError("batch: expected size, source_length and target_length all positive, got " +
                     std::to_string(b) + ", " + std::to_string(s) + ", " + std::to_string(t));
  require_size("source", batch.source.size(), b * s, "size*source_length");
  require_size("source_lengths", batch.source_lengths.size(), b, "size");
  require_size("input", batch.input.size(), b * t, "size*target_length");
  for (std::size_t i = 0; i < b; ++i)
    if (batch.source_lengths[i] < 1 || static_cast<std::size_t>(batch.source_lengths[i]) > s)
      throw ShapeError("batch.source_lengths[" + std::to_string(i) + "]: expected a length in [1, source_length = " +
                       std::to_string(s) + "], got " + std::to_string(batch.source_lengths[i]));
  require_ids("batch.source", batch.source, config.source_vocabulary);
  require_ids("batch.input", batch.input, config.target_vocabulary);
}

// Row `row` of t, appended as floats.
template <class T>
void append_row(std::vector<float>& out, Tensor<T> t, std::size_t row) {
  out.reserve(out.size() + t.cols);
  for (std::size_t c = 0; c < t.cols; ++c) out.push_back(static_cast<float>(t.row(row)[c]));
}

template <class T>
void copy_into(std::vector<T>& out, Tensor<T> t) {
  out.assign(t.value, t.value + t.size());
}

}  // namespace

template <class T>
RecurrentModel<T>::RecurrentModel(const ModelConfig& config, std::size_t readout_width, std::size_t extra_input)
    : config_(config), parameters_(config.seed), readout_width_(readout_width) {
  require_positive("d_model", config.d_model);
  require_positive("source_vocabulary", config.source_vocabulary);
  require_positive("target_vocabulary", config.target_vocabulary);
  const std::size_t h = hidden(), gates = 3 * h, fan_in = h + extra_input;
  source_embedding_ = add_embedding("source.embedding", config.source_vocabulary);
  target_embedding_ = add_embedding("target.embedding", config.target_vocabulary);
  decoder_.w_input = add_matrix("decoder.gru.w_input_token", h, gates, fan_in);
  if (extra_input > 0) decoder_extra_ = add_matrix("decoder.gru.w_input_extra", extra_input, gates, fan_in);
  decoder_.w_hidden = add_matrix("decoder.gru.w_hidden", h, gates);
  decoder_.b_input = add_bias("decoder.gru.b_input", gates);
  decoder_.b_hidden = add_bias("decoder.gru.b_hidden", gates);
  output_weights_ = add_matrix("output.w", readout_width, config.target_vocabulary);
  output_bias_ = add_bias("output.b", config.target_vocabulary);
}

template <class T>
std::size_t RecurrentModel<T>::add_matrix(const std::string& name, std::size_t rows, std::size_t cols,
                                          std::size_t fan_in) {
  const double n = static_cast<double>(fan_in > 0 ? fan_in : rows);
  return parameters_.add(name, rows, cols, Role::Matrix, Init::Normal, 1.0 / std::sqrt(n));
}

template <class T>
std::size_t RecurrentModel<T>::add_bias(const std::string& name, std::size_t cols) {
  return parameters_.add(name, 1, cols, Role::Bias, Init::Zeros);
}

template <class T>
std::size_t RecurrentModel<T>::add_embedding(const std::string& name, std::size_t rows) {
  return parameters_.add(name, rows, hidden(), Role::Embedding, Init::Normal, 1.0);
}

template <class T>
typename RecurrentModel<T>::GruBlocks RecurrentModel<T>::add_gru(const std::string& name, std::size_t input_width) {
  const std::size_t gates = 3 * hidden();
  GruBlocks blocks{};
  blocks.w_input = add_matrix(name + ".w_input", input_width, gates);
  blocks.w_hidden = add_matrix(name + ".w_hidden", hidden(), gates);
  blocks.b_input = add_bias(name + ".b_input", gates);
  blocks.b_hidden = add_bias(name + ".b_hidden", gates);
  return blocks;
}

template <class T>
Tensor<T> RecurrentModel<T>::decoder_gru(Graph<T>& g, Tensor<T> token_gates, Tensor<T> extra, Tensor<T> h) {
  // gx = E_t y W_iy + b_i + extra W_ix
  const Tensor<T> gx = extra.value ? layers::add(g, token_gates, layers::linear(g, extra, weight(decoder_extra_)))
                                   : token_gates;
  return layers::gru_cell(g, gx, h, {Tensor<T>{}, weight(decoder_.w_hidden), Tensor<T>{}, weight(decoder_.b_hidden)});
}

template <class T>
Tensor<T> RecurrentModel<T>::forward(Graph<T>& g, const Batch& batch, Reading* reading) {
  check_batch(batch, config_);
  if (reading != nullptr && reading->example >= batch.size)
    throw ShapeError("reading.example: expected an example below batch.size = " + std::to_string(batch.size) +
                     ", got " + std::to_string(reading->example));
  const std::size_t steps = batch.target_length, length = batch.source_length;
  const Source source = encode(g, batch.source, batch.source_lengths, length);
  State state = initial_state(g, source);
  const Tensor<T> gates = token_gates(g, batch.input);  // B*T x 3H, every step's in one product
  const Tensor<T> readouts = g.tensor(batch.size * steps, readout_width_);
  AttentionMap* map = nullptr;
  if (reading != nullptr && source.annotations.value != nullptr) {
    reading->maps.push_back({"cross", 0, steps, length, {std::vector<float>()}, {}});
    map = &reading->maps.back();
  }
  for (std::size_t t = 0; t < steps; ++t) {
    const Step s = step(g, source, state, layers::step_rows(g, gates, steps, t));
    layers::put_step_rows(g, s.readout, readouts, steps, t);
    state = s.state;
    if (map == nullptr) continue;
    append_row(map->heads[0], s.weights, reading->example);
    if (s.positions.value != nullptr) map->positions.push_back(static_cast<float>(s.positions.value[reading->example]));
  }
  return read_out(g, readouts);
}

template <class T>
void RecurrentModel<T>::start(std::span<const std::int32_t> source, std::span<const std::int32_t> prompt,
                              bool cache) {
  if (source.empty()) throw ShapeError("source: expected at least one token, got none");
  require_ids("source", source, config_.source_vocabulary);
  require_ids("prompt", prompt, config_.target_vocabulary);
  source_.assign(source.begin(), source.end());
  source_length_.assign(1, static_cast<std::int32_t>(source.size()));
  prefix_.clear();
  cache_ = cache;
  if (cache) {
    decoding_.clear();
    const Source s = encode(decoding_, source_, source_length_, source_.size());
    const State state = initial_state(decoding_, s);
    if (s.annotations.value != nullptr) copy_into(annotations_, s.annotations), copy_into(keys_, s.keys);
    annotation_width_ = s.annotations.cols, key_width_ = s.keys.cols;
    copy_into(hidden_, state.hidden);
    if (state.fed.value != nullptr) copy_into(fed_, state.fed);
    else fed_.clear();
  }
  for (std::int32_t token : prompt) next(token);
}

template <class T>
DecodedStep RecurrentModel<T>::next(std::int32_t token) {
  if (source_.empty()) throw ShapeError("next: expected start(source) first");
  require_ids("token", std::span<const std::int32_t>(&token, 1), config_.target_vocabulary);
  prefix_.push_back(token);
  return cache_ ? next_with_state() : next_by_recomputing();
}

template <class T>
DecodedStep RecurrentModel<T>::next_with_state() {
  Graph<T>& g = decoding_;
  g.clear();
  const std::size_t length = source_.size(), h = hidden();
  const auto kept = [](std::vector<T>& v, std::size_t rows, std::size_t cols) {
    return v.empty() ? Tensor<T>{} : Tensor<T>{v.data(), nullptr, rows, cols};
  };
  const Source source{source_length_, length, kept(annotations_, length, annotation_width_),
                      kept(keys_, length, key_width_), Tensor<T>{}};
  const State state{kept(hidden_, 1, h), kept(fed_, 1, h)};
  const Step s = step(g, source, state, token_gates(g, {&prefix_.back(), 1}));
  const Tensor<T> logits = read_out(g, s.readout);
  // The step read the kept state; only now is it replaced.
  copy_into(hidden_, s.state.hidden);
  if (s.state.fed.value != nullptr) copy_into(fed_, s.state.fed);
  DecodedStep out;
  append_row(out.logits, logits, 0);
  if (s.weights.value != nullptr) {
    out.maps.push_back({"cross", 0, 1, length, {std::vector<float>()}, {}});
    append_row(out.maps[0].heads[0], s.weights, 0);
    if (s.positions.value != nullptr) out.maps[0].positions.push_back(static_cast<float>(s.positions.value[0]));
  }
  out.cache_length = prefix_.size();
  return out;
}

template <class T>
DecodedStep RecurrentModel<T>::next_by_recomputing() {
  Batch& b = recompute_;
  const std::size_t steps = prefix_.size(), length = source_.size();
  b.size = 1, b.source_length = length, b.target_length = steps;
  b.source = source_, b.source_lengths = source_length_, b.input = prefix_;
  b.output.assign(steps, 0), b.counted.assign(steps, 1), b.target_lengths.assign(1, static_cast<std::int32_t>(steps));
  decoding_.clear();
  Reading reading;
  const Tensor<T> logits = forward(decoding_, b, &reading);
  DecodedStep out;
  append_row(out.logits, logits, steps - 1);
  for (AttentionMap& map : reading.maps) {
    // The last row of each map: this step's.
    map.heads[0].erase(map.heads[0].begin(), map.heads[0].end() - static_cast<std::ptrdiff_t>(map.cols));
    if (!map.positions.empty()) map.positions.erase(map.positions.begin(), map.positions.end() - 1);
    map.rows = 1;
    out.maps.push_back(std::move(map));
  }
  out.cache_length = steps;
  return out;
}

template class RecurrentModel<float>;
template class RecurrentModel<double>;

}  // namespace attn::models
