// Shared memory: a launch's shared arrays, registered on their first touch (ids after the
// global allocations), and each block's storage, poisoned when the block first touches it.
#include <cstring>
#include <mutex>
#include <string>

#include "worker.h"

namespace ws::emu {

namespace {
constexpr uint8_t kPoison = 0xCD;  // what uninitialised shared memory holds
}  // namespace

uint32_t LaunchState::register_shared(const char* name, std::string_view type, uint32_t elem_size,
                                      uint64_t extent, uint64_t bytes, bool dynamic,
                                      std::string& error) {
  std::lock_guard lock(shared_mutex);
  for (uint32_t i = 0; i < shared_allocs.size(); ++i) {
    const Allocation& a = shared_allocs[i];
    if (a.name == name && a.elem_size == elem_size && a.extent == extent &&
        (a.base >= kDynamicBase) == dynamic) {
      error = shared_errors[i];  // (every thread that touches an array over the limit fails)
      return global_allocs + i;
    }
  }
  Allocation a;
  a.name = name;
  a.type_name = std::string(type);
  a.space = MemSpace::Shared;
  a.elem_size = elem_size;
  a.extent = extent;
  if (dynamic) {
    a.base = kDynamicBase;
  } else {
    a.base = static_shared_bytes;
    static_shared_bytes += (bytes + 127) / 128 * 128;  // each array starts at bank 0
    const uint64_t total = static_shared_bytes + opt.dynamic_shared_bytes;
    if (total > Limits::max_shared_bytes_per_block) {
      error = "the block needs " + std::to_string(total) + " bytes of shared memory (static " +
              std::to_string(static_shared_bytes) + " + dynamic " +
              std::to_string(opt.dynamic_shared_bytes) + "), over the per-block limit of " +
              std::to_string(Limits::max_shared_bytes_per_block) + " bytes";
    }
  }
  shared_allocs.push_back(std::move(a));
  shared_errors.push_back(error);
  return global_allocs + uint32_t(shared_allocs.size() - 1);
}

uint32_t Worker::shared_alloc(void* storage, uint64_t bytes, uint32_t elem_size, uint64_t extent,
                              const char* name, std::string_view type, uint64_t& epoch,
                              uint32_t& cached) {
  if (epoch == epoch_) return cached;
  std::string error;
  const uint32_t id = launch_.register_shared(name, type, elem_size, extent, bytes, false, error);
  if (!error.empty()) fail(nullptr, "shared-memory-limit", error);
  std::memset(storage, kPoison, bytes);
  epoch = epoch_;
  cached = id;
  return id;
}

uint32_t Worker::dynamic_shared_alloc(uint32_t elem_size, const char* name, std::string_view type,
                                      void*& storage, uint64_t& extent, uint64_t& epoch,
                                      uint32_t& cached) {
  if (epoch == epoch_) {
    storage = dynamic_shared_.data();
    extent = dynamic_shared_.size() / elem_size;
    return cached;
  }
  if (dynamic_shared_.empty())
    fail(nullptr, "no-dynamic-shared-memory",
         std::string("the kernel uses dynamic shared memory (`") + name +
             "`) but the launch asked for 0 bytes of it (the third <<<>>> argument)");
  extent = dynamic_shared_.size() / elem_size;
  // Every thread's view object is new, but the allocation is the same: remember it per worker.
  uint32_t id = Event::kNoAlloc;
  for (const DynamicView& v : dynamic_views_)
    if (v.name == name && v.elem_size == elem_size) id = v.alloc;
  if (id == Event::kNoAlloc) {
    std::string error;
    id = launch_.register_shared(name, type, elem_size, extent, dynamic_shared_.size(), true, error);
    if (!error.empty()) fail(nullptr, "shared-memory-limit", error);
    dynamic_views_.push_back({name, elem_size, id});
  }
  // The dynamic window is poisoned once per block, on the first touch of any view of it.
  if (dyn_epoch_ != epoch_) {
    std::memset(dynamic_shared_.data(), kPoison, dynamic_shared_.size());
    dyn_epoch_ = epoch_;
  }
  storage = dynamic_shared_.data();
  epoch = epoch_;
  cached = id;
  t_dynamic_view = {epoch_, name, elem_size, id, storage, extent};
  return id;
}

const std::string& Worker::allocation_name(uint32_t alloc) const {
  static const std::string& unknown = *new std::string("?");  // (never destroyed: see site_loop())
  if (alloc < launch_.global_allocs) return launch_.global_names[alloc];
  std::lock_guard lock(launch_.shared_mutex);
  const uint32_t i = alloc - launch_.global_allocs;
  return i < launch_.shared_allocs.size() ? launch_.shared_allocs[i].name : unknown;
}

}  // namespace ws::emu
