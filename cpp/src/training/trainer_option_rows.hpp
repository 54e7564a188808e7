// trainer_option_rows.hpp (internal) — the rows of the trainer's option table
// with their accessors to TrainerOptions, and the check that walks them
// (attn::resolve_options is it over the table's rows; a test walks a table
// changed by a row to see a rule that no option of today's table exercises).
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "attn/trainer_options.hpp"

namespace attn::detail {

struct TrainerOptionRow {
  TrainerOption option;
  // The value in the options (nullopt: not given).
  std::optional<OptionValue> (*get)(const TrainerOptions&);
  // Stores a value already checked (its kind, its range).
  void (*store)(TrainerOptions&, const OptionValue&);
};

const std::vector<TrainerOptionRow>& trainer_option_rows();

TrainerOptions resolve_options_with(std::span<const TrainerOptionRow> rows, const TrainerOptions& options,
                                    OptionNames names);

}  // namespace attn::detail
