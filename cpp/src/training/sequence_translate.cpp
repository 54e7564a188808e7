// sequence_translate.cpp — the translate task: a toy English -> Korean grammar
// whose alignment depends on the sentence, not only on the position.
//
//   English   [TIME] the|a|an [ADJECTIVE] PERSON [ADVERB] VERB [the|a|an [ADJECTIVE] THING] [ADVERB]
//             [in the PLACE] [TIME]
//   Korean    [TIME [에]] [ADJECTIVE] PERSON 이|가 [PLACE 에서] [[ADJECTIVE] THING 을|를] [ADVERB] VERB
//
//   the young student read an old book quietly in the library yesterday   (the probe)
//   -> 어제 젊은 학생 이 도서관 에서 오래된 책 을 조용히 읽었다   (written 학생이, 도서관에서, 책을)
//   alignment: 11 1 2 -1 10 -1 5 6 -1 7 3
//
// Words are tokens: articles and prepositions ("the", "in", "at", "on") are
// source tokens that translate to nothing; each particle is a target token of
// its own that translates no source word (alignment -1): 이/가 after the
// subject, 을/를 after the object (이, 을 after a final consonant: the noun's
// last syllable has a batchim), 에서 after the place, 에 after a time noun.
// Every other target token translates one source word (its alignment). The
// optional words move the rest: the subject is word 1, 2, 3, 4 or 5 of the
// sentence, the verb anywhere from 2 to 7. Past or present tense is the
// English verb's form (reads/read -> 읽는다/읽었다); "yesterday" takes the past.
// A verb takes only the objects, adverbs (each before the verb, after the
// object, or either) and places that fit it, an object only the adjectives
// that fit it, and "an" comes before a vowel: every drawn sentence is real
// English and real Korean. Typed sentences need only the grammar above.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "training/sequence_generator.hpp"

namespace attn::training {

namespace {

struct Word {
  const char* english;
  const char* korean;
};

// Adjectives: those of people first, then those of things ("famous" is both).
constexpr Word kAdjectives[] = {
    {"young", "젊은"},  {"kind", "착한"},      {"happy", "행복한"},   {"busy", "바쁜"},      {"smart", "똑똑한"},
    {"tired", "피곤한"}, {"famous", "유명한"}, {"old", "오래된"},     {"new", "새"},         {"good", "좋은"},
    {"red", "빨간"},    {"sweet", "달콤한"},   {"long", "긴"},       {"beautiful", "아름다운"}, {"big", "큰"},
    {"sad", "슬픈"},    {"warm", "따뜻한"},
};
constexpr const char* kPersonAdjectives = "young kind happy busy smart tired famous";

constexpr Word kPersons[] = {
    {"student", "학생"}, {"teacher", "선생님"}, {"child", "아이"},  {"doctor", "의사"}, {"friend", "친구"},
    {"farmer", "농부"},  {"girl", "소녀"},      {"boy", "소년"},    {"artist", "화가"}, {"cook", "요리사"},
};

struct Thing {
  const char* english;
  const char* korean;
  const char* adjectives;  // the adjectives that fit it
};
constexpr Thing kThings[] = {
    {"book", "책", "old new good red long famous big"},
    {"letter", "편지", "old new long sad beautiful"},
    {"newspaper", "신문", "old new"},
    {"story", "이야기", "old new good long sad famous"},
    {"map", "지도", "old new big"},
    {"apple", "사과", "red sweet big"},
    {"cookie", "쿠키", "sweet big warm"},
    {"cake", "케이크", "sweet big beautiful"},
    {"sandwich", "샌드위치", "big good warm"},
    {"song", "노래", "old new good long sad famous beautiful"},
    {"picture", "그림", "old new famous beautiful big"},
    {"flower", "꽃", "red beautiful big"},
    {"movie", "영화", "old new good long sad famous"},
    {"box", "상자", "old new red big"},
    {"door", "문", "old red big"},
    {"window", "창문", "old big"},
    {"cup", "컵", "old new red big"},
    {"key", "열쇠", "old new"},
};

constexpr Word kAdverbs[] = {
    {"slowly", "천천히"}, {"quickly", "빨리"}, {"quietly", "조용히"}, {"carefully", "조심스럽게"},
    {"happily", "즐겁게"}, {"loudly", "크게"}, {"well", "잘"},       {"really", "정말"},
};

constexpr Word kPlaces[] = {
    {"library", "도서관"}, {"park", "공원"}, {"classroom", "교실"}, {"cafe", "카페"},  {"room", "방"},
    {"garden", "정원"},    {"kitchen", "부엌"}, {"store", "가게"},  {"market", "시장"}, {"theater", "극장"},
};

struct Verb {
  const char* present;  // English, third person singular
  const char* past;
  const char* korean_present;  // plain declarative (해라체)
  const char* korean_past;
  const char* objects;         // "" for a verb without object
  const char* adverbs_before;  // those that fit before the verb ("quietly reads")
  const char* adverbs_after;   // those that fit after the verb and its object ("reads a book quietly")
  const char* places;
  bool takes_time;  // "likes" does not: no time, no place
};
constexpr Verb kVerbs[] = {
    {"reads", "read", "읽는다", "읽었다", "book letter newspaper story map", "slowly quickly quietly",
     "slowly quickly quietly", "library park classroom cafe room garden", true},
    {"eats", "ate", "먹는다", "먹었다", "apple cookie cake sandwich", "slowly quickly quietly",
     "slowly quickly quietly", "kitchen park cafe garden room classroom", true},
    {"writes", "wrote", "쓴다", "썼다", "letter book song story", "slowly quickly quietly", "slowly quickly quietly",
     "library classroom cafe room", true},
    {"draws", "drew", "그린다", "그렸다", "picture flower map apple", "slowly quickly", "slowly quickly well",
     "park garden classroom room", true},
    {"buys", "bought", "산다", "샀다", "book newspaper apple cookie cake sandwich flower map box cup", "quickly",
     "quickly", "store market cafe", true},
    {"sings", "sang", "부른다", "불렀다", "song", "quietly happily", "quietly happily loudly well",
     "park garden classroom room cafe", true},
    {"watches", "watched", "본다", "봤다", "movie", "quietly", "quietly", "theater room classroom", true},
    {"makes", "made", "만든다", "만들었다", "cake cookie sandwich box", "slowly quickly carefully",
     "slowly quickly carefully", "kitchen cafe classroom", true},
    {"finds", "found", "찾는다", "찾았다", "book letter map box key cup", "quickly", "quickly",
     "library park garden room classroom kitchen", true},
    {"opens", "opened", "연다", "열었다", "door window box", "slowly quickly quietly carefully",
     "slowly quickly quietly carefully", "room kitchen classroom library cafe store", true},
    {"washes", "washed", "씻는다", "씻었다", "apple cup", "slowly quickly carefully", "slowly quickly carefully",
     "kitchen garden", true},
    {"likes", "liked", "좋아한다", "좋아했다", "book song movie picture flower story apple cake cookie", "really", "", "",
     false},
    {"sleeps", "slept", "잔다", "잤다", "", "quietly", "quietly well", "room park library classroom garden", true},
    {"runs", "ran", "달린다", "달렸다", "", "slowly quickly", "slowly quickly", "park garden", true},
    {"walks", "walked", "걷는다", "걸었다", "", "slowly quickly quietly", "slowly quickly quietly", "park garden market",
     true},
    {"dances", "danced", "춤춘다", "춤췄다", "", "slowly happily", "slowly happily well", "room park garden classroom",
     true},
    {"cries", "cried", "운다", "울었다", "", "quietly", "quietly loudly", "room park classroom garden", true},
    {"laughs", "laughed", "웃는다", "웃었다", "", "quietly happily", "quietly happily loudly",
     "park garden room classroom cafe library kitchen", true},
};

enum class Tense { Any, Past };
struct Time {
  const char* english;  // its words; the last one is the time noun that translates
  const char* korean;
  bool particle;  // followed by 에
  Tense tense;
};
constexpr Time kTimes[] = {
    {"yesterday", "어제", false, Tense::Past},   {"today", "오늘", false, Tense::Any},
    {"in the morning", "아침", true, Tense::Any}, {"in the evening", "저녁", true, Tense::Any},
    {"at night", "밤", true, Tense::Any},         {"on sunday", "일요일", true, Tense::Any},
    {"on saturday", "토요일", true, Tense::Any},
};

constexpr const char* kPattern =
    "[TIME] the|a|an [ADJECTIVE] PERSON [ADVERB] VERB [the|a|an [ADJECTIVE] THING] [ADVERB] [in the PLACE] [TIME]";

constexpr std::size_t count_of(const auto& table) { return sizeof table / sizeof table[0]; }

std::vector<std::string> split_words(const char* list) {
  std::vector<std::string> words;
  std::string current;
  for (const char* c = list;; ++c) {
    if (*c == ' ' || *c == '\0') {
      if (!current.empty()) words.push_back(current), current.clear();
      if (*c == '\0') return words;
    } else {
      current += *c;
    }
  }
}

// Whether the last syllable of a Korean word has a final consonant (batchim):
// a Hangul syllable U+AC00 + 28 (21 initial + vowel) + final has final != 0.
bool ends_with_consonant(const std::string& korean) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(korean.data() + korean.size() - 3);
  const unsigned code = ((bytes[0] & 0x0Fu) << 12) | ((bytes[1] & 0x3Fu) << 6) | (bytes[2] & 0x3Fu);
  return code >= 0xAC00 && code <= 0xD7A3 && (code - 0xAC00) % 28 != 0;
}

// The choices that make one sentence (-1: the optional word is absent).
struct NounPhrase {
  bool definite = true;
  int adjective = -1;
  int noun = 0;
};
struct Sentence {
  NounPhrase subject;
  int verb = 0;
  bool past = false;
  bool has_object = false;
  NounPhrase object;
  int adverb = -1;
  bool adverb_before = false;
  int place = -1;
  int time = -1;
  bool time_first = false;
};

// An adverb that fits a verb, with its place.
struct AdverbChoice {
  int adverb;
  bool before;
};

class TranslateGenerator final : public SequenceGenerator {
 public:
  TranslateGenerator();

  const std::vector<std::string>& source_vocabulary() const { return source_words_; }
  const std::vector<std::string>& target_vocabulary() const { return target_words_; }
  const std::vector<unsigned char>& particles() const { return particle_; }
  std::vector<VocabularyGroup> groups() const;
  std::size_t max_source_length() const;
  std::size_t max_target_length() const;

  void draw_any(Rng& rng, SequenceExample& example) const override;
  std::vector<std::int32_t> read_words(std::string_view sentence) const override {
    return ids_of_pieces(split_sentence(sentence, false), source_words_, "word");
  }
  // The typed words stay the source: write() would put "an" for a typed "a"
  // before a vowel, its only change (same words, same positions otherwise).
  SequenceExample example_of(std::span<const std::int32_t> source) const override {
    SequenceExample example;
    write(parse(source), example);
    example.source.assign(source.begin(), source.end());
    return example;
  }

 private:
  enum class Kind { Article, Preposition, Adjective, Person, Verb, Adverb, Thing, Place, TimeNoun };
  struct Entry {  // what a source id is
    Kind kind;
    int index;  // into its table (for a verb: its row; Verb entries of the past form have past = true)
    bool past = false;
  };

  std::int32_t source_word(const std::string& english, Kind kind, int index, bool past = false);
  std::int32_t target_word(const std::string& korean, bool particle = false);
  std::int32_t id_of(const char* english) const;  // an existing source word

  void write(const Sentence& s, SequenceExample& example) const;
  Sentence parse(std::span<const std::int32_t> source) const;

  std::vector<std::string> source_words_, target_words_;
  std::vector<Entry> entries_;           // per source id
  std::vector<unsigned char> particle_;  // per target id
  std::int32_t the_ = 0, a_ = 0, an_ = 0, in_ = 0;
  std::int32_t subject_consonant_ = 0, subject_vowel_ = 0, object_consonant_ = 0, object_vowel_ = 0;  // 이 가 을 를
  std::int32_t place_particle_ = 0, time_particle_ = 0;                                           // 에서 에
  // Per table row: the source and target ids of its word(s).
  std::vector<std::int32_t> adjective_source_, adjective_target_, person_source_, person_target_;
  std::vector<std::int32_t> thing_source_, thing_target_, adverb_source_, adverb_target_;
  std::vector<std::int32_t> place_source_, place_target_, time_target_;
  std::vector<std::vector<std::int32_t>> time_source_;  // the phrase's words
  std::vector<std::int32_t> verb_source_[2], verb_target_[2];  // [past]
  // What fits what, as table rows.
  std::vector<int> person_adjectives_;
  std::vector<std::vector<int>> thing_adjectives_, verb_objects_, verb_places_;
  std::vector<std::vector<AdverbChoice>> verb_adverbs_;
};

std::int32_t TranslateGenerator::source_word(const std::string& english, Kind kind, int index, bool past) {
  if (std::find(source_words_.begin(), source_words_.end(), english) != source_words_.end()) {
    throw std::logic_error("translate grammar: the English word " + english + " is in two places");
  }
  source_words_.push_back(english);
  entries_.push_back({kind, index, past});
  return static_cast<std::int32_t>(source_words_.size() - 1);
}

std::int32_t TranslateGenerator::target_word(const std::string& korean, bool particle) {
  if (std::find(target_words_.begin(), target_words_.end(), korean) != target_words_.end()) {
    throw std::logic_error("translate grammar: the Korean word " + korean + " is in two places");
  }
  target_words_.push_back(korean);
  particle_.push_back(particle ? 1 : 0);
  return static_cast<std::int32_t>(target_words_.size() - 1);
}

std::int32_t TranslateGenerator::id_of(const char* english) const {
  const auto found = std::find(source_words_.begin(), source_words_.end(), english);
  if (found == source_words_.end()) throw std::logic_error(std::string("translate grammar: unknown word ") + english);
  return static_cast<std::int32_t>(found - source_words_.begin());
}

// The vocabularies in the order of source_groups (articles, prepositions,
// adjectives, people, verbs, adverbs, things, places, time nouns), the
// particles first on the Korean side; then what fits what, by row.
TranslateGenerator::TranslateGenerator() {
  the_ = source_word("the", Kind::Article, 0);
  a_ = source_word("a", Kind::Article, 1);
  an_ = source_word("an", Kind::Article, 2);
  in_ = source_word("in", Kind::Preposition, 0);
  source_word("at", Kind::Preposition, 1);
  source_word("on", Kind::Preposition, 2);
  subject_consonant_ = target_word("이", true), subject_vowel_ = target_word("가", true);
  object_consonant_ = target_word("을", true), object_vowel_ = target_word("를", true);
  place_particle_ = target_word("에서", true), time_particle_ = target_word("에", true);

  const auto add = [this](const auto& table, Kind kind, std::vector<std::int32_t>& source,
                          std::vector<std::int32_t>& target) {
    for (std::size_t row = 0; row < count_of(table); ++row) {
      source.push_back(source_word(table[row].english, kind, static_cast<int>(row)));
      target.push_back(target_word(table[row].korean));
    }
  };
  add(kAdjectives, Kind::Adjective, adjective_source_, adjective_target_);
  add(kPersons, Kind::Person, person_source_, person_target_);
  for (std::size_t row = 0; row < count_of(kVerbs); ++row) {
    for (int past = 0; past < 2; ++past) {
      verb_source_[past].push_back(source_word(past ? kVerbs[row].past : kVerbs[row].present, Kind::Verb,
                                               static_cast<int>(row), past != 0));
      verb_target_[past].push_back(target_word(past ? kVerbs[row].korean_past : kVerbs[row].korean_present));
    }
  }
  add(kAdverbs, Kind::Adverb, adverb_source_, adverb_target_);
  add(kThings, Kind::Thing, thing_source_, thing_target_);
  add(kPlaces, Kind::Place, place_source_, place_target_);
  for (std::size_t row = 0; row < count_of(kTimes); ++row) {
    std::vector<std::string> words = split_words(kTimes[row].english);
    std::vector<std::int32_t> phrase;
    for (std::size_t i = 0; i + 1 < words.size(); ++i) phrase.push_back(id_of(words[i].c_str()));
    phrase.push_back(source_word(words.back(), Kind::TimeNoun, static_cast<int>(row)));
    time_source_.push_back(phrase);
    time_target_.push_back(target_word(kTimes[row].korean));
  }

  // Rows by English word, for the lists of what fits.
  const auto rows = [this](const char* list, Kind kind) {
    std::vector<int> found;
    for (const std::string& word : split_words(list)) {
      const Entry& entry = entries_[id_of(word.c_str())];
      if (entry.kind != kind) throw std::logic_error("translate grammar: " + word + " is in the wrong list");
      found.push_back(entry.index);
    }
    return found;
  };
  person_adjectives_ = rows(kPersonAdjectives, Kind::Adjective);
  for (const Thing& thing : kThings) thing_adjectives_.push_back(rows(thing.adjectives, Kind::Adjective));
  for (const Verb& verb : kVerbs) {
    verb_objects_.push_back(rows(verb.objects, Kind::Thing));
    verb_places_.push_back(rows(verb.places, Kind::Place));
    std::vector<AdverbChoice> adverbs;
    for (int adverb : rows(verb.adverbs_before, Kind::Adverb)) adverbs.push_back({adverb, true});
    for (int adverb : rows(verb.adverbs_after, Kind::Adverb)) adverbs.push_back({adverb, false});
    verb_adverbs_.push_back(adverbs);
  }
}

std::vector<VocabularyGroup> TranslateGenerator::groups() const {
  const std::vector<std::pair<const char*, Kind>> names = {
      {"ARTICLE", Kind::Article}, {"PREPOSITION", Kind::Preposition}, {"ADJECTIVE", Kind::Adjective},
      {"PERSON", Kind::Person},   {"VERB", Kind::Verb},               {"ADVERB", Kind::Adverb},
      {"THING", Kind::Thing},     {"PLACE", Kind::Place},             {"TIME", Kind::TimeNoun}};
  std::vector<VocabularyGroup> groups;
  for (const auto& [name, kind] : names) {
    VocabularyGroup group{name, {}};
    for (std::size_t id = 0; id < entries_.size(); ++id)
      if (entries_[id].kind == kind) group.words.push_back(source_words_[id]);
    groups.push_back(group);
  }
  return groups;
}

// The longest sentence has every optional word: a time phrase, two noun
// phrases with adjectives, an adverb and a place.
std::size_t TranslateGenerator::max_source_length() const {
  std::size_t longest_time = 0;
  for (const auto& phrase : time_source_) longest_time = std::max(longest_time, phrase.size());
  return longest_time + 3 /* the young student */ + 1 /* adverb */ + 1 /* verb */ + 3 /* an old book */ +
         3 /* in the library */;
}

std::size_t TranslateGenerator::max_target_length() const {
  return 2 /* 아침 에 */ + 3 /* 젊은 학생 이 */ + 2 /* 도서관 에서 */ + 3 /* 오래된 책 을 */ + 1 /* adverb */ +
         1 /* verb */;
}

// One sentence, each choice uniform among those that fit, each optional word
// present with probability 1/2, in this order of draws.
void TranslateGenerator::draw_any(Rng& rng, SequenceExample& example) const {
  const auto coin = [&rng] { return draw_index(rng, 2) == 0; };
  const auto pick = [&rng](const auto& list) { return list[draw_index(rng, list.size())]; };
  Sentence s;
  s.subject.definite = coin();
  if (coin()) s.subject.adjective = pick(person_adjectives_);
  s.subject.noun = static_cast<int>(draw_index(rng, count_of(kPersons)));
  s.verb = static_cast<int>(draw_index(rng, count_of(kVerbs)));
  const Verb& verb = kVerbs[s.verb];
  if (verb.takes_time && coin()) {
    s.time = static_cast<int>(draw_index(rng, count_of(kTimes)));
    s.time_first = coin();
  }
  s.past = (s.time >= 0 && kTimes[s.time].tense == Tense::Past) || coin();
  s.has_object = !verb_objects_[s.verb].empty();
  if (s.has_object) {
    s.object.definite = coin();
    s.object.noun = pick(verb_objects_[s.verb]);
    if (coin()) s.object.adjective = pick(thing_adjectives_[s.object.noun]);
  }
  if (!verb_adverbs_[s.verb].empty() && coin()) {
    const AdverbChoice choice = pick(verb_adverbs_[s.verb]);
    s.adverb = choice.adverb, s.adverb_before = choice.before;
  }
  if (!verb_places_[s.verb].empty() && coin()) s.place = pick(verb_places_[s.verb]);
  write(s, example);
}

// The English words in the order of the pattern, the position of each word
// that translates; then the Korean in its order, each token with the source
// position it translates (-1 for a particle).
void TranslateGenerator::write(const Sentence& s, SequenceExample& example) const {
  auto& source = example.source;
  source.clear();
  const auto put = [&source](std::int32_t id) {
    source.push_back(id);
    return static_cast<std::int32_t>(source.size() - 1);
  };
  const auto put_time = [&] {
    for (std::int32_t id : time_source_[s.time]) put(id);
    return static_cast<std::int32_t>(source.size() - 1);  // the time noun ends the phrase
  };
  // the|a|an [ADJECTIVE] NOUN: "an" before a word that starts with a vowel.
  struct Placed {
    std::int32_t adjective = -1, noun = -1;
  };
  const auto put_noun_phrase = [&](const NounPhrase& phrase, std::int32_t noun_id) {
    const std::int32_t next = phrase.adjective >= 0 ? adjective_source_[phrase.adjective] : noun_id;
    const bool vowel = std::string("aeiou").find(source_words_[next][0]) != std::string::npos;
    put(phrase.definite ? the_ : vowel ? an_ : a_);
    Placed placed;
    if (phrase.adjective >= 0) placed.adjective = put(adjective_source_[phrase.adjective]);
    placed.noun = put(noun_id);
    return placed;
  };

  std::int32_t time_at = -1, adverb_at = -1, place_at = -1;
  if (s.time >= 0 && s.time_first) time_at = put_time();
  const Placed subject = put_noun_phrase(s.subject, person_source_[s.subject.noun]);
  if (s.adverb >= 0 && s.adverb_before) adverb_at = put(adverb_source_[s.adverb]);
  const std::int32_t verb_at = put(verb_source_[s.past][s.verb]);
  Placed object;
  if (s.has_object) object = put_noun_phrase(s.object, thing_source_[s.object.noun]);
  if (s.adverb >= 0 && !s.adverb_before) adverb_at = put(adverb_source_[s.adverb]);
  if (s.place >= 0) put(in_), put(the_), place_at = put(place_source_[s.place]);
  if (s.time >= 0 && !s.time_first) time_at = put_time();

  example.target.clear(), example.alignment.clear(), example.counted.clear();
  const auto say = [&example](std::int32_t id, std::int32_t aligned) {
    example.target.push_back(id), example.alignment.push_back(aligned);
  };
  const auto say_noun = [&](std::int32_t noun_id, std::int32_t aligned, std::int32_t after_consonant,
                            std::int32_t after_vowel) {
    say(noun_id, aligned);
    say(ends_with_consonant(target_words_[noun_id]) ? after_consonant : after_vowel, -1);
  };
  if (s.time >= 0) {
    say(time_target_[s.time], time_at);
    if (kTimes[s.time].particle) say(time_particle_, -1);
  }
  if (s.subject.adjective >= 0) say(adjective_target_[s.subject.adjective], subject.adjective);
  say_noun(person_target_[s.subject.noun], subject.noun, subject_consonant_, subject_vowel_);
  if (s.place >= 0) say(place_target_[s.place], place_at), say(place_particle_, -1);
  if (s.has_object) {
    if (s.object.adjective >= 0) say(adjective_target_[s.object.adjective], object.adjective);
    say_noun(thing_target_[s.object.noun], object.noun, object_consonant_, object_vowel_);
  }
  if (s.adverb >= 0) say(adverb_target_[s.adverb], adverb_at);
  say(verb_target_[s.past][s.verb], verb_at);
}

// The grammar read left to right (each optional part taken when its first
// word is there); typed sentences need not follow the fitting rules of the
// draws, only the grammar and a verb's object (a verb that takes none has
// none; the others have one).
Sentence TranslateGenerator::parse(std::span<const std::int32_t> source) const {
  std::size_t at = 0;
  const auto is = [&](std::size_t i, Kind kind) { return i < source.size() && entries_[source[i]].kind == kind; };
  const auto expected = [&](const std::string& what, const std::string& note = "") {
    std::string read, got = at < source.size() ? "\"" + source_words_[source[at]] + "\"" : "nothing";
    for (std::size_t i = 0; i < at; ++i) read += (i ? " " : "") + source_words_[source[i]];
    sentence_error("expected " + what + (at ? " after \"" + read + "\"" : " first") + note + ", got " + got +
                   "; sentences follow: " + kPattern);
  };
  const auto time_here = [&]() -> int {
    for (std::size_t row = 0; row < time_source_.size(); ++row) {
      const auto& phrase = time_source_[row];
      if (at + phrase.size() <= source.size() && std::equal(phrase.begin(), phrase.end(), source.begin() + at)) {
        at += phrase.size();
        return static_cast<int>(row);
      }
    }
    return -1;
  };
  const auto noun_phrase = [&](Kind noun, const char* noun_name) {
    NounPhrase phrase;
    if (!is(at, Kind::Article)) expected("an article (the, a, an)");
    phrase.definite = source[at++] == the_;
    if (is(at, Kind::Adjective)) phrase.adjective = entries_[source[at++]].index;
    if (!is(at, noun)) expected(std::string(phrase.adjective < 0 ? "an adjective or " : "") + noun_name);
    phrase.noun = entries_[source[at++]].index;
    return phrase;
  };

  Sentence s;
  s.time = time_here();
  s.time_first = s.time >= 0;
  s.subject = noun_phrase(Kind::Person, "a person (student, teacher, ...)");
  if (is(at, Kind::Adverb)) s.adverb = entries_[source[at++]].index, s.adverb_before = true;
  if (!is(at, Kind::Verb)) expected(s.adverb < 0 ? "an adverb or a verb" : "a verb");
  s.verb = entries_[source[at]].index, s.past = entries_[source[at]].past, ++at;
  s.has_object = !verb_objects_[s.verb].empty();
  if (s.has_object) s.object = noun_phrase(Kind::Thing, "a thing (book, letter, ...)");
  if (s.adverb < 0 && is(at, Kind::Adverb)) s.adverb = entries_[source[at++]].index;
  if (at + 2 < source.size() && source[at] == in_ && source[at + 1] == the_ && is(at + 2, Kind::Place)) {
    s.place = entries_[source[at + 2]].index, at += 3;
  }
  if (s.time < 0) s.time = time_here();
  if (at < source.size()) {
    std::string what;
    if (s.adverb < 0 && s.place < 0) what += "an adverb, ";
    if (s.place < 0) what += "\"in the\" and a place, ";
    if (s.time < 0) what += "a time, ";
    if (!what.empty()) what.replace(what.size() - 2, 2, " or ");
    const bool object_given = !s.has_object && is(at, Kind::Article);
    expected(what + "the end of the sentence",
             object_given ? " (\"" + source_words_[verb_source_[s.past][s.verb]] + "\" takes no object)" : "");
  }
  return s;
}

}  // namespace

SequenceTaskData make_translate_data(const SequenceTaskOptions& options) {
  auto generator = std::make_shared<TranslateGenerator>();
  SequenceTaskData data;
  data.options = options;
  data.name = "translate";
  data.source_vocabulary = generator->source_vocabulary();
  data.target_vocabulary = generator->target_vocabulary();
  data.attaches = generator->particles();
  data.max_source_length = generator->max_source_length();
  data.max_target_length = generator->max_target_length();
  data.source_groups = generator->groups();
  data.source_pattern = kPattern;
  data.probe = generator->example_of(
      generator->read_words("the young student read an old book quietly in the library yesterday"));
  data.generator = std::move(generator);
  data.held_out_seed = 0x7a5c0de2ULL;
  return data;
}

}  // namespace attn::training
