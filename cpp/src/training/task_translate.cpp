// task_translate.cpp — the toy English -> Korean grammar of the translate task.
//
//   English (10 words, 6 tokens):
//     [ARTICLE ADJ_PERSON] [SUBJECT] [VERB] [ARTICLE ADJ_THING] [OBJECT] [in the PLACE]
//     [the young] [student] [reads] [an old] [book] [in the library]
//   Korean (6 tokens):
//     ADJ_PERSON SUBJECT+이/가 PLACE+에서 ADJ_THING OBJECT+을/를 VERB
//     젊은 학생이 도서관에서 오래된 책을 읽는다
//
// Korean token t translates English token {0, 1, 5, 3, 4, 2}[t]. The article
// goes with its adjective and "in the" with its place: every source token then
// carries something the Korean needs, so no token is a free "attention sink"
// (a model attends a constant word like "in" or "the" to read nothing, and
// its attention stops showing the alignment; see README.md here). A verb
// takes only objects that fit it, an object only adjectives that fit it, so
// every sentence reads as real English and real Korean.
#include <cctype>
#include <stdexcept>
#include <string>

#include "task_data.hpp"

namespace attn::detail {

namespace {

struct Word {
  const char* english;
  const char* korean;
};

constexpr Word kPersonAdjectives[] = {{"young", "젊은"}, {"kind", "착한"}, {"happy", "행복한"},
                                      {"busy", "바쁜"},  {"smart", "똑똑한"}, {"tired", "피곤한"}};
constexpr Word kSubjects[] = {{"student", "학생"}, {"teacher", "선생님"}, {"child", "아이"}, {"doctor", "의사"},
                              {"friend", "친구"},  {"farmer", "농부"},    {"girl", "소녀"},  {"boy", "소년"}};
struct Verb {
  const char* english;
  const char* korean;
  const char* objects;  // the objects it takes, by their English words
};
constexpr Verb kVerbs[] = {
    {"reads", "읽는다", "book letter newspaper"},
    {"eats", "먹는다", "apple bread cake"},
    {"writes", "쓴다", "letter book song"},
    {"draws", "그린다", "picture flower apple"},
    {"buys", "산다", "book newspaper apple bread cake flower"},
    {"likes", "좋아한다", "book letter newspaper apple bread cake song picture flower movie"},
    {"sings", "부른다", "song"},
    {"sees", "본다", "movie picture flower"},
    {"makes", "만든다", "cake bread"},
};
constexpr Word kThingAdjectives[] = {{"old", "오래된"}, {"new", "새"},  {"good", "좋은"},   {"red", "빨간"},
                                     {"sweet", "달콤한"}, {"long", "긴"}, {"famous", "유명한"}, {"beautiful", "아름다운"}};
struct Object {
  const char* english;
  const char* korean;
  const char* adjectives;  // the adjectives that fit it
};
constexpr Object kObjects[] = {
    {"book", "책", "old new good red long famous"},
    {"letter", "편지", "old new long beautiful"},
    {"newspaper", "신문", "old new good famous"},
    {"apple", "사과", "red sweet good"},
    {"bread", "빵", "sweet good"},
    {"cake", "케이크", "sweet red good beautiful"},
    {"song", "노래", "old new good long famous beautiful"},
    {"picture", "그림", "old new red good famous beautiful"},
    {"flower", "꽃", "red beautiful"},
    {"movie", "영화", "old new good long famous"},
};
constexpr Word kPlaces[] = {{"park", "공원"},     {"library", "도서관"}, {"school", "학교"},
                            {"house", "집"},      {"kitchen", "부엌"},   {"garden", "정원"}};

constexpr std::size_t count_of(const auto& table) { return sizeof table / sizeof table[0]; }

// Source ids, in the order of the pattern: two phrases per adjective ("the
// young", "a young"), then subjects, verbs, two phrases per thing adjective,
// objects, "in the PLACE".
constexpr std::int32_t kSourcePersonPhrase = 0;
constexpr std::int32_t kSourceSubject = kSourcePersonPhrase + 2 * count_of(kPersonAdjectives);
constexpr std::int32_t kSourceVerb = kSourceSubject + count_of(kSubjects);
constexpr std::int32_t kSourceThingPhrase = kSourceVerb + count_of(kVerbs);
constexpr std::int32_t kSourceObject = kSourceThingPhrase + 2 * count_of(kThingAdjectives);
constexpr std::int32_t kSourcePlace = kSourceObject + count_of(kObjects);
// Target ids, in the order of the Korean pattern.
constexpr std::int32_t kTargetPersonAdjective = 0;
constexpr std::int32_t kTargetSubject = kTargetPersonAdjective + count_of(kPersonAdjectives);
constexpr std::int32_t kTargetPlace = kTargetSubject + count_of(kSubjects);
constexpr std::int32_t kTargetThingAdjective = kTargetPlace + count_of(kPlaces);
constexpr std::int32_t kTargetObject = kTargetThingAdjective + count_of(kThingAdjectives);
constexpr std::int32_t kTargetVerb = kTargetObject + count_of(kObjects);

// Whether the last syllable of a Korean word has a final consonant (batchim):
// a Hangul syllable U+AC00 + 28 (21 initial + vowel) + final has final != 0.
bool ends_with_consonant(const std::string& korean) {
  // the last code point, three UTF-8 bytes for a Hangul syllable
  const auto* bytes = reinterpret_cast<const unsigned char*>(korean.data() + korean.size() - 3);
  const unsigned code = ((bytes[0] & 0x0Fu) << 12) | ((bytes[1] & 0x3Fu) << 6) | (bytes[2] & 0x3Fu);
  return code >= 0xAC00 && code <= 0xD7A3 && (code - 0xAC00) % 28 != 0;
}

std::string subject_form(const char* noun) { return noun + std::string(ends_with_consonant(noun) ? "이" : "가"); }
std::string object_form(const char* noun) { return noun + std::string(ends_with_consonant(noun) ? "을" : "를"); }

// "the young", "a young", "an old": "an" before a vowel.
std::string article_phrase(bool definite, const char* adjective) {
  const bool vowel = std::string("aeiou").find(adjective[0]) != std::string::npos;
  return std::string(definite ? "the " : vowel ? "an " : "a ") + adjective;
}

// The indices of the space-separated English words of `list` in `table`.
template <class Table>
std::vector<std::size_t> indices_of(const char* list, const Table& table) {
  std::vector<std::size_t> indices;
  std::string words = list;
  std::size_t start = 0;
  while (start < words.size()) {
    const std::size_t end = std::min(words.find(' ', start), words.size());
    const std::string word = words.substr(start, end - start);
    std::size_t index = 0;
    while (index < count_of(table) && word != table[index].english) ++index;
    if (index == count_of(table)) throw std::logic_error("translate grammar: unknown word " + word);
    indices.push_back(index);
    start = end + 1;
  }
  return indices;
}

// The choices that make one sentence.
struct Sentence {
  std::size_t person_adjective, subject, verb, thing_adjective, object, place;
  bool subject_definite, object_definite;
};

void write_sentence(const Sentence& s, std::int32_t* source, std::int32_t* target) {
  const auto id = [](std::int32_t base, std::size_t index) { return base + static_cast<std::int32_t>(index); };
  const std::int32_t english[6] = {id(kSourcePersonPhrase, 2 * s.person_adjective + (s.subject_definite ? 0 : 1)),
                                   id(kSourceSubject, s.subject),
                                   id(kSourceVerb, s.verb),
                                   id(kSourceThingPhrase, 2 * s.thing_adjective + (s.object_definite ? 0 : 1)),
                                   id(kSourceObject, s.object),
                                   id(kSourcePlace, s.place)};
  const std::int32_t korean[6] = {id(kTargetPersonAdjective, s.person_adjective), id(kTargetSubject, s.subject),
                                  id(kTargetPlace, s.place),  id(kTargetThingAdjective, s.thing_adjective),
                                  id(kTargetObject, s.object), id(kTargetVerb, s.verb)};
  std::copy(english, english + 6, source);
  std::copy(korean, korean + 6, target);
}

template <class Table>
std::vector<std::string> english_words(const Table& table) {
  std::vector<std::string> words;
  for (const auto& entry : table) words.push_back(entry.english);
  return words;
}

}  // namespace

TaskData make_translate_task() {
  TaskData task;
  task.kind = TaskKind::Translate;
  task.name = "translate";
  task.source_length = 6;
  task.target_length = 6;
  task.alignment = {0, 1, 5, 3, 4, 2};
  task.unit = "tokens";

  std::vector<std::string> person_phrases, thing_phrases, place_phrases;
  for (const Word& w : kPersonAdjectives)
    person_phrases.push_back(article_phrase(true, w.english)), person_phrases.push_back(article_phrase(false, w.english));
  for (const Word& w : kThingAdjectives)
    thing_phrases.push_back(article_phrase(true, w.english)), thing_phrases.push_back(article_phrase(false, w.english));
  for (const Word& w : kPlaces) place_phrases.push_back(std::string("in the ") + w.english);
  task.source_groups = {{"ARTICLE + ADJECTIVE (person)", person_phrases},
                        {"SUBJECT", english_words(kSubjects)},
                        {"VERB", english_words(kVerbs)},
                        {"ARTICLE + ADJECTIVE (thing)", thing_phrases},
                        {"OBJECT", english_words(kObjects)},
                        {"in the PLACE", place_phrases}};
  task.source_pattern = "the|a|an ADJECTIVE SUBJECT VERB the|a|an ADJECTIVE OBJECT in the PLACE";
  for (const WordGroup& group : task.source_groups)
    task.source_vocabulary.insert(task.source_vocabulary.end(), group.words.begin(), group.words.end());

  for (const Word& w : kPersonAdjectives) task.target_vocabulary.push_back(w.korean);
  for (const Word& w : kSubjects) task.target_vocabulary.push_back(subject_form(w.korean));
  for (const Word& w : kPlaces) task.target_vocabulary.push_back(w.korean + std::string("에서"));
  for (const Word& w : kThingAdjectives) task.target_vocabulary.push_back(w.korean);
  for (const Object& o : kObjects) task.target_vocabulary.push_back(object_form(o.korean));
  for (const Verb& v : kVerbs) task.target_vocabulary.push_back(v.korean);

  std::vector<std::vector<std::size_t>> objects_of_verb, adjectives_of_object;
  for (const Verb& v : kVerbs) objects_of_verb.push_back(indices_of(v.objects, kObjects));
  for (const Object& o : kObjects) adjectives_of_object.push_back(indices_of(o.adjectives, kThingAdjectives));

  // One draw: each choice uniform among those that fit, in this order.
  task.draw_any = [objects_of_verb, adjectives_of_object](Rng& rng, std::int32_t* source, std::int32_t* target) {
    Sentence s{};
    s.subject_definite = uniform_index(rng, 2) == 0;
    s.person_adjective = uniform_index(rng, count_of(kPersonAdjectives));
    s.subject = uniform_index(rng, count_of(kSubjects));
    s.verb = uniform_index(rng, count_of(kVerbs));
    s.object_definite = uniform_index(rng, 2) == 0;
    const auto& objects = objects_of_verb[s.verb];
    s.object = objects[uniform_index(rng, objects.size())];
    const auto& adjectives = adjectives_of_object[s.object];
    s.thing_adjective = adjectives[uniform_index(rng, adjectives.size())];
    s.place = uniform_index(rng, count_of(kPlaces));
    write_sentence(s, source, target);
  };

  // The probe: "the young student reads an old book in the library"
  task.probe.source.resize(6), task.probe.target.resize(6);
  write_sentence({0, 0, 0, 0, 0, 1, true, false}, task.probe.source.data(), task.probe.target.data());
  task.held_out_seed = 0x7a5c0de;
  task.held_out_count = 512;
  return task;
}

}  // namespace attn::detail
