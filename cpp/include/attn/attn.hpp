// attn/attn.hpp — the whole public API of the attention core.
#pragma once

#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "attn/kernels.hpp"
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
