// engine_transformer_test.cpp — the transformer and decoder models
// (src/models/transformer_model.hpp): every parameter's gradient against central
// differences in double on odd shapes with padding, order-blindness without
// positions, causal masking, ablation, decoding with the key/value cache against
// recomputation, bad configurations and batches, and a learning smoke test.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/random.hpp"
#include "gradient_check.hpp"
#include "layers/cross_entropy.hpp"
#include "models/model.hpp"
#include "models/vocabulary.hpp"
#include "test_support.hpp"

namespace {

using namespace attn::models;
using attn::layers::cross_entropy;
using attn::layers::Graph;
using attn::layers::Positions;
using attn::layers::Recording;
using attn::layers::Tensor;

ModelConfig transformer_config(std::size_t d, std::size_t heads, std::size_t layers, Positions positions) {
  ModelConfig c;
  c.kind = ModelKind::Transformer;
  c.source_vocabulary = 7;
  c.target_vocabulary = 6;
  c.max_source_length = 6;
  c.max_target_length = 6;
  c.d_model = d;
  c.heads = heads;
  c.layers = layers;
  c.d_ff = 2 * d + 1;  // odd
  c.positions = positions;
  c.seed = 5;
  return c;
}

ModelConfig decoder_config(std::size_t d, std::size_t heads, std::size_t layers, Positions positions, bool causal,
                           bool attention_only) {
  ModelConfig c = transformer_config(d, heads, layers, positions);
  c.kind = ModelKind::Decoder;
  c.source_vocabulary = 0;
  c.max_source_length = 0;
  c.max_target_length = 7;
  c.causal = causal;
  c.attention_only = attention_only;
  return c;
}

// A batch of random tokens: sources of lengths `source_lengths` (none for the
// decoder), decoder rows of lengths `target_lengths`, padded, counted where real.
Batch random_batch(attn::Rng& rng, const ModelConfig& c, std::vector<std::int32_t> source_lengths,
                   std::vector<std::int32_t> target_lengths) {
  Batch batch;
  batch.size = target_lengths.size();
  batch.source_length = source_lengths.empty() ? 0 : *std::max_element(source_lengths.begin(), source_lengths.end());
  batch.target_length = *std::max_element(target_lengths.begin(), target_lengths.end());
  const auto id = [&](std::size_t limit) { return static_cast<std::int32_t>(rng.uniform() * limit); };
  for (std::size_t b = 0; b < batch.size; ++b) {
    for (std::size_t s = 0; s < batch.source_length; ++s)
      batch.source.push_back(s < static_cast<std::size_t>(source_lengths[b]) ? id(c.source_vocabulary) : 0);
    for (std::size_t t = 0; t < batch.target_length; ++t) {
      const bool real = t < static_cast<std::size_t>(target_lengths[b]);
      batch.input.push_back(real ? id(c.target_vocabulary) : 0);
      batch.output.push_back(real ? id(c.target_vocabulary) : 0);
      batch.counted.push_back(real ? 1 : 0);
    }
  }
  batch.source_lengths = source_lengths;
  batch.target_lengths = target_lengths;
  return batch;
}

// Every parameter block's gradient of the masked cross-entropy against central differences.
void check_model_gradients(const ModelConfig& config, const Batch& batch) {
  auto model = make_model<double>(config);
  Parameters<double>& p = model->parameters();
  const auto loss = [&](Graph<double>& g) {
    return cross_entropy(g, model->forward(g, batch), batch.output, batch.counted).loss;
  };
  p.zero_gradients();
  {
    Graph<double> g;
    loss(g);
    g.backward();
  }
  const std::vector<double> analytic(p.gradients().begin(), p.gradients().end());
  std::vector<double> values(p.values().begin(), p.values().end());
  const std::vector<double> numeric = attn_test::numeric_gradient(values, [&] {
    std::copy(values.begin(), values.end(), p.values().begin());
    Graph<double> g(Recording::Off);
    return loss(g);
  });
  for (const attn::layers::ParameterBlock& block : p.blocks()) {
    const auto first = static_cast<std::ptrdiff_t>(block.offset);
    const auto last = first + static_cast<std::ptrdiff_t>(block.rows * block.cols);
    const std::vector<double> a(analytic.begin() + first, analytic.begin() + last),
        n(numeric.begin() + first, numeric.begin() + last);
    EXPECT_TRUE(attn_test::gradient_matches(a, n, attn_test::kDoubleGradientTolerance)) << block.name;
  }
}

TEST(EngineTransformer, GradientsEveryPositionsKindLayersAndHeads) {
  attn::Rng rng(41);
  struct Shape {
    std::size_t d, heads, layers;
    Positions positions;
  };
  for (const Shape& s : {Shape{6, 2, 1, Positions::Sinusoidal}, Shape{6, 3, 2, Positions::Learned},
                         Shape{5, 1, 1, Positions::None}, Shape{6, 3, 1, Positions::None}}) {
    SCOPED_TRACE(::testing::Message() << "d " << s.d << " heads " << s.heads << " layers " << s.layers);
    const ModelConfig c = transformer_config(s.d, s.heads, s.layers, s.positions);
    check_model_gradients(c, random_batch(rng, c, {5, 3, 1}, {4, 2, 3}));
  }
}

TEST(EngineTransformer, UnscaledScoresGradients) {
  attn::Rng rng(42);
  ModelConfig c = transformer_config(6, 2, 1, Positions::Sinusoidal);
  c.scaled = false;
  check_model_gradients(c, random_batch(rng, c, {3, 5}, {2, 4}));
}

TEST(EngineDecoder, GradientsCausalOrNotAttentionOnlyOrNot) {
  attn::Rng rng(43);
  for (bool causal : {true, false})
    for (bool attention_only : {false, true})
      for (std::size_t layers : {1, 2}) {
        SCOPED_TRACE(::testing::Message()
                     << "causal " << causal << " attention_only " << attention_only << " layers " << layers);
        const ModelConfig c =
            decoder_config(6, layers == 1 ? 3 : 2, layers, layers == 1 ? Positions::Learned : Positions::Sinusoidal,
                           causal, attention_only);
        check_model_gradients(c, random_batch(rng, c, {}, {5, 7, 2}));
      }
}

TEST(EngineDecoder, AttentionOnlyHasNoLayerNormAndNoMlp) {
  auto model = make_model<float>(decoder_config(8, 2, 2, Positions::Learned, true, true));
  for (const auto& block : model->parameters().blocks()) {
    EXPECT_EQ(block.name.find("norm"), std::string::npos) << block.name;
    EXPECT_EQ(block.name.find("mlp"), std::string::npos) << block.name;
  }
  auto full = make_model<float>(decoder_config(8, 2, 2, Positions::Learned, true, false));
  EXPECT_GT(full->parameters().size(), model->parameters().size());
}

std::vector<double> logits_of(Model<double>& model, const Batch& batch, Reading* reading = nullptr) {
  Graph<double> g(Recording::Off);
  const Tensor<double> z = model.forward(g, batch, reading);
  return std::vector<double>(z.value, z.value + z.size());
}

// Without positions attention sees a bag of tokens: permuting the source
// permutes the encoder's rows, so the decoder (which reads them through
// cross-attention, a weighted sum over the set) computes the same logits, and
// the cross-attention weights move with their keys. With positions it does not.
TEST(EngineTransformer, WithoutPositionsTheEncoderIsBlindToOrder) {
  attn::Rng rng(44);
  for (Positions positions : {Positions::None, Positions::Sinusoidal}) {
    auto model = make_model<double>(transformer_config(6, 2, 2, positions));
    Batch batch = random_batch(rng, model->config(), {5}, {4});
    batch.source = {1, 2, 3, 4, 5};
    const std::vector<std::size_t> permutation = {3, 0, 4, 2, 1};  // new position j holds old token permutation[j]
    Batch permuted = batch;
    for (std::size_t j = 0; j < 5; ++j) permuted.source[j] = batch.source[permutation[j]];
    Reading before, after;
    const std::vector<double> a = logits_of(*model, batch, &before), b = logits_of(*model, permuted, &after);
    double largest_difference = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      largest_difference = std::max(largest_difference, std::fabs(a[i] - b[i]));
    if (positions == Positions::None) {
      EXPECT_LT(largest_difference, 1e-12);
      const AttentionMap& cross_before = before.maps.back();
      const AttentionMap& cross_after = after.maps.back();
      ASSERT_EQ(cross_before.kind, "cross");
      for (std::size_t h = 0; h < 2; ++h)
        for (std::size_t i = 0; i < 4; ++i)
          for (std::size_t j = 0; j < 5; ++j)
            EXPECT_NEAR(cross_after.heads[h][i * 5 + j], cross_before.heads[h][i * 5 + permutation[j]], 1e-6);
    } else {
      EXPECT_GT(largest_difference, 1e-3);
    }
  }
}

// Causal: changing the last input token changes no earlier position's logits; without the mask it does.
TEST(EngineDecoder, CausalMaskHidesTheFuture) {
  attn::Rng rng(45);
  for (bool causal : {true, false}) {
    auto model = make_model<double>(decoder_config(6, 2, 2, Positions::Sinusoidal, causal, false));
    Batch batch = random_batch(rng, model->config(), {}, {6});
    Batch changed = batch;
    changed.input[5] = (batch.input[5] + 1) % 6;
    const std::vector<double> a = logits_of(*model, batch), b = logits_of(*model, changed);
    double earlier = 0;
    for (std::size_t i = 0; i < 5 * 6; ++i) earlier = std::max(earlier, std::fabs(a[i] - b[i]));
    if (causal)
      EXPECT_EQ(earlier, 0.0);
    else
      EXPECT_GT(earlier, 1e-3);
  }
}

// The readings: one map per attention in the pass's order, trimmed to the example's lengths, rows summing to 1.
TEST(EngineTransformer, ReadingsInPassOrderTrimmedToTheExample) {
  attn::Rng rng(46);
  auto model = make_model<double>(transformer_config(6, 3, 2, Positions::Sinusoidal));
  const Batch batch = random_batch(rng, model->config(), {5, 3}, {4, 2});
  Reading reading;
  reading.example = 1;
  logits_of(*model, batch, &reading);
  const std::vector<std::string> kinds = {"encoder-self", "encoder-self", "decoder-self",
                                          "cross",        "decoder-self", "cross"};
  const std::vector<std::size_t> layers = {0, 1, 0, 0, 1, 1}, rows = {3, 3, 2, 2, 2, 2}, cols = {3, 3, 2, 3, 2, 3};
  ASSERT_EQ(reading.maps.size(), kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const AttentionMap& map = reading.maps[i];
    EXPECT_EQ(map.kind, kinds[i]);
    EXPECT_EQ(map.layer, layers[i]);
    EXPECT_EQ(map.rows, rows[i]);
    EXPECT_EQ(map.cols, cols[i]);
    ASSERT_EQ(map.heads.size(), 3u);
    for (const std::vector<float>& head : map.heads)
      for (std::size_t r = 0; r < map.rows; ++r) {
        const double sum = std::accumulate(head.begin() + r * map.cols, head.begin() + (r + 1) * map.cols, 0.0);
        EXPECT_NEAR(sum, 1.0, 1e-6);
      }
  }
  // decoder self-attention is causal: row 0 puts all its weight on key 0
  EXPECT_EQ(reading.maps[2].heads[1][0], 1.0f);
  EXPECT_EQ(reading.maps[2].heads[1][1], 0.0f);
}

// Greedy decoding of `steps` tokens after `prompt`.
std::vector<DecodedStep> decode(Model<float>& model, std::span<const std::int32_t> source,
                                std::span<const std::int32_t> prompt, std::int32_t first, bool cache,
                                std::size_t steps) {
  model.start(source, prompt, cache);
  std::vector<DecodedStep> out;
  std::int32_t token = first;
  for (std::size_t s = 0; s < steps; ++s) {
    out.push_back(model.next(token));
    const std::vector<float>& z = out.back().logits;
    token = static_cast<std::int32_t>(std::max_element(z.begin(), z.end()) - z.begin());
  }
  return out;
}

void expect_cache_equals_recompute(Model<float>& model, std::span<const std::int32_t> source,
                                   std::span<const std::int32_t> prompt, std::size_t steps) {
  const std::vector<DecodedStep> cached = decode(model, source, prompt, kBos, true, steps);
  const std::vector<DecodedStep> recomputed = decode(model, source, prompt, kBos, false, steps);
  const std::size_t per_step = model.config().layers * (model.config().kind == ModelKind::Transformer ? 2 : 1);
  for (std::size_t s = 0; s < steps; ++s) {
    const auto& z = cached[s].logits;
    const auto& zr = recomputed[s].logits;
    EXPECT_EQ(std::max_element(z.begin(), z.end()) - z.begin(), std::max_element(zr.begin(), zr.end()) - zr.begin())
        << "step " << s;
    EXPECT_TRUE(attn_test::all_close(z, zr)) << "step " << s;
    EXPECT_EQ(cached[s].cache_length, prompt.size() + s + 1);
    EXPECT_EQ(recomputed[s].cache_length, 0u);
    ASSERT_EQ(cached[s].maps.size(), per_step);
    ASSERT_EQ(recomputed[s].maps.size(), per_step);
    for (std::size_t m = 0; m < per_step; ++m) {
      const AttentionMap &a = cached[s].maps[m], &b = recomputed[s].maps[m];
      EXPECT_EQ(a.kind, b.kind);
      EXPECT_EQ(a.layer, b.layer);
      EXPECT_EQ(a.rows, 1u);
      EXPECT_EQ(a.cols, b.cols);
      EXPECT_EQ(a.cols, a.kind == "cross" ? source.size() : prompt.size() + s + 1);
      for (std::size_t h = 0; h < a.heads.size(); ++h)
        for (std::size_t j = 0; j < a.cols; ++j) EXPECT_NEAR(a.heads[h][j], b.heads[h][j], 1e-5);
    }
  }
}

TEST(EngineTransformer, DecodingWithTheCacheEqualsRecomputation) {
  const std::vector<std::int32_t> source = {3, 1, 4, 1, 5}, prompt = {0, 2};
  for (std::size_t layers : {1, 2})
    for (std::size_t heads : {1, 4}) {
      ModelConfig c = transformer_config(16, heads, layers, Positions::Learned);
      c.max_target_length = 9;
      auto model = make_model<float>(c);
      expect_cache_equals_recompute(*model, source, {}, 9);
      expect_cache_equals_recompute(*model, source, prompt, 7);
    }
}

TEST(EngineDecoder, DecodingWithTheCacheEqualsRecomputationAndIsCausal) {
  const std::vector<std::int32_t> prompt = {2, 3, 4, 5, 2};
  for (bool causal : {true, false})
    for (bool attention_only : {false, true}) {
      ModelConfig c = decoder_config(12, 3, 2, Positions::Sinusoidal, causal, attention_only);
      c.max_target_length = 12;
      auto model = make_model<float>(c);
      expect_cache_equals_recompute(*model, {}, prompt, 6);
      expect_cache_equals_recompute(*model, {}, {}, 11);
    }
}

TEST(EngineDecoder, AblationZeroesTheHeadInTrainingAndDecoding) {
  attn::Rng rng(47);
  ModelConfig c = decoder_config(12, 3, 2, Positions::Sinusoidal, true, true);
  auto model = make_model<float>(c);
  const Batch batch = random_batch(rng, c, {}, {5});
  const auto logits = [&] {
    Graph<float> g(Recording::Off);
    const Tensor<float> z = model->forward(g, batch);
    return std::vector<float>(z.value, z.value + z.size());
  };
  const std::vector<float> plain = logits();
  const std::vector<HeadRef> heads = {{1, 2}};
  model->set_ablation(heads);
  const std::vector<float> ablated = logits();
  EXPECT_FALSE(attn_test::all_close(plain, ablated));
  const std::vector<std::int32_t> prompt = {2, 3, 4, 2};
  expect_cache_equals_recompute(*model, {}, prompt, 3);
  model->set_ablation({});
  EXPECT_EQ(logits(), plain);
}

TEST(EngineTransformer, AblationIndexesTheAttentionsInReadingOrder) {
  attn::Rng rng(48);
  ModelConfig c = transformer_config(6, 2, 2, Positions::Sinusoidal);
  auto model = make_model<double>(c);
  const Batch batch = random_batch(rng, c, {4}, {3});
  const std::vector<double> plain = logits_of(*model, batch);
  // 6 attentions (encoder 0, 1; decoder self 0 = 2, cross 0 = 3, self 1 = 4, cross 1 = 5): each changes the logits
  for (std::size_t layer = 0; layer < 6; ++layer) {
    const std::vector<HeadRef> heads = {{layer, 1}};
    model->set_ablation(heads);
    EXPECT_FALSE(attn_test::all_close(logits_of(*model, batch), plain)) << "attention " << layer;
  }
  const std::vector<HeadRef> beyond = {{6, 0}};
  EXPECT_TRUE(attn_test::throws_with_message<attn::ValueError>([&] { model->set_ablation(beyond); },
                                                               {"heads[0].layer", "below 6", "got 6"}));
  const std::vector<HeadRef> head = {{0, 2}};
  EXPECT_TRUE(attn_test::throws_with_message<attn::ValueError>([&] { model->set_ablation(head); },
                                                               {"heads[0].head", "below heads = 2", "got 2"}));
}

TEST(EngineTransformer, BadConfigurationsAndBatchesAreErrorsThatNameTheArgument) {
  using attn_test::throws_with_message;
  ModelConfig c = transformer_config(6, 4, 1, Positions::Sinusoidal);
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { make_model<float>(c); },
                                                    {"config.heads", "divisor of d_model = 6", "got 4"}));
  c.heads = 2;
  c.attention_only = true;
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { make_model<float>(c); }, {"config.attention_only"}));
  c.attention_only = false;
  auto model = make_model<float>(c);
  attn::Rng rng(49);
  Batch batch = random_batch(rng, c, {3}, {3});
  batch.input[2] = 6;
  Graph<float> g;
  EXPECT_TRUE(
      throws_with_message<attn::ValueError>([&] { model->forward(g, batch); }, {"batch.input[2]", "below 6", "got 6"}));
  batch.input[2] = 0;
  batch.source_lengths[0] = 4;
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { model->forward(g, batch); },
                                                    {"batch.source_lengths[0]", "1 to 3", "got 4"}));
  const std::vector<std::int32_t> long_source(7, 1);
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { model->start(long_source, {}, true); },
                                                    {"source", "1 to 6", "got 7"}));
  auto decoder = make_model<float>(decoder_config(6, 2, 1, Positions::Sinusoidal, true, false));
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { decoder->next(2); }, {"next", "start() first"}));
  EXPECT_TRUE(throws_with_message<attn::ShapeError>([&] { decoder->start(long_source, {}, true); },
                                                    {"source", "no source", "got 7"}));
  decoder->start({}, {}, true);
  for (int i = 0; i < 7; ++i) decoder->next(2);
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { decoder->next(2); }, {"max_target_length = 7"}));
  // the model keeps working after an error
  decoder->start({}, {}, false);
  EXPECT_EQ(decoder->next(2).logits.size(), 6u);
}

// Learning that cannot pass by chance: the transformer, in float, with a small
// AdamW loop written here, learns to reverse 6 digits; greedy decoding of unseen
// sequences is then right on at least 90% of their tokens (chance: 10%).
TEST(EngineTransformer, LearnsToReverseSixDigits) {
  const auto started = std::chrono::steady_clock::now();
  const std::size_t length = 6, batch_size = 32, digits = 10;
  ModelConfig c;
  c.kind = ModelKind::Transformer;
  c.source_vocabulary = digits;
  c.target_vocabulary = digits + 2;
  c.max_source_length = length;
  c.max_target_length = length + 1;
  c.d_model = 32;
  c.heads = 2;
  c.layers = 1;
  c.seed = 3;
  auto model = make_model<float>(c);
  Parameters<float>& p = model->parameters();
  // AdamW: decoupled decay on the matrices only
  const float rate = 3e-3f, beta1 = 0.9f, beta2 = 0.98f, epsilon = 1e-8f, decay = 0.01f;
  const std::vector<unsigned char> decays = p.decay_mask();
  std::vector<float> m1(p.size(), 0.f), m2(p.size(), 0.f);
  attn::Rng rng(11);
  const auto make_batch = [&](std::size_t size) {
    Batch b;
    b.size = size, b.source_length = length, b.target_length = length + 1;
    for (std::size_t e = 0; e < size; ++e) {
      std::vector<std::int32_t> x(length);
      for (auto& v : x) v = static_cast<std::int32_t>(rng.uniform() * digits);
      b.source.insert(b.source.end(), x.begin(), x.end());
      // input BOS y_1 .. y_6, output y_1 .. y_6 EOS, y = the digits reversed
      b.input.push_back(kBos);
      for (std::size_t t = 0; t < length; ++t) {
        const std::int32_t y = kFirstWord + x[length - 1 - t];
        b.output.push_back(y);
        b.input.push_back(y);
      }
      b.output.push_back(kEos);
      b.source_lengths.push_back(static_cast<std::int32_t>(length));
      b.target_lengths.push_back(static_cast<std::int32_t>(length + 1));
    }
    b.counted.assign(size * (length + 1), 1);
    return b;
  };
  Graph<float> g;
  double loss = 0;
  // 200 steps: seeds 1-7 reach 0.97-1.0 from 150 (0.25 s of CPU here)
  for (int step = 1; step <= 200; ++step) {
    const Batch b = make_batch(batch_size);
    g.clear();
    p.zero_gradients();
    loss = cross_entropy(g, model->forward(g, b), b.output, b.counted).loss;
    g.backward();
    const float c1 = 1 - std::pow(beta1, step), c2 = 1 - std::pow(beta2, step);
    for (std::size_t i = 0; i < p.size(); ++i) {
      const float gi = p.gradients()[i];
      m1[i] = beta1 * m1[i] + (1 - beta1) * gi;
      m2[i] = beta2 * m2[i] + (1 - beta2) * gi * gi;
      float& w = p.values()[i];
      if (decays[i]) w -= rate * decay * w;
      w -= rate * (m1[i] / c1) / (std::sqrt(m2[i] / c2) + epsilon);
    }
  }
  // Free-running greedy decoding of 50 new sequences.
  std::size_t right = 0, total = 0;
  for (int e = 0; e < 50; ++e) {
    const Batch b = make_batch(1);
    model->start(b.source, {}, true);
    std::int32_t token = kBos;
    for (std::size_t t = 0; t < length; ++t) {
      const std::vector<float> z = model->next(token).logits;
      token = static_cast<std::int32_t>(std::max_element(z.begin(), z.end()) - z.begin());
      right += token == b.output[t];
      ++total;
    }
  }
  const double accuracy = static_cast<double>(right) / static_cast<double>(total);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("reverse 6 digits: last loss %.4f, generated accuracy %.3f, %.2f s\n", loss, accuracy, seconds);
  EXPECT_GE(accuracy, 0.9);
}

}  // namespace
