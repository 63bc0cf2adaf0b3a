// Per-instruction metrics of a trace's events: the counting rules (ws/rules) applied to an
// event's lanes, and how the warp's mask changed since its previous instruction.
#include "ws/analysis/instruction.h"

#include <algorithm>
#include <bit>

namespace ws::analysis {

const char* to_string(MaskTransition t) {
  switch (t) {
    case MaskTransition::First: return "first";
    case MaskTransition::Same: return "same";
    case MaskTransition::Split: return "split";
    case MaskTransition::Reconverge: return "reconverge";
    case MaskTransition::Switch: return "switch";
  }
  return "?";
}

MaskTransition classify_transition(uint32_t previous, uint32_t mask) {
  if (mask == previous) return MaskTransition::Same;
  if ((mask & previous) == mask) return MaskTransition::Split;
  if ((mask & previous) == previous) return MaskTransition::Reconverge;
  return MaskTransition::Switch;
}

uint32_t live_lanes(const Trace& trace, uint32_t warp) {
  const uint64_t threads = trace.launch.block.count();
  const uint64_t first = uint64_t(warp) * kWarpSize;
  if (threads == 0) return kWarpSize;
  if (first >= threads) return 0;
  return static_cast<uint32_t>(std::min<uint64_t>(kWarpSize, threads - first));
}

namespace {
bool is_instruction(const Event& e) {
  return e.type == EventType::Access || e.type == EventType::WarpSync || e.type == EventType::Fence;
}
}  // namespace

InstructionMetrics metrics_of(const Trace& trace, const Event& e) {
  InstructionMetrics m;
  m.event = ~0ull;
  m.active_lanes = static_cast<uint32_t>(std::popcount(e.mask));
  m.live_lanes = live_lanes(trace, e.warp);
  const Event* base = trace.events.data();
  if (!trace.events.empty() && &e >= base && &e < base + trace.events.size()) {
    m.event = static_cast<uint64_t>(&e - base);
    for (uint64_t i = m.event; i-- > 0;) {
      const Event& p = trace.events[i];
      if (p.block != e.block) break;
      if (p.warp != e.warp || !is_instruction(p)) continue;
      m.previous_mask = p.mask;
      m.transition = classify_transition(p.mask, e.mask);
      break;
    }
  }
  if (e.type != EventType::Access) return m;
  m.is_access = true;
  m.space = e.space;
  m.kind = e.kind;
  m.width = e.width;
  const auto offsets = trace.lanes(e);
  std::vector<uint64_t> addr(offsets.size());
  for (size_t i = 0; i < offsets.size(); ++i) addr[i] = trace.address(e, offsets[i]);
  size_t k = 0;
  for (uint32_t rest = e.mask; rest && k < addr.size(); rest &= rest - 1)
    m.lane_address[std::countr_zero(rest)] = addr[k++];
  if (e.space == MemSpace::Shared)
    m.shared = rules::shared_bank_metrics(e.width, e.mask, addr);
  else
    m.global = rules::global_access_metrics(e.width, e.mask, addr);
  if (e.kind == AccessKind::Atomic) {
    m.atomic = rules::atomic_contention(e.mask, addr);
    m.compiler_aggregated = compiler_aggregates(trace, e, m.atomic.distinct_addresses);
  }
  return m;
}

bool compiler_aggregates(const Trace& trace, const Event& e, uint32_t distinct_addresses) {
  if (e.kind != AccessKind::Atomic || e.space != MemSpace::Global || distinct_addresses != 1 || std::popcount(e.mask) < 2 ||
      e.width != 4 || e.alloc >= trace.allocations.size())
    return false;
  switch (AtomicOp(e.op)) {
    case AtomicOp::Add: case AtomicOp::Sub: case AtomicOp::Min: case AtomicOp::Max:
    case AtomicOp::And: case AtomicOp::Or: case AtomicOp::Xor: break;
    default: return false;
  }
  const std::string& type = trace.allocations[e.alloc].type_name;
  return type.find("float") == std::string::npos && type.find("half") == std::string::npos &&
         type.find("double") == std::string::npos && type.find("bfloat") == std::string::npos;
}

}  // namespace ws::analysis
