// gradient_clipping.hpp (internal) — clipping by global norm (Pascanu et al.
// 2013; torch.nn.utils.clip_grad_norm_): when the gradients of all parameters,
// taken as one vector, are longer than max_norm, scale them all by the same
// factor so that the vector's length is max_norm:
//
//   N = sqrt(Σ_i g_i²);   g_i <- g_i · max_norm / N   when N > max_norm
//
// One step's direction is kept; only a step the loss's cliffs (a recurrent
// model's exploding gradients) would make too long is shortened. Returns N,
// computed in double (a float sum of 10^5 squares would overflow or lose the
// small ones). N is infinite or NaN when a gradient is: then nothing is scaled
// and the caller reports divergence.
#pragma once

#include <span>

namespace attn::training {

double clip_by_global_norm(std::span<float> gradients, double max_norm);

}  // namespace attn::training
