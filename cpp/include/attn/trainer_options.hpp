// attn/trainer_options.hpp — the trainer's options and their rules, in one
// table: each option's name (as TrainerOptions and as the JavaScript API spell
// it), its kind, its range or choices, its default for each task and model,
// and the models and tasks it applies to. The trainer checks its options with
// it (Trainer's constructor: resolve_options), the bindings set options by
// name with it and hand it to JavaScript (createTrainer checks kinds and
// unknown names with it), and every message about an option comes from it.
// An option is a row here and a field in TrainerOptions.
//
// The rules, for every option of every model:
//   - an option given to a model or task it does not apply to is an
//     OptionError naming it ("window: applies to model 'luong' only, not to
//     model 'attention'"), as is a choice not in its list;
//   - a value out of its range is a ValueError naming it, its range and the
//     value as given ("learningRate: expected a number above 0 and at most 1,
//     got -0.01": numbers are shown as JavaScript writes them, never rounded
//     to float first);
//   - the options that depend on each other (heads divides dModel; AdamW's
//     learningRate * weightDecay < 1) blame the one the caller gave.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "attn/tasks.hpp"

namespace attn {

// The models the trainer teaches: 'attention' is attn/seq2seq_model.hpp (one
// cross-attention layer over learned target positions, on the fixed-length
// tasks of attn/tasks.hpp); the others are the model engine's
// (cpp/src/models/: rnn, bahdanau, luong, transformer, decoder), on the tasks
// of cpp/src/training/sequence_task.hpp.
enum class ModelKind { Attention, Rnn, Bahdanau, Luong, Transformer, Decoder };

// luong's score: h_t^T h_s, h_t^T W_a h_s, v_a^T tanh(W_a [h_t; h_s]) (Luong et al. 2015).
enum class LuongScore { Dot, General, Concat };
// luong's window: every source position, or a Gaussian around a predicted one (local-p).
enum class AttentionWindow { Global, Local };
// The transformers' positions: added sinusoids, a learned table, or none.
enum class PositionKind { Sinusoidal, Learned, None };

struct TrainerOptions {
  TaskKind task = TaskKind::Reverse;
  std::uint64_t seed = 1;
  ModelKind model = ModelKind::Attention;
  // Omitted: the table's default for the task and model (filled in by resolve_options).
  std::optional<std::size_t> heads;          // attention heads, a divisor of d_model
  std::optional<std::size_t> d_model;        // the model's width
  std::optional<bool> scale;                 // scores times 1/sqrt(d_k), or not scaled
  std::optional<double> learning_rate;       // Adam's α (trained as a float)
  std::optional<std::size_t> batch_size;     // examples per step
  std::optional<double> weight_decay;        // AdamW's λ (trained as a float)
  // The model engine's options (each applies to some models: the table says which).
  std::optional<std::size_t> source_length;   // reverse: the digits of a source
  std::optional<LuongScore> score;            // luong
  std::optional<AttentionWindow> window;      // luong
  std::optional<bool> input_feeding;          // luong: h~_(t-1) fed to the next step
  std::optional<std::size_t> layers;          // transformer, decoder
  std::optional<PositionKind> positions;      // transformer, decoder
  std::optional<bool> causal;                 // decoder: the causal mask in training
  std::optional<bool> attention_only;         // decoder: no MLP, no LayerNorm
};

// How an option's value travels by name (the bindings): Flag -> bool; Count
// and Number -> double; Choice -> its name; Seed -> its decimal digits (a
// 64-bit seed does not fit a double).
using OptionValue = std::variant<bool, double, std::string>;

enum class OptionKind { Choice, Count, Number, Flag, Seed };

// Which spelling messages use: TrainerOptions' (d_model) or the JavaScript API's (dModel).
enum class OptionNames { Cpp, JavaScript };

struct TrainerOption {
  const char* name;   // as the JavaScript API spells it: "learningRate"
  const char* field;  // as TrainerOptions spells it: "learning_rate"
  OptionKind kind;
  const char* meaning;                // one line, for documentation
  std::vector<std::string> choices;   // Choice: the names, in the order of the enum
  // Count and Number: the range, inclusive; minimum excluded when minimum_excluded.
  double minimum = 0.0, maximum = 0.0;
  bool minimum_excluded = false;
  bool required = false;              // by name, it must be given (task, seed); no default
  std::vector<ModelKind> models;      // the models it applies to; empty: every model
  std::vector<TaskKind> tasks;        // the tasks it applies to; empty: every task
  // The default for a task and model (nullopt for a required option).
  std::optional<OptionValue> (*default_for)(TaskKind task, ModelKind model);

  const char* spelled(OptionNames names) const { return names == OptionNames::Cpp ? field : name; }
  bool applies_to(TaskKind task, ModelKind model) const;
};

// Every option, in the order createTrainer documents them.
std::span<const TrainerOption> trainer_option_table();

// The row of `name` (the JavaScript spelling), or null.
const TrainerOption* find_trainer_option(std::string_view name);

// The names of a task and a model, as the table's choices spell them.
std::string_view task_name(TaskKind task);
std::string_view model_name(ModelKind model);

// `options` checked by the table (each given option applies to the task and
// model, and is in its range), the omitted ones filled with their defaults
// (learning_rate and weight_decay as the floats they train with), and the
// options that depend on each other checked. Errors name the option in the
// spelling `names` asks for: OptionError (inapplicable), ValueError (out of
// range; learning_rate * weight_decay >= 1), ShapeError (heads does not
// divide d_model).
TrainerOptions resolve_options(const TrainerOptions& options, OptionNames names = OptionNames::Cpp);

// The value of the option called `name` (JavaScript spelling) in `options`,
// or nullopt when it is not given (an omitted optional field).
std::optional<OptionValue> get_trainer_option(const TrainerOptions& options, std::string_view name);

// Sets the option called `name` (JavaScript spelling) from `value`: OptionError
// for an unknown name or a value of the wrong kind, else as the row's set.
void set_trainer_option(TrainerOptions& options, std::string_view name, const OptionValue& value);

}  // namespace attn
