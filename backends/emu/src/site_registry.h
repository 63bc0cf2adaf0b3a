// Source sites seen by the emulator, process-wide: one id per (file, line, column).
//
// Looking a site up happens at every lane access, so each worker thread keeps a small
// direct-mapped cache in front of the shared table.
#pragma once

#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <source_location>
#include <string>
#include <unordered_map>
#include <vector>

namespace ws::emu {

struct SiteInfo {
  std::string file;  // relative to the kernels/ folder when the path contains "/kernels/"
  std::string path;  // as the compiler gave it (absolute in our builds)
  uint32_t line = 0;
  uint32_t column = 0;
  // Issue-order key of the site: the scheduler issues the group of lanes at the smallest key.
  uint64_t order = 0;
};

class SiteRegistry {
 public:
  static SiteRegistry& instance();

  struct Key {
    uint32_t id;
    uint64_t order;
  };
  // Fast path: a thread-local cache; the shared table only on a miss.
  static Key lookup(const std::source_location& loc);
  SiteInfo info(uint32_t id) const;

 private:
  Key insert(const std::source_location& loc);

  mutable std::shared_mutex mutex_;
  std::vector<SiteInfo> sites_;
  std::unordered_map<std::string, uint32_t> by_key_;
};

}  // namespace ws::emu
