// attn/attn.hpp — the public API of the attention core: everything an
// application needs. (attn/testing.hpp adds what tests and benchmarks use:
// the kernel variants, the tiled path's block sizes.)
#pragma once

#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "attn/learning.hpp"
#include "attn/mask.hpp"
#include "attn/multi_head.hpp"
#include "attn/positional_encoding.hpp"
#include "attn/random.hpp"
#include "attn/reference.hpp"
#include "attn/saturation.hpp"
#include "attn/scores.hpp"
#include "attn/shapes.hpp"
#include "attn/softmax.hpp"
