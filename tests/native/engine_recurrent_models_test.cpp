// engine_recurrent_models_test.cpp — the recurrent models of the engine (rnn,
// bahdanau, luong: src/models/) on a padded batch (B = 3, S = 5, T = 4, source
// lengths 5, 3, 2, target lengths 4, 2, 3):
// - every parameter's gradient of the masked cross-entropy against central
//   differences in double, for every model and luong variant;
// - the padding: its attention weights exactly 0, its tokens without effect,
//   an example's logits the same alone as in the batch;
// - greedy decoding with start/next, kept state or recomputed, gives the
//   logits and weights of the teacher-forced forward fed the decoded tokens;
// - the bahdanau model learns to reverse 6 digits (AdamW written here).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
using attn::layers::Recording;

constexpr std::size_t kSourceVocabulary = 7, kTargetVocabulary = 6;

ModelConfig config_of(ModelKind kind, std::size_t hidden = 3) {
  ModelConfig c;
  c.kind = kind;
  c.source_vocabulary = kSourceVocabulary;
  c.target_vocabulary = kTargetVocabulary;
  c.max_source_length = 5;
  c.max_target_length = 4;
  c.d_model = hidden;
  c.seed = 17;
  return c;
}

ModelConfig luong(Score score, Window window, bool input_feeding, std::size_t hidden = 3) {
  ModelConfig c = config_of(ModelKind::Luong, hidden);
  c.score = score, c.window = window, c.input_feeding = input_feeding;
  return c;
}

std::string name_of(const ModelConfig& c) {
  const char* kinds[] = {"attention", "rnn", "bahdanau", "luong", "transformer", "decoder"};
  std::string name = kinds[static_cast<int>(c.kind)];
  if (c.kind == ModelKind::Luong) {
    const char* scores[] = {"dot", "scaled-dot", "general", "concat"};
    name += std::string(" ") + scores[static_cast<int>(c.score)] + (c.window == Window::Local ? " local" : " global") +
            (c.input_feeding ? " feeding" : "");
  }
  return name;
}

// Every luong variant: 4 scores x 2 windows x input feeding on and off.
std::vector<ModelConfig> every_model(std::size_t hidden = 3) {
  std::vector<ModelConfig> configs = {config_of(ModelKind::Rnn, hidden), config_of(ModelKind::Bahdanau, hidden)};
  for (Score score : {Score::Dot, Score::ScaledDot, Score::General, Score::Concat})
    for (Window window : {Window::Global, Window::Local})
      for (bool feeding : {true, false}) configs.push_back(luong(score, window, feeding, hidden));
  return configs;
}

// B sources of the given lengths padded to the longest, targets of the given
// lengths (EOS included) padded to the longest, random ids.
Batch random_batch(attn::Rng& rng, const std::vector<std::int32_t>& source_lengths,
                   const std::vector<std::int32_t>& target_lengths) {
  Batch b;
  b.size = source_lengths.size();
  b.source_length = static_cast<std::size_t>(*std::max_element(source_lengths.begin(), source_lengths.end()));
  b.target_length = static_cast<std::size_t>(*std::max_element(target_lengths.begin(), target_lengths.end()));
  const std::size_t s = b.source_length, t = b.target_length;
  b.source.assign(b.size * s, 0), b.input.assign(b.size * t, 0), b.output.assign(b.size * t, 0);
  b.counted.assign(b.size * t, 0);
  b.source_lengths = source_lengths, b.target_lengths = target_lengths;
  const auto draw = [&](std::size_t below, std::size_t from) {
    return static_cast<std::int32_t>(from + static_cast<std::size_t>(rng.uniform() * double(below - from)));
  };
  for (std::size_t e = 0; e < b.size; ++e) {
    for (std::int32_t j = 0; j < source_lengths[e]; ++j) b.source[e * s + j] = draw(kSourceVocabulary, 1);
    // input = BOS y_1 .. y_(n-1), output = y_1 .. y_(n-1) EOS
    std::int32_t previous = kBos;
    for (std::int32_t j = 0; j < target_lengths[e]; ++j) {
      const std::int32_t y = j + 1 == target_lengths[e] ? kEos : draw(kTargetVocabulary, kFirstWord);
      b.input[e * t + j] = previous, b.output[e * t + j] = y, b.counted[e * t + j] = 1;
      previous = y;
    }
  }
  return b;
}

Batch padded_batch() {
  attn::Rng rng(5);
  return random_batch(rng, {5, 3, 2}, {4, 2, 3});
}

// Every parameter block of `model` against central differences of the masked cross-entropy.
void check_model_gradients(Model<double>& model, const Batch& batch) {
  auto& p = model.parameters();
  const auto loss = [&](attn::layers::Graph<double>& g) {
    return cross_entropy(g, model.forward(g, batch), batch.output, batch.counted).loss;
  };
  p.zero_gradients();
  {
    attn::layers::Graph<double> g;
    loss(g);
    g.backward();
  }
  const std::vector<double> analytic(p.gradients().begin(), p.gradients().end());
  attn::layers::Graph<double> plain(Recording::Off);
  for (const attn::layers::ParameterBlock& block : p.blocks()) {
    std::vector<double> values(p.values().begin() + block.offset,
                               p.values().begin() + block.offset + block.rows * block.cols);
    const std::vector<double> numeric = attn_test::numeric_gradient(values, [&] {
      std::copy(values.begin(), values.end(), p.values().begin() + block.offset);
      plain.clear();
      return loss(plain);
    });
    std::copy(values.begin(), values.end(), p.values().begin() + block.offset);
    const std::vector<double> mine(analytic.begin() + block.offset, analytic.begin() + block.offset + values.size());
    EXPECT_TRUE(attn_test::gradient_matches(mine, numeric, attn_test::kDoubleGradientTolerance))
        << name_of(model.config()) << ": " << block.name;
  }
}

TEST(EngineRecurrentModels, GradientsOfEveryModelAndLuongVariant) {
  const Batch batch = padded_batch();
  for (const ModelConfig& config : every_model()) {
    auto model = make_model<double>(config);
    check_model_gradients(*model, batch);
  }
  // An odd width beside 3, for the models and a luong variant of each score family.
  for (const ModelConfig& config : {config_of(ModelKind::Bahdanau, 5), luong(Score::General, Window::Local, true, 5),
                                    luong(Score::Concat, Window::Global, false, 5)}) {
    auto model = make_model<double>(config);
    check_model_gradients(*model, batch);
  }
}

// The padding never counts: its weights are exactly 0, changing its tokens
// changes no logit (bit for bit), and each example's logits and weights are those
// of the example alone (its source and target unpadded).
TEST(EngineRecurrentModels, PaddingHasNoEffect) {
  const Batch batch = padded_batch();
  for (const ModelConfig& config : every_model(5)) {
    auto model = make_model<double>(config);
    attn::layers::Graph<double> g(Recording::Off);
    std::vector<Reading> readings(batch.size);
    std::vector<std::vector<double>> logits;
    for (std::size_t e = 0; e < batch.size; ++e) {
      g.clear();
      readings[e].example = e;
      const auto z = model->forward(g, batch, &readings[e]);
      logits.emplace_back(z.value, z.value + z.size());
    }
    Batch repadded = batch;
    for (std::size_t e = 0; e < batch.size; ++e)
      for (std::size_t j = batch.source_lengths[e]; j < batch.source_length; ++j)
        repadded.source[e * batch.source_length + j] = 6;
    g.clear();
    const auto z = model->forward(g, repadded);
    EXPECT_EQ(std::vector<double>(z.value, z.value + z.size()), logits[0]) << name_of(config);

    const std::size_t s = batch.source_length, t = batch.target_length, v = kTargetVocabulary;
    for (std::size_t e = 0; e < batch.size; ++e) {
      const std::size_t length = batch.source_lengths[e], steps = batch.target_lengths[e];
      if (config.kind != ModelKind::Rnn) {
        ASSERT_EQ(readings[e].maps.size(), 1u) << name_of(config);
        const AttentionMap& map = readings[e].maps[0];
        EXPECT_EQ(map.kind, "cross");
        EXPECT_EQ(map.rows, t);
        EXPECT_EQ(map.cols, s);
        ASSERT_EQ(map.heads.size(), 1u);
        ASSERT_EQ(map.heads[0].size(), t * s);
        EXPECT_EQ(map.positions.size(), config.window == Window::Local && config.kind == ModelKind::Luong ? t : 0u);
        for (std::size_t row = 0; row < t; ++row) {
          double sum = 0;
          for (std::size_t j = 0; j < s; ++j) {
            const float w = map.heads[0][row * s + j];
            if (j >= length) EXPECT_EQ(w, 0.0f) << name_of(config);
            sum += w;
          }
          if (map.positions.empty()) EXPECT_NEAR(sum, 1.0, 1e-6);
          else EXPECT_LE(sum, 1.0 + 1e-6);  // local: not renormalised
        }
      } else {
        EXPECT_TRUE(readings[e].maps.empty());
      }
      // The example alone.
      Batch alone;
      alone.size = 1, alone.source_length = length, alone.target_length = steps;
      alone.source.assign(batch.source.begin() + e * s, batch.source.begin() + e * s + length);
      alone.source_lengths = {static_cast<std::int32_t>(length)};
      alone.input.assign(batch.input.begin() + e * t, batch.input.begin() + e * t + steps);
      alone.output.assign(batch.output.begin() + e * t, batch.output.begin() + e * t + steps);
      alone.counted.assign(steps, 1), alone.target_lengths = {static_cast<std::int32_t>(steps)};
      Reading reading;
      g.clear();
      const auto single = model->forward(g, alone, &reading);
      for (std::size_t i = 0; i < steps * v; ++i) EXPECT_NEAR(single.value[i], logits[e][e * t * v + i], 1e-12);
      if (config.kind == ModelKind::Rnn) continue;
      for (std::size_t row = 0; row < steps; ++row)
        for (std::size_t j = 0; j < length; ++j)
          EXPECT_NEAR(reading.maps[0].heads[0][row * length + j], readings[e].maps[0].heads[0][row * s + j], 1e-7);
    }
  }
}

// Greedy decoding, T steps from BOS: each step's logits and weights, and the tokens chosen.
struct Decoded {
  std::vector<std::int32_t> tokens;  // the inputs fed: BOS, then each step's choice
  std::vector<DecodedStep> steps;
};

Decoded decode(Model<float>& model, const std::vector<std::int32_t>& source, std::size_t steps, bool cache) {
  Decoded d;
  model.start(source, {}, cache);
  std::int32_t token = kBos;
  for (std::size_t t = 0; t < steps; ++t) {
    d.tokens.push_back(token);
    d.steps.push_back(model.next(token));
    const std::vector<float>& z = d.steps.back().logits;
    token = static_cast<std::int32_t>(std::max_element(z.begin(), z.end()) - z.begin());
    EXPECT_EQ(d.steps.back().cache_length, t + 1);
  }
  return d;
}

TEST(EngineRecurrentModels, DecodingMatchesTeacherForcingOnTheDecodedTokens) {
  const std::vector<std::int32_t> source = {3, 1, 4, 1, 5};
  const std::size_t steps = 6;
  for (ModelConfig config : every_model(8)) {
    config.seed = 3;
    auto model = make_model<float>(config);
    const Decoded kept = decode(*model, source, steps, true);
    const Decoded recomputed = decode(*model, source, steps, false);
    EXPECT_EQ(kept.tokens, recomputed.tokens) << name_of(config);

    Batch b;
    b.size = 1, b.source_length = source.size(), b.target_length = steps;
    b.source = source, b.source_lengths = {static_cast<std::int32_t>(source.size())}, b.input = kept.tokens;
    b.output.assign(steps, 0), b.counted.assign(steps, 1), b.target_lengths = {static_cast<std::int32_t>(steps)};
    attn::layers::Graph<float> g(Recording::Off);
    Reading reading;
    const auto logits = model->forward(g, b, &reading);
    for (const Decoded* d : {&kept, &recomputed}) {
      for (std::size_t t = 0; t < steps; ++t) {
        const DecodedStep& step = d->steps[t];
        ASSERT_EQ(step.logits.size(), kTargetVocabulary);
        for (std::size_t c = 0; c < kTargetVocabulary; ++c)
          EXPECT_NEAR(step.logits[c], logits.row(t)[c], 1e-5) << name_of(config) << " step " << t;
        ASSERT_EQ(step.maps.size(), reading.maps.size()) << name_of(config);
        if (step.maps.empty()) continue;
        const AttentionMap& map = step.maps[0];
        EXPECT_EQ(map.rows, 1u);
        ASSERT_EQ(map.cols, source.size());
        for (std::size_t j = 0; j < source.size(); ++j)
          EXPECT_NEAR(map.heads[0][j], reading.maps[0].heads[0][t * source.size() + j], 1e-5) << name_of(config);
        ASSERT_EQ(map.positions.size(), reading.maps[0].positions.size() / steps);
        if (!map.positions.empty()) EXPECT_NEAR(map.positions[0], reading.maps[0].positions[t], 1e-5);
      }
    }
  }
}

TEST(EngineRecurrentModels, PromptIsFedLikeTokens) {
  const std::vector<std::int32_t> source = {2, 6, 1};
  const std::vector<std::int32_t> prompt = {kBos, 4, 3};
  auto model = make_model<float>(luong(Score::Concat, Window::Local, true, 8));
  model->start(source, prompt, true);
  const DecodedStep after_prompt = model->next(5);
  model->start(source, {}, true);
  for (std::int32_t token : prompt) model->next(token);
  const DecodedStep fed = model->next(5);
  EXPECT_EQ(after_prompt.logits, fed.logits);
  EXPECT_EQ(after_prompt.cache_length, 4u);
}

TEST(EngineRecurrentModels, BadInputNamesTheArgument) {
  auto model = make_model<float>(config_of(ModelKind::Bahdanau));
  using attn_test::throws_with_message;
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { model->start(std::vector<std::int32_t>{1, 7}, {}, true); },
                                                    {"source[1]", "below 7", "got 7"}));
  EXPECT_TRUE(throws_with_message<attn::ShapeError>([&] { model->start({}, {}, true); }, {"source"}));
  model->start(std::vector<std::int32_t>{1, 2}, {}, true);
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { model->next(-1); }, {"token", "got -1"}));
  EXPECT_EQ(model->next(kBos).logits.size(), kTargetVocabulary);  // still usable
  Batch batch = padded_batch();
  batch.source_lengths[2] = 0;
  attn::layers::Graph<float> g;
  EXPECT_TRUE(throws_with_message<attn::ShapeError>([&] { model->forward(g, batch); },
                                                    {"batch.source_lengths[2]", "got 0"}));
  batch = padded_batch();
  batch.input[5] = static_cast<std::int32_t>(kTargetVocabulary);
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { model->forward(g, batch); },
                                                    {"batch.input[5]", "below 6", "got 6"}));
  ModelConfig local = luong(Score::Dot, Window::Local, true);
  local.window_half_width = 0;
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { make_model<float>(local); }, {"window_half_width"}));
}

TEST(EngineRecurrentModels, SameSeedSameParametersAndLogits) {
  const Batch batch = padded_batch();
  for (const ModelConfig& config : every_model(8)) {
    auto a = make_model<float>(config), b = make_model<float>(config);
    EXPECT_EQ(std::vector<float>(a->parameters().values().begin(), a->parameters().values().end()),
              std::vector<float>(b->parameters().values().begin(), b->parameters().values().end()));
    attn::layers::Graph<float> g(Recording::Off), h(Recording::Off);
    const auto za = a->forward(g, batch), zb = b->forward(h, batch);
    EXPECT_EQ(std::vector<float>(za.value, za.value + za.size()), std::vector<float>(zb.value, zb.value + zb.size()))
        << name_of(config);
  }
}

// Reverse 6 digits: source ids = digits 0..9, target ids 2 + digit, then EOS.
Batch reverse_batch(attn::Rng& rng, std::size_t size) {
  const std::size_t n = 6;
  Batch b;
  b.size = size, b.source_length = n, b.target_length = n + 1;
  b.source_lengths.assign(size, static_cast<std::int32_t>(n));
  b.target_lengths.assign(size, static_cast<std::int32_t>(n + 1));
  b.counted.assign(size * (n + 1), 1);
  for (std::size_t e = 0; e < size; ++e) {
    std::vector<std::int32_t> digits(n);
    for (std::int32_t& d : digits) d = static_cast<std::int32_t>(rng.uniform() * 10);
    b.source.insert(b.source.end(), digits.begin(), digits.end());
    b.input.push_back(kBos);
    for (std::size_t j = 0; j < n; ++j) {
      const std::int32_t y = kFirstWord + digits[n - 1 - j];
      b.output.push_back(y);
      b.input.push_back(y);
    }
    b.output.push_back(kEos);
  }
  return b;
}

// A plain AdamW (decoupled decay on the matrices only) with the global norm clipped to 1.
struct AdamW {
  std::vector<float> m, v;
  std::vector<unsigned char> decay;
  int t = 0;
  void step(attn::layers::Parameters<float>& p, float rate) {
    if (m.empty()) m.assign(p.size(), 0.0f), v.assign(p.size(), 0.0f), decay = p.decay_mask();
    const auto g = p.gradients();
    double norm = 0;
    for (float x : g) norm += double(x) * x;
    const float clip = norm > 1.0 ? static_cast<float>(1.0 / std::sqrt(norm)) : 1.0f;
    ++t;
    const float c1 = 1.0f - std::pow(0.9f, float(t)), c2 = 1.0f - std::pow(0.999f, float(t));
    auto w = p.values();
    for (std::size_t i = 0; i < p.size(); ++i) {
      const float gi = g[i] * clip;
      m[i] = 0.9f * m[i] + 0.1f * gi;
      v[i] = 0.999f * v[i] + 0.001f * gi * gi;
      w[i] -= rate * ((m[i] / c1) / (std::sqrt(v[i] / c2) + 1e-8f) + (decay[i] ? 0.01f * w[i] : 0.0f));
    }
  }
};

TEST(EngineRecurrentModels, BahdanauLearnsToReverseDigits) {
  ModelConfig config = config_of(ModelKind::Bahdanau, 32);
  config.source_vocabulary = 10, config.target_vocabulary = 12;
  config.max_source_length = 6, config.max_target_length = 7;
  auto model = make_model<float>(config);
  attn::Rng rng(11);
  AdamW adam;
  attn::layers::Graph<float> g;
  for (int step = 0; step < 150; ++step) {
    const Batch batch = reverse_batch(rng, 32);
    g.clear();
    model->parameters().zero_gradients();
    cross_entropy(g, model->forward(g, batch), batch.output, batch.counted);
    g.backward();
    adam.step(model->parameters(), 0.01f);
  }
  const Batch held_out = reverse_batch(rng, 256);
  attn::layers::Graph<float> evaluation(Recording::Off);
  const auto counts = cross_entropy(evaluation, model->forward(evaluation, held_out), held_out.output, held_out.counted);
  const double accuracy = double(counts.correct) / double(counts.counted);
  EXPECT_GT(accuracy, 0.9) << "loss " << counts.loss;  // chance: 1/12
}

}  // namespace
