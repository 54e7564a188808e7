// Every error path: the exception type, and a message that names the argument,
// what was expected and what was given (formats in attn/error.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "attn/attn.hpp"
#include "attn/testing.hpp"
#include "test_support.hpp"

namespace {

using attn::ShapeError;
using attn::SizeError;
using attn::ValueError;
using attn_test::throws_with_message;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A valid 3-query, 2-key call (d_k = 2, d_v = 2) to break one piece at a time.
struct ValidCall {
  std::vector<float> q = std::vector<float>(6, 0.5f), k = std::vector<float>(4, 0.25f), v = std::vector<float>(4, 1.0f);
  attn::AttentionShape shape{3, 2, 2, 2};
};

TEST(Errors, AttentionShapes) {
  ValidCall c;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention(c.q, c.k, c.v, {0, 2, 2, 2}); },
                                              {"n: expected at least 1, got 0"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention(c.q, c.k, c.v, {3, 0, 2, 2}); },
                                              {"m: expected at least 1, got 0"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention(c.q, c.k, c.v, {3, 2, 0, 2}); },
                                              {"d_k: expected at least 1, got 0"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention(c.q, c.k, c.v, {3, 2, 2, 0}); },
                                              {"d_v: expected at least 1, got 0"}));
  c.q.pop_back();
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention(c.q, c.k, c.v, c.shape); },
                                              {"q: expected n*d_k = 3*2 = 6 floats, got 5"}));
  c = ValidCall{};
  c.k.push_back(0);
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention(c.q, c.k, c.v, c.shape); },
                                              {"k: expected m*d_k = 2*2 = 4 floats, got 5"}));
  c = ValidCall{};
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention(c.q, c.k, c.v, {3, 2, 2, 3}); },
                                              {"v: expected m*d_v = 2*3 = 6 floats, got 4"}));
}

TEST(Errors, AttentionNonFiniteInputs) {
  ValidCall c;
  c.q[3] = kNaN;
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::attention(c.q, c.k, c.v, c.shape); },
                                              {"q[3]: expected a finite number, got NaN"}));
  c = ValidCall{};
  c.k[1] = kInf;
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::attention_output(c.q, c.k, c.v, c.shape); },
                                              {"k[1]: expected a finite number, got inf"}));
  c = ValidCall{};
  c.v[0] = -kInf;
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::reference::attention(c.q, c.k, c.v, c.shape); },
                                              {"v[0]: expected a finite number, got -inf"}));
}

TEST(Errors, AttentionSizesTooLargeForMemory) {
  ValidCall c;
  const std::size_t big = std::size_t{1} << 20;  // n = m = 2^20: n*m = 2^40 > 2^28
  EXPECT_TRUE(throws_with_message<SizeError>(
      [&] { attn::attention(c.q, c.k, c.v, {big, big, 1, 1}); },
      {"n*m: expected at most 268435456 elements, got 1099511627776"}));
  EXPECT_TRUE(throws_with_message<SizeError>([&] { attn::attention(c.q, c.k, c.v, {3, 2, std::size_t{1} << 29, 2}); },
                                             {"n*d_k: expected at most 268435456 elements, got 1610612736"}));
  // The trace's terms hold n*m*d_v floats: n = m = 2^14 fits n*m = 2^28, not n*m*d_v = 2^29.
  const std::size_t side = std::size_t{1} << 14;
  const std::vector<float> qk(side, 1.0f), v(2 * side, 1.0f);
  const attn::TraceTerms terms = attn::TraceTerms::Included;
  EXPECT_TRUE(throws_with_message<SizeError>([&] { attn::attention(qk, qk, v, {side, side, 1, 2}, {}, terms); },
                                             {"n*m*d_v: expected at most 268435456 elements, got 536870912"}));
  EXPECT_TRUE(throws_with_message<SizeError>(
      [&] { attn::reference::attention(qk, qk, v, {side, side, 1, 2}, {}, terms); },
      {"n*m*d_v: expected at most 268435456 elements, got 536870912"}));
  if constexpr (sizeof(std::size_t) == 8) {  // a product beyond 2^64 is named, not wrapped around
    const std::size_t huge = std::size_t{1} << 40;
    EXPECT_TRUE(throws_with_message<SizeError>([&] { attn::attention(c.q, c.k, c.v, {huge, 2, huge, 2}); },
                                               {"n*d_k: expected at most 268435456 elements, got",
                                                "1099511627776*1099511627776 (more than 2^64)"}));
  }
}

TEST(Errors, Scale) {
  ValidCall c;
  // 1e39 is shown as given (a float would have made it "inf")
  const std::pair<double, const char*> bad_factors[] = {
      {-1.0, "-1"}, {0.0, "0"}, {kNaN, "NaN"}, {kInf, "inf"}, {1e39, "1e+39"}, {1e-50, "1e-50"}};
  for (const auto& [factor, shown] : bad_factors) {
    attn::AttentionOptions options;
    options.scale = attn::Scale::by(factor);
    EXPECT_TRUE(throws_with_message<ValueError>(
        [&] { attn::attention(c.q, c.k, c.v, c.shape, options); },
        {std::string("scale: expected a finite positive number from 1.40129846e-45 to 3.40282347e+38, got ") + shown}));
  }
}

TEST(Errors, Masks) {
  ValidCall c;
  attn::AttentionOptions options;
  options.mask = attn::Mask::explicit_keep({1, 0, 1, 1, 0});
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention(c.q, c.k, c.v, c.shape, options); },
                                              {"mask.keep: expected n*m = 3*2 = 6 entries, got 5"}));
  options.mask = attn::Mask::explicit_keep({1, 2, 1, 1, 0, 1});
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::attention_output(c.q, c.k, c.v, c.shape, options); },
                                              {"mask.keep[1]: expected 0 or 1, got 2"}));
  options.mask = attn::Mask::key_padding(3);
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::reference::attention(c.q, c.k, c.v, c.shape, options); },
                                              {"mask.valid_keys: expected at most m = 2, got 3"}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::keep_matrix(attn::Mask::key_padding(5), 1, 4); },
                                              {"mask.valid_keys: expected at most m = 4, got 5"}));
}

TEST(Errors, TileSizes) {
  ValidCall c;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::testing::attention_output(c.q, c.k, c.v, c.shape, {}, {0, 4}); },
                                              {"tiles.queries: expected at least 1, got 0"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::testing::attention_output(c.q, c.k, c.v, c.shape, {}, {4, 0}); },
                                              {"tiles.keys: expected at least 1, got 0"}));
}

TEST(Errors, Softmax) {
  EXPECT_TRUE(throws_with_message<ShapeError>([] { attn::softmax_rows(std::vector<float>(5), 2, 3); },
                                              {"logits: expected rows*cols = 2*3 = 6 floats, got 5"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([] { attn::softmax_rows(std::vector<float>(5), 0, 3); },
                                              {"rows: expected at least 1, got 0"}));
  EXPECT_TRUE(throws_with_message<ValueError>([] { attn::softmax_rows(std::vector<float>{1, kInf}, 1, 2); },
                                              {"logits[1]: expected a finite number or -inf, got inf"}));
  EXPECT_TRUE(throws_with_message<ValueError>([] { attn::softmax_rows(std::vector<float>{kNaN, 0}, 1, 2); },
                                              {"logits[0]: expected a finite number or -inf, got NaN"}));
  EXPECT_TRUE(throws_with_message<ValueError>([] { attn::softmax_row_stats(std::vector<float>{0.5f, kNaN}); },
                                              {"probabilities[1]: expected a finite number, got NaN"}));
  EXPECT_TRUE(throws_with_message<SizeError>([] { attn::softmax_jacobian(std::vector<float>(1 << 15)); },
                                             {"cols*cols: expected at most 268435456 elements, got 1073741824"}));
}

struct ValidMultiHead {
  std::vector<float> x = std::vector<float>(3 * 4, 0.1f), context = std::vector<float>(5 * 4, 0.2f),
                     w = std::vector<float>(16, 0.3f);
  attn::MultiHeadInputs inputs() const { return {x, {}, 3, 0, 4, 2, w, w, w, w, {}}; }
};

TEST(Errors, MultiHead) {
  ValidMultiHead c;
  auto in = c.inputs();
  in.heads = 3;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::multi_head(in); },
                                              {"heads: expected a divisor of d_model = 4, got 3"}));
  in = c.inputs();
  in.heads = 0;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::multi_head(in); }, {"heads: expected at least 1, got 0"}));
  in = c.inputs();
  in.m = 5;  // no context: m must be n
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::multi_head(in); },
                                              {"m: expected n = 3 (self-attention: no context), got 5"}));
  in = c.inputs();
  in.n = 2;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::multi_head(in); },
                                              {"x: expected n*d_model = 2*4 = 8 floats, got 12"}));
  in = c.inputs();
  in.context = c.context;
  in.m = 4;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::multi_head(in); },
                                              {"context: expected m*d_model = 4*4 = 16 floats, got 20"}));
  in = c.inputs();
  const std::vector<float> short_w(15, 0.0f);
  in.w_o = short_w;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::multi_head(in); },
                                              {"w_o: expected d_model*d_model = 4*4 = 16 floats, got 15"}));
  in = c.inputs();
  std::vector<float> bad_w = c.w;
  bad_w[7] = kNaN;
  in.w_k = bad_w;
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::multi_head(in); },
                                              {"w_k[7]: expected a finite number, got NaN"}));
  in = c.inputs();
  in.mask = attn::Mask::explicit_keep(std::vector<std::uint8_t>(8, 1));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::multi_head(in); },
                                              {"mask.keep: expected n*m = 3*3 = 9 entries, got 8"}));
}

TEST(Errors, Scores) {
  const std::vector<float> s(6, 0.5f), h(8, 0.5f);
  const attn::ScoreInputs mismatched{s, h, 2, 2, 3, 4};  // d_s = 3, d_h = 4
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::score_dot(mismatched); },
                                              {"d_h: expected d_s = 3 (dot scores need equal widths), got 4"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::score_general(mismatched, std::vector<float>(11)); },
                                              {"w_a: expected d_s*d_h = 3*4 = 12 floats, got 11"}));
  const std::vector<float> w_a(6), u_a(8), v_a(2);
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::score_additive(mismatched, w_a, u_a, v_a, 3); },
                                              {"w_a: expected d_s*d_a = 3*3 = 9 floats, got 6"}));
  EXPECT_NO_THROW(attn::score_additive(mismatched, w_a, u_a, v_a, 2));  // the same inputs, consistent
  EXPECT_TRUE(throws_with_message<ShapeError>(
      [&] { attn::score_additive(mismatched, w_a, u_a, std::vector<float>(3), 2); },
      {"v_a: expected d_a = 2 floats, got 3"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::score_additive(mismatched, w_a, u_a, v_a, 0); },
                                              {"d_a: expected at least 1, got 0"}));
  std::vector<float> bad_s = s;
  bad_s[2] = -kInf;
  EXPECT_TRUE(throws_with_message<ValueError>([&] { attn::score_dot({bad_s, h, 2, 2, 3, 4}); },
                                              {"s[2]: expected a finite number, got -inf"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::score_dot({s, h, 2, 2, 3, 3}); },
                                              {"h: expected m*d_h = 2*3 = 6 floats, got 8"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::context_vectors(std::vector<float>(3), h, 2, 2, 4); },
                                              {"alignment: expected n*m = 2*2 = 4 floats, got 3"}));
}

TEST(Errors, PositionalEncodingRandomAndSaturation) {
  EXPECT_TRUE(throws_with_message<ShapeError>([] { attn::positional_encoding(0, 4); },
                                              {"n: expected at least 1, got 0"}));
  EXPECT_TRUE(throws_with_message<SizeError>([] { attn::positional_encoding(std::size_t{1} << 20, 1024); },
                                             {"n*d_model: expected at most 268435456 elements, got 1073741824"}));
  attn::Rng rng(1);
  EXPECT_TRUE(throws_with_message<ValueError>(
      [&] { rng.normal_matrix(2, 2, -1.0); },
      {"stddev: expected a number from 0 to 2.4e+37 (so that every draw fits in a float), got -1"}));
  // its products would overflow float: refused before any draw, not returned as infinities
  EXPECT_TRUE(throws_with_message<ValueError>([&] { rng.normal_matrix(1, 3, 1e300); },
                                              {"stddev: expected a number from 0 to 2.4e+37", "got 1e+300"}));
  EXPECT_TRUE(throws_with_message<ValueError>([&] { rng.normal_matrix(1, 3, kNaN); }, {"stddev:", "got NaN"}));
  EXPECT_TRUE(throws_with_message<SizeError>([&] { rng.normal_matrix(std::size_t{1} << 15, std::size_t{1} << 15); },
                                             {"rows*cols: expected at most 268435456 elements, got 1073741824"}));
  attn::SaturationOptions options;
  options.d_k = 0;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::saturation(options); },
                                              {"d_k: expected at least 1, got 0"}));
  options = {};
  options.trials = 0;
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::saturation(options); },
                                              {"trials: expected at least 1, got 0"}));
  // the work is bounded: 2^31 normal draws at most
  options = {};
  options.d_k = 4096;
  options.trials = 40000;  // 40000 * (8 + 8) * 4096 = 2.6e9 draws
  EXPECT_TRUE(throws_with_message<SizeError>([&] { attn::saturation(options); },
                                             {"trials*(queries+keys)*d_k: expected at most 2147483648 draws, got "
                                              "40000*65536"}));
}

// Sizes are checked before any loop: a zero size or a product beyond memory
// answers at once (keep_matrix(causal, n, 0) used to loop n times).
TEST(Errors, SizesAreCheckedBeforeAnyWork) {
  const std::size_t huge = std::numeric_limits<std::size_t>::max();
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::keep_matrix(attn::Mask::causal(), huge, 0); },
                                              {"m: expected at least 1, got 0"}));
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::keep_matrix(attn::Mask::causal(), 0, 5); },
                                              {"n: expected at least 1, got 0"}));
  EXPECT_TRUE(throws_with_message<SizeError>([&] { attn::keep_matrix(attn::Mask::causal(), huge, 1); },
                                             {"n*m: expected at most 268435456 elements, got 18446744073709551615"}));
  EXPECT_TRUE(throws_with_message<SizeError>([&] { attn::keep_matrix(attn::Mask::none(), huge, huge); },
                                             {"n*m: expected at most 268435456 elements, got",
                                              "(more than 2^64)"}));
  ValidCall c;
  EXPECT_TRUE(throws_with_message<SizeError>([&] { attn::attention_output(c.q, c.k, c.v, {huge, 2, 2, 2}); },
                                             {"n*d_k: expected at most 268435456 elements"}));
  attn::Rng rng(2);
  EXPECT_TRUE(rng.normal_matrix(huge, 0).empty());  // an empty matrix, at once
  EXPECT_TRUE(throws_with_message<SizeError>([] { attn::softmax_rows(std::vector<float>(3), huge, 2); },
                                             {"rows*cols: expected at most 268435456 elements"}));
  EXPECT_TRUE(throws_with_message<SizeError>([] { attn::positional_encoding(huge, huge); },
                                             {"n*d_model: expected at most 268435456 elements"}));
}

TEST(Errors, OutputSpanOfTheWrongLength) {
  ValidCall c;
  std::vector<float> output(5);  // n*d_v = 6
  EXPECT_TRUE(throws_with_message<ShapeError>([&] { attn::attention_output(c.q, c.k, c.v, c.shape, {}, output); },
                                              {"output: expected n*d_v = 3*2 = 6 floats, got 5"}));
  EXPECT_TRUE(throws_with_message<ShapeError>(
      [&] { attn::attention_output_full(c.q, c.k, c.v, c.shape, {}, output); },
      {"output: expected n*d_v = 3*2 = 6 floats, got 5"}));
}

}  // namespace
