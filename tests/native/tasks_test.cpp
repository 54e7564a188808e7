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
  const std::vector<std::string> tokens = {"the young", "student", "reads", "an old", "book", "in the library"};
  for (std::size_t i = 0; i < tokens.size(); ++i) EXPECT_EQ(task.source_vocabulary()[task.probe().source[i]], tokens[i]);
  // a few dozen words on each side: 51 English words (the, a, an, in and 47
  // content words) in 61 tokens; 47 Korean words
  std::set<std::string> english_words;
  for (const std::string& token : task.source_vocabulary()) {
    std::size_t start = 0;
    while (start <= token.size()) {
      const std::size_t end = std::min(token.find(' ', start), token.size());
      english_words.insert(token.substr(start, end - start));
      start = end + 1;
    }
  }
  EXPECT_EQ(english_words.size(), 51u);
  EXPECT_EQ(task.source_vocabulary().size(), 61u);
  EXPECT_EQ(task.target_vocabulary().size(), 47u);
}

// The last word of a token: "old" of "an old", "library" of "in the library".
std::string content_word(const std::string& token) { return token.substr(token.rfind(' ') + 1); }

// Korean token t is determined by English token alignment[t] alone, and
// determines its content word: over many sentences, per target position, the
// map English token -> Korean token is a function, and Korean token -> the
// English token's last word is one too ("the young" and "a young" -> 젊은).
TEST(Tasks, TranslateFollowsItsWordAlignment) {
  const attn::Task task(attn::TaskKind::Translate);
  const auto examples = draw_examples(task, 2, 20000);
  for (std::size_t t = 0; t < task.target_length(); ++t) {
    std::map<std::int32_t, std::int32_t> forward;
    std::map<std::int32_t, std::string> backward;
    for (const auto& e : examples) {
      const std::int32_t english = e.source[task.alignment()[t]], korean = e.target[t];
      const std::string word = content_word(task.source_vocabulary()[english]);
      ASSERT_EQ(forward.emplace(english, korean).first->second, korean) << "position " << t;
      ASSERT_EQ(backward.emplace(korean, word).first->second, word) << "position " << t;
    }
  }
  std::set<std::int32_t> seen;
  for (const auto& e : examples) seen.insert(e.source.begin(), e.source.end());
  EXPECT_EQ(seen.size(), task.source_vocabulary().size()) << "every English token is drawn";
}

// Spot checks of the grammar on drawn sentences: "an" exactly before a vowel,
// the particles by the noun's last syllable.
TEST(Tasks, TranslateArticlesAndParticles) {
  const attn::Task task(attn::TaskKind::Translate);
  std::map<std::string, std::string> korean_of;
  for (const auto& e : draw_examples(task, 3, 5000)) {
    const std::string english = task.source_text(e.source), korean = task.target_text(e.target);
    const std::string phrase = task.source_vocabulary()[e.source[3]];  // "an old"
    const std::string article = phrase.substr(0, phrase.find(' ')), thing = content_word(phrase);
    if (article != "the") ASSERT_EQ(article, thing == "old" ? "an" : "a") << english;
    korean_of[task.source_vocabulary()[e.source[1]]] = task.target_vocabulary()[e.target[1]];
    korean_of[task.source_vocabulary()[e.source[4]]] = task.target_vocabulary()[e.target[4]];
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
      {"sentence: unknown words \"cat\", \"spaceship\"; the vocabulary is: the young, a young, the kind"}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { translate.tokenize("the student reads a book"); },
      {"sentence: expected 6 tokens in the pattern: the|a|an ADJECTIVE SUBJECT VERB the|a|an ADJECTIVE OBJECT in "
       "the PLACE; got \"the student reads a book\""}));

  const attn::Task reverse(attn::TaskKind::Reverse);
  const std::vector<std::int32_t> digits = {3, 1, 4, 1, 5, 9, 2, 6};
  EXPECT_EQ(reverse.tokenize("31415926"), digits);
  EXPECT_EQ(reverse.tokenize("3 1 4 1 5 9 2 6"), digits);
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { reverse.tokenize("3141x92y"); },
                                                    {"sentence: unknown characters \"x\", \"y\""}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { reverse.tokenize("314"); }, {"sentence: expected 8 digits in the pattern: 8 digits from 0 to 9; got \"314\""}));
  EXPECT_TRUE(throws_with_message<attn::ValueError>([] { attn::Task::named("sort"); },
                                                    {"task: expected \"reverse\" or \"translate\", got \"sort\""}));
}

// Fuzz findings: a name or a sentence of a million bytes was echoed whole in
// the error, and tokenizing one took quadratic time in its unknown words.
// Now a name is quoted shortened (40 bytes, at a character boundary), at most
// ten unknown words are named, and a sentence over 4096 bytes is refused at once.
TEST(Tasks, LongNamesAndSentencesAreQuotedShortened) {
  using attn_test::throws_with_message;
  const std::string long_name = "\xea\xb0\x80" + std::string(1000000, 'x');  // a Korean syllable, then x...
  EXPECT_TRUE(throws_with_message<attn::ValueError>(
      [&] { attn::Task::named(long_name); },
      {"task: expected \"reverse\" or \"translate\", got \"\xea\xb0\x80" + std::string(37, 'x') + "...\" (1000003 bytes)"}));
  const std::string cut_inside = std::string(39, 'x') + "\xea\xb0\x80" + "yyy";  // byte 40 is inside the syllable
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { attn::Task::named(cut_inside); },
                                                    {"got \"" + std::string(39, 'x') + "...\" (45 bytes)"}));
  const attn::Task translate(attn::TaskKind::Translate);
  std::string words;
  for (int i = 0; i < 30; ++i) words += "w" + std::to_string(i) + " ";
  try {
    translate.tokenize(words);
    ADD_FAILURE() << "unknown words accepted";
  } catch (const attn::ValueError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("sentence: unknown words \"w0\", \"w1\""), std::string::npos) << message;
    EXPECT_NE(message.find("\"w9\" and 20 more; the vocabulary is: "), std::string::npos) << message;
    EXPECT_EQ(message.find("w10"), std::string::npos) << message;
    EXPECT_LT(message.size(), 2048u);
  }
  EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { translate.tokenize(std::string(1000000, 'a')); },
                                                    {"sentence: expected at most 4096 bytes, got 1000000"}));
}

// Hostile typed text (issue 25): a character of several bytes was split into
// its bytes (one U+FFFD each once shown), a NUL cut the message (it is passed
// on as a C string), a lone surrogate became another character, a U+202E
// turned the page's own sentence backwards. Now each offending character is
// named as typed, the invisible ones by code point, and the message is whole.
TEST(Tasks, OffendingCharactersAreNamedAsTypedTheInvisibleOnesByCodePoint) {
  const attn::Task reverse(attn::TaskKind::Reverse), translate(attn::TaskKind::Translate);
  const auto message = [](const attn::Task& task, std::string_view sentence) {
    try {
      task.tokenize(sentence);
    } catch (const attn::ValueError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const auto starts = [](const std::string& text, const std::string& start) {
    return text.substr(0, start.size()) == start ? ::testing::AssertionSuccess()
                                                 : ::testing::AssertionFailure() << text;
  };
  const std::string digits = "; the vocabulary is: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9";
  // Full-width digits: one character each (three bytes).
  EXPECT_EQ(message(reverse, "\xef\xbc\x91\xef\xbc\x92\xef\xbc\x93\xef\xbc\x94\xef\xbc\x95\xef\xbc\x96\xef\xbc\x97\xef\xbc\x98"),
            "sentence: unknown characters \"\xef\xbc\x91\", \"\xef\xbc\x92\", \"\xef\xbc\x93\", \"\xef\xbc\x94\", "
            "\"\xef\xbc\x95\", \"\xef\xbc\x96\", \"\xef\xbc\x97\", \"\xef\xbc\x98\"" + digits);
  // A NUL, a right-to-left override, a lone surrogate (as the bindings pass one), a byte that is not UTF-8.
  const std::string words = "; the vocabulary is: the young, a young";
  EXPECT_TRUE(starts(message(translate, std::string("the\0young", 9)), "sentence: unknown word \"the<U+0000>young\"" + words));
  EXPECT_NE(message(translate, std::string("the\0young", 9)).find("in the garden"), std::string::npos) << "whole";
  EXPECT_TRUE(starts(message(translate, "the young \xe2\x80\xae" "boy"), "sentence: unknown word \"<U+202E>boy\"" + words));
  EXPECT_TRUE(starts(message(translate, "library\xed\xa0\xbd"), "sentence: unknown word \"library<U+D83D>\"" + words));
  EXPECT_TRUE(starts(message(translate, "caf\xff"), "sentence: unknown word \"caf<0xFF>\"" + words));
  // A combining mark alone (reverse splits characters) by code point; in a word, as typed.
  EXPECT_EQ(message(reverse, "1234567\xcc\x81"), "sentence: unknown character \"<U+0301>\"" + digits);
  EXPECT_TRUE(starts(message(translate, "cafe\xcc\x81 \xec\xb1\x85"),
                     "sentence: unknown words \"cafe\xcc\x81\", \"\xec\xb1\x85\"" + words));
  // A space that is not U+0020 is no separator: the word is unknown, the space named.
  EXPECT_TRUE(starts(message(translate, "the\xc2\xa0young"), "sentence: unknown word \"the<U+00A0>young\"" + words));
}

}  // namespace
