#include "ws/trace/trace.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>

namespace ws {

const char* to_string(MemSpace s) { return s == MemSpace::Shared ? "shared" : "global"; }

const char* to_string(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return "load";
    case AccessKind::Store: return "store";
    case AccessKind::Atomic: return "atomic";
  }
  return "?";
}

const char* to_string(EventType t) {
  switch (t) {
    case EventType::Access: return "access";
    case EventType::Barrier: return "barrier";
    case EventType::WarpSync: return "warp-sync";
    case EventType::Fence: return "fence";
  }
  return "?";
}

const char* to_string(WarpOp op) {
  switch (op) {
    case WarpOp::SyncWarp: return "__syncwarp";
    case WarpOp::Shfl: return "__shfl_sync";
    case WarpOp::ShflUp: return "__shfl_up_sync";
    case WarpOp::ShflDown: return "__shfl_down_sync";
    case WarpOp::ShflXor: return "__shfl_xor_sync";
    case WarpOp::Ballot: return "__ballot_sync";
    case WarpOp::Any: return "__any_sync";
    case WarpOp::All: return "__all_sync";
    case WarpOp::ActiveMask: return "__activemask";
    case WarpOp::MatchAny: return "__match_any_sync";
    case WarpOp::MatchAll: return "__match_all_sync";
    case WarpOp::ReduceAdd: return "__reduce_add_sync";
    case WarpOp::ReduceMin: return "__reduce_min_sync";
    case WarpOp::ReduceMax: return "__reduce_max_sync";
    case WarpOp::ReduceAnd: return "__reduce_and_sync";
    case WarpOp::ReduceOr: return "__reduce_or_sync";
    case WarpOp::ReduceXor: return "__reduce_xor_sync";
    case WarpOp::Clock: return "clock64";
  }
  return "?";
}

const char* to_string(AtomicOp op) {
  switch (op) {
    case AtomicOp::None: return "none";
    case AtomicOp::Add: return "atomicAdd";
    case AtomicOp::Sub: return "atomicSub";
    case AtomicOp::Min: return "atomicMin";
    case AtomicOp::Max: return "atomicMax";
    case AtomicOp::Inc: return "atomicInc";
    case AtomicOp::Dec: return "atomicDec";
    case AtomicOp::Exch: return "atomicExch";
    case AtomicOp::CAS: return "atomicCAS";
    case AtomicOp::And: return "atomicAnd";
    case AtomicOp::Or: return "atomicOr";
    case AtomicOp::Xor: return "atomicXor";
  }
  return "?";
}

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "?";
}

std::span<const uint64_t> Trace::lanes(const Event& e) const {
  if (e.type != EventType::Access) return {};
  const uint64_t count = static_cast<uint64_t>(std::popcount(e.mask));
  if (e.lane_begin > lane_offsets.size() || count > lane_offsets.size() - e.lane_begin) return {};
  return {lane_offsets.data() + e.lane_begin, count};
}

uint64_t Trace::address(const Event& e, uint64_t lane_offset) const {
  if (e.alloc >= allocations.size()) return lane_offset;
  return allocations[e.alloc].base + lane_offset;
}

Dim3 Trace::thread_index(uint32_t warp, uint32_t lane) const {
  const uint64_t linear = uint64_t(warp) * kWarpSize + lane;
  const Dim3& b = launch.block;
  Dim3 t;
  t.x = uint32_t(linear % b.x);
  t.y = uint32_t((linear / b.x) % b.y);
  t.z = uint32_t(linear / (uint64_t(b.x) * b.y));
  return t;
}

Dim3 Trace::block_index(uint32_t linear) const {
  const Dim3& g = launch.grid;
  Dim3 b;
  b.x = uint32_t(linear % g.x);
  b.y = uint32_t((linear / g.x) % g.y);
  b.z = uint32_t(linear / (uint64_t(g.x) * g.y));
  return b;
}

bool Trace::has_errors() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

uint64_t Trace::memory_bytes() const {
  uint64_t bytes = sizeof(Trace);
  bytes += events.capacity() * sizeof(Event);
  bytes += lane_offsets.capacity() * sizeof(uint64_t);
  bytes += recorded_blocks.capacity() * sizeof(uint32_t);
  for (const Site& s : sites) bytes += sizeof(Site) + s.file.capacity() + s.text.capacity();
  for (const Allocation& a : allocations) bytes += sizeof(Allocation) + a.name.capacity();
  for (const Diagnostic& d : diagnostics) bytes += sizeof(Diagnostic) + d.message.capacity();
  return bytes;
}

std::string element_name(const Allocation& a, uint64_t lane_offset) {
  const uint64_t size = a.elem_size ? a.elem_size : 1;
  char buf[64];
  const uint64_t index = lane_offset / size;
  const uint64_t rest = lane_offset % size;
  if (rest == 0)
    std::snprintf(buf, sizeof buf, "[%llu]", static_cast<unsigned long long>(index));
  else
    std::snprintf(buf, sizeof buf, "[%llu]+%llu", static_cast<unsigned long long>(index),
                  static_cast<unsigned long long>(rest));
  return a.name + buf;
}

void assign_site_ranks(Trace& t) {
  std::map<std::pair<std::string, uint32_t>, std::vector<uint32_t>> by_line;
  for (uint32_t i = 0; i < t.sites.size(); ++i) by_line[{t.sites[i].file, t.sites[i].line}].push_back(i);
  for (auto& [key, ids] : by_line) {
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return t.sites[a].column < t.sites[b].column; });
    for (uint32_t r = 0; r < ids.size(); ++r) t.sites[ids[r]].rank = r;
  }
}

}  // namespace ws
