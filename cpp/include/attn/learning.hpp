// attn/learning.hpp — the differentiable core and what learns with it:
//   attn/backward.hpp             attention backward (reference, SIMD, tiled) and the tiled forward with L
//   attn/multi_head_backward.hpp  multi-head backward through W_Q, W_K, W_V, W_O
//   attn/layers.hpp               embedding + positional encoding, linear, softmax cross-entropy
//   attn/adam.hpp                 Adam / AdamW
//   attn/tasks.hpp                the reverse and translate tasks
//   attn/seq2seq_model.hpp        the one-attention-layer model
//   attn/trainer_options.hpp      the trainer's options and their rules, in one table
//   attn/trainer.hpp              the trainer (createTrainer in JavaScript)
#pragma once

#include "attn/adam.hpp"
#include "attn/backward.hpp"
#include "attn/layers.hpp"
#include "attn/multi_head_backward.hpp"
#include "attn/seq2seq_model.hpp"
#include "attn/tasks.hpp"
#include "attn/trainer.hpp"
#include "attn/trainer_options.hpp"
