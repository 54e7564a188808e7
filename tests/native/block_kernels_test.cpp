// The tiled path's block kernels (attn/kernels.hpp: transpose_block,
// block_scores, block_softmax, block_accumulate, untranspose_block, and the
// backward's block_weights and block_score_gradients) and
// max_sum_of_squares, on every kernel variant this CPU runs, against loops in
// double written from their formulas. The sizes break every edge of the
// register-blocked micro-kernel (src/kernels/micro_kernel.hpp): query rows
// around the vector widths W = 4, 8, 16 and around the tiles' 2 W and 3 W rows
// (so whole tiles, one-vector tiles and padded rows all run), keys and value
// features from 1 to past the largest tile height (8) and not a multiple of it,
// depths 1 to 65.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attn/random.hpp"
#include "attn/testing.hpp"
#include "test_support.hpp"

namespace {

using attn::kernels::KernelTable;
using attn_test::all_close;

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

const std::size_t kRows[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 33, 47, 48, 49, 63, 65, 97, 113};
const std::size_t kKeys[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 17, 64, 65};
const std::size_t kDepths[] = {1, 3, 16, 17, 64, 65};

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const KernelTable* table : attn::testing::kernel_variants()) names.push_back(table->name);
  return names;
}

class BlockKernels : public ::testing::TestWithParam<std::string> {
 protected:
  const KernelTable& kernels = attn::testing::kernel_variant(GetParam());
  std::size_t padded(std::size_t rows) const { return (rows + kernels.lanes - 1) / kernels.lanes * kernels.lanes; }
  // x (rows x d) transposed by the kernel under test, padded to rows_p lanes (checked on its own, first).
  std::vector<float> transposed(const std::vector<float>& x, std::size_t rows, std::size_t d, std::size_t rows_p) const {
    std::vector<float> x_t(d * rows_p);
    kernels.transpose_block(x.data(), rows, d, rows_p, x_t.data());
    return x_t;
  }
};

// In double, the block products' transposed layout: c[c*rows_p + r] = sum_t a[c][t] b[r][t]
// for the rows of b (rows x d) against the rows of a (cols x d); 0 on padding rows.
std::vector<double> products_in_double(const std::vector<float>& a, const std::vector<float>& b, std::size_t rows,
                                       std::size_t cols, std::size_t d, std::size_t rows_p) {
  std::vector<double> c(cols * rows_p, 0.0);
  for (std::size_t j = 0; j < cols; ++j)
    for (std::size_t r = 0; r < rows; ++r) {
      double sum = 0;
      for (std::size_t t = 0; t < d; ++t) sum += static_cast<double>(a[j * d + t]) * b[r * d + t];
      c[j * rows_p + r] = sum;
    }
  return c;
}

TEST_P(BlockKernels, TransposeBlockPadsWithZerosAndUntransposeScalesEachRow) {
  attn::Rng rng(600);
  for (std::size_t rows : kRows)
    for (std::size_t d : kDepths) {
      SCOPED_TRACE(::testing::Message() << "rows " << rows << " d " << d);
      const std::size_t rows_p = padded(rows);
      const auto q = rng.normal_matrix(rows, d);
      std::vector<float> q_t(d * rows_p + 1, 7.0f);  // one guard past the end
      kernels.transpose_block(q.data(), rows, d, rows_p, q_t.data());
      for (std::size_t t = 0; t < d; ++t)
        for (std::size_t r = 0; r < rows_p; ++r)
          ASSERT_EQ(q_t[t * rows_p + r], r < rows ? q[r * d + t] : 0.0f) << "t " << t << " r " << r;
      EXPECT_EQ(q_t.back(), 7.0f);

      const auto factor = rng.normal_matrix(rows_p, 1);
      std::vector<float> out(rows * d + 1, 7.0f);
      kernels.untranspose_block(q_t.data(), factor.data(), rows, d, rows_p, out.data());
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t t = 0; t < d; ++t)
          ASSERT_EQ(out[r * d + t], factor[r] * q[r * d + t]) << "r " << r << " t " << t;  // one rounding: exact
      EXPECT_EQ(out.back(), 7.0f);
    }
}

TEST_P(BlockKernels, BlockScoresMatchDouble) {
  attn::Rng rng(601);
  for (std::size_t rows : kRows)
    for (std::size_t cols : kKeys)
      for (std::size_t d : kDepths) {
        SCOPED_TRACE(::testing::Message() << "rows " << rows << " cols " << cols << " d " << d);
        const std::size_t rows_p = padded(rows);
        const auto q = rng.normal_matrix(rows, d), k = rng.normal_matrix(cols, d);
        const auto q_t = transposed(q, rows, d, rows_p);
        std::vector<float> s_t(cols * rows_p + 1, 7.0f), block_max(rows_p);
        kernels.block_scores(k.data(), q_t.data(), s_t.data(), cols, rows_p, d, 0.3f, block_max.data());
        std::vector<double> expected = products_in_double(k, q, rows, cols, d, rows_p);
        for (double& x : expected) x *= 0.3;
        EXPECT_TRUE(all_close(std::vector<float>(s_t.begin(), s_t.end() - 1), expected));
        EXPECT_EQ(s_t.back(), 7.0f);
        for (std::size_t r = 0; r < rows_p; ++r) {  // the max of the floats it stored, exactly
          float largest = s_t[r];
          for (std::size_t c = 1; c < cols; ++c) largest = std::max(largest, s_t[c * rows_p + r]);
          ASSERT_EQ(block_max[r], largest) << "row " << r;
        }
      }
}

// The backward's dS^T = P^T (V_j dO_i^T - D): block_scores' product finished
// against P and D; exactly +0 (not -0) where P = 0 (masked weights, padding).
TEST_P(BlockKernels, BlockScoreGradientsMatchDouble) {
  attn::Rng rng(606);
  for (std::size_t rows : kRows)
    for (std::size_t cols : kKeys)
      for (std::size_t d : kDepths) {
        SCOPED_TRACE(::testing::Message() << "rows " << rows << " cols " << cols << " d " << d);
        const std::size_t rows_p = padded(rows);
        const auto grad_output = rng.normal_matrix(rows, d), v = rng.normal_matrix(cols, d);
        const auto do_t = transposed(grad_output, rows, d, rows_p);
        std::vector<float> p_t(cols * rows_p, 0.0f), d_rows(rows_p, 0.0f);
        for (std::size_t r = 0; r < rows; ++r) d_rows[r] = static_cast<float>(rng.normal());
        for (std::size_t c = 0; c < cols; ++c)
          for (std::size_t r = 0; r < rows; ++r) p_t[c * rows_p + r] = (c + r) % 4 == 1 ? 0.0f : static_cast<float>(rng.uniform());
        std::vector<float> ds_t(cols * rows_p + 1, 7.0f);
        kernels.block_score_gradients(v.data(), do_t.data(), p_t.data(), d_rows.data(), ds_t.data(), cols, rows_p, d);
        std::vector<double> expected = products_in_double(v, grad_output, rows, cols, d, rows_p);  // dP^T
        for (std::size_t i = 0; i < cols * rows_p; ++i) expected[i] = p_t[i] * (expected[i] - d_rows[i % rows_p]);
        EXPECT_TRUE(all_close(std::vector<float>(ds_t.begin(), ds_t.end() - 1), expected));
        EXPECT_EQ(ds_t.back(), 7.0f);
        for (std::size_t i = 0; i < cols * rows_p; ++i)
          if (p_t[i] == 0.0f) ASSERT_FALSE(std::signbit(ds_t[i])) << "a -0 at " << i;
      }
}

// The online softmax over two blocks, as a double loop would do it: a fully
// masked row, a row whose first block is masked, scores near 100 (whose exp
// overflows a float without the shift) and a second block that raises the max.
TEST_P(BlockKernels, BlockSoftmaxMatchesDoubleOverTwoBlocks) {
  attn::Rng rng(602);
  for (std::size_t rows : kRows)
    for (std::size_t cols : kKeys) {
      SCOPED_TRACE(::testing::Message() << "rows " << rows << " cols " << cols);
      const std::size_t rows_p = padded(rows);
      std::vector<float> running_max(rows_p, kMinusInfinity), running_sum(rows_p, 0.0f), correction(rows_p);
      std::vector<double> max_d(rows_p, -INFINITY), sum_d(rows_p, 0.0);
      for (int block = 0; block < 2; ++block) {
        std::vector<float> s_t(cols * rows_p);
        for (std::size_t c = 0; c < cols; ++c)
          for (std::size_t r = 0; r < rows_p; ++r) {
            float s = static_cast<float>(3.0 * rng.normal() + (r % 3 == 1 ? 95.0 : 0.0) + 4.0 * block);
            if (r == 0 || (r % 4 == 2 && block == 0) || (c == 0 && r % 5 == 3)) s = kMinusInfinity;  // masked
            s_t[c * rows_p + r] = s;
          }
        const std::vector<float> scores = s_t;
        std::vector<float> given_max(rows_p, kMinusInfinity);  // the max block_scores would give, on odd rows
        for (std::size_t c = 0; c < cols; ++c)
          for (std::size_t r = 0; r < rows_p; ++r) given_max[r] = std::max(given_max[r], scores[c * rows_p + r]);
        const bool given = (rows + cols) % 2 == 1;  // half the shapes find the max themselves (after a mask)
        kernels.block_softmax(s_t.data(), cols, rows_p, given ? given_max.data() : nullptr, running_max.data(),
                              running_sum.data(), correction.data());

        std::vector<double> weights(cols * rows_p), expected_correction(rows_p);
        for (std::size_t r = 0; r < rows_p; ++r) {
          double new_max = max_d[r];
          for (std::size_t c = 0; c < cols; ++c) new_max = std::max(new_max, static_cast<double>(scores[c * rows_p + r]));
          const double shift = new_max == -INFINITY ? 0.0 : new_max;
          double sum = 0;
          for (std::size_t c = 0; c < cols; ++c) sum += weights[c * rows_p + r] = std::exp(scores[c * rows_p + r] - shift);
          expected_correction[r] = std::exp(max_d[r] - shift);
          sum_d[r] = expected_correction[r] * sum_d[r] + sum;
          max_d[r] = new_max;
        }
        EXPECT_TRUE(all_close(s_t, weights)) << "block " << block;
        EXPECT_TRUE(all_close(correction, expected_correction)) << "block " << block;
        EXPECT_TRUE(all_close(running_sum, sum_d)) << "block " << block;
        EXPECT_TRUE(all_close(running_max, max_d)) << "block " << block;
        for (std::size_t c = 0; c < cols; ++c)
          for (std::size_t r = 0; r < rows_p; ++r)
            if (scores[c * rows_p + r] == kMinusInfinity) ASSERT_EQ(s_t[c * rows_p + r], 0.0f) << "masked weight";
      }
      EXPECT_EQ(running_max[0], kMinusInfinity);  // row 0 saw only masked keys: nothing accumulated
      EXPECT_EQ(running_sum[0], 0.0f);
    }
}

TEST_P(BlockKernels, BlockAccumulateMatchesDouble) {
  attn::Rng rng(603);
  for (std::size_t rows : kRows)
    for (std::size_t cols : kKeys)
      for (std::size_t d_v : kDepths) {
        SCOPED_TRACE(::testing::Message() << "rows " << rows << " cols " << cols << " d_v " << d_v);
        const std::size_t rows_p = padded(rows);
        const auto v = rng.normal_matrix(cols, d_v);
        std::vector<float> p_t(cols * rows_p), correction(rows_p);
        for (auto& p : p_t) p = static_cast<float>(rng.uniform());
        for (auto& x : correction) x = static_cast<float>(rng.uniform());
        auto o_t = rng.normal_matrix(d_v * rows_p + 1, 1);
        const float guard = o_t.back();
        std::vector<double> expected(d_v * rows_p);
        for (std::size_t j = 0; j < d_v; ++j)
          for (std::size_t r = 0; r < rows_p; ++r) {
            double sum = static_cast<double>(correction[r]) * o_t[j * rows_p + r];
            for (std::size_t c = 0; c < cols; ++c) sum += static_cast<double>(v[c * d_v + j]) * p_t[c * rows_p + r];
            expected[j * rows_p + r] = sum;
          }
        kernels.block_accumulate(v.data(), p_t.data(), correction.data(), o_t.data(), cols, rows_p, d_v);
        EXPECT_TRUE(all_close(std::vector<float>(o_t.begin(), o_t.end() - 1), expected));
        EXPECT_EQ(o_t.back(), guard);
      }
}

// The exp inside block_softmax over its whole range, 0.01 apart: its own
// accuracy claim (src/kernels/block_kernels.cpp, exp_below_zero), tighter than
// the tolerance rule: relative error 2.4e-7 (2 ulp) plus |x| 7.5e-8 (the rounding
// of x log2(e) and of log2(e) itself), which is at most 3e-8 + 2.4e-7 exp(x) absolute.
TEST_P(BlockKernels, SoftmaxExpIsAccurateDownToUnderflow) {
  std::vector<float> x;
  for (double t = -87.0; t <= 0.0; t += 0.01) x.push_back(static_cast<float>(t));
  const std::size_t rows_p = kernels.lanes, cols = (x.size() + rows_p - 1) / rows_p;
  std::vector<float> s_t(cols * rows_p, kMinusInfinity);
  std::copy(x.begin(), x.end(), s_t.begin());
  std::vector<float> running_max(rows_p, 0.0f), running_sum(rows_p, 0.0f), correction(rows_p);
  kernels.block_softmax(s_t.data(), cols, rows_p, nullptr, running_max.data(), running_sum.data(), correction.data());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double expected = std::exp(static_cast<double>(x[i]) - running_max[i % rows_p]);
    ASSERT_LE(std::fabs(s_t[i] - expected), (2.4e-7 + 7.5e-8 * std::fabs(x[i])) * expected) << "exp(" << x[i] << ")";
  }
}

// The backward's weights from the rows' log-sum-exp: exp(s - L) with the
// accuracy of block_softmax's exp (above) on the float difference s - L, from -87 to the 1 the
// tiled backward allows; exactly 0 where s = -inf (masked) or L = +inf (a row
// without weights: fully masked, or a padding row), never NaN; the padding
// rows and whatever lies past the block untouched.
TEST_P(BlockKernels, BlockWeightsAreExpOfScoreMinusLogSumExp) {
  attn::Rng rng(605);
  const float infinity = std::numeric_limits<float>::infinity();
  for (std::size_t rows : kRows)
    for (std::size_t cols : kKeys) {
      SCOPED_TRACE(::testing::Message() << "rows " << rows << " cols " << cols);
      const std::size_t rows_p = padded(rows);
      std::vector<float> s_t(cols * rows_p + 1, 7.0f), shift(rows_p);
      for (std::size_t r = 0; r < rows_p; ++r) shift[r] = r % 5 == 4 ? infinity : 10.0f * static_cast<float>(rng.normal());
      for (std::size_t c = 0; c < cols; ++c)
        for (std::size_t r = 0; r < rows_p; ++r) {
          const double x = -88.0 * static_cast<double>(c * rows_p + r) / static_cast<double>(cols * rows_p) + 1.0;
          const float base = shift[r] == infinity ? 0.0f : shift[r];
          s_t[c * rows_p + r] = (c + r) % 7 == 3 ? kMinusInfinity : static_cast<float>(x) + base;
        }
      const std::vector<float> before = s_t;
      kernels.block_weights(s_t.data(), cols, rows_p, shift.data());
      for (std::size_t c = 0; c < cols; ++c)
        for (std::size_t r = 0; r < rows_p; ++r) {
          const float s = before[c * rows_p + r], p = s_t[c * rows_p + r];
          if (s == kMinusInfinity || shift[r] == infinity) {
            ASSERT_EQ(p, 0.0f) << "c " << c << " r " << r;
            continue;
          }
          const float x = s - shift[r];  // as the kernel forms it, in float
          const double expected = std::exp(static_cast<double>(x));
          ASSERT_LE(std::fabs(p - expected), (2.4e-7 + 7.5e-8 * std::fabs(x)) * expected + 1e-37)
              << "exp(" << s << " - " << shift[r] << ")";
        }
      EXPECT_EQ(s_t.back(), 7.0f);
    }
}

TEST_P(BlockKernels, MaxSumOfSquaresMatchesDoubleAndFlagsWhatIsNotFinite) {
  attn::Rng rng(604);
  for (std::size_t rows : kRows)
    for (std::size_t cols : kDepths) {
      SCOPED_TRACE(::testing::Message() << "rows " << rows << " cols " << cols);
      auto x = rng.normal_matrix(rows, cols);
      double expected = 0;
      for (std::size_t r = 0; r < rows; ++r) {
        double sum = 0;
        for (std::size_t c = 0; c < cols; ++c) sum += static_cast<double>(x[r * cols + c]) * x[r * cols + c];
        expected = std::max(expected, sum);
      }
      EXPECT_TRUE(attn_test::close(kernels.max_sum_of_squares(x.data(), rows, cols), expected));
      const float infinity = std::numeric_limits<float>::infinity();
      for (const float bad : {std::numeric_limits<float>::quiet_NaN(), infinity, 1e30f}) {  // 1e30^2 overflows
        auto with_bad = x;
        with_bad[(rows - 1) * cols + cols / 2] = bad;
        EXPECT_EQ(kernels.max_sum_of_squares(with_bad.data(), rows, cols), infinity) << bad;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Kernels, BlockKernels, ::testing::ValuesIn(variant_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
