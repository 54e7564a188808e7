// The trainer's option table (attn/trainer_options.hpp): each option checked
// by its row, messages that name the option the caller gave in the caller's
// spelling and show the value as given, the rules a future row inherits
// (an option that does not apply to the task or model), options set by name
// as the bindings set them, and what a trainer needs (Trainer::footprint)
// against the memory it really holds.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <set>
#include <string>
#include <vector>

// The heap is counted with glibc's mallinfo2, which sees nothing of the blocks
// AddressSanitizer's own allocator hands out: under ASan those checks are left out.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define ATTN_UNDER_ASAN 1
#endif
#if defined(__GLIBC__) && !defined(ATTN_UNDER_ASAN)
#define ATTN_HEAP_COUNTED 1
#include <malloc.h>
#endif

namespace {
#if defined(ATTN_HEAP_COUNTED)
// Bytes in use on the heap: small blocks, and the large ones glibc maps on their own.
std::size_t in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}
#endif
}  // namespace

#include "attn/error.hpp"
#include "attn/trainer.hpp"
#include "training/trainer_option_rows.hpp"
#include "validation.hpp"

namespace {

using attn::OptionNames;

// The message of the error `call` throws, if it is an `Error`; else a note saying what happened.
template <class Error, class Call>
std::string message_of(Call&& call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("(another error) ") + e.what();
  }
  return "(no error)";
}

attn::TrainerOptions with(void (*change)(attn::TrainerOptions&)) {
  attn::TrainerOptions o;
  change(o);
  return o;
}

TEST(TrainerOptions, NumbersAreShownAsJavaScriptWritesThem) {
  using attn::detail::number_text;
  const std::pair<double, const char*> cases[] = {
      {-0.01, "-0.01"}, {0.1 + 0.2, "0.30000000000000004"}, {1e30, "1e+30"}, {1e21, "1e+21"},
      {1e20, "100000000000000000000"}, {123.456, "123.456"}, {1e-6, "0.000001"}, {1e-7, "1e-7"},
      {1.5e-7, "1.5e-7"}, {5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
      {-0.0, "0"}, {2048, "2048"}, {static_cast<double>(0.01f), "0.009999999776482582"},
      {std::nan(""), "NaN"}, {-INFINITY, "-Infinity"},
  };
  for (const auto& [value, text] : cases) EXPECT_EQ(number_text(value), text);
}

TEST(TrainerOptions, EachOptionOutOfRangeNamesItselfAndTheValueAsGiven) {
  const auto error = [](void (*change)(attn::TrainerOptions&), OptionNames names = OptionNames::Cpp) {
    return message_of<attn::ValueError>([&] { attn::Trainer{with(change), names}; });
  };
  EXPECT_EQ(error([](auto& o) { o.learning_rate = -0.01; }),
            "learning_rate: expected a number above 0 and at most 1, got -0.01");
  EXPECT_EQ(error([](auto& o) { o.learning_rate = -0.01; }, OptionNames::JavaScript),
            "learningRate: expected a number above 0 and at most 1, got -0.01");
  // A rate far too large is named itself (it was weightDecay's fault before: 1e30 * 0.5 >= 1).
  EXPECT_EQ(error([](auto& o) { o.learning_rate = 1e30; }, OptionNames::JavaScript),
            "learningRate: expected a number above 0 and at most 1, got 1e+30");
  EXPECT_EQ(error([](auto& o) { o.learning_rate = 1e-46; }, OptionNames::JavaScript),
            "learningRate: expected a number above 0 and at most 1, got 1e-46 (0 as a float, the precision the "
            "trainer computes in)");
  EXPECT_EQ(error([](auto& o) { o.learning_rate = std::nan(""); }), "learning_rate: expected a number above 0 and at most 1, got NaN");
  EXPECT_EQ(error([](auto& o) { o.d_model = 2000; }), "d_model: expected an integer from 1 to 1024, got 2000");
  EXPECT_EQ(error([](auto& o) { o.d_model = 2000; }, OptionNames::JavaScript),
            "dModel: expected an integer from 1 to 1024, got 2000");
  EXPECT_EQ(error([](auto& o) { o.batch_size = 0; }), "batch_size: expected an integer from 1 to 4096, got 0");
  EXPECT_EQ(error([](auto& o) { o.heads = 0; }), "heads: expected an integer from 1 to 1024, got 0");
  EXPECT_EQ(error([](auto& o) { o.weight_decay = -1; }), "weight_decay: expected a number at least 0, got -1");
  // Options that depend on each other: the one given is named, the other shown as given or as its default.
  EXPECT_EQ(error([](auto& o) { o.learning_rate = 0.5, o.weight_decay = 3; }, OptionNames::JavaScript),
            "weightDecay: expected learningRate * weightDecay < 1 (learningRate 0.5), got 3");
  EXPECT_EQ(error([](auto& o) { o.weight_decay = 100.5; }),
            "weight_decay: expected learning_rate * weight_decay < 1 (learning_rate 0.01, its default), got 100.5");
  EXPECT_EQ(message_of<attn::ShapeError>([] { attn::Trainer{with([](auto& o) { o.heads = 3; }), OptionNames::JavaScript}; }),
            "heads: expected a divisor of dModel = 32, got 3");
  // The largest rate of the range trains: it takes steps (a rate accepted must train).
  attn::Trainer fastest(with([](auto& o) { o.learning_rate = 1.0, o.weight_decay = 0.0; }));
  EXPECT_EQ(fastest.step(50).step, 50u);
}

TEST(TrainerOptions, AnOptionThatDoesNotApplyIsNamed) {
  // Today every option applies to every task and model: the rule is shown on
  // the table with one row changed, as a task- or model-specific row will be.
  std::vector<attn::detail::TrainerOptionRow> rows = attn::detail::trainer_option_rows();
  for (auto& row : rows) {
    if (std::string(row.option.name) == "batchSize") row.option.tasks = {attn::TaskKind::Translate};
  }
  const auto resolve = [&](attn::TaskKind task, std::optional<std::size_t> batch) {
    attn::TrainerOptions o;
    o.task = task, o.batch_size = batch;
    return attn::detail::resolve_options_with(rows, o, OptionNames::JavaScript);
  };
  EXPECT_EQ(message_of<attn::OptionError>([&] { resolve(attn::TaskKind::Reverse, 8); }),
            "batchSize: applies to task 'translate' only, not to task 'reverse'");
  // Not given where it does not apply: not filled in either. Given where it applies: kept.
  EXPECT_FALSE(resolve(attn::TaskKind::Reverse, std::nullopt).batch_size.has_value());
  EXPECT_EQ(*resolve(attn::TaskKind::Translate, 8).batch_size, 8u);
  EXPECT_EQ(*resolve(attn::TaskKind::Translate, std::nullopt).batch_size, 32u);
}

TEST(TrainerOptions, TheTableDescribesEveryOptionOnce) {
  std::set<std::string> names, fields;
  const attn::TrainerOptions defaults = attn::Trainer::defaults(attn::TaskKind::Translate);
  for (const attn::TrainerOption& o : attn::trainer_option_table()) {
    EXPECT_TRUE(names.insert(o.name).second) << o.name;
    EXPECT_TRUE(fields.insert(o.field).second) << o.field;
    EXPECT_EQ(attn::find_trainer_option(o.name), &o);
    // Every option that applies has a value once the defaults are filled in, no other has; a required
    // one has no default.
    EXPECT_EQ(attn::get_trainer_option(defaults, o.name).has_value(),
              o.applies_to(attn::TaskKind::Translate, attn::ModelKind::Attention))
        << o.name;
    EXPECT_EQ(o.required, !o.default_for(attn::TaskKind::Translate, attn::ModelKind::Attention).has_value()) << o.name;
    if (o.kind == attn::OptionKind::Choice) EXPECT_FALSE(o.choices.empty()) << o.name;
  }
  EXPECT_EQ(names, (std::set<std::string>{"task", "seed", "model", "heads", "dModel", "scale", "learningRate",
                                          "batchSize", "weightDecay", "sourceLength", "score", "window",
                                          "inputFeeding", "layers", "positions", "causal", "attentionOnly"}));
  EXPECT_EQ(attn::find_trainer_option("learning_rate"), nullptr) << "found by the JavaScript name only";
}

TEST(TrainerOptions, SetByNameAsTheBindingsDo) {
  attn::TrainerOptions o;
  attn::set_trainer_option(o, "task", std::string("translate"));
  attn::set_trainer_option(o, "seed", std::string("18446744073709551615"));
  attn::set_trainer_option(o, "dModel", 64.0);
  attn::set_trainer_option(o, "scale", false);
  attn::set_trainer_option(o, "learningRate", 0.02);
  EXPECT_EQ(o.task, attn::TaskKind::Translate);
  EXPECT_EQ(o.seed, 18446744073709551615ull);
  EXPECT_EQ(*o.d_model, 64u);
  EXPECT_FALSE(*o.scale);
  EXPECT_EQ(*o.learning_rate, 0.02) << "kept as given; resolve_options makes it the float it trains with";
  EXPECT_EQ(*attn::resolve_options(o).learning_rate, static_cast<double>(0.02f));
  EXPECT_FALSE(attn::get_trainer_option(o, "heads").has_value());

  const auto set = [&](const char* name, attn::OptionValue value) {
    return message_of<attn::Error>([&] { attn::set_trainer_option(o, name, value); });
  };
  EXPECT_EQ(set("task", std::string("sort")), "task: expected 'reverse', 'translate' or 'induction', got 'sort'");
  EXPECT_EQ(set("model", std::string("gpt")),
            "model: expected 'attention', 'rnn', 'bahdanau', 'luong', 'transformer' or 'decoder', got 'gpt'");
  EXPECT_EQ(set("seed", std::string("18446744073709551616")),
            "seed: expected an integer from 0 to 18446744073709551615, got 18446744073709551616");
  EXPECT_EQ(set("seed", std::string("-1")), "seed: expected an integer from 0 to 18446744073709551615, got '-1'");
  EXPECT_EQ(set("dModel", 1.5), "dModel: expected an integer from 1 to 1024, got 1.5");
  EXPECT_EQ(set("dModel", 1e300), "dModel: expected an integer from 1 to 1024, got 1e+300");
  EXPECT_EQ(set("dModel", std::string("64")), "dModel: expected an integer, got '64'");
  EXPECT_EQ(set("scale", 1.0), "scale: expected true or false, got 1");
  EXPECT_EQ(set("learningrate", 0.1), "options: expected 'task', 'seed', 'model', 'heads', 'dModel', 'scale', "
                                      "'learningRate', 'batchSize', 'weightDecay', 'sourceLength', 'score', 'window', "
                                      "'inputFeeding', 'layers', 'positions', 'causal' or 'attentionOnly', got an "
                                      "unknown option 'learningrate'");
  // The kinds and unknown names are OptionErrors (TypeError in JavaScript); ranges ValueErrors.
  EXPECT_THROW(attn::set_trainer_option(o, "dModel", std::string("64")), attn::OptionError);
  EXPECT_THROW(attn::set_trainer_option(o, "dModel", 0.0), attn::ValueError);
  EXPECT_EQ(*o.d_model, 64u) << "a refused value changes nothing";
}

// The engine's options apply to the models they name: given to another model, an OptionError naming it.
TEST(TrainerOptions, EachEngineOptionAppliesToItsModelsOnly) {
  const auto resolve = [](attn::TrainerOptions o) { return attn::resolve_options(o, OptionNames::JavaScript); };
  attn::TrainerOptions o;
  o.model = attn::ModelKind::Transformer;
  o.score = attn::LuongScore::General;
  EXPECT_EQ(message_of<attn::OptionError>([&] { resolve(o); }),
            "score: applies to model 'luong' only, not to model 'transformer'");
  o = {};
  o.model = attn::ModelKind::Bahdanau;
  o.heads = 2;
  EXPECT_EQ(message_of<attn::OptionError>([&] { resolve(o); }),
            "heads: applies to model 'attention', 'transformer' or 'decoder' only, not to model 'bahdanau'");
  o = {};
  o.layers = 2;
  EXPECT_EQ(message_of<attn::OptionError>([&] { resolve(o); }),
            "layers: applies to model 'transformer' or 'decoder' only, not to model 'attention'");
  o = {};
  o.model = attn::ModelKind::Transformer;
  o.task = attn::TaskKind::Translate;
  o.source_length = 12;
  EXPECT_EQ(message_of<attn::OptionError>([&] { resolve(o); }),
            "sourceLength: applies to task 'reverse' only, not to task 'translate'");
  o = {};
  o.source_length = 12;  // the 'attention' model's reverse is 8 digits, always
  EXPECT_NE(message_of<attn::OptionError>([&] { resolve(o); }).find("sourceLength: applies to model 'rnn'"),
            std::string::npos);
  // induction is one sequence: the decoder-only model's.
  o = {};
  o.task = attn::TaskKind::Induction;
  o.model = attn::ModelKind::Transformer;
  EXPECT_EQ(message_of<attn::OptionError>([&] { resolve(o); }),
            "task: 'induction' (one sequence, no source) is learned by model 'decoder' only, not by model 'transformer'");
  o.model = attn::ModelKind::Decoder;
  EXPECT_EQ(resolve(o).task, attn::TaskKind::Induction);
  // The engine's widths stop at 256.
  o = {};
  o.model = attn::ModelKind::Rnn;
  o.d_model = 512;
  EXPECT_EQ(message_of<attn::ValueError>([&] { resolve(o); }),
            "dModel: expected an integer from 1 to 256 for model 'rnn', got 512");
  // Defaults per model: what applies is filled in, nothing else.
  o = {};
  o.model = attn::ModelKind::Luong;
  const attn::TrainerOptions luong = resolve(o);
  EXPECT_EQ(*luong.score, attn::LuongScore::Dot);
  EXPECT_EQ(*luong.window, attn::AttentionWindow::Global);
  EXPECT_TRUE(*luong.input_feeding);
  EXPECT_EQ(*luong.source_length, 8u);
  EXPECT_FALSE(luong.heads.has_value());
  EXPECT_FALSE(luong.layers.has_value());
  o = {};
  o.model = attn::ModelKind::Decoder;
  const attn::TrainerOptions decoder = resolve(o);
  EXPECT_TRUE(*decoder.causal);
  EXPECT_FALSE(*decoder.attention_only);
  EXPECT_EQ(*decoder.positions, attn::PositionKind::Sinusoidal);
  EXPECT_FALSE(decoder.score.has_value());
}

TEST(TrainerOptions, FootprintCountsTheParametersAndTheMemoryATrainerHolds) {
  for (const auto& [task, d_model, heads, batch] :
       std::vector<std::tuple<attn::TaskKind, std::size_t, std::size_t, std::size_t>>{
           {attn::TaskKind::Reverse, 32, 2, 32}, {attn::TaskKind::Translate, 128, 4, 8}, {attn::TaskKind::Translate, 8, 1, 256}}) {
    attn::TrainerOptions o;
    o.task = task, o.d_model = d_model, o.heads = heads, o.batch_size = batch;
    const attn::TrainerFootprint need = attn::Trainer::footprint(o);
#if defined(ATTN_HEAP_COUNTED)
    const std::size_t before = in_use();
#endif
    attn::Trainer trainer(o);
    EXPECT_EQ(need.parameters, trainer.model().layout().total);
    trainer.step(2);
    trainer.evaluate();
    trainer.probe();
#if defined(ATTN_HEAP_COUNTED)
    // What it holds after every kind of call is within what footprint counts,
    // which adds only evaluate()'s passing copies (and rounding of blocks).
    const std::size_t held = in_use() - before;
    EXPECT_LE(static_cast<double>(held), need.bytes) << d_model << " x " << batch;
    EXPECT_GE(static_cast<double>(held), need.bytes * 3 / 4) << d_model << " x " << batch;
#endif
  }
  attn::TrainerOptions bad;
  bad.heads = 3;
  EXPECT_THROW(attn::Trainer::footprint(bad), attn::ShapeError);
}

}  // namespace

namespace {

// The engine's footprint is measured on the model: the heap a trainer holds
// after it has stepped, evaluated and been read stays within it, and near it.
TEST(TrainerOptions, FootprintOfTheEngineModelsIsTheMemoryTheyHold) {
  for (attn::ModelKind model : {attn::ModelKind::Rnn, attn::ModelKind::Bahdanau, attn::ModelKind::Luong,
                                attn::ModelKind::Transformer, attn::ModelKind::Decoder}) {
    attn::TrainerOptions o;
    o.model = model;
    o.task = attn::TaskKind::Translate;
    o.d_model = 32;
    const attn::TrainerFootprint need = attn::Trainer::footprint(o);
    EXPECT_GT(need.step_work, 0.0);
    EXPECT_GT(need.evaluate_work, need.step_work);
#if defined(ATTN_HEAP_COUNTED)
    const std::size_t before = in_use();
#endif
    attn::Trainer trainer(o);
    EXPECT_EQ(need.parameters, trainer.parameter_values().size());
    trainer.step(2);
    trainer.evaluate();
    trainer.probe();
#if defined(ATTN_HEAP_COUNTED)
    const std::size_t held = in_use() - before;
    EXPECT_LE(static_cast<double>(held), need.bytes) << attn::model_name(model);
    EXPECT_GE(static_cast<double>(held), need.bytes * 2 / 5) << attn::model_name(model);
#endif
  }
}

}  // namespace
