// batching.hpp (internal) — a task's examples (sequence_task.hpp) as the Batch
// a model of the engine trains on (models/batch.hpp), with the token ids of
// models/vocabulary.hpp, and a model's ids back to the task's words.
//
// Sequence to sequence (rnn, bahdanau, luong, transformer), example b with
// source s_0..s_(m-1) and target y_0..y_(n-1):
//   source   s_0 .. s_(m-1), 0 ...            the task's source ids as they are
//   input    BOS, 2+y_0, ..., 2+y_(n-1), 0 ... (teacher forcing)
//   output   2+y_0, ..., 2+y_(n-1), EOS, 0 ...
//   counted  the example's counted per target position (all when empty), then EOS
//            (counted only when the example counts every position), then 0
// Decoder only (decoder), one sequence x = source, SEP, target, EOS:
//   x        2+s_0 .. 2+s_(m-1), SEP, y'_0 .. y'_(n-1), EOS, with y' = 2+V_s+y
//            (2+y when the task shares its vocabulary: a copied word keeps its id)
//   input    x_0 .. x_(L-2), 0 ...;   output  x_1 .. x_(L-1), 0 ...
//   counted  at the outputs that are target words (per the example's counted)
//            and EOS (as above); never on the source part or SEP
//   induction (no source): x = SEP, the sequence, EOS, counted on the second
//   occurrence after its first letter.
// Padding is 0 everywhere (never counted, never attended: the lengths say
// where each example ends).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "models/batch.hpp"
#include "training/sequence_task.hpp"

namespace attn::training {

enum class ModelLayout { SequenceToSequence, DecoderOnly };

// What a model's token id stands for.
struct TokenMeaning {
  enum class Kind { Start, End, SourceWord, TargetWord };  // Start: BOS (seq2seq) or SEP (decoder)
  Kind kind = Kind::Start;
  std::int32_t word = -1;  // the task's word id (SourceWord, TargetWord)
};

// How a task's word ids become a model's token ids, and back.
class TokenIds {
 public:
  TokenIds(ModelLayout layout, std::size_t source_words, std::size_t target_words, bool shared);
  static TokenIds of(const SequenceTask& task, ModelLayout layout);

  ModelLayout layout() const { return layout_; }
  std::size_t source_words() const { return source_words_; }  // the task's V_s and V_t
  std::size_t target_words() const { return target_words_; }
  // For ModelConfig: the encoder's input ids (seq2seq: V_s; decoder-only: 0, no encoder)
  // and the decoder's input and output ids (seq2seq: 2 + V_t; decoder-only:
  // 2 + V_s + V_t, or 2 + V_s when shared).
  std::size_t source_vocabulary() const;
  std::size_t output_vocabulary() const;

  std::int32_t source_id(std::int32_t word) const;  // seq2seq: word; decoder-only: 2 + word
  std::int32_t target_id(std::int32_t word) const;  // seq2seq: 2 + word; decoder-only: as x above
  // An id of the decoder's vocabulary -> what it is; ValueError naming `id`
  // outside 0 .. output_vocabulary() - 1. A shared word reads as TargetWord.
  TokenMeaning meaning(std::int32_t id) const;
  // The target word of a generated id, or -1 if it is no target word (BOS,
  // SEP, EOS, a decoder's source word).
  std::int32_t target_word(std::int32_t id) const;
  // What a decoder-only model reads before it writes the target: the source
  // ids then SEP (induction: SEP alone). Into `ids`.
  void prompt(std::span<const std::int32_t> source, std::vector<std::int32_t>& ids) const;

 private:
  ModelLayout layout_;
  std::size_t source_words_, target_words_;
  bool shared_;
};

// The longest decoder sequence T of any batch of the task (ModelConfig's
// max_target_length): seq2seq max_target + 1 (BOS or EOS beside the target);
// decoder-only max_source + 1 + max_target (the inputs before EOS).
std::size_t longest_decoder_sequence(const SequenceTask& task, ModelLayout layout);

// examples -> batch, padded to the longest example (decoder-only: no source,
// source_length 0 and source_lengths all 0). The batch's vectors are
// reused (no allocation once they have grown). ValueError naming
// examples[b] and the part: a word id out of range, `counted` neither empty
// nor one per target word, an empty source for a sequence-to-sequence model;
// no examples at all.
void fill_batch(std::span<const SequenceExample> examples, const TokenIds& ids, models::Batch& batch);

}  // namespace attn::training
