// trainer_options.cpp — the table of the trainer's options and the checks
// made with it (attn/trainer_options.hpp).
#include "attn/trainer_options.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "attn/error.hpp"
#include "trainer_option_rows.hpp"
#include "validation.hpp"

namespace attn {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr const char* kLargestSeed = "18446744073709551615";  // 2^64 - 1

// The choices of the enums, in their order.
const std::vector<std::string> kTaskNames = {"reverse", "translate", "induction"};
const std::vector<std::string> kModelNames = {"attention", "rnn", "bahdanau", "luong", "transformer", "decoder"};
const std::vector<std::string> kScoreNames = {"dot", "general", "concat"};
const std::vector<std::string> kWindowNames = {"global", "local"};
const std::vector<std::string> kPositionNames = {"sinusoidal", "learned", "none"};

const std::vector<ModelKind> kEngine = {ModelKind::Rnn, ModelKind::Bahdanau, ModelKind::Luong, ModelKind::Transformer,
                                        ModelKind::Decoder};
const std::vector<ModelKind> kWithHeads = {ModelKind::Attention, ModelKind::Transformer, ModelKind::Decoder};
const std::vector<ModelKind> kTransformers = {ModelKind::Transformer, ModelKind::Decoder};

constexpr std::size_t kLargestEngineWidth = 256;  // dModel of the engine's models

bool recurrent(ModelKind m) { return m == ModelKind::Rnn || m == ModelKind::Bahdanau || m == ModelKind::Luong; }

// ---- how each row reads and writes its field of TrainerOptions --------------------

template <auto Field>
std::optional<OptionValue> get_field(const TrainerOptions& o) {
  const auto& value = o.*Field;
  if (!value) return std::nullopt;
  if constexpr (std::is_same_v<std::decay_t<decltype(*value)>, bool>) return OptionValue(*value);
  else return OptionValue(static_cast<double>(*value));
}

// (Every store receives a value already checked: its kind, its range.)
template <auto Field>
void store_field(TrainerOptions& o, const OptionValue& value) {
  using T = typename std::decay_t<decltype(o.*Field)>::value_type;
  if constexpr (std::is_same_v<T, bool>) o.*Field = std::get<bool>(value);
  else o.*Field = static_cast<T>(std::get<double>(value));
}

// A choice's field: the enum itself (task, model: always given) or an optional
// enum (the options a caller may omit).
template <class Field>
struct ChoiceField {
  using Enum = Field;
  static std::optional<Field> get(const Field& value) { return value; }
};
template <class E>
struct ChoiceField<std::optional<E>> {
  using Enum = E;
  static std::optional<E> get(const std::optional<E>& value) { return value; }
};

template <auto Field, const std::vector<std::string>& Names>
std::optional<OptionValue> get_choice(const TrainerOptions& o) {
  using Access = ChoiceField<std::decay_t<decltype(o.*Field)>>;
  const auto value = Access::get(o.*Field);
  if (!value) return std::nullopt;
  return OptionValue(Names[static_cast<std::size_t>(*value)]);
}

template <auto Field, const std::vector<std::string>& Names>
void store_choice(TrainerOptions& o, const OptionValue& value) {
  using Enum = typename ChoiceField<std::decay_t<decltype(o.*Field)>>::Enum;
  const auto at = std::find(Names.begin(), Names.end(), std::get<std::string>(value));
  o.*Field = static_cast<Enum>(std::distance(Names.begin(), at));
}

std::optional<OptionValue> get_seed(const TrainerOptions& o) { return OptionValue(std::to_string(o.seed)); }
void store_seed(TrainerOptions& o, const OptionValue& value) { o.seed = std::stoull(std::get<std::string>(value)); }

// Defaults: a function of the task and the model.
#define ATTN_DEFAULT(value) +[](TaskKind, ModelKind) -> std::optional<OptionValue> { return OptionValue(value); }
std::optional<OptionValue> none(TaskKind, ModelKind) { return std::nullopt; }

// The one-layer 'attention' model's defaults were chosen by measurement,
// natively over seeds 1..100 (cpp/src/training/README.md): reverse reaches its
// targets for every seed, translate for 99, most within 100 steps. The
// engine's, by the measurements of cpp/src/models/README.md.
std::optional<OptionValue> default_heads(TaskKind, ModelKind m) {
  return OptionValue(m == ModelKind::Attention ? 2.0 : 4.0);
}
std::optional<OptionValue> default_d_model(TaskKind, ModelKind m) {
  return OptionValue(m == ModelKind::Attention ? 32.0 : 64.0);
}
std::optional<OptionValue> default_learning_rate(TaskKind, ModelKind m) {
  return OptionValue(m == ModelKind::Attention || recurrent(m) ? 0.01 : 0.003);
}
std::optional<OptionValue> default_weight_decay(TaskKind, ModelKind m) {
  return OptionValue(m == ModelKind::Attention ? 0.5 : 0.01);
}

using Row = detail::TrainerOptionRow;

const std::vector<Row>& table_rows() {
  static const std::vector<Row> table = {
      {{"task", "task", OptionKind::Choice,
        "what the model learns: digits reversed, a toy English -> Korean, or a repeated segment to complete",
        kTaskNames, 0, 0, false, true, {}, {}, &none},
       &get_choice<&TrainerOptions::task, kTaskNames>, &store_choice<&TrainerOptions::task, kTaskNames>},
      {{"seed", "seed", OptionKind::Seed, "the initial weights and every batch come from it",
        {}, 0, 18446744073709551615.0, false, true, {}, {}, &none},
       &get_seed, &store_seed},
      {{"model", "model", OptionKind::Choice,
        "the model: 'attention' (one cross-attention layer over learned target positions), 'rnn' (a GRU "
        "encoder-decoder, no attention), 'bahdanau', 'luong', 'transformer' or 'decoder' (decoder-only)",
        kModelNames, 0, 0, false, false, {}, {}, ATTN_DEFAULT(kModelNames[0])},
       &get_choice<&TrainerOptions::model, kModelNames>, &store_choice<&TrainerOptions::model, kModelNames>},
      {{"heads", "heads", OptionKind::Count, "attention heads, a divisor of dModel",
        {}, 1, 1024, false, false, kWithHeads, {}, &default_heads},
       &get_field<&TrainerOptions::heads>, &store_field<&TrainerOptions::heads>},
      {{"dModel", "d_model", OptionKind::Count, "the model's width (the recurrent models' hidden size)",
        {}, 1, 1024, false, false, {}, {}, &default_d_model},
       &get_field<&TrainerOptions::d_model>, &store_field<&TrainerOptions::d_model>},
      {{"scale", "scale", OptionKind::Flag, "scores times 1/sqrt(d_k) (true) or not scaled (false)",
        {}, 0, 0, false, false, kWithHeads, {}, ATTN_DEFAULT(true)},
       &get_field<&TrainerOptions::scale>, &store_field<&TrainerOptions::scale>},
      // At most 1: Adam moves every parameter by up to about the rate each
      // step. (Measured, dModel 32: 100 still took 1,000 steps, 1e4 diverged
      // within 50, 1e38 could not take one.)
      {{"learningRate", "learning_rate", OptionKind::Number, "Adam's step size",
        {}, 0, 1, true, false, {}, {}, &default_learning_rate},
       &get_field<&TrainerOptions::learning_rate>, &store_field<&TrainerOptions::learning_rate>},
      {{"batchSize", "batch_size", OptionKind::Count, "examples per step",
        {}, 1, 4096, false, false, {}, {}, ATTN_DEFAULT(32.0)},
       &get_field<&TrainerOptions::batch_size>, &store_field<&TrainerOptions::batch_size>},
      {{"weightDecay", "weight_decay", OptionKind::Number,
        "AdamW's decoupled weight decay (learningRate * weightDecay < 1; the engine's models decay their matrices only)",
        {}, 0, kInfinity, false, false, {}, {}, &default_weight_decay},
       &get_field<&TrainerOptions::weight_decay>, &store_field<&TrainerOptions::weight_decay>},
      {{"sourceLength", "source_length", OptionKind::Count, "reverse: the digits of each source",
        {}, 4, 32, false, false, kEngine, {TaskKind::Reverse}, ATTN_DEFAULT(8.0)},
       &get_field<&TrainerOptions::source_length>, &store_field<&TrainerOptions::source_length>},
      {{"score", "score", OptionKind::Choice, "luong's score: h_t.h_s, h_t W_a h_s, or v_a tanh(W_a [h_t; h_s])",
        kScoreNames, 0, 0, false, false, {ModelKind::Luong}, {}, ATTN_DEFAULT(kScoreNames[0])},
       &get_choice<&TrainerOptions::score, kScoreNames>, &store_choice<&TrainerOptions::score, kScoreNames>},
      {{"window", "window", OptionKind::Choice,
        "luong's window: every source position, or a Gaussian (sigma 1) around a predicted position (local-p)",
        kWindowNames, 0, 0, false, false, {ModelKind::Luong}, {}, ATTN_DEFAULT(kWindowNames[0])},
       &get_choice<&TrainerOptions::window, kWindowNames>, &store_choice<&TrainerOptions::window, kWindowNames>},
      {{"inputFeeding", "input_feeding", OptionKind::Flag, "luong: the attentional state h~_(t-1) fed to the next step",
        {}, 0, 0, false, false, {ModelKind::Luong}, {}, ATTN_DEFAULT(true)},
       &get_field<&TrainerOptions::input_feeding>, &store_field<&TrainerOptions::input_feeding>},
      {{"layers", "layers", OptionKind::Count, "the transformers' layers",
        {}, 1, 4, false, false, kTransformers, {}, ATTN_DEFAULT(2.0)},
       &get_field<&TrainerOptions::layers>, &store_field<&TrainerOptions::layers>},
      {{"positions", "positions", OptionKind::Choice, "the transformers' positions: added sinusoids, learned, or none",
        kPositionNames, 0, 0, false, false, kTransformers, {}, ATTN_DEFAULT(kPositionNames[0])},
       &get_choice<&TrainerOptions::positions, kPositionNames>,
       &store_choice<&TrainerOptions::positions, kPositionNames>},
      {{"causal", "causal", OptionKind::Flag,
        "decoder: the causal mask in training (generation is causal always: the future is not there yet)",
        {}, 0, 0, false, false, {ModelKind::Decoder}, {}, ATTN_DEFAULT(true)},
       &get_field<&TrainerOptions::causal>, &store_field<&TrainerOptions::causal>},
      {{"attentionOnly", "attention_only", OptionKind::Flag, "decoder: attention layers only, no MLP, no LayerNorm",
        {}, 0, 0, false, false, {ModelKind::Decoder}, {}, ATTN_DEFAULT(false)},
       &get_field<&TrainerOptions::attention_only>, &store_field<&TrainerOptions::attention_only>},
  };
  return table;
}
#undef ATTN_DEFAULT

const std::vector<TrainerOption>& options_table() {
  static const std::vector<TrainerOption> options = [] {
    std::vector<TrainerOption> o;
    for (const Row& row : table_rows()) o.push_back(row.option);
    return o;
  }();
  return options;
}

const Row& row_named(std::string_view name) {
  for (const Row& row : table_rows())
    if (name == row.option.name) return row;
  throw std::logic_error("trainer options: no option " + std::string(name));
}

// ---- messages --------------------------------------------------------------------

// 'text', shown and shortened as messages show text a caller gave (detail::quoted_excerpt).
std::string single_quoted(std::string_view text) {
  const std::string quoted = detail::quoted_excerpt(text);  // "..." or "..." (n bytes)
  const std::size_t close = quoted.rfind('"');
  return "'" + quoted.substr(1, close - 1) + "'" + quoted.substr(close + 1);
}

std::string value_text(const OptionValue& value) {
  if (const bool* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  if (const double* number = std::get_if<double>(&value)) return detail::number_text(*number);
  return single_quoted(std::get<std::string>(value));
}

// "'a', 'b' or 'c'"
std::string list_of(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("'" + names[i] + "'");
  }
  return text;
}

template <class Kind>
std::string list_of(const std::vector<Kind>& kinds, const std::vector<std::string>& names) {
  std::vector<std::string> listed;
  for (Kind kind : kinds) listed.push_back(names[static_cast<std::size_t>(kind)]);
  return list_of(listed);
}

bool in_range(const TrainerOption& o, double value) {
  return (o.minimum_excluded ? value > o.minimum : value >= o.minimum) && value <= o.maximum;
}

std::string range_text(const TrainerOption& o) {
  const std::string what = o.kind == OptionKind::Number ? "a number " : "an integer ";
  const std::string low = detail::number_text(o.minimum), high = detail::number_text(o.maximum);
  if (o.maximum == kInfinity) return what + (o.minimum_excluded ? "above " : "at least ") + low;
  if (o.minimum_excluded) return what + "above " + low + " and at most " + high;
  return what + "from " + low + " to " + high;
}

std::string kind_text(OptionKind kind) {
  switch (kind) {
    case OptionKind::Choice: return "a string";
    case OptionKind::Count: return "an integer";
    case OptionKind::Number: return "a number";
    case OptionKind::Flag: return "true or false";
    case OptionKind::Seed: return "an integer (its decimal digits)";
  }
  return "a value";
}

// OptionError (a choice not in the list) or ValueError (out of range) unless
// `value`, of the option's kind, is one it takes.
void check_value(const TrainerOption& o, const OptionValue& value, OptionNames names) {
  const std::string name = o.spelled(names);
  const auto out_of_range = [&](const std::string& after = "") {
    return ValueError(name + ": expected " + range_text(o) + ", got " + value_text(value) + after);
  };
  switch (o.kind) {
    case OptionKind::Choice:
      if (std::find(o.choices.begin(), o.choices.end(), std::get<std::string>(value)) == o.choices.end()) {
        throw OptionError(name + ": expected " + list_of(o.choices) + ", got " + value_text(value));
      }
      return;
    case OptionKind::Count: {
      const double given = std::get<double>(value);
      if (given != std::floor(given) || !in_range(o, given)) throw out_of_range();
      return;
    }
    case OptionKind::Number: {
      // Trained as a float: in range as the float it becomes too (1e-46 is 0).
      const double given = std::get<double>(value);
      if (!std::isfinite(given) || !in_range(o, given)) throw out_of_range();
      const double as_float = static_cast<float>(given);
      if (!std::isfinite(as_float) || !in_range(o, as_float)) {
        throw out_of_range(" (" + detail::number_text(as_float) + " as a float, the precision the trainer computes in)");
      }
      return;
    }
    case OptionKind::Flag:
      return;
    case OptionKind::Seed: {
      const std::string& digits = std::get<std::string>(value);
      const bool decimal = !digits.empty() && digits.size() <= 20 &&
                           std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!decimal || (digits.size() == 20 && digits > kLargestSeed)) {
        throw ValueError(name + ": expected an integer from 0 to " + kLargestSeed + ", got " +
                         (decimal ? digits : value_text(value)));
      }
      return;
    }
  }
}

}  // namespace

bool TrainerOption::applies_to(TaskKind task, ModelKind model) const {
  const bool to_model = models.empty() || std::find(models.begin(), models.end(), model) != models.end();
  const bool to_task = tasks.empty() || std::find(tasks.begin(), tasks.end(), task) != tasks.end();
  return to_model && to_task;
}

std::span<const TrainerOption> trainer_option_table() { return options_table(); }

const TrainerOption* find_trainer_option(std::string_view name) {
  for (const TrainerOption& o : options_table())
    if (name == o.name) return &o;
  return nullptr;
}

std::string_view task_name(TaskKind task) { return kTaskNames[static_cast<std::size_t>(task)]; }
std::string_view model_name(ModelKind model) { return kModelNames[static_cast<std::size_t>(model)]; }

std::optional<OptionValue> get_trainer_option(const TrainerOptions& options, std::string_view name) {
  return row_named(name).get(options);
}

void set_trainer_option(TrainerOptions& options, std::string_view name, const OptionValue& value) {
  const TrainerOption* o = find_trainer_option(name);
  if (o == nullptr) {
    std::vector<std::string> names;
    for (const TrainerOption& known : options_table()) names.emplace_back(known.name);
    throw OptionError("options: expected " + list_of(names) + ", got an unknown option " + single_quoted(name));
  }
  const bool number = o->kind == OptionKind::Count || o->kind == OptionKind::Number;
  const bool right_kind = o->kind == OptionKind::Flag ? std::holds_alternative<bool>(value)
                          : number                   ? std::holds_alternative<double>(value)
                                                     : std::holds_alternative<std::string>(value);
  if (!right_kind) throw OptionError(std::string(o->name) + ": expected " + kind_text(o->kind) + ", got " + value_text(value));
  check_value(*o, value, OptionNames::JavaScript);
  row_named(name).store(options, value);
}

namespace detail {

const std::vector<TrainerOptionRow>& trainer_option_rows() { return table_rows(); }

TrainerOptions resolve_options_with(std::span<const TrainerOptionRow> rows, const TrainerOptions& given,
                                    OptionNames names) {
  TrainerOptions o = given;
  for (const Row& row : rows) {
    const TrainerOption& option = row.option;
    const std::optional<OptionValue> value = row.get(o);
    const bool applies = option.applies_to(o.task, o.model);
    if (value && !applies) {
      const bool to_model = option.models.empty() ||
                            std::find(option.models.begin(), option.models.end(), o.model) != option.models.end();
      throw OptionError(std::string(option.spelled(names)) + ": applies to " +
                        (to_model ? "task " + list_of(option.tasks, kTaskNames) + " only, not to task '" +
                                        std::string(task_name(o.task))
                                  : "model " + list_of(option.models, kModelNames) + " only, not to model '" +
                                        std::string(model_name(o.model))) +
                        "'");
    }
    if (value) check_value(option, *value, names);
    const std::optional<OptionValue> filled = value ? value : applies ? option.default_for(o.task, o.model) : std::nullopt;
    if (!filled) continue;
    // Numbers as the floats they train with.
    row.store(o, option.kind == OptionKind::Number
                     ? OptionValue(static_cast<double>(static_cast<float>(std::get<double>(*filled))))
                     : *filled);
  }

  const auto spelled = [&](const char* name) { return std::string(find_trainer_option(name)->spelled(names)); };
  const std::string model_text = "model '" + std::string(model_name(o.model)) + "'";
  // induction is one sequence with no source: only a decoder-only model reads it.
  if (o.task == TaskKind::Induction && o.model != ModelKind::Decoder) {
    throw OptionError(spelled("task") + ": 'induction' (one sequence, no source) is learned by model 'decoder' only, not by " +
                      model_text);
  }
  // The model engine trains models small enough for a page: its widths stop at 256.
  if (o.model != ModelKind::Attention && *o.d_model > kLargestEngineWidth) {
    throw ValueError(spelled("dModel") + ": expected an integer from 1 to " + std::to_string(kLargestEngineWidth) +
                     " for " + model_text + ", got " + std::to_string(*o.d_model));
  }
  if (o.heads && *o.d_model % *o.heads != 0) {
    throw ShapeError(spelled("heads") + ": expected a divisor of " + spelled("dModel") + " = " +
                     std::to_string(*o.d_model) + ", got " + std::to_string(*o.heads));
  }
  // AdamW: θ (1 - α λ) needs α λ < 1, in float as Adam computes it. (With
  // learningRate at most 1 and weightDecay's default below 1, only a given
  // weightDecay can break it: it is the one named.)
  if (!(static_cast<float>(*o.learning_rate) * static_cast<float>(*o.weight_decay) < 1.0f)) {
    // (Shown as given, or as the table's default: not as the float they became.)
    const auto shown = [&](const std::optional<double>& value, const char* name) {
      return number_text(value ? *value : std::get<double>(*find_trainer_option(name)->default_for(o.task, o.model)));
    };
    throw ValueError(spelled("weightDecay") + ": expected " + spelled("learningRate") + " * " + spelled("weightDecay") +
                     " < 1 (" + spelled("learningRate") + " " + shown(given.learning_rate, "learningRate") +
                     (given.learning_rate ? "" : ", its default") + "), got " +
                     shown(given.weight_decay, "weightDecay"));
  }
  return o;
}

}  // namespace detail

TrainerOptions resolve_options(const TrainerOptions& options, OptionNames names) {
  return detail::resolve_options_with(detail::trainer_option_rows(), options, names);
}

}  // namespace attn
