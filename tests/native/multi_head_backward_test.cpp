// The multi-head backward pass (attn/multi_head_backward.hpp): the double
// reference against central finite differences of a double forward pass, self
// and cross attention, with masks; the SIMD path against the reference on odd
// shapes; bad grad_output.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "attn/error.hpp"
#include "attn/multi_head_backward.hpp"
#include "attn/random.hpp"
#include "double_forward.hpp"
#include "gradient_check.hpp"
#include "test_support.hpp"

namespace {

using attn_test::gradient_matches;
using attn_test::kDoubleGradientTolerance;
using attn_test::to_double;

// Owns the arrays a MultiHeadInputs points into.
struct MultiHeadCase {
  std::size_t n, m, d_model, heads;
  bool cross;
  attn::Mask mask;
  std::vector<float> x, context, w_q, w_k, w_v, w_o, grad_output;

  MultiHeadCase(std::size_t n_, std::size_t m_, std::size_t d_model_, std::size_t heads_, bool cross_,
                attn::Mask mask_, attn::Rng& rng)
      : n(n_), m(cross_ ? m_ : n_), d_model(d_model_), heads(heads_), cross(cross_), mask(std::move(mask_)) {
    const double w_std = 1.0 / std::sqrt(static_cast<double>(d_model));
    x = rng.normal_matrix(n, d_model);
    if (cross) context = rng.normal_matrix(m, d_model);
    w_q = rng.normal_matrix(d_model, d_model, w_std), w_k = rng.normal_matrix(d_model, d_model, w_std);
    w_v = rng.normal_matrix(d_model, d_model, w_std), w_o = rng.normal_matrix(d_model, d_model, w_std);
    grad_output = rng.normal_matrix(n, d_model);
  }
  attn::MultiHeadInputs inputs() const {
    attn::MultiHeadInputs in;
    in.x = x, in.context = context, in.n = n, in.m = cross ? m : 0, in.d_model = d_model, in.heads = heads;
    in.w_q = w_q, in.w_k = w_k, in.w_v = w_v, in.w_o = w_o, in.mask = mask;
    return in;
  }
  std::string name() const {
    return std::string(cross ? "cross" : "self") + " n=" + std::to_string(n) + " m=" + std::to_string(m) +
           " d_model=" + std::to_string(d_model) + " heads=" + std::to_string(heads) + " mask kind " +
           std::to_string(static_cast<int>(mask.kind));
  }
};

std::vector<std::uint8_t> keep_with_blind_row(std::size_t n, std::size_t m, std::size_t blind_row) {
  std::vector<std::uint8_t> keep(n * m);
  for (std::size_t i = 0; i < n * m; ++i) keep[i] = (i * 7 + 3) % 5 != 0;
  for (std::size_t j = 0; j < m; ++j) keep[blind_row * m + j] = 0;
  return keep;
}

TEST(MultiHeadBackward, ReferenceMatchesFiniteDifferences) {
  attn::Rng rng(810);
  std::vector<MultiHeadCase> cases;
  cases.emplace_back(1, 1, 1, 1, false, attn::Mask::none(), rng);
  cases.emplace_back(4, 4, 4, 2, false, attn::Mask::causal(), rng);
  cases.emplace_back(3, 5, 6, 3, true, attn::Mask::key_padding(3), rng);
  cases.emplace_back(5, 3, 6, 2, true, attn::Mask::explicit_keep(keep_with_blind_row(5, 3, 1)), rng);
  cases.emplace_back(3, 3, 5, 1, false, attn::Mask::none(), rng);
  for (const MultiHeadCase& c : cases) {
    SCOPED_TRACE(c.name());
    const attn::MultiHeadInputs in = c.inputs();
    const auto analytic = attn::reference::multi_head_backward(in, c.grad_output);
    const auto keep = attn::keep_matrix(c.mask, c.n, c.m);
    const double scale = 1.0 / std::sqrt(static_cast<double>(c.d_model / c.heads));
    std::vector<double> x = to_double(c.x), context = to_double(c.context);
    std::vector<double> w_q = to_double(c.w_q), w_k = to_double(c.w_k), w_v = to_double(c.w_v), w_o = to_double(c.w_o);
    const std::vector<double> grad_output = to_double(c.grad_output);
    const auto loss = [&] {
      const std::vector<double>& keys = c.cross ? context : x;
      return attn_test::dot_double(grad_output, attn_test::multi_head_double(x, keys, w_q, w_k, w_v, w_o, c.n, c.m,
                                                                             c.d_model, c.heads, scale, keep));
    };
    EXPECT_TRUE(gradient_matches(analytic.x, attn_test::numeric_gradient(x, loss), kDoubleGradientTolerance)) << "x";
    if (c.cross) {
      EXPECT_TRUE(gradient_matches(analytic.context, attn_test::numeric_gradient(context, loss),
                                   kDoubleGradientTolerance))
          << "context";
    } else {
      EXPECT_TRUE(analytic.context.empty());
    }
    EXPECT_TRUE(gradient_matches(analytic.w_q, attn_test::numeric_gradient(w_q, loss), kDoubleGradientTolerance));
    EXPECT_TRUE(gradient_matches(analytic.w_k, attn_test::numeric_gradient(w_k, loss), kDoubleGradientTolerance));
    EXPECT_TRUE(gradient_matches(analytic.w_v, attn_test::numeric_gradient(w_v, loss), kDoubleGradientTolerance));
    EXPECT_TRUE(gradient_matches(analytic.w_o, attn_test::numeric_gradient(w_o, loss), kDoubleGradientTolerance));
  }
}

TEST(MultiHeadBackward, SimdPathMatchesTheReference) {
  using attn_test::all_close;
  attn::Rng rng(811);
  const std::size_t lengths[] = {1, 3, 7, 9, 17};
  const std::size_t widths[][2] = {{8, 2}, {12, 3}, {5, 1}, {16, 4}, {33, 3}};
  std::size_t index = 0;
  for (std::size_t n : lengths) {
    for (std::size_t m : lengths) {
      const auto [d_model, heads] = std::pair{widths[index % 5][0], widths[index % 5][1]};
      ++index;
      const bool cross = n != m;
      const attn::Mask masks[] = {attn::Mask::none(), cross ? attn::Mask::key_padding(m / 2) : attn::Mask::causal()};
      for (const attn::Mask& mask : masks) {
        const MultiHeadCase c(n, m, d_model, heads, cross, mask, rng);
        const auto expected = attn::reference::multi_head_backward(c.inputs(), c.grad_output);
        const auto actual = attn::multi_head_backward(c.inputs(), c.grad_output);
        SCOPED_TRACE(c.name());
        EXPECT_TRUE(all_close(actual.x, expected.x)) << "x";
        EXPECT_TRUE(all_close(actual.context, expected.context)) << "context";
        EXPECT_TRUE(all_close(actual.w_q, expected.w_q)) << "w_q";
        EXPECT_TRUE(all_close(actual.w_k, expected.w_k)) << "w_k";
        EXPECT_TRUE(all_close(actual.w_v, expected.w_v)) << "w_v";
        EXPECT_TRUE(all_close(actual.w_o, expected.w_o)) << "w_o";
      }
    }
  }
}

TEST(MultiHeadBackward, BadInputNamesTheArgument) {
  using attn_test::throws_with_message;
  attn::Rng rng(812);
  MultiHeadCase c(3, 2, 4, 2, true, attn::Mask::none(), rng);
  for (auto backward : {&attn::multi_head_backward, &attn::reference::multi_head_backward}) {
    std::vector<float> short_grad = c.grad_output;
    short_grad.pop_back();
    EXPECT_TRUE(throws_with_message<attn::ShapeError>([&] { backward(c.inputs(), short_grad); },
                                                      {"grad_output: expected n*d_model = 3*4 = 12 floats, got 11"}));
    std::vector<float> inf_grad = c.grad_output;
    inf_grad[7] = std::numeric_limits<float>::infinity();
    EXPECT_TRUE(throws_with_message<attn::ValueError>([&] { backward(c.inputs(), inf_grad); },
                                                      {"grad_output[7]: expected a finite number, got inf"}));
    attn::MultiHeadInputs bad = c.inputs();
    bad.heads = 3;  // the forward pass's own check
    EXPECT_TRUE(throws_with_message<attn::ShapeError>([&] { backward(bad, c.grad_output); },
                                                      {"heads: expected a divisor of d_model = 4, got 3"}));
  }
}

}  // namespace
