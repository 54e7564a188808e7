// The engine's tasks (training/sequence_task.hpp): reverse, translate and
// induction. For each: lengths, the alignment, the held-out set (its size,
// the same for the same options, never drawn in training), determinism,
// typed sentences and their errors; translate: the dictionary, the particles'
// batchim rule, lengths and alignments that move with the sentence;
// induction: the segment unique, the distance varying, the counted part.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "test_support.hpp"
#include "training/sequence_task.hpp"

namespace {

using attn::Rng;
using attn::ValueError;
using attn::training::SequenceExample;
using attn::training::SequenceTask;
using attn::training::SequenceTaskKind;
using attn::training::SequenceTaskOptions;
using attn_test::throws_with_message;

SequenceTaskOptions options_of(SequenceTaskKind kind) {
  SequenceTaskOptions options;
  options.kind = kind;
  return options;
}

SequenceTaskOptions reverse_of(std::size_t length) {
  SequenceTaskOptions options = options_of(SequenceTaskKind::Reverse);
  options.source_length = length;
  return options;
}

std::vector<SequenceExample> draw_examples(const SequenceTask& task, std::uint64_t seed, std::size_t count) {
  Rng rng(seed);
  std::vector<SequenceExample> examples(count);
  for (SequenceExample& e : examples) task.draw(rng, e);
  return examples;
}

// The options every task-wide test runs on.
std::vector<SequenceTaskOptions> every_task() {
  SequenceTaskOptions small_induction = options_of(SequenceTaskKind::Induction);
  small_induction.induction_vocabulary = 8, small_induction.induction_length = 12, small_induction.induction_segment = 3;
  return {reverse_of(4), reverse_of(8), reverse_of(32), options_of(SequenceTaskKind::Translate),
          options_of(SequenceTaskKind::Induction), small_induction};
}

std::string label(const SequenceTask& task) {
  const auto& o = task.options();
  return task.name() + " " + std::to_string(o.source_length) + "/" + std::to_string(o.induction_vocabulary) + "/" +
         std::to_string(o.induction_length) + "/" + std::to_string(o.induction_segment);
}

// ---------------------------------------------------------------- every task

TEST(SequenceTasks, LengthsAndIdsAreInRange) {
  for (const SequenceTaskOptions& options : every_task()) {
    const SequenceTask task(options);
    for (const SequenceExample& e : draw_examples(task, 3, 5000)) {
      ASSERT_LE(e.source.size(), task.max_source_length()) << label(task);
      ASSERT_LE(e.target.size(), task.max_target_length()) << label(task);
      ASSERT_GE(e.target.size(), 1u) << label(task);
      ASSERT_EQ(e.alignment.size(), e.target.size()) << label(task);
      ASSERT_TRUE(e.counted.empty() || e.counted.size() == e.target.size()) << label(task);
      for (std::int32_t id : e.source) ASSERT_TRUE(id >= 0 && id < std::ssize(task.source_vocabulary()));
      for (std::int32_t id : e.target) ASSERT_TRUE(id >= 0 && id < std::ssize(task.target_vocabulary()));
      for (std::int32_t at : e.alignment) ASSERT_TRUE(at >= -1 && at < std::ssize(e.source)) << label(task);
    }
  }
}

TEST(SequenceTasks, HeldOutIsFixedDistinctAndNeverDrawn) {
  for (const SequenceTaskOptions& options : every_task()) {
    const SequenceTask task(options), again(options);
    const auto& held_out = task.held_out();
    ASSERT_EQ(held_out.size(), 512u) << label(task);
    EXPECT_EQ(held_out.front().target, task.probe().target) << label(task);
    std::set<std::vector<std::int32_t>> targets;
    for (std::size_t i = 0; i < held_out.size(); ++i) {
      targets.insert(held_out[i].target);
      // the same set, example by example, for another task of the same options
      ASSERT_EQ(held_out[i].source, again.held_out()[i].source) << label(task);
      ASSERT_EQ(held_out[i].target, again.held_out()[i].target) << label(task);
      ASSERT_EQ(held_out[i].alignment, again.held_out()[i].alignment) << label(task);
      ASSERT_TRUE(task.is_held_out(held_out[i]));
    }
    EXPECT_EQ(targets.size(), 512u) << label(task) << ": held-out targets are distinct";
    Rng rng(11);
    SequenceExample e;
    for (int i = 0; i < 100000; ++i) {
      task.draw(rng, e);
      ASSERT_FALSE(targets.count(e.target)) << label(task) << ": draw " << i << " is held out";
    }
  }
}

// Reverse of 4 digits has 10^4 examples, 512 held out: 100,000 draws reach
// every one of the others (the rejection keeps only the held-out ones out).
TEST(SequenceTasks, HeldOutRejectionKeepsEveryOtherExample) {
  const SequenceTask task(reverse_of(4));
  std::set<std::vector<std::int32_t>> drawn;
  for (const SequenceExample& e : draw_examples(task, 5, 100000)) drawn.insert(e.source);
  EXPECT_EQ(drawn.size(), 10000u - 512u);
}

TEST(SequenceTasks, TheSameSeedDrawsTheSameExamples) {
  for (const SequenceTaskOptions& options : every_task()) {
    const SequenceTask task(options);
    const auto a = draw_examples(task, 42, 300), b = draw_examples(SequenceTask(options), 42, 300);
    const auto c = draw_examples(task, 43, 300);
    std::size_t same_as_other_seed = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_EQ(a[i].source, b[i].source);
      ASSERT_EQ(a[i].target, b[i].target);
      ASSERT_EQ(a[i].alignment, b[i].alignment);
      ASSERT_EQ(a[i].counted, b[i].counted);
      same_as_other_seed += a[i].target == c[i].target;
    }
    EXPECT_LT(same_as_other_seed, 30u) << label(task);
  }
}

TEST(SequenceTasks, NamedKinds) {
  EXPECT_EQ(SequenceTask::kind_named("reverse"), SequenceTaskKind::Reverse);
  EXPECT_EQ(SequenceTask::kind_named("translate"), SequenceTaskKind::Translate);
  EXPECT_EQ(SequenceTask::kind_named("induction"), SequenceTaskKind::Induction);
  EXPECT_TRUE(throws_with_message<ValueError>([] { SequenceTask::kind_named("copy"); },
                                              {"task: expected \"reverse\", \"translate\" or \"induction\"", "\"copy\""}));
}

TEST(SequenceTasks, TextOfIdsNamesAnIdOutOfRange) {
  const SequenceTask task(reverse_of(8));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { task.source_text(std::vector<std::int32_t>{1, 10}); },
                                              {"source[1]: expected a token id below 10, got 10"}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { task.target_text(std::vector<std::int32_t>{-1}); },
                                              {"target[0]: expected a token id below 10, got -1"}));
}

// ---------------------------------------------------------------- reverse

TEST(SequenceTasks, ReverseTargetsAreTheSourcesReversed) {
  for (std::size_t length : {4u, 8u, 17u, 32u}) {
    const SequenceTask task(reverse_of(length));
    EXPECT_EQ(task.max_source_length(), length);
    EXPECT_EQ(task.max_target_length(), length);
    EXPECT_TRUE(task.shares_vocabulary());
    EXPECT_EQ(task.source_vocabulary(), task.target_vocabulary());
    for (const SequenceExample& e : draw_examples(task, 1, 2000)) {
      ASSERT_EQ(e.source.size(), length);
      ASSERT_TRUE(e.counted.empty());
      for (std::size_t t = 0; t < length; ++t) {
        ASSERT_EQ(e.alignment[t], static_cast<std::int32_t>(length - 1 - t));
        ASSERT_EQ(e.target[t], e.source[length - 1 - t]);
      }
    }
  }
}

TEST(SequenceTasks, ReverseProbeIsPisDigitsDistinctWhileTheyCanBe) {
  EXPECT_EQ(SequenceTask(reverse_of(8)).source_text(SequenceTask(reverse_of(8)).probe().source), "3 1 4 5 9 2 6 8");
  EXPECT_EQ(SequenceTask(reverse_of(8)).target_text(SequenceTask(reverse_of(8)).probe().target), "8 6 2 9 5 4 1 3");
  const SequenceTask twelve(reverse_of(12));
  EXPECT_EQ(twelve.source_text(twelve.probe().source), "3 1 4 5 9 2 6 8 7 0 2 8");
  const SequenceTask four(reverse_of(4));
  EXPECT_EQ(four.source_text(four.probe().source), "3 1 4 5");
}

TEST(SequenceTasks, ReverseSourceLengthOutOfRange) {
  EXPECT_TRUE(throws_with_message<ValueError>([] { SequenceTask task(reverse_of(3)); },
                                              {"source_length: expected 4 to 32, got 3"}));
  EXPECT_TRUE(throws_with_message<ValueError>([] { SequenceTask task(reverse_of(33)); },
                                              {"source_length: expected 4 to 32, got 33"}));
}

TEST(SequenceTasks, ReverseTokenizesDigits) {
  const SequenceTask task(reverse_of(8));
  EXPECT_EQ(task.tokenize("31459268"), (std::vector<std::int32_t>{3, 1, 4, 5, 9, 2, 6, 8}));
  EXPECT_EQ(task.tokenize(" 3 1 4 5 9 2 6 8. "), (std::vector<std::int32_t>{3, 1, 4, 5, 9, 2, 6, 8}));
  const SequenceExample e = task.example_of("12345678");
  EXPECT_EQ(e.target, (std::vector<std::int32_t>{8, 7, 6, 5, 4, 3, 2, 1}));
  for (const SequenceExample& drawn : draw_examples(task, 9, 200))
    ASSERT_EQ(task.tokenize(task.source_text(drawn.source)), drawn.source);
  EXPECT_TRUE(throws_with_message<ValueError>([&] { task.tokenize("12345"); },
                                              {"sentence: expected 8 digits, got 5: \"12345\""}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { task.tokenize("1234x67é"); },
                                              {"sentence: unknown characters \"x\", \"é\"", "0, 1, 2"}));
}

// ---------------------------------------------------------------- translate

const std::set<std::string> kParticles = {"이", "가", "을", "를", "에서", "에"};
const std::set<std::string> kFunctionWords = {"the", "a", "an", "in", "at", "on"};

// The code point of the syllable `from_end` syllables before the end of a
// Korean word (UTF-8, three bytes each), and its final consonant (0: none).
unsigned syllable(const std::string& korean, std::size_t from_end) {
  const auto* b = reinterpret_cast<const unsigned char*>(korean.data() + korean.size() - 3 * (from_end + 1));
  return ((b[0] & 0x0Fu) << 12) | ((b[1] & 0x3Fu) << 6) | (b[2] & 0x3Fu);
}
unsigned final_consonant(unsigned code) { return (code - 0xAC00) % 28; }
constexpr unsigned kSsangSiot = 20;  // ㅆ as a final consonant: the past tense's 었/았/했

TEST(SequenceTasks, TranslateProbe) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  const SequenceExample& probe = task.probe();
  EXPECT_EQ(task.source_text(probe.source), "the young student read an old book quietly in the library yesterday");
  EXPECT_EQ(task.target_text(probe.target), "어제 젊은 학생이 도서관에서 오래된 책을 조용히 읽었다");
  EXPECT_EQ(probe.alignment, (std::vector<std::int32_t>{11, 1, 2, -1, 10, -1, 5, 6, -1, 7, 3}));
  EXPECT_TRUE(probe.counted.empty());
  EXPECT_FALSE(task.shares_vocabulary());
}

TEST(SequenceTasks, TranslateVocabularyAndGroups) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  std::multiset<std::string> grouped;
  for (const auto& group : task.source_groups()) grouped.insert(group.words.begin(), group.words.end());
  EXPECT_EQ(grouped, std::multiset<std::string>(task.source_vocabulary().begin(), task.source_vocabulary().end()));
  EXPECT_EQ(std::set<std::string>(task.target_vocabulary().begin(), task.target_vocabulary().end()).size(),
            task.target_vocabulary().size());
  EXPECT_GE(task.source_vocabulary().size(), 100u);
  EXPECT_GE(task.target_vocabulary().size(), 100u);
  EXPECT_NE(task.source_pattern().find("PERSON"), std::string::npos);
}

// Lengths over 100,000 draws: 3-14 source tokens, 3-12 target tokens, both
// bounds reached, and every length in between drawn.
TEST(SequenceTasks, TranslateLengthsVary) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  EXPECT_EQ(task.max_source_length(), 14u);
  EXPECT_EQ(task.max_target_length(), 12u);
  std::set<std::size_t> source_lengths, target_lengths;
  for (const SequenceExample& e : draw_examples(task, 4, 100000)) {
    source_lengths.insert(e.source.size()), target_lengths.insert(e.target.size());
  }
  EXPECT_EQ(source_lengths.size(), 12u);
  EXPECT_EQ(*source_lengths.begin(), 3u);
  EXPECT_EQ(*source_lengths.rbegin(), 14u);
  EXPECT_EQ(target_lengths.size(), 10u);
  EXPECT_EQ(*target_lengths.begin(), 3u);
  EXPECT_EQ(*target_lengths.rbegin(), 12u);
}

// The alignment over 100,000 draws: a particle aligns to nothing and every
// other target word to one source word, each source word that is not an
// article or a preposition is aligned exactly once, and a source word always
// translates to the same Korean word, different for different words (the
// dictionary), some of it checked by hand.
TEST(SequenceTasks, TranslateAlignsEachContentWordToItsTranslation) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  const auto& english = task.source_vocabulary();
  const auto& korean = task.target_vocabulary();
  std::map<std::string, std::string> dictionary;
  for (const SequenceExample& e : draw_examples(task, 5, 100000)) {
    std::vector<int> aligned(e.source.size(), 0);
    for (std::size_t t = 0; t < e.target.size(); ++t) {
      const std::string& word = korean[e.target[t]];
      if (kParticles.count(word)) {
        ASSERT_EQ(e.alignment[t], -1) << word;
        continue;
      }
      ASSERT_GE(e.alignment[t], 0) << task.source_text(e.source) << ": " << word << " is not aligned";
      const std::string& source_word = english[e.source[e.alignment[t]]];
      ++aligned[e.alignment[t]];
      const auto [entry, added] = dictionary.emplace(source_word, word);
      ASSERT_EQ(entry->second, word) << source_word << " translated two ways";
    }
    for (std::size_t i = 0; i < e.source.size(); ++i) {
      ASSERT_EQ(aligned[i], kFunctionWords.count(english[e.source[i]]) ? 0 : 1)
          << task.source_text(e.source) << ": word " << i;
    }
  }
  std::set<std::string> translations;
  for (const auto& [source_word, word] : dictionary) translations.insert(word);
  EXPECT_EQ(translations.size(), dictionary.size()) << "two English words with one Korean word";
  EXPECT_EQ(dictionary.size() + kFunctionWords.size(), english.size()) << "every content word drawn";
  const std::map<std::string, std::string> by_hand = {
      {"student", "학생"}, {"child", "아이"},   {"reads", "읽는다"}, {"read", "읽었다"}, {"ran", "달렸다"},
      {"apple", "사과"},   {"book", "책"},      {"old", "오래된"},   {"famous", "유명한"}, {"library", "도서관"},
      {"quietly", "조용히"}, {"yesterday", "어제"}, {"morning", "아침"}, {"night", "밤"}};
  for (const auto& [source_word, word] : by_hand) EXPECT_EQ(dictionary[source_word], word) << source_word;
}

// The words of a source group ("PLACE", "VERB", ...).
std::set<std::string> group_words(const SequenceTask& task, const std::string& name) {
  for (const auto& group : task.source_groups())
    if (group.name == name) return {group.words.begin(), group.words.end()};
  ADD_FAILURE() << "no group " << name;
  return {};
}

// Particles: 이/가 after the subject and 을/를 after the object by the last
// syllable's final consonant (이, 을 after one), 에서 after the place, 에
// after a time noun; the verb ends the sentence; "yesterday" takes the past
// (a final ㅆ in the verb's next-to-last syllable: 읽었다, 샀다, 좋아했다).
TEST(SequenceTasks, TranslateParticlesFollowTheBatchimRule) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  const auto& english = task.source_vocabulary();
  const auto& korean = task.target_vocabulary();
  const std::set<std::string> places = group_words(task, "PLACE"), times = group_words(task, "TIME"),
                              verbs = group_words(task, "VERB");
  const auto yesterday = static_cast<std::int32_t>(std::find(english.begin(), english.end(), "yesterday") - english.begin());
  std::set<std::string> consonant_nouns, vowel_nouns;
  std::size_t yesterdays = 0;
  for (const SequenceExample& e : draw_examples(task, 6, 20000)) {
    std::size_t subject_particles = 0, object_particles = 0;
    for (std::size_t t = 0; t < e.target.size(); ++t) {
      const std::string& word = korean[e.target[t]];
      if (!kParticles.count(word)) continue;
      ASSERT_GT(t, 0u);
      ASSERT_GE(e.alignment[t - 1], 0) << "a particle follows a translated word";
      const std::string& noun = korean[e.target[t - 1]];
      const std::string& source_noun = english[e.source[e.alignment[t - 1]]];
      const bool batchim = final_consonant(syllable(noun, 0)) != 0;
      if (word == "이" || word == "가") {
        ++subject_particles;
        ASSERT_EQ(word == "이", batchim) << noun << word;
        (batchim ? consonant_nouns : vowel_nouns).insert(noun);
      } else if (word == "을" || word == "를") {
        ++object_particles;
        ASSERT_EQ(word == "을", batchim) << noun << word;
      } else {
        ASSERT_TRUE(word == "에서" ? places.count(source_noun) : times.count(source_noun)) << source_noun << word;
      }
    }
    ASSERT_EQ(subject_particles, 1u) << task.target_text(e.target);
    ASSERT_LE(object_particles, 1u);
    ASSERT_TRUE(verbs.count(english[e.source[e.alignment.back()]])) << "the verb ends " << task.target_text(e.target);
    if (std::find(e.source.begin(), e.source.end(), yesterday) != e.source.end()) {
      ++yesterdays;
      const std::string& verb = korean[e.target.back()];
      ASSERT_EQ(final_consonant(syllable(verb, 1)), kSsangSiot) << verb;
    }
  }
  EXPECT_GT(yesterdays, 100u);
  EXPECT_TRUE(consonant_nouns.count("학생") && consonant_nouns.count("소년"));
  EXPECT_TRUE(vowel_nouns.count("아이") && vowel_nouns.count("요리사"));
  EXPECT_EQ(task.target_text(task.example_of("the boy eats an apple").target), "소년이 사과를 먹는다");
  EXPECT_EQ(task.target_text(task.example_of("a child opens the door at night").target), "밤에 아이가 문을 연다");
}

// "an" before a vowel, "a" before a consonant, in every drawn sentence.
TEST(SequenceTasks, TranslateArticlesAgree) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  const auto& english = task.source_vocabulary();
  for (const SequenceExample& e : draw_examples(task, 7, 20000)) {
    for (std::size_t i = 0; i + 1 < e.source.size(); ++i) {
      const std::string& word = english[e.source[i]];
      if (word != "a" && word != "an") continue;
      const bool vowel = std::string("aeiou").find(english[e.source[i + 1]][0]) != std::string::npos;
      ASSERT_EQ(word == "an", vowel) << task.source_text(e.source);
    }
  }
}

// The same Korean word is aligned to many source positions across sentences:
// the alignment depends on the sentence, not on the target position.
TEST(SequenceTasks, TranslateAlignmentMovesWithTheSentence) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  std::map<std::int32_t, std::set<std::int32_t>> positions_of_word;  // target word -> source positions
  std::map<std::size_t, std::set<std::int32_t>> positions_at;        // target position -> source positions
  for (const SequenceExample& e : draw_examples(task, 8, 20000)) {
    for (std::size_t t = 0; t < e.target.size(); ++t) {
      if (e.alignment[t] < 0) continue;
      positions_of_word[e.target[t]].insert(e.alignment[t]);
      positions_at[t].insert(e.alignment[t]);
    }
  }
  const auto id = [&](const char* word) {
    return std::find(task.target_vocabulary().begin(), task.target_vocabulary().end(), word) -
           task.target_vocabulary().begin();
  };
  EXPECT_GE(positions_of_word[id("학생")].size(), 5u);   // the subject: word 1 to 5
  EXPECT_GE(positions_of_word[id("읽는다")].size(), 6u);  // the verb: 2 to 7
  EXPECT_GE(positions_of_word[id("공원")].size(), 6u);   // the place
  EXPECT_GE(positions_of_word[id("어제")].size(), 6u);   // the time: first, or last of 4 to 14 words
  EXPECT_GE(positions_of_word[id("조용히")].size(), 6u);  // the adverb: before the verb or after its object
  EXPECT_GE(positions_of_word[id("책")].size(), 5u);     // the object
  // no target position is tied to one source position
  for (const auto& [t, positions] : positions_at) {
    // (position 1 is a particle, or the subject's adjective or noun right after "the" or a one-word time)
    EXPECT_GE(positions.size(), t == 1 ? 2u : 4u) << "target position " << t;
  }
}

TEST(SequenceTasks, TranslateTokenizingRoundTrips) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  for (const SequenceExample& e : draw_examples(task, 10, 2000)) {
    const std::string text = task.source_text(e.source);
    ASSERT_EQ(task.tokenize(text), e.source) << text;
    const SequenceExample read = task.example_of(text);
    ASSERT_EQ(read.target, e.target) << text;
    ASSERT_EQ(read.alignment, e.alignment) << text;
  }
  const std::vector<std::int32_t> probe = task.probe().source;
  EXPECT_EQ(task.tokenize("The young student read an old book quietly in the library yesterday."), probe);
  EXPECT_EQ(task.tokenize("  THE young student read an old book quietly in the library, yesterday!"), probe);
  // Typed sentences need the grammar only: a verb with an object that does not fit it is read,
  // and "a" before a vowel stays as typed.
  EXPECT_EQ(task.target_text(task.example_of("yesterday, the cook ate a famous key").target),
            "어제 요리사가 유명한 열쇠를 먹었다");
  const SequenceExample typed = task.example_of("a artist eats a apple");
  EXPECT_EQ(task.source_text(typed.source), "a artist eats a apple");
  EXPECT_EQ(task.target_text(typed.target), "화가가 사과를 먹는다");
  EXPECT_EQ(typed.alignment, (std::vector<std::int32_t>{1, -1, 4, -1, 2}));
}

TEST(SequenceTasks, TranslateTokenizingErrors) {
  const SequenceTask task(options_of(SequenceTaskKind::Translate));
  const auto fails = [&](const char* sentence, std::initializer_list<std::string> fragments) {
    return throws_with_message<ValueError>([&] { task.tokenize(sentence); }, fragments);
  };
  EXPECT_TRUE(fails("the cat eats a fish", {"sentence: unknown words \"cat\", \"fish\"; the vocabulary is: the, a, an"}));
  EXPECT_TRUE(fails("the 고양이 eats", {"sentence: unknown word \"고양이\";"}));
  EXPECT_TRUE(fails("w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w1", {"unknown words \"w1\", \"w2\"", "\"w10\" and 1 more;"}));
  EXPECT_TRUE(fails("student reads a book", {"sentence: expected an article (the, a, an) first, got \"student\"",
                                             "sentences follow: [TIME] the|a|an"}));
  EXPECT_TRUE(fails("the student", {"expected an adverb or a verb after \"the student\", got nothing"}));
  EXPECT_TRUE(fails("the red book reads", {"expected a person (student, teacher, ...) after \"the red\", got \"book\""}));
  EXPECT_TRUE(fails("the boy reads", {"expected an article (the, a, an) after \"the boy reads\", got nothing"}));
  EXPECT_TRUE(fails("the boy runs a book",
                    {"sentence: expected an adverb, \"in the\" and a place, a time or the end of the sentence after "
                     "\"the boy runs\" (\"runs\" takes no object), got \"a\""}));
  EXPECT_TRUE(fails("the boy runs in the park quickly",
                    {"expected a time or the end of the sentence after \"the boy runs in the park\", got \"quickly\""}));
  EXPECT_TRUE(fails("", {"expected an article (the, a, an) first, got nothing"}));
  EXPECT_TRUE(fails(std::string(5000, 'a').c_str(), {"sentence: expected at most 4096 bytes, got 5000"}));
  EXPECT_EQ(task.tokenize("the boy runs"), task.tokenize("The boy runs."));  // and it keeps working
}

// ---------------------------------------------------------------- induction

struct Occurrences {
  std::size_t first = 0, second = 0, segment = 0;
};

// The repeated segment of an induction example, found from the sequence
// alone: the counted run is the second occurrence after its first letter.
Occurrences find_segment(const SequenceExample& e) {
  const auto begin = std::find(e.counted.begin(), e.counted.end(), 1);
  const auto end = std::find(begin, e.counted.end(), 0);
  Occurrences o;
  o.second = static_cast<std::size_t>(begin - e.counted.begin()) - 1;
  o.segment = static_cast<std::size_t>(end - begin) + 1;
  o.first = static_cast<std::size_t>(std::find(e.target.begin(), e.target.end(), e.target[o.second]) - e.target.begin());
  return o;
}

TEST(SequenceTasks, InductionSegmentIsUniqueAndCountedAfterItsFirstLetter) {
  for (const SequenceTaskOptions& options : every_task()) {
    if (options.kind != SequenceTaskKind::Induction) continue;
    const SequenceTask task(options);
    const std::size_t length = options.induction_length, segment = options.induction_segment;
    EXPECT_EQ(task.max_source_length(), 0u);
    EXPECT_EQ(task.max_target_length(), length);
    EXPECT_EQ(task.source_vocabulary().size(), options.induction_vocabulary);
    for (const SequenceExample& e : draw_examples(task, 12, 20000)) {
      ASSERT_TRUE(e.source.empty());
      ASSERT_EQ(e.target.size(), length);
      ASSERT_EQ(e.counted.size(), length);
      ASSERT_EQ(std::count(e.counted.begin(), e.counted.end(), 1), static_cast<std::ptrdiff_t>(segment - 1));
      ASSERT_TRUE(std::all_of(e.alignment.begin(), e.alignment.end(), [](std::int32_t a) { return a == -1; }));
      const Occurrences o = find_segment(e);
      ASSERT_EQ(o.segment, segment);
      ASSERT_GE(o.second, o.first + segment) << "the occurrences overlap";
      std::set<std::int32_t> letters;
      for (std::size_t j = 0; j < segment; ++j) {
        ASSERT_EQ(e.target[o.first + j], e.target[o.second + j]);
        letters.insert(e.target[o.first + j]);
        // each letter of the segment twice in the sequence, nowhere else
        ASSERT_EQ(std::count(e.target.begin(), e.target.end(), e.target[o.first + j]), 2);
      }
      ASSERT_EQ(letters.size(), segment) << "the segment's letters are distinct";
      // Each counted letter is what followed the only earlier occurrence of the letter before it.
      for (std::size_t t = 1; t < length; ++t) {
        if (!e.counted[t]) continue;
        const auto earlier = std::find(e.target.begin(), e.target.begin() + (t - 1), e.target[t - 1]);
        ASSERT_NE(earlier, e.target.begin() + (t - 1));
        ASSERT_EQ(std::count(e.target.begin(), e.target.begin() + (t - 1), e.target[t - 1]), 1);
        ASSERT_EQ(*(earlier + 1), e.target[t]);
      }
    }
  }
}

// The distance between the occurrences takes every value from K to N - K,
// and the first occurrence every start from 0 to N - 2K: no fixed offset or
// position finds the answer.
TEST(SequenceTasks, InductionDistanceVaries) {
  const SequenceTask task(options_of(SequenceTaskKind::Induction));
  const std::size_t length = 32, segment = 6;
  std::map<std::size_t, std::size_t> distances;
  std::set<std::size_t> firsts;
  for (const SequenceExample& e : draw_examples(task, 13, 20000)) {
    const Occurrences o = find_segment(e);
    ++distances[o.second - o.first];
    firsts.insert(o.first);
  }
  EXPECT_EQ(distances.size(), length - 2 * segment + 1);
  EXPECT_EQ(distances.begin()->first, segment);
  EXPECT_EQ(distances.rbegin()->first, length - segment);
  for (const auto& [distance, count] : distances) EXPECT_GT(count, 20000u / 21 / 2) << "distance " << distance;
  EXPECT_EQ(firsts.size(), length - 2 * segment + 1);
}

TEST(SequenceTasks, InductionOptionsOutOfRange) {
  const auto with = [](std::size_t vocabulary, std::size_t length, std::size_t segment) {
    SequenceTaskOptions o = options_of(SequenceTaskKind::Induction);
    o.induction_vocabulary = vocabulary, o.induction_length = length, o.induction_segment = segment;
    return o;
  };
  EXPECT_TRUE(throws_with_message<ValueError>([&] { SequenceTask t(with(27, 32, 6)); },
                                              {"induction_vocabulary: expected 4 to 26, got 27"}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { SequenceTask t(with(24, 65, 6)); },
                                              {"induction_length: expected 8 to 64, got 65"}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { SequenceTask t(with(24, 16, 9)); },
                                              {"induction_segment: expected 2 to 8, got 9"}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { SequenceTask t(with(8, 32, 7)); },
                                              {"induction_segment: expected 2 to 6, got 7"}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { SequenceTask t(with(24, 32, 1)); },
                                              {"induction_segment: expected 2 to 16, got 1"}));
  EXPECT_NO_THROW(SequenceTask(with(26, 64, 24)));
  EXPECT_NO_THROW(SequenceTask(with(4, 8, 2)));
}

TEST(SequenceTasks, InductionTokenizesLetters) {
  const SequenceTask task(options_of(SequenceTaskKind::Induction));
  EXPECT_EQ(task.tokenize("abcx"), (std::vector<std::int32_t>{0, 1, 2, 23}));
  EXPECT_EQ(task.tokenize("A b  C"), (std::vector<std::int32_t>{0, 1, 2}));
  const SequenceExample e = task.example_of("xab");
  EXPECT_EQ(e.target, (std::vector<std::int32_t>{23, 0, 1}));
  EXPECT_TRUE(e.source.empty());
  const SequenceExample& probe = task.probe();
  EXPECT_EQ(task.tokenize(task.target_text(probe.target)), probe.target);
  EXPECT_TRUE(throws_with_message<ValueError>([&] { task.tokenize("abz"); }, {"sentence: unknown character \"z\""}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { task.tokenize(std::string(33, 'a')); },
                                              {"sentence: expected 1 to 32 letters, got 33"}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { task.tokenize(" "); },
                                              {"sentence: expected 1 to 32 letters, got 0"}));
}

}  // namespace
