// What issuing a warp instruction does besides choosing its lanes, the same on both issue paths
// (issue_one, and issue_converged for a converged warp): the instruction's event, an access's
// recorded lane offsets and per-site counters, and the queued stores and deferred loads the
// scheduler performs for the lanes, in lane order. Inline: both paths run them at every warp
// instruction.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "request.h"
#include "site_counting.h"
#include "site_registry.h"
#include "worker.h"

namespace ws::emu {

// A request's site: its registry id and issue key (one cache lookup).
inline SiteRegistry::Key Worker::site_of(const Request& r) const {
  return r.loc ? SiteRegistry::lookup(site_location(r.loc)) : SiteRegistry::Key{Diagnostic::kNoSite, 0};
}

// The event of warp w's instruction `lr` (site `site`) over the lanes of `mask`: its place in
// the block's issue order and the warp's steps. (Both issue paths: issue_one, issue_converged.)
[[gnu::always_inline]] inline Event Worker::issued_event(uint32_t w, uint32_t mask, SiteRegistry::Key site) {
  Event e;
  e.block = block_;
  e.warp = uint16_t(w);
  e.site = site.id;
  e.mask = mask;
  e.step = warp_steps_[w]++;
  e.time = clock_++;
  ++record_->issued;
  return e;
}

// An access's event: what it is, its lanes' offsets recorded (a recorded block) and counted.
[[gnu::always_inline]] inline void Worker::record_access(Event& e, const Request& lr, uint32_t mask,
                                                          const uint64_t* offsets, uint32_t lanes) {
  BlockRecord& rec = *record_;
  rec.lane_accesses += lanes;
  e.type = EventType::Access;
  e.kind = lr.kind();
  e.width = lr.width;
  e.space = lr.space();
  e.op = uint8_t(lr.atomic());
  e.flags = lr.flags();
  e.alloc = lr.alloc;
  if (keeps(rec, launch_, lanes)) {
    e.lane_begin = rec.lanes.size();
    rec.lanes.insert(rec.lanes.end(), offsets, offsets + lanes);
    rec.lane_room -= lanes;
  }
  if (launch_.opt.record.count_every_block) counting_.count(rec.counters, e.site, lr, mask, {offsets, lanes});
}

// Global memory is shared with the other worker threads (blocks run in parallel): the scheduler
// reads and writes its aligned words with relaxed atomics (plain moves on x86), so that a racy
// kernel is not undefined behaviour in the emulator itself.
inline bool is_shared_word(const Request& r, const void* p) {
  return r.space() == MemSpace::Global && std::has_single_bit(unsigned(r.width)) &&
         reinterpret_cast<uintptr_t>(p) % r.width == 0;
}

// An access the lane queued and went on from: a store (written now), or a deferred load (read now
// into the lane's operand slot) or store (its value computed now from the slots).
[[gnu::always_inline]] inline void Worker::perform_posted(const Request& r, uint32_t linear) {
  if (!r.deferred()) [[likely]]
    return perform_store(r, r.access.value);
  Operands& o = operands_[linear];
  if (r.kind() == AccessKind::Load) {
    const void* from = r.access.store_to;
    uint64_t v = 0;
    if (is_shared_word(r, from)) {  // (relaxed atomics: see perform_store)
      switch (r.width) {
        case 1: v = __atomic_load_n(static_cast<const uint8_t*>(from), __ATOMIC_RELAXED); break;
        case 2: v = __atomic_load_n(static_cast<const uint16_t*>(from), __ATOMIC_RELAXED); break;
        case 4: v = __atomic_load_n(static_cast<const uint32_t*>(from), __ATOMIC_RELAXED); break;
        case 8: v = __atomic_load_n(static_cast<const uint64_t*>(from), __ATOMIC_RELAXED); break;
      }
    } else {
      std::memcpy(&v, from, r.width);
    }
    o.slot[r.access.value] = v;
    return;
  }
  perform_store(r, reinterpret_cast<Combine>(r.access.value)(o.slot[0], o.slot[1]));
}

[[gnu::always_inline]] inline void Worker::perform_store(const Request& r, uint64_t v) const {
  void* to = r.access.store_to;
  if (is_shared_word(r, to)) {
    switch (r.width) {
      case 1: __atomic_store_n(static_cast<uint8_t*>(to), uint8_t(v), __ATOMIC_RELAXED); return;
      case 2: __atomic_store_n(static_cast<uint16_t*>(to), uint16_t(v), __ATOMIC_RELAXED); return;
      case 4: __atomic_store_n(static_cast<uint32_t*>(to), uint32_t(v), __ATOMIC_RELAXED); return;
      case 8: __atomic_store_n(static_cast<uint64_t*>(to), v, __ATOMIC_RELAXED); return;
    }
  }
  switch (r.width) {  // (fixed sizes: moves, not a call)
    case 1: std::memcpy(to, &v, 1); return;
    case 2: std::memcpy(to, &v, 2); return;
    case 4: std::memcpy(to, &v, 4); return;
    case 8: std::memcpy(to, &v, 8); return;
  }
  std::memcpy(to, &v, r.width);
}

}  // namespace ws::emu
