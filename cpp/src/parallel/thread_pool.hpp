// thread_pool.hpp (internal) — splitting a loop over a few threads
// (std::thread), for the tiled forward pass (query blocks) and whatever else
// splits into independent pieces (the backward pass's blocks).
//
// The rule that keeps results bit-identical for any number of threads: task i
// depends only on i, and writes only what belongs to i. Which thread runs
// which i, and in which order, is not fixed.
//
// In a build without threads (the WebAssembly builds: ATTN_THREADS=OFF) every
// loop runs on the calling thread.
#pragma once

#include <cstddef>

namespace attn::detail {

// A non-owning reference to a callable `void(std::size_t index)`: no copy and
// no allocation (std::function would allocate for a lambda that captures
// more than two pointers).
class TaskRef {
 public:
  template <class Task>
  TaskRef(Task& task) noexcept  // NOLINT: implicit on purpose, parallel_for(count, threads, lambda)
      : object_(&task), call_([](void* object, std::size_t index) { (*static_cast<Task*>(object))(index); }) {}
  void operator()(std::size_t index) const { call_(object_, index); }

 private:
  void* object_;
  void (*call_)(void*, std::size_t);
};

// The number of threads a call asked for, resolved: 0 means the hardware's
// concurrency (at least 1); a build without threads always gets 1.
std::size_t resolve_thread_count(std::size_t requested);

// The threads a call of `flops` floating-point operations is worth: the
// resolved request, but at most one per 2^22 flops (below that another
// thread costs more than it saves: waking a parked worker takes tens of
// microseconds on a busy machine, and 2^22 flops take about 80, so n = m <=
// 128 at d = 64 stays on one thread), at least 1.
std::size_t threads_worth(std::size_t requested, double flops);

// Runs task(i) for every i in [0, count) on up to `threads` threads, the
// calling thread being one of them, and returns when all are done.
//   threads <= 1 or count <= 1: on the calling thread only; no thread starts.
//   Worker threads start on first need and are kept (parked) for later calls.
//   If the pool is already running a loop (another thread's, or a task that
//   calls parallel_for), this loop runs on the calling thread.
//   The first exception a task throws stops handing out indices and is
//   rethrown here once every running task has returned.
void parallel_for(std::size_t count, std::size_t threads, TaskRef task);

}  // namespace attn::detail
