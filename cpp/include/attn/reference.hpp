// attn/reference.hpp — the scalar reference: plain loops, accumulation in
// double. It is the ground truth every fast path is tested against, and the
// baseline of the benchmarks. Same contract as attn::attention.
#pragma once

#include "attn/attention.hpp"

namespace attn::reference {

AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options = {});

}  // namespace attn::reference
