// Hand-built traces for the analysis tests: a Trace with a few allocations and events made from
// explicit lists of per-lane byte offsets (exactly what a backend would record).
#pragma once

#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ws/trace/trace.h"

namespace wstest {

inline constexpr uint32_t kFull = 0xffffffffu;

class TraceBuilder {
 public:
  explicit TraceBuilder(ws::Dim3 block = {256, 1, 1}, ws::Dim3 grid = {1, 1, 1}) {
    t.launch.kernel = "test";
    t.launch.backend = "hand";
    t.launch.block = block;
    t.launch.grid = grid;
    t.total_blocks = grid.count();
  }

  uint32_t alloc(std::string name, ws::MemSpace space, uint32_t elem_size, uint64_t extent, uint64_t base = 0,
                 std::string type = "int") {
    ws::Allocation a;
    a.name = std::move(name);
    a.type_name = std::move(type);
    a.space = space;
    a.elem_size = elem_size;
    a.extent = extent;
    a.base = base;
    t.allocations.push_back(a);
    return static_cast<uint32_t>(t.allocations.size() - 1);
  }

  uint32_t site(uint32_t line, std::string text, uint32_t column = 1, std::string file = "test/kernel.cuh") {
    ws::Site s;
    s.file = std::move(file);
    s.line = line;
    s.column = column;
    s.text = std::move(text);
    uint32_t rank = 0;
    for (const ws::Site& o : t.sites)
      if (o.file == s.file && o.line == line) ++rank;
    s.rank = rank;
    t.sites.push_back(s);
    return static_cast<uint32_t>(t.sites.size() - 1);
  }

  // One warp memory instruction; `offsets` = one byte offset per active lane, in lane order.
  ws::Event& access(uint32_t block, uint32_t warp, uint32_t site, uint32_t alloc, ws::AccessKind kind,
                    uint32_t width, uint32_t mask, const std::vector<uint64_t>& offsets, uint8_t flags = 0) {
    ws::Event e;
    e.type = ws::EventType::Access;
    e.kind = kind;
    e.width = static_cast<uint8_t>(width);
    e.space = t.allocations.at(alloc).space;
    e.flags = flags;
    e.warp = static_cast<uint16_t>(warp);
    e.block = block;
    e.site = site;
    e.alloc = alloc;
    e.mask = mask;
    e.lane_begin = t.lane_offsets.size();
    if (kind == ws::AccessKind::Atomic) e.op = static_cast<uint8_t>(ws::AtomicOp::Add);
    t.lane_offsets.insert(t.lane_offsets.end(), offsets.begin(), offsets.end());
    return push(e);
  }

  // Same, with the byte offset of each active lane given by f(lane).
  ws::Event& access_fn(uint32_t block, uint32_t warp, uint32_t site, uint32_t alloc, ws::AccessKind kind,
                       uint32_t width, uint32_t mask, const std::function<uint64_t(uint32_t)>& f,
                       uint8_t flags = 0) {
    return access(block, warp, site, alloc, kind, width, mask, lane_list(mask, f), flags);
  }

  // One Barrier event per listed warp (what __syncthreads leaves in a trace).
  void barrier(uint32_t block, std::vector<uint32_t> warps, uint32_t mask = kFull) {
    for (uint32_t w : warps) {
      ws::Event e;
      e.type = ws::EventType::Barrier;
      e.block = block;
      e.warp = static_cast<uint16_t>(w);
      e.mask = mask;
      push(e);
    }
  }

  ws::Event& warp_op(uint32_t block, uint32_t warp, uint32_t site, ws::WarpOp op, uint32_t mask,
                     uint32_t member_mask) {
    ws::Event e;
    e.type = ws::EventType::WarpSync;
    e.op = static_cast<uint8_t>(op);
    e.block = block;
    e.warp = static_cast<uint16_t>(warp);
    e.site = site;
    e.mask = mask;
    e.alloc = member_mask;  // aux()
    return push(e);
  }

  ws::Trace finish() {
    std::vector<uint32_t> blocks;
    for (const ws::Event& e : t.events)
      if (blocks.empty() || blocks.back() != e.block) blocks.push_back(e.block);
    t.recorded_blocks = blocks;
    return t;
  }

  static std::vector<uint64_t> lane_list(uint32_t mask, const std::function<uint64_t(uint32_t)>& f) {
    std::vector<uint64_t> v;
    for (uint32_t m = mask; m; m &= m - 1) v.push_back(f(static_cast<uint32_t>(std::countr_zero(m))));
    return v;
  }

  ws::Trace t;

 private:
  ws::Event& push(ws::Event e) {
    e.step = step_[{e.block, e.warp}]++;
    e.time = t.events.size();
    t.events.push_back(e);
    return t.events.back();
  }
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> step_;
};

}  // namespace wstest
