// The output-only paths into a caller's buffer allocate nothing once warm (the
// page calls them constantly at n <= 256): their working buffers stay with the
// thread (src/scratch.hpp). This program replaces the global operator new to
// count the allocations made during the calls (its own executable, so that no
// other test runs with the counting allocator).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "attn/attn.hpp"
#include "layers/cross_entropy.hpp"
#include "models/model.hpp"

namespace {
std::atomic<std::size_t> allocation_count{0};
}  // namespace

void* operator new(std::size_t size) {
  allocation_count.fetch_add(1, std::memory_order_relaxed);
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }

namespace {

struct Call {
  attn::AttentionShape shape;
  std::vector<float> q, k, v, output;
  explicit Call(std::size_t n, std::size_t m, std::size_t d_k, std::size_t d_v)
      : shape{n, m, d_k, d_v}, output(n * d_v) {
    attn::Rng rng(n * 1000 + m);
    q = rng.normal_matrix(n, d_k);
    k = rng.normal_matrix(m, d_k);
    v = rng.normal_matrix(m, d_v);
  }
};

// Allocations made by `calls` runs of `run` after one warm-up run.
template <class Run>
std::size_t allocations_when_warm(Run run, int calls = 5) {
  run();
  const std::size_t before = allocation_count.load();
  for (int i = 0; i < calls; ++i) run();
  return allocation_count.load() - before;
}

TEST(Allocations, OutputOnlyPathsIntoABufferAllocateNothingOnceWarm) {
  const std::size_t sizes[][4] = {{1, 1, 1, 1}, {7, 13, 5, 3}, {64, 64, 64, 64}, {130, 97, 32, 16}, {256, 256, 64, 64}};
  for (const auto& s : sizes) {
    Call c(s[0], s[1], s[2], s[3]);
    std::vector<std::uint8_t> keep(s[0] * s[1], 1);
    keep[0] = 0;
    for (const attn::Mask& mask : {attn::Mask::none(), attn::Mask::causal(), attn::Mask::explicit_keep(keep)}) {
      attn::AttentionOptions options;
      options.mask = mask;
      options.threads = 1;
      SCOPED_TRACE(::testing::Message() << s[0] << "x" << s[1] << " mask " << static_cast<int>(mask.kind));
      EXPECT_EQ(allocations_when_warm([&] { attn::attention_output(c.q, c.k, c.v, c.shape, options, c.output); }), 0u);
      EXPECT_EQ(
          allocations_when_warm([&] { attn::attention_output_full(c.q, c.k, c.v, c.shape, options, c.output); }), 0u);
    }
  }
}

// The calls that return a vector allocate that vector and nothing else.
TEST(Allocations, OutputOnlyPathsReturningAVectorAllocateOnlyIt) {
  Call c(64, 64, 64, 64);
  attn::AttentionOptions options;
  options.threads = 1;
  EXPECT_EQ(allocations_when_warm([&] { (void)attn::attention_output(c.q, c.k, c.v, c.shape, options); }, 5), 5u);
  EXPECT_EQ(allocations_when_warm([&] { (void)attn::attention_output_full(c.q, c.k, c.v, c.shape, options); }, 5), 5u);
}

// The model engine's training step (forward, loss, backward) allocates nothing
// once warm: every tensor from the graph's arena, the products' buffers kept by
// the thread (the second pass merges the arena's chunks: warmed twice).
TEST(Allocations, TransformerTrainingStepsAllocateNothingOnceWarm) {
  using namespace attn::models;
  for (ModelKind kind : {ModelKind::Transformer, ModelKind::Decoder}) {
    ModelConfig c;
    c.kind = kind;
    c.source_vocabulary = 9, c.target_vocabulary = 11, c.max_source_length = 7, c.max_target_length = 6;
    c.d_model = 12, c.heads = 3, c.layers = 2;
    auto model = make_model<float>(c);
    Batch b;
    b.size = 3, b.source_length = kind == ModelKind::Transformer ? 7 : 0, b.target_length = 6;
    b.source.assign(b.size * b.source_length, 4);
    if (b.source_length > 0) b.source_lengths = {7, 2, 5};
    b.input.assign(18, 3), b.output.assign(18, 5), b.counted.assign(18, 1);
    b.target_lengths = {6, 6, 4};
    attn::layers::Graph<float> g;
    const auto step = [&] {
      g.clear();
      model->parameters().zero_gradients();
      attn::layers::cross_entropy(g, model->forward(g, b), b.output, b.counted);
      g.backward();
    };
    step();
    EXPECT_EQ(allocations_when_warm(step), 0u);
  }
}

}  // namespace
