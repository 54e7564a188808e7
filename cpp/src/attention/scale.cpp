// scale.cpp — the factor that multiplies QK^T.
#include <cfloat>
#include <cmath>

#include "attn/attention.hpp"
#include "attn/error.hpp"
#include "validation.hpp"

namespace attn {

float Scale::factor(std::size_t d_k) const {
  switch (kind) {
    case Kind::InverseSqrtDk:
      detail::require_dimension("d_k", d_k);
      // 1/sqrt(d_k) keeps the variance of a score at about 1 when the entries
      // of q and k have variance 1 (article 000).
      return static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_k)));
    case Kind::None:
      return 1.0f;
    case Kind::Given:
      // A float must hold it: not above FLT_MAX (it would become inf), not so
      // small that it rounds to 0. The comparisons are false for NaN.
      if (!(given <= FLT_MAX && static_cast<float>(given) > 0.0f)) {
        throw ValueError("scale: expected a finite positive number from " + detail::describe_value(FLT_TRUE_MIN) +
                         " to " + detail::describe_value(FLT_MAX) + ", got " + detail::describe_value(given));
      }
      return static_cast<float>(given);
  }
  throw ValueError("scale.kind: expected InverseSqrtDk, None or Given, got " +
                   std::to_string(static_cast<int>(kind)));
}

}  // namespace attn
