// scratch.cpp — the per-thread buffers of scratch.hpp.
#include "scratch.hpp"

namespace attn::detail {

namespace {

struct ThreadBuffers {
  std::vector<float> buffers[static_cast<std::size_t>(ScratchUse::kCount)];
  bool in_use[static_cast<std::size_t>(ScratchUse::kCount)] = {};
};

thread_local ThreadBuffers thread_buffers;

}  // namespace

Scratch::Scratch(ScratchUse use, std::size_t floats) : buffer_(&own_), in_use_(nullptr) {
  const auto slot = static_cast<std::size_t>(use);
  if (thread_buffers.in_use[slot]) {  // nested: a buffer of its own
    own_.resize(floats);
    return;
  }
  std::vector<float>& buffer = thread_buffers.buffers[slot];
  if (buffer.size() < floats) buffer.resize(floats);  // may throw: then nothing is marked in use
  buffer_ = &buffer;
  in_use_ = &thread_buffers.in_use[slot];
  *in_use_ = true;
}

Scratch::~Scratch() {
  if (in_use_ == nullptr) return;
  *in_use_ = false;
  if (buffer_->capacity() > kRetainedScratchFloats) std::vector<float>().swap(*buffer_);
}

}  // namespace attn::detail
