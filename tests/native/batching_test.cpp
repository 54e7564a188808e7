// Batching (training/batching.hpp): examples -> models::Batch for the
// sequence-to-sequence and the decoder-only layouts, with the ids of
// models/vocabulary.hpp: padding, lengths, counted positions, the id mapping
// and its inverse, checked on hand-written examples and on drawn batches of
// every task; the errors.
#include <gtest/gtest.h>

#include <vector>

#include "attn/error.hpp"
#include "models/vocabulary.hpp"
#include "test_support.hpp"
#include "training/batching.hpp"

namespace {

using attn::ValueError;
using attn::models::Batch;
using attn::training::fill_batch;
using attn::training::longest_decoder_sequence;
using attn::training::ModelLayout;
using attn::training::SequenceExample;
using attn::training::SequenceTask;
using attn::training::SequenceTaskKind;
using attn::training::SequenceTaskOptions;
using attn::training::TokenIds;
using attn::training::TokenMeaning;
using attn_test::throws_with_message;
using Ids = std::vector<std::int32_t>;
using Flags = std::vector<unsigned char>;

SequenceExample example(Ids source, Ids target, Flags counted = {}) {
  SequenceExample e;
  e.source = std::move(source), e.target = std::move(target), e.counted = std::move(counted);
  e.alignment.assign(e.target.size(), -1);
  return e;
}

// Source words 0..4, target words 0..3 (V_s = 5, V_t = 4).
TEST(Batching, SequenceToSequenceByHand) {
  const TokenIds ids(ModelLayout::SequenceToSequence, 5, 4, false);
  EXPECT_EQ(ids.source_vocabulary(), 5u);
  EXPECT_EQ(ids.output_vocabulary(), 6u);  // BOS, EOS, 4 words
  const std::vector<SequenceExample> examples = {example({1, 4, 0}, {3, 0}), example({2}, {1, 2, 3, 0}, {0, 1, 1, 0})};
  Batch batch;
  fill_batch(examples, ids, batch);
  EXPECT_EQ(batch.size, 2u);
  EXPECT_EQ(batch.source_length, 3u);
  EXPECT_EQ(batch.target_length, 5u);  // BOS + 4 target words
  EXPECT_EQ(batch.source, (Ids{1, 4, 0, /**/ 2, 0, 0}));
  EXPECT_EQ(batch.source_lengths, (Ids{3, 1}));
  // input: BOS, 2 + y; output: 2 + y, EOS; padding 0
  EXPECT_EQ(batch.input, (Ids{0, 5, 2, 0, 0, /**/ 0, 3, 4, 5, 2}));
  EXPECT_EQ(batch.output, (Ids{5, 2, 1, 0, 0, /**/ 3, 4, 5, 2, 1}));
  // all counted and EOS for the first; the second's own flags, EOS not
  EXPECT_EQ(batch.counted, (Flags{1, 1, 1, 0, 0, /**/ 0, 1, 1, 0, 0}));
  EXPECT_EQ(batch.target_lengths, (Ids{3, 5}));
}

// x = 2 + source, SEP, 2 + V_s + target, EOS; input x_0..x_(L-2), output x_1..x_(L-1).
TEST(Batching, DecoderOnlyByHand) {
  const TokenIds ids(ModelLayout::DecoderOnly, 5, 4, false);
  EXPECT_EQ(ids.source_vocabulary(), 0u);
  EXPECT_EQ(ids.output_vocabulary(), 11u);  // SEP, EOS, 5 source words, 4 target words
  const std::vector<SequenceExample> examples = {example({1, 4}, {0, 3}), example({2}, {1}, {0})};
  Batch batch;
  fill_batch(examples, ids, batch);
  EXPECT_EQ(batch.source_length, 0u);
  EXPECT_TRUE(batch.source.empty());
  EXPECT_EQ(batch.source_lengths, (Ids{0, 0}));
  EXPECT_EQ(batch.target_length, 5u);
  // first: x = 3 6 SEP 7 10 EOS;  second: x = 4 SEP 8 EOS
  EXPECT_EQ(batch.input, (Ids{3, 6, 0, 7, 10, /**/ 4, 0, 8, 0, 0}));
  EXPECT_EQ(batch.output, (Ids{6, 0, 7, 10, 1, /**/ 0, 8, 1, 0, 0}));
  EXPECT_EQ(batch.counted, (Flags{0, 0, 1, 1, 1, /**/ 0, 0, 0, 0, 0}));
  EXPECT_EQ(batch.target_lengths, (Ids{5, 3}));
}

// Shared words keep their id: target word w is source word w (2 + w), and
// without a source the sequence starts with SEP.
TEST(Batching, DecoderOnlySharedVocabularyAndNoSource) {
  const TokenIds ids(ModelLayout::DecoderOnly, 10, 10, true);
  EXPECT_EQ(ids.output_vocabulary(), 12u);
  for (std::int32_t w = 0; w < 10; ++w) EXPECT_EQ(ids.target_id(w), ids.source_id(w));
  const std::vector<SequenceExample> examples = {example({1, 2, 3}, {3, 2, 1}), example({}, {4, 5, 4, 5}, {0, 0, 1, 1})};
  Batch batch;
  fill_batch(examples, ids, batch);
  EXPECT_EQ(batch.target_length, 7u);
  EXPECT_EQ(batch.input, (Ids{3, 4, 5, 0, 5, 4, 3, /**/ 0, 6, 7, 6, 7, 0, 0}));
  EXPECT_EQ(batch.output, (Ids{4, 5, 0, 5, 4, 3, 1, /**/ 6, 7, 6, 7, 1, 0, 0}));
  EXPECT_EQ(batch.counted, (Flags{0, 0, 0, 1, 1, 1, 1, /**/ 0, 0, 1, 1, 0, 0, 0}));
  EXPECT_EQ(batch.target_lengths, (Ids{7, 5}));
}

TEST(Batching, MeaningInvertsTheIds) {
  for (ModelLayout layout : {ModelLayout::SequenceToSequence, ModelLayout::DecoderOnly}) {
    for (bool shared : {false, true}) {
      const std::size_t sources = shared ? 6 : 5, targets = 6;
      const TokenIds ids(layout, sources, targets, shared);
      EXPECT_EQ(ids.meaning(attn::models::kBos).kind, TokenMeaning::Kind::Start);
      EXPECT_EQ(ids.meaning(attn::models::kEos).kind, TokenMeaning::Kind::End);
      EXPECT_EQ(ids.target_word(attn::models::kEos), -1);
      std::vector<int> seen(ids.output_vocabulary(), 0);
      ++seen[0], ++seen[1];
      for (std::int32_t w = 0; w < static_cast<std::int32_t>(targets); ++w) {
        const TokenMeaning m = ids.meaning(ids.target_id(w));
        EXPECT_EQ(m.kind, TokenMeaning::Kind::TargetWord);
        EXPECT_EQ(m.word, w);
        EXPECT_EQ(ids.target_word(ids.target_id(w)), w);
        ++seen[ids.target_id(w)];
      }
      if (layout == ModelLayout::DecoderOnly && !shared) {
        for (std::int32_t w = 0; w < static_cast<std::int32_t>(sources); ++w) {
          const TokenMeaning m = ids.meaning(ids.source_id(w));
          EXPECT_EQ(m.kind, TokenMeaning::Kind::SourceWord);
          EXPECT_EQ(m.word, w);
          EXPECT_EQ(ids.target_word(ids.source_id(w)), -1);
          ++seen[ids.source_id(w)];
        }
      }
      for (int count : seen) EXPECT_EQ(count, 1) << "every id means exactly one thing";
      const auto size = static_cast<std::int32_t>(ids.output_vocabulary());
      EXPECT_TRUE(throws_with_message<ValueError>([&] { ids.meaning(size); },
                                                  {"id: expected a token id below " + std::to_string(size)}));
      EXPECT_TRUE(throws_with_message<ValueError>([&] { ids.target_word(-1); }, {"id:", "got -1"}));
    }
  }
}

TEST(Batching, DecoderPromptIsTheSourceThenSep) {
  const TokenIds ids(ModelLayout::DecoderOnly, 5, 4, false);
  Ids prompt;
  ids.prompt(Ids{4, 0}, prompt);
  EXPECT_EQ(prompt, (Ids{6, 2, 0}));
  ids.prompt(Ids{}, prompt);
  EXPECT_EQ(prompt, (Ids{0}));
}

SequenceTaskOptions options_of(SequenceTaskKind kind) {
  SequenceTaskOptions options;
  options.kind = kind;
  return options;
}

// Drawn batches of every task, read back through meaning(): each row gives
// back its example, padding is 0 and never counted.
TEST(Batching, DrawnBatchesReadBackAsTheirExamples) {
  for (SequenceTaskKind kind : {SequenceTaskKind::Reverse, SequenceTaskKind::Translate, SequenceTaskKind::Induction}) {
    const SequenceTask task(options_of(kind));
    attn::Rng rng(3);
    std::vector<SequenceExample> examples(32);
    for (SequenceExample& e : examples) task.draw(rng, e);
    for (ModelLayout layout : {ModelLayout::SequenceToSequence, ModelLayout::DecoderOnly}) {
      if (kind == SequenceTaskKind::Induction && layout == ModelLayout::SequenceToSequence) continue;
      const TokenIds ids = TokenIds::of(task, layout);
      Batch batch;
      fill_batch(examples, ids, batch);
      const std::size_t T = batch.target_length;
      ASSERT_LE(T, longest_decoder_sequence(task, layout));
      const bool decoder = layout == ModelLayout::DecoderOnly;
      for (std::size_t b = 0; b < examples.size(); ++b) {
        const SequenceExample& e = examples[b];
        const std::int32_t* input = batch.input.data() + b * T;
        const std::int32_t* output = batch.output.data() + b * T;
        const unsigned char* counted = batch.counted.data() + b * T;
        const std::size_t length = batch.target_lengths[b];
        Ids source, target;
        std::size_t counted_targets = 0;
        for (std::size_t i = 0; i < length; ++i) {
          if (i > 0) ASSERT_EQ(input[i], output[i - 1]) << "the input is the output shifted";
          const TokenMeaning m = ids.meaning(output[i]);
          if (m.kind == TokenMeaning::Kind::TargetWord && (!decoder || i >= e.source.size())) {
            target.push_back(m.word);
            counted_targets += counted[i];
            ASSERT_EQ(counted[i], e.counted.empty() ? 1 : e.counted[target.size() - 1]);
          } else if (m.kind == TokenMeaning::Kind::End) {
            ASSERT_EQ(i, length - 1);
            ASSERT_EQ(counted[i], e.counted.empty() ? 1 : 0);
          } else {
            ASSERT_EQ(counted[i], 0) << "the source part and SEP are never counted";
            if (m.kind != TokenMeaning::Kind::Start) source.push_back(m.word);
          }
        }
        if (decoder) {
          // the first input is the first source word (a shared word reads as a target word), or SEP
          const TokenMeaning first = ids.meaning(input[0]);
          ASSERT_EQ(first.kind == TokenMeaning::Kind::Start, e.source.empty());
          if (!e.source.empty()) source.insert(source.begin(), first.word);
          ASSERT_EQ(source, e.source);
        } else {
          ASSERT_EQ(input[0], attn::models::kBos);
          ASSERT_EQ(batch.source_lengths[b], static_cast<std::int32_t>(e.source.size()));
          for (std::size_t i = 0; i < batch.source_length; ++i) {
            ASSERT_EQ(batch.source[b * batch.source_length + i], i < e.source.size() ? e.source[i] : 0);
          }
        }
        ASSERT_EQ(target, e.target);
        for (std::size_t i = length; i < T; ++i) {
          ASSERT_EQ(input[i], 0);
          ASSERT_EQ(output[i], 0);
          ASSERT_EQ(counted[i], 0);
        }
      }
    }
  }
}

// A second batch of the same or smaller size reuses the vectors' memory.
TEST(Batching, RefillingReusesTheBatch) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  const TokenIds ids = TokenIds::of(task, ModelLayout::SequenceToSequence);
  const std::size_t longest = task.max_target_length() + 1;
  SequenceExample longest_example = task.example_of("in the morning the young student quietly reads an old book in the library");
  ASSERT_EQ(longest_example.target.size() + 1, longest);
  ASSERT_EQ(longest_decoder_sequence(task, ModelLayout::SequenceToSequence), longest);
  ASSERT_EQ(longest_decoder_sequence(task, ModelLayout::DecoderOnly), 14u + 1u + 12u);
  std::vector<SequenceExample> examples(32, longest_example);
  Batch batch;
  fill_batch(examples, ids, batch);
  const auto* input = batch.input.data();
  const auto* counted = batch.counted.data();
  attn::Rng rng(1);
  for (int step = 0; step < 20; ++step) {
    for (SequenceExample& e : examples) task.draw(rng, e);
    fill_batch(examples, ids, batch);
    ASSERT_EQ(batch.input.data(), input);
    ASSERT_EQ(batch.counted.data(), counted);
  }
}

TEST(Batching, Errors) {
  const TokenIds s2s(ModelLayout::SequenceToSequence, 5, 4, false);
  const TokenIds decoder(ModelLayout::DecoderOnly, 5, 4, false);
  Batch batch;
  const auto fails = [&](const TokenIds& ids, std::vector<SequenceExample> examples,
                         std::initializer_list<std::string> fragments) {
    return throws_with_message<ValueError>([&] { fill_batch(examples, ids, batch); }, fragments);
  };
  EXPECT_TRUE(fails(s2s, {}, {"examples: expected at least 1 example, got 0"}));
  EXPECT_TRUE(fails(s2s, {example({1}, {0}), example({5}, {0})},
                    {"examples[1].source[0]: expected a word id below 5, got 5"}));
  EXPECT_TRUE(fails(decoder, {example({1}, {0, -1})}, {"examples[0].target[1]: expected a word id below 4, got -1"}));
  EXPECT_TRUE(fails(s2s, {example({1}, {0, 1}, {1})},
                    {"examples[0].counted: expected 0 or 2 entries (one per target word), got 1"}));
  EXPECT_TRUE(fails(s2s, {example({}, {0, 1})}, {"examples[0].source: expected at least 1 word", "got 0"}));
  fill_batch(std::vector<SequenceExample>{example({}, {0, 1})}, decoder, batch);  // and it keeps working
  EXPECT_EQ(batch.input, (Ids{0, 7, 8}));  // SEP, the two target words
}

}  // namespace
