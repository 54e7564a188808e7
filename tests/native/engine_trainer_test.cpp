// The engine's trainer (training/engine_trainer.hpp): a model learns a task it
// cannot solve by chance, the same seed gives the same losses bit for bit,
// decoding keeps state or recomputes to the same tokens, divergence is reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "test_support.hpp"
#include "training/engine_trainer.hpp"

namespace {

using attn::training::EngineTrainer;
using attn::training::EngineTrainerSettings;
using attn::training::SequenceTaskKind;
namespace models = attn::models;

EngineTrainerSettings reverse_settings(models::ModelKind kind, std::size_t length) {
  EngineTrainerSettings s;
  s.task.kind = SequenceTaskKind::Reverse;
  s.task.source_length = length;
  s.model.kind = kind;
  s.model.d_model = 32;
  s.learning_rate = 1e-2f;
  s.seed = 3;
  return s;
}

// Reversing 6 digits: chance is 1/10 a digit; 300 steps of a bahdanau model
// generate it almost perfectly from its own outputs.
TEST(EngineTrainer, BahdanauLearnsToReverseSixDigits) {
  EngineTrainer trainer(reverse_settings(models::ModelKind::Bahdanau, 6));
  const attn::training::EngineEvaluation before = trainer.evaluate();
  EXPECT_LT(before.generated_accuracy, 0.3);
  double loss = 0.0;
  for (int i = 0; i < 300; ++i) loss = trainer.step();
  const attn::training::EngineEvaluation after = trainer.evaluate();
  EXPECT_LT(loss, 0.3);
  EXPECT_GT(after.accuracy, 0.9);
  EXPECT_GT(after.generated_accuracy, 0.9);
  EXPECT_GT(after.sequence_accuracy, 0.5);
  EXPECT_EQ(after.examples, trainer.task().held_out().size());
}

TEST(EngineTrainer, SameSeedSameLossesBitForBit) {
  EngineTrainer a(reverse_settings(models::ModelKind::Luong, 5)), b(reverse_settings(models::ModelKind::Luong, 5));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a.step(), b.step());
}

TEST(EngineTrainer, GenerationWithAndWithoutStateAgree) {
  EngineTrainer trainer(reverse_settings(models::ModelKind::Bahdanau, 5));
  for (int i = 0; i < 50; ++i) trainer.step();
  const auto& probe = trainer.task().probe();
  const attn::training::Generation kept = trainer.generate(probe.source, true);
  const attn::training::Generation recomputed = trainer.generate(probe.source, false);
  EXPECT_EQ(kept.words, recomputed.words);
  ASSERT_EQ(kept.steps.size(), recomputed.steps.size());
  for (std::size_t s = 0; s < kept.steps.size(); ++s) {
    ASSERT_EQ(kept.steps[s].maps.size(), 1u);
    EXPECT_TRUE(attn_test::all_close(kept.steps[s].maps[0].heads[0], recomputed.steps[s].maps[0].heads[0]));
  }
}

// Parameters grown beyond what float passes hold (what a rate too large for
// them does over many steps: Adam moves each parameter by about the rate per
// step, so within the rates the options allow this takes very long) make the
// loss overflow: the step is refused, names the divergence and changes nothing.
TEST(EngineTrainer, ALossBeyondTheFloatRangeIsReportedAndChangesNothing) {
  EngineTrainer trainer(reverse_settings(models::ModelKind::Rnn, 4));
  trainer.step();
  std::span<float> theta = trainer.model().parameters().values();
  // The read-out's weights at 1e38: the logits sum 32 of them times the state, beyond the float range.
  for (const attn::layers::ParameterBlock& block : trainer.model().parameters().blocks())
    if (block.name == "output.w") std::fill_n(theta.begin() + block.offset, block.rows * block.cols, 1e38f);
  const std::vector<float> before(theta.begin(), theta.end());
  EXPECT_TRUE(attn_test::throws_with_message<attn::ValueError>([&] { trainer.step(); }, {"training diverged"}));
  EXPECT_EQ(trainer.steps_taken(), 1u);
  EXPECT_TRUE(std::equal(before.begin(), before.end(), theta.begin()));
  EXPECT_TRUE(attn_test::throws_with_message<attn::ValueError>([&] { trainer.evaluate(); }, {"training diverged"}));
}

TEST(EngineTrainer, HeadScoresNeedADecoderOnlyModel) {
  EngineTrainer trainer(reverse_settings(models::ModelKind::Rnn, 4));
  EXPECT_TRUE(attn_test::throws_with_message<attn::ValueError>([&] { trainer.head_scores(); }, {"decoder-only"}));
}

}  // namespace
