// Fuzz target: the sqrt(d_k) experiment (attn::saturation) with small options,
// zero ones and huge ones.
//
// Oracles:
// - only documented errors; a dimension of 0 and work beyond the limit are
//   refused at once (libFuzzer's timeout catches a loop over them)
// - every statistic finite and within its range, for raw and scaled logits:
//   max weight in [1/keys, 1], entropy in [0, ln keys], gradient
//   sum p (1 - p) in [0, 1 - 1/keys], saturated share in [0, 1], logit std >= 0
// - the same options give the same result, bit for bit (the seeded stream)
#include <cstdint>
#include <cstring>

#include "attention_call.hpp"

using namespace attn_fuzz;

namespace {

void require_in(double x, double low, double high, const char* name) {
  const double slack = 1e-12;
  if (!(x >= low - slack && x <= high + slack)) finding("%s = %.17g is outside [%g, %g]", name, x, low, high);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  attn::SaturationOptions options;
  options.d_k = in.dimension_or_huge(64);
  options.queries = in.dimension_or_huge(8);
  options.keys = in.dimension_or_huge(8);
  options.trials = in.byte() % 32 == 31 ? std::size_t{1} << 40 : in.dimension_or_huge(8);
  options.seed = (std::uint64_t{in.byte()} << 56) | (std::uint64_t{in.byte()} << 8) | in.byte();

  attn::SaturationResult r;
  if (!documented([&] { r = attn::saturation(options); })) return 0;
  const double keys = static_cast<double>(options.keys);
  for (const auto& [name, s] : {std::pair{"raw", 0}, std::pair{"scaled", 1}}) {
    const bool raw = s == 0;
    const auto pick = [raw](const attn::RawScaled& x) { return raw ? x.raw : x.scaled; };
    require_in(pick(r.max_weight), 1.0 / keys, 1.0, name);
    require_in(pick(r.entropy), 0.0, std::log(keys), name);
    require_in(pick(r.gradient), 0.0, 1.0 - 1.0 / keys, name);
    require_in(pick(r.saturated_share), 0.0, 1.0, name);
  }
  require(std::isfinite(r.logit_std) && r.logit_std >= 0, "logit_std is not a finite number >= 0");
  const attn::SaturationResult again = attn::saturation(options);
  require(std::memcmp(&again, &r, sizeof r) == 0, "saturation: the same options gave another result");
  return 0;
}
