// The tasks (attn/tasks.hpp): reverse and translate examples, the alignment
// each target position follows, the held-out set training never draws, the
// probe, determinism of the draws, and tokenizing a typed sentence.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/tasks.hpp"
#include "test_support.hpp"

namespace {

std::vector<attn::Example> draw_examples(const attn::Task& task, std::uint64_t seed, std::size_t count) {
  attn::Rng rng(seed);
  std::vector<attn::Example> examples(count);
  for (auto& e : examples) {
    e.source.resize(task.source_length()), e.target.resize(task.target_length());
    task.draw(rng, e.source.data(), e.target.data());
  }
  return examples;
}

TEST(Tasks, ReverseTargetsAreTheSourcesReversed) {
  const attn::Task task(attn::TaskKind::Reverse);
  EXPECT_EQ(task.source_length(), 8u);
  EXPECT_EQ(task.source_vocabulary().size(), 10u);
  for (std::size_t t = 0; t < 8; ++t) EXPECT_EQ(task.alignment()[t], 7 - t);
  for (const auto& e : draw_examples(task, 1, 1000))
    for (std::size_t t = 0; t < 8; ++t) ASSERT_EQ(e.target[t], e.source[7 - t]);
  EXPECT_EQ(task.source_text(task.probe().source), "3 1 4 5 9 2 6 8");
  EXPECT_EQ(task.target_text(task.probe().target), "8 6 2 9 5 4 1 3");
}

TEST(Tasks, TranslateProbeIsARealSentenceInBothLanguages) {
  const attn::Task task(attn::TaskKind::Translate);
  EXPECT_EQ(task.source_text(task.probe().source), "the young student reads an old book in the library");
  EXPECT_EQ(task.target_text(task.probe().target), "젊은 학생이 도서관에서 오래된 책을 읽는다");
  // a few dozen words on each side
  EXPECT_EQ(task.source_vocabulary().size(), 51u);
  EXPECT_EQ(task.target_vocabulary().size(), 47u);
}

// Korean word t is determined by English word alignment[t] alone, one to one:
// over many sentences the pairs (English word, Korean word) form a bijection
// per target position. Articles, "in" and "the place" map to nothing.
TEST(Tasks, TranslateFollowsItsWordAlignment) {
  const attn::Task task(attn::TaskKind::Translate);
  const auto examples = draw_examples(task, 2, 20000);
  for (std::size_t t = 0; t < task.target_length(); ++t) {
    std::map<std::int32_t, std::int32_t> forward, backward;
    for (const auto& e : examples) {
      const std::int32_t english = e.source[task.alignment()[t]], korean = e.target[t];
      ASSERT_EQ(forward.emplace(english, korean).first->second, korean) << "position " << t;
      ASSERT_EQ(backward.emplace(korean, english).first->second, english) << "position " << t;
    }
  }
  std::set<std::int32_t> seen;
  for (const auto& e : examples) seen.insert(e.source.begin(), e.source.end());
  EXPECT_EQ(seen.size(), task.source_vocabulary().size()) << "every English word is drawn";
}

// Spot checks of the grammar on drawn sentences: "an" exactly before a vowel,
// the particles by the noun's last syllable.
TEST(Tasks, TranslateArticlesAndParticles) {
  const attn::Task task(attn::TaskKind::Translate);
  std::map<std::string, std::string> korean_of;
  for (const auto& e : draw_examples(task, 3, 5000)) {
    const std::string english = task.source_text(e.source), korean = task.target_text(e.target);
    const std::string thing = task.source_vocabulary()[e.source[5]];
    const std::string article = task.source_vocabulary()[e.source[4]];
    if (article != "the") ASSERT_EQ(article, thing == "old" ? "an" : "a") << english;
    korean_of[task.source_vocabulary()[e.source[2]]] = task.target_vocabulary()[e.target[1]];
    korean_of[task.source_vocabulary()[e.source[6]]] = task.target_vocabulary()[e.target[4]];
  }
  EXPECT_EQ(korean_of["student"], "학생이");
  EXPECT_EQ(korean_of["child"], "아이가");
  EXPECT_EQ(korean_of["boy"], "소년이");
  EXPECT_EQ(korean_of["book"], "책을");
  EXPECT_EQ(korean_of["apple"], "사과를");
  EXPECT_EQ(korean_of["movie"], "영화를");
}

TEST(Tasks, TrainingNeverDrawsAHeldOutExample) {
  for (const auto kind : {attn::TaskKind::Reverse, attn::TaskKind::Translate}) {
    const attn::Task task(kind);
    EXPECT_EQ(task.held_out().size(), 512u);
    std::set<std::vector<std::int32_t>> held_out;
    for (const auto& e : task.held_out()) held_out.insert(e.source);
    EXPECT_EQ(held_out.size(), 512u) << "held-out examples are distinct";
    EXPECT_TRUE(task.is_held_out(task.probe().source));
    for (const auto& e : draw_examples(task, 4, 50000)) ASSERT_FALSE(held_out.count(e.source)) << task.name();
  }
}

TEST(Tasks, SameSeedSameExamplesDifferentSeedDifferent) {
  const attn::Task task(attn::TaskKind::Translate);
  const auto a = draw_examples(task, 7, 64), b = draw_examples(task, 7, 64), c = draw_examples(task, 8, 64);
  std::size_t same_as_c = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].source, b[i].source);
    EXPECT_EQ(a[i].target, b[i].target);
    same_as_c += a[i].source == c[i].source;
  }
  EXPECT_LT(same_as_c, 4u);
  // The held-out set does not depend on any trainer's seed: the same object.
  EXPECT_EQ(&attn::Task(attn::TaskKind::Translate).held_out(), &task.held_out());
}

TEST(Tasks, TokenizeATypedSentence) {
  using attn_test::throws_with_message;
  const attn::Task translate(attn::TaskKind::Translate);
  EXPECT_EQ(translate.tokenize("The young student reads an old book in the library."), translate.probe().source);
  EXPECT_EQ(translate.tokenize("  the young   student reads an old book in the LIBRARY  "),
            translate.probe().source);
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { translate.tokenize("the young cat reads an old book in the spaceship"); },
      {"sentence: unknown words \"cat\", \"spaceship\"; the vocabulary is: the a an in young"}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { translate.tokenize("the student reads a book"); },
      {"sentence: expected 10 words (the pattern: the|a|an ADJECTIVE SUBJECT VERB the|a|an ADJECTIVE OBJECT in "
       "the PLACE), got 5"}));

  const attn::Task reverse(attn::TaskKind::Reverse);
  const std::vector<std::int32_t> digits = {3, 1, 4, 1, 5, 9, 2, 6};
  EXPECT_EQ(reverse.tokenize("31415926"), digits);
  EXPECT_EQ(reverse.tokenize("3 1 4 1 5 9 2 6"), digits);
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { reverse.tokenize("3141x92y"); },
                                                    {"sentence: unknown digits \"x\", \"y\""}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { reverse.tokenize("314"); },
                                                    {"sentence: expected 8 digits (the pattern: 8 digits), got 3"}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>([] { attn::Task::named("sort"); },
                                                    {"task: expected \"reverse\" or \"translate\", got \"sort\""}));
}

}  // namespace
