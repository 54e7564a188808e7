// peak_memory.cpp — replacement global operator new/delete that keep a count
// of live bytes and its high-water mark. Each block carries its size in a
// header just before the pointer handed out; the header is as wide as the
// block's alignment so that the pointer keeps that alignment.
#include "peak_memory.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

namespace peak_memory {
namespace {

std::atomic<std::size_t> live_bytes{0};
std::atomic<std::size_t> high_water{0};
std::atomic<std::size_t> live_at_reset{0};

void* allocate(std::size_t size, std::size_t alignment) {
  const std::size_t header = std::max<std::size_t>(alignment, alignof(std::max_align_t));
  const std::size_t total = (size + header + header - 1) / header * header;
  char* base = static_cast<char*>(std::aligned_alloc(header, total));
  if (!base) throw std::bad_alloc();
  *reinterpret_cast<std::size_t*>(base) = size;
  const std::size_t now = live_bytes.fetch_add(size) + size;
  std::size_t peak = high_water.load();
  while (now > peak && !high_water.compare_exchange_weak(peak, now)) {
  }
  return base + header;
}

void release(void* pointer, std::size_t alignment) {
  if (!pointer) return;
  const std::size_t header = std::max<std::size_t>(alignment, alignof(std::max_align_t));
  char* base = static_cast<char*>(pointer) - header;
  live_bytes.fetch_sub(*reinterpret_cast<std::size_t*>(base));
  std::free(base);
}

}  // namespace

void reset() {
  live_at_reset = live_bytes.load();
  high_water = live_at_reset.load();
}

std::size_t peak_since_reset() { return high_water.load() - live_at_reset.load(); }

}  // namespace peak_memory

using peak_memory::allocate;
using peak_memory::release;
constexpr std::size_t kDefault = alignof(std::max_align_t);

void* operator new(std::size_t size) { return allocate(size, kDefault); }
void* operator new[](std::size_t size) { return allocate(size, kDefault); }
void* operator new(std::size_t size, std::align_val_t a) { return allocate(size, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t size, std::align_val_t a) { return allocate(size, static_cast<std::size_t>(a)); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return allocate(size, kDefault);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }

void operator delete(void* p) noexcept { release(p, kDefault); }
void operator delete[](void* p) noexcept { release(p, kDefault); }
void operator delete(void* p, std::size_t) noexcept { release(p, kDefault); }
void operator delete[](void* p, std::size_t) noexcept { release(p, kDefault); }
void operator delete(void* p, std::align_val_t a) noexcept { release(p, static_cast<std::size_t>(a)); }
void operator delete[](void* p, std::align_val_t a) noexcept { release(p, static_cast<std::size_t>(a)); }
void operator delete(void* p, std::size_t, std::align_val_t a) noexcept { release(p, static_cast<std::size_t>(a)); }
void operator delete[](void* p, std::size_t, std::align_val_t a) noexcept { release(p, static_cast<std::size_t>(a)); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p, kDefault); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p, kDefault); }
