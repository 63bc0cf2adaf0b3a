// Storage for the workers' lanes, kept from one launch to the next (see LaneArray in lane.h).
#include <mutex>
#include <new>
#include <vector>

#include "worker.h"

namespace ws::emu {

namespace {

// Blocks of lane storage that workers gave back, for the next ones (any thread: a launch's
// other workers are new threads). A few are kept, the largest; more workers than that at once
// allocate the rest.
class LaneBlocks {
 public:
  static LaneBlocks& instance() {
    static LaneBlocks& blocks = *new LaneBlocks;  // never destroyed: workers may finish after main()
    return blocks;
  }
  LaneBlocks() { kept_.reserve(kKept); }  // (give, called from a destructor, never allocates)

  Lane* take(size_t n, size_t& capacity) {
    {
      std::lock_guard lock(mutex_);
      for (size_t i = 0; i < kept_.size(); ++i)
        if (kept_[i].capacity >= n) {
          Lane* p = kept_[i].data;
          capacity = kept_[i].capacity;
          kept_.erase(kept_.begin() + ptrdiff_t(i));
          return p;
        }
    }
    capacity = n;
    return static_cast<Lane*>(::operator new(n * sizeof(Lane), std::align_val_t(alignof(Lane))));
  }

  void give(Lane* data, size_t capacity) {
    Block drop{data, capacity};
    {
      std::lock_guard lock(mutex_);
      if (kept_.size() < kKept) {
        kept_.push_back(drop);
        return;
      }
      // Full: keep the larger blocks (a later launch with a bigger block reuses them too).
      auto smallest = kept_.begin();
      for (auto it = kept_.begin(); it != kept_.end(); ++it)
        if (it->capacity < smallest->capacity) smallest = it;
      if (smallest->capacity < capacity) std::swap(*smallest, drop);
    }
    ::operator delete(drop.data, std::align_val_t(alignof(Lane)));
  }

 private:
  struct Block {
    Lane* data;
    size_t capacity;
  };
  static constexpr size_t kKept = 8;  // (at most 8 x 704 KB for blocks of 1024 threads)
  std::mutex mutex_;
  std::vector<Block> kept_;
};

}  // namespace

LaneArray::LaneArray(uint32_t n) : size_(n) {
  data_ = LaneBlocks::instance().take(n, capacity_);
  for (uint32_t i = 0; i < n; ++i) new (&data_[i]) Lane();
}

LaneArray::~LaneArray() {
  for (uint32_t i = 0; i < size_; ++i) data_[i].~Lane();
  LaneBlocks::instance().give(data_, capacity_);
}

}  // namespace ws::emu
