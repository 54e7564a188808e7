// batch.hpp (internal) — what every model of the engine trains and evaluates
// on: B examples, padded to the longest of the batch, with the ids of the
// model's own vocabularies (vocabulary.hpp).
//
// Sequence to sequence (rnn, bahdanau, luong, transformer):
//   source          B x S    the source ids, 0 after each source's end (S = the longest source)
//   source_lengths  B        real tokens of each source (>= 1); attention never weighs the padding
//   input           B x T    the decoder's input at each position: BOS, y_1, ..., y_(T-1)  (teacher forcing)
//   output          B x T    what each position must predict: y_1, ..., y_n, EOS, then 0 padding
//   counted         B x T    1 where the loss counts the position (the target and its EOS), 0 on padding
// Decoder only (decoder): one sequence per example, no source (S = 0):
//   input   = x_0 ... x_(L-1)   with x = source, SEP, target (sequence tasks) or the task's sequence
//   output  = x_1 ... x_L        (the next token at each position), counted on the target part only
//             (and, for induction, on the repeated segment after its first token)
//
// Rows are (example, position), example-major: row b * T + t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn::models {

struct Batch {
  std::size_t size = 0;           // B
  std::size_t source_length = 0;  // S (0 for decoder-only)
  std::size_t target_length = 0;  // T
  std::vector<std::int32_t> source;          // B x S
  std::vector<std::int32_t> source_lengths;  // B
  std::vector<std::int32_t> input;           // B x T
  std::vector<std::int32_t> output;          // B x T
  std::vector<unsigned char> counted;        // B x T
  std::vector<std::int32_t> target_lengths;  // B: positions before the padding (the target and EOS)
};

}  // namespace attn::models
