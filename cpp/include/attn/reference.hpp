// attn/reference.hpp — the scalar reference: plain loops, accumulation in
// double. It is the ground truth every fast path is tested against, and the
// baseline of the benchmarks. Same contract as attn::attention.
#pragma once

#include "attn/attention.hpp"

namespace attn::reference {

// q n x d_k, k m x d_k, v m x d_v -> trace (n x m matrices, n x d_v output);
// same checks and errors as attn::attention. The exponentials, their sums and
// the weights in double, each rounded to float once.
AttentionTrace attention(FloatSpan q, FloatSpan k, FloatSpan v, const AttentionShape& shape,
                         const AttentionOptions& options = {}, TraceTerms terms = TraceTerms::Omitted);

// x (len) -> softmax(x) in double, in place: exp(x_j - max) / sum; -inf -> 0;
// a row of only -inf -> zeros. Returns the row's log-sum-exp,
// ln sum_j exp(x_j) = max + ln sum (-inf for a row of only -inf). No
// validation (the saturation experiment and the tests call it on values they made).
double softmax_row(double* x, std::size_t len);

}  // namespace attn::reference
