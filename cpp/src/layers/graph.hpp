// graph.hpp (internal) — what the model engine's layers compute on: tensors,
// and the graph that holds them for one pass and records, for each layer
// called, the backward step that undoes it.
//
// A model's forward pass is a plain sequence of layer calls (src/layers/*.hpp),
// each of which writes its output into a new tensor of the graph and records a
// closure that, run later, adds the layer's input and parameter gradients from
// its output gradient (llm.c keeps each layer's forward and backward side by
// side; here each layer file has both, and the graph only remembers the order).
// backward() runs the closures last first: reverse-mode differentiation of the
// pass, with no other machinery.
//
//   Graph<T> g;                          // T = float (training) or double (the gradient checks)
//   Tensor<T> y = linear(g, x, w, b);    // records linear's backward
//   ... loss ...; seed dL/d(out) in out.grad;  g.backward();   // every .grad filled
//   g.clear();                           // the next pass reuses the memory: no allocation when warm
//
// Gradients ACCUMULATE: every backward step adds into the .grad of its inputs
// (a tensor read by several layers, a residual stream, a GRU weight used at
// every time step, collects all of them). Tensors start with a zero gradient.
//
// Memory: every tensor of a pass lives in the graph's arena until clear(). The
// arena hands out memory from chunks that never move, so pointers stay valid
// for the whole pass; clear() merges the chunks into one of their total size,
// so that a second pass of the same shape allocates nothing.
//
// Whatever a layer is given by reference (token ids, masks, the spans of
// targets) must stay valid until backward(): the recorded steps read it then.
//
// A graph that does not record (Graph<T>(Recording::Off), for evaluation and
// decoding) allocates no gradients and records nothing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace attn::layers {

// A rows x cols row-major matrix of the graph (or a view of parameters):
// value[r * cols + c]; grad the same shape, or null where no gradient is wanted.
template <class T>
struct Tensor {
  T* value = nullptr;
  T* grad = nullptr;
  std::size_t rows = 0, cols = 0;

  std::size_t size() const { return rows * cols; }
  T* row(std::size_t r) const { return value + r * cols; }
  T* grad_row(std::size_t r) const { return grad + r * cols; }
  // Rows [first, first + count): the same memory.
  Tensor rows_view(std::size_t first, std::size_t count) const {
    return {value + first * cols, grad ? grad + first * cols : nullptr, count, cols};
  }
};

enum class Recording { On, Off };

template <class T>
class Graph {
 public:
  explicit Graph(Recording recording = Recording::On) : recording_(recording == Recording::On) {}
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  bool recording() const { return recording_; }

  // A new rows x cols tensor: value uninitialised (the layer writes it), grad
  // zero when recording, else null.
  Tensor<T> tensor(std::size_t rows, std::size_t cols) {
    Tensor<T> t{allocate(rows * cols), nullptr, rows, cols};
    if (recording_) {
      t.grad = allocate(rows * cols);
      std::memset(t.grad, 0, rows * cols * sizeof(T));
    }
    return t;
  }
  // A new rows x cols tensor without a gradient (inputs, masks, constants).
  Tensor<T> constant(std::size_t rows, std::size_t cols) { return {allocate(rows * cols), nullptr, rows, cols}; }
  // `count` elements of memory for this pass (a layer's saved intermediates, scratch).
  T* memory(std::size_t count) { return allocate(count); }

  // Records `step` (a lambda capturing values only: pointers, sizes) to run in
  // backward(), after every step recorded later. Nothing when not recording.
  template <class Step>
  void on_backward(const Step& step) {
    static_assert(std::is_trivially_copyable_v<Step> && std::is_trivially_destructible_v<Step>,
                  "a backward step captures pointers and sizes by value");
    if (!recording_) return;
    const std::size_t offset = (steps_.size() + alignof(Step) - 1) / alignof(Step) * alignof(Step);
    steps_.resize(offset + sizeof(Step));
    std::memcpy(steps_.data() + offset, &step, sizeof(Step));
    order_.push_back({offset, [](const unsigned char* bytes) {
                        alignas(Step) unsigned char copy[sizeof(Step)];  // steps_ holds no alignment promise
                        std::memcpy(copy, bytes, sizeof(Step));
                        (*reinterpret_cast<const Step*>(copy))();
                      }});
  }

  // Runs the recorded steps, last first. The caller has put dL/d(output) into
  // the output's grad.
  void backward() {
    for (std::size_t i = order_.size(); i-- > 0;) order_[i].run(steps_.data() + order_[i].offset);
  }

  // Forgets every tensor and step; the memory stays for the next pass.
  void clear() {
    order_.clear();
    steps_.clear();
    if (chunks_.size() > 1) {
      std::size_t total = 0;
      for (const Chunk& c : chunks_) total += c.capacity;
      chunks_.clear();
      chunks_.push_back(Chunk::of(total));
    }
    if (!chunks_.empty()) chunks_.front().used = 0;
  }

  // Elements this pass has taken from the arena so far.
  std::size_t used() const {
    std::size_t total = 0;
    for (const Chunk& c : chunks_) total += c.used;
    return total;
  }

  // Elements held by the arena (for the memory limits and the tests).
  std::size_t capacity() const {
    std::size_t total = 0;
    for (const Chunk& c : chunks_) total += c.capacity;
    return total;
  }

 private:
  // Every allocation starts on a 64-byte boundary (a whole AVX-512 vector).
  static constexpr std::size_t kAlign = 64 / sizeof(T) > 0 ? 64 / sizeof(T) : 1;

  struct Chunk {
    std::unique_ptr<T[]> memory;  // over-allocated by kAlign for alignment
    T* base = nullptr;
    std::size_t capacity = 0, used = 0;
    static Chunk of(std::size_t capacity) {
      Chunk c;
      c.memory.reset(new T[capacity + kAlign]);  // uninitialised: every tensor is written before it is read
      auto address = reinterpret_cast<std::uintptr_t>(c.memory.get());
      const std::uintptr_t aligned = (address + 63) / 64 * 64;
      c.base = c.memory.get() + (aligned - address) / sizeof(T);
      c.capacity = capacity;
      return c;
    }
  };

  T* allocate(std::size_t count) {
    const std::size_t rounded = (count + kAlign - 1) / kAlign * kAlign;
    if (chunks_.empty() || chunks_.back().capacity - chunks_.back().used < rounded) {
      const std::size_t previous = chunks_.empty() ? 0 : chunks_.back().capacity;
      chunks_.push_back(Chunk::of(std::max(rounded, std::max<std::size_t>(previous * 2, 4096))));
    }
    Chunk& c = chunks_.back();
    T* p = c.base + c.used;
    c.used += rounded;
    return p;
  }

  struct Step {
    std::size_t offset;
    void (*run)(const unsigned char*);
  };

  bool recording_;
  std::vector<Chunk> chunks_;
  std::vector<unsigned char> steps_;  // the recorded lambdas' bytes
  std::vector<Step> order_;
};

}  // namespace attn::layers
