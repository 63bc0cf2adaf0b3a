#include "site_registry.h"

#include "ws/trace/sources.h"

#include <cstring>

namespace ws::emu {

SiteRegistry& SiteRegistry::instance() {
  // Never destroyed, for the reason site_loop() gives (site_loop.cpp): runs on other threads may
  // still look sites up while statics are destroyed at exit.
  static SiteRegistry& registry = *new SiteRegistry;
  return registry;
}

SiteRegistry::Key SiteRegistry::lookup_slow(const std::source_location& loc) {
  const Key k = instance().insert(loc);
  t_site_cache[site_cache_slot(site_key(loc))] = {site_key(loc), k.id, k.order};
  return k;
}

SiteRegistry::Key SiteRegistry::insert(const std::source_location& loc) {
  std::string key = std::string(loc.file_name()) + ':' + std::to_string(loc.line()) + ':' +
                    std::to_string(loc.column());
  {
    std::shared_lock lock(mutex_);
    auto it = by_key_.find(key);
    if (it != by_key_.end()) return {it->second, sites_[it->second].order};
  }
  std::unique_lock lock(mutex_);
  auto it = by_key_.find(key);
  if (it != by_key_.end()) return {it->second, sites_[it->second].order};
  SiteInfo s;
  s.file = kernel_relative_path(loc.file_name());
  s.path = loc.file_name();
  s.line = loc.line();
  s.column = loc.column();
  s.order = issue_order(loc);
  const uint32_t id = uint32_t(sites_.size());
  const uint64_t order = s.order;
  sites_.push_back(std::move(s));
  by_key_.emplace(std::move(key), id);
  return {id, order};
}

SiteInfo SiteRegistry::info(uint32_t id) const {
  std::shared_lock lock(mutex_);
  return id < sites_.size() ? sites_[id] : SiteInfo{};
}

}  // namespace ws::emu
