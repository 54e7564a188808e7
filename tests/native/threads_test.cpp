// The tiled path on several threads gives the same bits as on one; the thread
// pool under it (src/parallel/thread_pool.hpp) runs every index once, on more
// than one thread, passes a task's exception to the caller and stays usable.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "attn/attention.hpp"
#include "attn/backward.hpp"
#include "attn/error.hpp"
#include "attn/random.hpp"
#include "attn/testing.hpp"
#include "parallel/thread_pool.hpp"

namespace {

// A shape and its blocks, for the tests below: large enough that the passes
// split over threads, except the last (one thread: it must agree too).
struct Case {
  std::size_t n, m, d_k, d_v;
  attn::testing::TileSizes tiles;
};

TEST(Threads, TiledOutputIsBitIdenticalForAnyNumberOfThreads) {
  const Case cases[] = {{300, 257, 32, 24, {64, 64}}, {1024, 512, 64, 64, {64, 64}}, {97, 130, 16, 9, {8, 32}}};
  attn::Rng rng(400);
  for (const Case& c : cases) {
    const auto q = rng.normal_matrix(c.n, c.d_k), k = rng.normal_matrix(c.m, c.d_k), v = rng.normal_matrix(c.m, c.d_v);
    const attn::AttentionShape shape{c.n, c.m, c.d_k, c.d_v};
    for (const attn::Mask& mask : {attn::Mask::none(), attn::Mask::causal()}) {
      attn::AttentionOptions options;
      options.mask = mask;
      options.threads = 1;
      const auto one_thread = attn::testing::attention_output(q, k, v, shape, options, c.tiles);
      for (std::size_t threads : {2, 3, 4, 8, 0}) {
        options.threads = threads;
        EXPECT_EQ(attn::testing::attention_output(q, k, v, shape, options, c.tiles), one_thread)
            << c.n << "x" << c.m << " threads " << threads;
      }
      options.threads = 4;
      std::vector<float> into(c.n * c.d_v, -1.0f);
      attn::attention_output(q, k, v, shape, options, into);
      options.threads = 1;
      EXPECT_EQ(into, attn::attention_output(q, k, v, shape, options));
    }
  }
}

// The tiled backward on several threads (key blocks for dK and dV, then
// query blocks for dQ) gives the same bits as its single-thread loop; so does
// a refusal: the first bad row the single thread meets is the one named.
TEST(Threads, TiledBackwardIsBitIdenticalForAnyNumberOfThreads) {
  const Case cases[] = {{300, 257, 32, 24, {64, 64}}, {256, 256, 64, 64, {64, 64}}, {97, 130, 16, 9, {8, 32}}};
  attn::Rng rng(401);
  for (const Case& c : cases) {
    const auto q = rng.normal_matrix(c.n, c.d_k), k = rng.normal_matrix(c.m, c.d_k), v = rng.normal_matrix(c.m, c.d_v),
               d_o = rng.normal_matrix(c.n, c.d_v);
    const attn::AttentionShape shape{c.n, c.m, c.d_k, c.d_v};
    for (const attn::Mask& mask : {attn::Mask::none(), attn::Mask::causal(), attn::Mask::key_padding(c.m / 3)}) {
      attn::AttentionOptions options;
      options.mask = mask;
      options.threads = 1;
      const auto forward = attn::testing::attention_forward_tiled(q, k, v, shape, options, c.tiles);
      const auto one = attn::testing::attention_backward_tiled(q, k, v, d_o, forward, shape, options, c.tiles);
      for (std::size_t threads : {2, 3, 8, 0}) {
        options.threads = threads;
        const auto many = attn::testing::attention_backward_tiled(q, k, v, d_o, forward, shape, options, c.tiles);
        EXPECT_EQ(many.q, one.q) << c.n << "x" << c.m << " threads " << threads;
        EXPECT_EQ(many.k, one.k) << c.n << "x" << c.m << " threads " << threads;
        EXPECT_EQ(many.v, one.v) << c.n << "x" << c.m << " threads " << threads;
      }
      // Another call's forward with rows 70 and n - 1 too small: row 70, met first, is named.
      attn::TiledAttentionForward foreign = forward;
      foreign.log_sum_exp[70] = -100.0f;
      foreign.log_sum_exp[c.n - 1] = -100.0f;
      for (std::size_t threads : {1, 2, 8}) {
        options.threads = threads;
        try {
          attn::testing::attention_backward_tiled(q, k, v, d_o, foreign, shape, options, c.tiles);
          ADD_FAILURE() << "threads " << threads << ": not refused";
        } catch (const attn::ValueError& e) {
          EXPECT_EQ(std::string(e.what()).rfind("forward.log_sum_exp[70]:", 0), 0u) << "threads " << threads << ": " << e.what();
        }
      }
    }
  }
}

TEST(Threads, ParallelForRunsEveryIndexOnceOnSeveralThreads) {
  std::vector<std::atomic<int>> runs(200);
  std::mutex lock;
  std::set<std::thread::id> threads_seen;
  auto task = [&](std::size_t i) {
    runs[i].fetch_add(1);
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // long enough for the workers to take some
    const std::lock_guard<std::mutex> guard(lock);
    threads_seen.insert(std::this_thread::get_id());
  };
  attn::detail::parallel_for(runs.size(), 4, task);
  for (std::size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i].load(), 1) << i;
  EXPECT_GT(threads_seen.size(), 1u);
  EXPECT_LE(threads_seen.size(), 4u);
}

TEST(Threads, OneThreadRunsEverythingOnTheCaller) {
  std::set<std::thread::id> threads_seen;
  std::size_t order = 0;
  bool in_order = true;
  auto task = [&](std::size_t i) {
    in_order = in_order && i == order++;
    threads_seen.insert(std::this_thread::get_id());
  };
  attn::detail::parallel_for(50, 1, task);
  EXPECT_TRUE(in_order);
  EXPECT_EQ(threads_seen, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(Threads, ATaskExceptionReachesTheCallerAndThePoolStaysUsable) {
  auto failing = [](std::size_t i) {
    if (i == 17) throw std::runtime_error("task 17 failed");
  };
  EXPECT_THROW(
      {
        try {
          attn::detail::parallel_for(100, 3, failing);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "task 17 failed");
          throw;
        }
      },
      std::runtime_error);
  std::atomic<std::size_t> sum{0};
  auto adding = [&](std::size_t i) { sum += i; };
  attn::detail::parallel_for(100, 3, adding);
  EXPECT_EQ(sum.load(), 4950u);
}

// A task that itself splits work (the pool is busy): the inner loop runs on
// the task's thread, and nothing deadlocks.
TEST(Threads, NestedLoopsRunInline) {
  std::atomic<std::size_t> inner_runs{0};
  auto outer = [&](std::size_t) {
    auto inner = [&](std::size_t) { inner_runs.fetch_add(1); };
    attn::detail::parallel_for(10, 4, inner);
  };
  attn::detail::parallel_for(8, 4, outer);
  EXPECT_EQ(inner_runs.load(), 80u);
}

}  // namespace
