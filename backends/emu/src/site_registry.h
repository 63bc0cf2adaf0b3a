// Source sites seen by the emulator, process-wide: one id per (file, line, column).
//
// The emulator looks a site up once per issued warp instruction, so each worker thread keeps a
// small direct-mapped cache in front of the shared table.
#pragma once

#include <cstdint>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <source_location>
#include <string>
#include <unordered_map>
#include <vector>

#include "ws/emu/hooks.h"

namespace ws::emu {

struct SiteInfo {
  std::string file;  // relative to the kernels/ folder when the path contains "/kernels/"
  std::string path;  // as the compiler gave it (absolute in our builds)
  uint32_t line = 0;
  uint32_t column = 0;
  // Issue-order key of the site: the scheduler issues the group of lanes at the smallest key.
  uint64_t order = 0;
};

// The scheduler's issue-order key of a site: the group of lanes at the smallest key issues first.
// The low byte is left for the sub-operation (load before store at one `a[i] += x`).
inline uint64_t issue_order(const std::source_location& loc) {
  return (uint64_t(loc.line()) << 24) | (uint64_t(loc.column() & 0xffff) << 8);
}
// (The same key for a line and column that are not a call site: where site_loop's loops begin
// and end. Not shared with the one above: routed through this one, the scheduler's hot path,
// which inlines the one above, compiles to more instructions.)
constexpr uint64_t issue_order(uint32_t line, uint32_t column) {
  return (uint64_t(line) << 24) | (uint64_t(column & 0xffff) << 8);
}

// The issue key of a sub-operation at a site. A store issues after the loads of its line: in
// `s[t] = i < n ? float(in[i]) : 0.0f` the store's column comes first, but the store takes the
// right-hand side's value; with the key of its column, the lanes that skip the load would store
// first and the warp would issue the store twice, where the GPU (a select, then one store)
// issues it once. (The top bit of the column field: columns stay below 32768.)
inline constexpr uint64_t kStoreAfterLoads = uint64_t(1) << 23;
constexpr uint64_t sub_order(uint64_t site_order, SubOp sub) {
  return site_order | uint64_t(sub) | (sub == SubOp::Store ? kStoreAfterLoads : 0);
}

// site_key (emu_hooks.h) names a site by the pointer inside its std::source_location; this turns
// it back into the location when the file and line are needed.
inline std::source_location site_location(const void* key) {
  std::source_location loc;
  std::memcpy(static_cast<void*>(&loc), &key, sizeof key);
  return loc;
}

// SiteRegistry::lookup's cache, per worker thread: direct-mapped by the site's key.
struct SiteCacheEntry {
  const void* key = nullptr;
  uint32_t id = 0;
  uint64_t order = 0;
};
inline constexpr size_t kSiteCacheSize = 128;  // power of two; small, so it stays in L1 next to 1024 fiber stacks
inline thread_local SiteCacheEntry t_site_cache[kSiteCacheSize];
inline size_t site_cache_slot(const void* key) {
  const uint64_t h = (reinterpret_cast<uintptr_t>(key) >> 3) * 0x9E3779B97F4A7C15ull;
  return (h >> 50) & (kSiteCacheSize - 1);
}

class SiteRegistry {
 public:
  static SiteRegistry& instance();

  struct Key {
    uint32_t id;
    uint64_t order;
  };
  // Fast path (inline: once per issued warp instruction): a thread-local cache; the shared table
  // only on a miss.
  static Key lookup(const std::source_location& loc);
  SiteInfo info(uint32_t id) const;

 private:
  [[gnu::noinline]] static Key lookup_slow(const std::source_location& loc);
  Key insert(const std::source_location& loc);

  mutable std::shared_mutex mutex_;
  std::vector<SiteInfo> sites_;
  std::unordered_map<std::string, uint32_t> by_key_;
};

inline SiteRegistry::Key SiteRegistry::lookup(const std::source_location& loc) {
  const void* key = site_key(loc);
  const SiteCacheEntry& e = t_site_cache[site_cache_slot(key)];
  if (e.key == key) [[likely]]
    return {e.id, e.order};
  return lookup_slow(loc);
}

}  // namespace ws::emu
