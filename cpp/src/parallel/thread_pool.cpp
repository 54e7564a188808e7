// thread_pool.cpp — one process-wide pool of parked worker threads behind
// parallel_for (thread_pool.hpp).
//
// A loop ("job") is published under the mutex with a new generation number;
// the first `helpers` workers wake, and they and the caller take indices from
// one atomic counter until it passes `count`. When the caller runs out of
// indices it closes the job and waits for the workers that joined it to
// finish their last task (the task lives on the caller's stack); a worker that
// wakes after that skips the job.
//
// Both sides spin for a short while (kSpin) before they park on a condition
// variable: a worker after its job, for the next generation; the caller, for
// the workers of its job to finish. Waking a parked thread is a futex call
// and a trip through the scheduler, 30-100 us on this shared 2-core VM, which
// is most of what a second core loses at n = 1024 (~0.9 ms per call); calls
// that follow one another within kSpin skip it, as pthreadpool and OpenMP's
// block time do. The spin only delays the wait: every decision is still made
// under the mutex, with the same predicates.
#include "thread_pool.hpp"

#include <algorithm>
#include <cmath>

#if ATTN_THREADS
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>
#endif

namespace attn::detail {

namespace {

#if ATTN_THREADS

// Runs the indices `next` hands out until they pass `count`. Returns the
// exception a task threw, after which `next` hands out nothing more.
std::exception_ptr run_indices(std::atomic<std::size_t>& next, std::size_t count, TaskRef task) {
  for (;;) {
    const std::size_t index = next.fetch_add(1, std::memory_order_relaxed);
    if (index >= count) return nullptr;
    try {
      task(index);
    } catch (...) {
      next.store(count, std::memory_order_relaxed);
      return std::current_exception();
    }
  }
}

// How long a thread spins for the state it waits for before it parks.
constexpr std::chrono::microseconds kSpin{100};

// Spins until done() or kSpin has passed; done() reads atomics only.
template <class Done>
void spin_until(Done done) {
  const auto give_up = std::chrono::steady_clock::now() + kSpin;
  while (!done()) {
    for (int i = 0; i < 64; ++i) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if (std::chrono::steady_clock::now() > give_up) return;
  }
}

class ThreadPool {
 public:
  ~ThreadPool() {
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

  // False if the pool is busy with another loop (the caller then runs it alone).
  bool run(std::size_t count, std::size_t threads, TaskRef task) {
    const std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      const std::lock_guard<std::mutex> guard(mutex_);
      while (workers_.size() < threads - 1) {
        const std::size_t id = workers_.size();
        workers_.emplace_back([this, id] { work(id); });
      }
      task_ = &task;
      count_ = count;
      next_.store(0, std::memory_order_relaxed);
      helpers_ = threads - 1;
      open_ = true;
      error_ = nullptr;
      ++generation_;
    }
    work_ready_.notify_all();
    std::exception_ptr error = run_indices(next_, count, task);
    {
      // Close the loop: a worker that wakes later skips it. Wait only for the
      // workers that joined (on a loaded machine one may not run for a while).
      std::unique_lock<std::mutex> lock(mutex_);
      open_ = false;
      if (working_ != 0) {
        lock.unlock();
        spin_until([this] { return working_.load(std::memory_order_relaxed) == 0; });
        lock.lock();
      }
      work_done_.wait(lock, [this] { return working_ == 0; });
      if (!error) error = error_;
      error_ = nullptr;
      task_ = nullptr;
    }
    if (error) std::rethrow_exception(error);
    return true;
  }

 private:
  // Worker `id` takes part in every loop that asks for more than id helpers
  // and is still open when it wakes.
  void work(std::size_t id) {
    std::size_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (seen != 0) {  // after a job: the next one often follows at once
        lock.unlock();
        spin_until([&] { return generation_.load(std::memory_order_relaxed) != seen; });
        lock.lock();
      }
      work_ready_.wait(lock, [&] { return stopping_ || (generation_ != seen && id < helpers_); });
      if (stopping_) return;
      seen = generation_;
      if (!open_) continue;
      ++working_;
      const TaskRef task = *task_;
      const std::size_t count = count_;
      lock.unlock();
      std::exception_ptr error = run_indices(next_, count, task);
      lock.lock();
      if (error && !error_) error_ = error;
      if (--working_ == 0) work_done_.notify_one();
    }
  }

  std::mutex busy_;   // held by the caller of the loop in progress
  std::mutex mutex_;  // guards everything below except next_
  std::condition_variable work_ready_, work_done_;
  std::vector<std::thread> workers_;
  const TaskRef* task_ = nullptr;
  std::size_t count_ = 0, helpers_ = 0;
  // Written under the mutex; atomic so that a spinning thread may read them without it.
  std::atomic<std::size_t> working_{0}, generation_{0};
  bool open_ = false;
  std::exception_ptr error_;
  bool stopping_ = false;
  std::atomic<std::size_t> next_{0};
};

ThreadPool& pool() {
  static ThreadPool instance;
  return instance;
}

// The hardware's concurrency, asked once when the program starts (a system
// call: not something the first attention call should pay for).
const std::size_t hardware_threads = std::max(1u, std::thread::hardware_concurrency());

#endif

}  // namespace

std::size_t resolve_thread_count(std::size_t requested) {
#if ATTN_THREADS
  return requested != 0 ? requested : hardware_threads;
#else
  (void)requested;
  return 1;
#endif
}

std::size_t threads_worth(std::size_t requested, double flops) {
  constexpr double kMinFlopsPerThread = 0x1p22;
  const double worth = std::max(1.0, std::floor(flops / kMinFlopsPerThread));
  return static_cast<std::size_t>(std::min(static_cast<double>(resolve_thread_count(requested)), worth));
}

void parallel_for(std::size_t count, std::size_t threads, TaskRef task) {
#if ATTN_THREADS
  if (threads > 1 && count > 1 && pool().run(count, std::min(threads, count), task)) return;
#else
  (void)threads;
#endif
  for (std::size_t i = 0; i < count; ++i) task(i);  // a task's exception leaves the loop here
}

}  // namespace attn::detail
