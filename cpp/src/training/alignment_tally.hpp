// alignment_tally.hpp (internal) — the counts behind attn::AlignmentAgreement,
// shared by both kinds of trainer (trainer.cpp: the 'attention' model against
// its task's fixed alignment; engine_trainer.cpp: the engine's models against
// each example's reference).
#pragma once

#include <cstddef>

#include "attn/trainer.hpp"

namespace attn::training {

class AlignmentTally {
 public:
  // One aligned target position: its strongest source, and the reference's.
  void add(std::size_t strongest, std::size_t reference) {
    ++positions_;
    on_ += strongest == reference;
    one_right_ += strongest == reference + 1;
  }

  // agreement = on / positions, one_right = one right / positions (0 of 0 positions: 0).
  AlignmentAgreement result(std::size_t examples) const {
    const auto share = [&](std::size_t k) {
      return positions_ == 0 ? 0.0 : static_cast<double>(k) / static_cast<double>(positions_);
    };
    return {.agreement = share(on_), .one_right = share(one_right_), .positions = positions_, .examples = examples};
  }

 private:
  std::size_t positions_ = 0, on_ = 0, one_right_ = 0;
};

}  // namespace attn::training
