// scratch.hpp (internal) — per-thread buffers reused from call to call, so
// that the output-only paths allocate nothing in a steady state (the page calls
// them constantly at small n). A buffer of at most kRetainedScratchFloats stays
// with its thread after the call; a larger one is freed when the call ends (one
// n = 4096 call must not keep 64 MiB for the rest of the process).
#pragma once

#include <cstddef>
#include <vector>

namespace attn::detail {

inline constexpr std::size_t kRetainedScratchFloats = std::size_t{1} << 18;  // 1 MiB

// What a buffer is for: each use has its own, so one call can hold several.
enum class ScratchUse { TileBlocks, ScoreMatrix, BackwardBlocks, kCount };

// `floats` floats of this thread's buffer for `use` (contents unspecified),
// for the lifetime of this object. Nested use of the same buffer on one
// thread gets a buffer of its own.
class Scratch {
 public:
  Scratch(ScratchUse use, std::size_t floats);
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  float* data() { return buffer_->data(); }

 private:
  std::vector<float>* buffer_;
  bool* in_use_;            // the thread's flag for this use, or null for a private buffer
  std::vector<float> own_;  // the private buffer of a nested use
};

}  // namespace attn::detail
