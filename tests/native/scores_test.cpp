// The score family (dot, scaled dot, general, additive) and context vectors,
// each against its formula evaluated here in double.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "attn/random.hpp"
#include "attn/scores.hpp"
#include "attn/softmax.hpp"
#include "test_support.hpp"

namespace {

using attn_test::all_close;

struct Family {
  std::size_t n = 4, m = 6, d_s = 5, d_h = 5, d_a = 3;
  std::vector<float> s, h, w_a_general, w_a, u_a, v_a;
  attn::ScoreInputs inputs() const { return {s, h, n, m, d_s, d_h}; }
};

Family random_family(std::uint64_t seed) {
  attn::Rng rng(seed);
  Family f;
  f.s = rng.normal_matrix(f.n, f.d_s);
  f.h = rng.normal_matrix(f.m, f.d_h);
  f.w_a_general = rng.normal_matrix(f.d_s, f.d_h);
  f.w_a = rng.normal_matrix(f.d_s, f.d_a);
  f.u_a = rng.normal_matrix(f.d_h, f.d_a);
  f.v_a = rng.normal_matrix(f.d_a, 1);
  return f;
}

TEST(Scores, DotAndScaledDot) {
  const Family f = random_family(500);
  std::vector<double> dot(f.n * f.m), scaled(f.n * f.m);
  for (std::size_t i = 0; i < f.n; ++i)
    for (std::size_t j = 0; j < f.m; ++j) {
      for (std::size_t c = 0; c < f.d_h; ++c) dot[i * f.m + j] += static_cast<double>(f.s[i * f.d_s + c]) * f.h[j * f.d_h + c];
      scaled[i * f.m + j] = dot[i * f.m + j] / std::sqrt(static_cast<double>(f.d_h));
    }
  EXPECT_TRUE(all_close(attn::score_dot(f.inputs()), dot));
  EXPECT_TRUE(all_close(attn::score_scaled_dot(f.inputs()), scaled));
}

// e_ij = s_i^T W_a h_j; with W_a = I it is the dot score
TEST(Scores, General) {
  const Family f = random_family(501);
  std::vector<double> expected(f.n * f.m);
  for (std::size_t i = 0; i < f.n; ++i)
    for (std::size_t j = 0; j < f.m; ++j)
      for (std::size_t a = 0; a < f.d_s; ++a)
        for (std::size_t b = 0; b < f.d_h; ++b)
          expected[i * f.m + j] += static_cast<double>(f.s[i * f.d_s + a]) * f.w_a_general[a * f.d_h + b] * f.h[j * f.d_h + b];
  EXPECT_TRUE(all_close(attn::score_general(f.inputs(), f.w_a_general), expected));

  std::vector<float> eye(f.d_s * f.d_h, 0.0f);
  for (std::size_t i = 0; i < f.d_s; ++i) eye[i * f.d_h + i] = 1.0f;
  EXPECT_TRUE(all_close(attn::score_general(f.inputs(), eye), attn::score_dot(f.inputs())));
}

// e_ij = v_a^T tanh(W_a s_i + U_a h_j), row-major: s_i W_a + h_j U_a
TEST(Scores, AdditiveBahdanau) {
  Family f = random_family(502);
  f.d_h = 7;
  f.h = attn::Rng(503).normal_matrix(f.m, f.d_h);  // d_s != d_h is allowed here
  f.u_a = attn::Rng(504).normal_matrix(f.d_h, f.d_a);
  std::vector<double> expected(f.n * f.m);
  for (std::size_t i = 0; i < f.n; ++i)
    for (std::size_t j = 0; j < f.m; ++j)
      for (std::size_t c = 0; c < f.d_a; ++c) {
        double hidden = 0;
        for (std::size_t a = 0; a < f.d_s; ++a) hidden += static_cast<double>(f.s[i * f.d_s + a]) * f.w_a[a * f.d_a + c];
        for (std::size_t b = 0; b < f.d_h; ++b) hidden += static_cast<double>(f.h[j * f.d_h + b]) * f.u_a[b * f.d_a + c];
        expected[i * f.m + j] += f.v_a[c] * std::tanh(hidden);
      }
  EXPECT_TRUE(all_close(attn::score_additive(f.inputs(), f.w_a, f.u_a, f.v_a, f.d_a), expected));
}

// c_i = sum_j a_ij h_j, with a = softmax of the scores (the alignment matrix)
TEST(Scores, ContextVectorsWeighTheEncoderStates) {
  const Family f = random_family(505);
  const auto alignment = attn::softmax_rows(attn::score_dot(f.inputs()), f.n, f.m);
  std::vector<double> expected(f.n * f.d_h);
  for (std::size_t i = 0; i < f.n; ++i)
    for (std::size_t c = 0; c < f.d_h; ++c)
      for (std::size_t j = 0; j < f.m; ++j) expected[i * f.d_h + c] += static_cast<double>(alignment[i * f.m + j]) * f.h[j * f.d_h + c];
  EXPECT_TRUE(all_close(attn::context_vectors(alignment, f.h, f.n, f.m, f.d_h), expected));
}

}  // namespace
