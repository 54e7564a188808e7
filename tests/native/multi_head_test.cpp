// Multi-head attention, self and cross: against the same computation spelled
// out here (projections in double, each head by the reference, concat, W_O),
// and the identity case that must equal plain attention.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attn/multi_head.hpp"
#include "attn/random.hpp"
#include "attn/reference.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;

std::vector<float> identity(std::size_t d) {
  std::vector<float> eye(d * d, 0.0f);
  for (std::size_t i = 0; i < d; ++i) eye[i * d + i] = 1.0f;
  return eye;
}

// a (rows x inner) times b (inner x cols), in double, rounded to float
std::vector<float> matmul(const std::vector<float>& a, const std::vector<float>& b, std::size_t rows,
                          std::size_t inner, std::size_t cols) {
  std::vector<float> c(rows * cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t col = 0; col < cols; ++col) {
      double sum = 0;
      for (std::size_t i = 0; i < inner; ++i) sum += static_cast<double>(a[r * inner + i]) * b[i * cols + col];
      c[r * cols + col] = static_cast<float>(sum);
    }
  return c;
}

std::vector<float> columns(const std::vector<float>& matrix, std::size_t rows, std::size_t cols, std::size_t first,
                           std::size_t width) {
  std::vector<float> out;
  for (std::size_t r = 0; r < rows; ++r)
    out.insert(out.end(), matrix.begin() + r * cols + first, matrix.begin() + r * cols + first + width);
  return out;
}

struct Weights {
  std::vector<float> w_q, w_k, w_v, w_o;
};
Weights random_weights(attn::Rng& rng, std::size_t d_model) {
  const double stddev = 1.0 / std::sqrt(static_cast<double>(d_model));
  return {rng.normal_matrix(d_model, d_model, stddev), rng.normal_matrix(d_model, d_model, stddev),
          rng.normal_matrix(d_model, d_model, stddev), rng.normal_matrix(d_model, d_model, stddev)};
}

// The multi-head formula, step by step, with the reference attention per head.
attn::MultiHeadResult spelled_out(const attn::MultiHeadInputs& in, const std::vector<float>& x,
                                  const std::vector<float>& context, const Weights& w) {
  const std::size_t n = in.n, m = context.empty() ? in.n : in.m, d = in.d_model, d_head = d / in.heads;
  const std::vector<float>& c = context.empty() ? x : context;
  attn::MultiHeadResult r;
  r.q = matmul(x, w.w_q, n, d, d);
  r.k = matmul(c, w.w_k, m, d, d);
  r.v = matmul(c, w.w_v, m, d, d);
  r.concat.assign(n * d, 0.0f);
  attn::AttentionOptions options;
  options.mask = in.mask;
  for (std::size_t head = 0; head < in.heads; ++head) {
    const auto trace = attn::reference::attention(columns(r.q, n, d, head * d_head, d_head),
                                                  columns(r.k, m, d, head * d_head, d_head),
                                                  columns(r.v, m, d, head * d_head, d_head),
                                                  {n, m, d_head, d_head}, options);
    r.head_weights.push_back(trace.weights);
    for (std::size_t row = 0; row < n; ++row)
      for (std::size_t col = 0; col < d_head; ++col)
        r.concat[row * d + head * d_head + col] = trace.output[row * d_head + col];
  }
  r.output = matmul(r.concat, w.w_o, n, d, d);
  return r;
}

void expect_results_close(const attn::MultiHeadResult& actual, const attn::MultiHeadResult& expected) {
  EXPECT_TRUE(all_close(actual.q, expected.q));
  EXPECT_TRUE(all_close(actual.k, expected.k));
  EXPECT_TRUE(all_close(actual.v, expected.v));
  ASSERT_EQ(actual.head_weights.size(), expected.head_weights.size());
  for (std::size_t h = 0; h < actual.head_weights.size(); ++h)
    EXPECT_TRUE(all_close(actual.head_weights[h], expected.head_weights[h])) << "head " << h;
  EXPECT_TRUE(all_close(actual.concat, expected.concat));
  EXPECT_TRUE(all_close(actual.output, expected.output));
}

TEST(MultiHead, OneHeadWithIdentityProjectionsEqualsPlainAttention) {
  const std::size_t n = 6, d = 8;
  attn::Rng rng(400);
  const auto x = rng.normal_matrix(n, d);
  const auto eye = identity(d);
  attn::MultiHeadInputs in;
  in.x = x;
  in.n = n;
  in.d_model = d;
  in.heads = 1;
  in.w_q = in.w_k = in.w_v = in.w_o = eye;
  const auto result = attn::multi_head(in);
  const auto plain = attn::reference::attention(x, x, x, {n, n, d, d});
  ASSERT_EQ(result.head_weights.size(), 1u);
  EXPECT_TRUE(all_close(result.head_weights[0], plain.weights));
  EXPECT_TRUE(all_close(result.concat, plain.output));
  EXPECT_TRUE(all_close(result.output, plain.output));
}

TEST(MultiHead, SelfAttentionMatchesTheSpelledOutFormula) {
  attn::Rng rng(401);
  for (const std::size_t heads : {1u, 2u, 4u}) {
    const std::size_t n = 7, d = 12;
    const auto x = rng.normal_matrix(n, d);
    const Weights w = random_weights(rng, d);
    for (const attn::Mask& mask : {attn::Mask::none(), attn::Mask::causal()}) {
      attn::MultiHeadInputs in{x, {}, n, 0, d, heads, w.w_q, w.w_k, w.w_v, w.w_o, mask};
      SCOPED_TRACE(::testing::Message() << heads << " heads, mask kind " << static_cast<int>(mask.kind));
      expect_results_close(attn::multi_head(in), spelled_out(in, x, {}, w));
    }
  }
}

TEST(MultiHead, CrossAttentionTakesKeysAndValuesFromTheContext) {
  attn::Rng rng(402);
  const std::size_t n = 3, m = 9, d = 8, heads = 2;
  const auto x = rng.normal_matrix(n, d), context = rng.normal_matrix(m, d);
  const Weights w = random_weights(rng, d);
  attn::MultiHeadInputs in{x, context, n, m, d, heads, w.w_q, w.w_k, w.w_v, w.w_o, attn::Mask::none()};
  const auto result = attn::multi_head(in);
  EXPECT_EQ(result.output.size(), n * d);
  ASSERT_EQ(result.head_weights.size(), heads);
  for (const auto& weights : result.head_weights) EXPECT_EQ(weights.size(), n * m);
  expect_results_close(result, spelled_out(in, x, context, w));
}

}  // namespace
