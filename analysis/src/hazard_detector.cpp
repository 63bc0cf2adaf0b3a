#include "hazard_detector.h"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace ws::analysis {

const char* to_string(HazardKind k) {
  switch (k) {
    case HazardKind::RAW: return "RAW";
    case HazardKind::WAR: return "WAR";
    case HazardKind::WAW: return "WAW";
  }
  return "?";
}

const char* to_string(HazardScope s) {
  switch (s) {
    case HazardScope::InterWarp: return "inter-warp";
    case HazardScope::SameInstruction: return "same-instruction";
    case HazardScope::IntraWarpLockstep: return "intra-warp-lockstep";
  }
  return "?";
}

namespace detail {
namespace {
// Shared windows are at most a few hundred KiB; anything past this many words (an out-of-bounds
// access far away) is kept in the hash map instead of growing the flat array.
constexpr uint64_t kMaxFlatWords = uint64_t(1) << 20;
}  // namespace

HazardDetector::HazardDetector(const Trace& trace, uint32_t max_readers_per_word, MemSpace space)
    : trace_(trace), max_readers_(std::max<uint32_t>(1, max_readers_per_word)), space_(space) {
  if (space == MemSpace::Global) return;  // every word in the map
  uint64_t end = 0;
  for (const Allocation& a : trace.allocations)
    if (a.space == MemSpace::Shared) end = std::max(end, a.base + a.extent * std::max<uint32_t>(1, a.elem_size));
  end = std::max<uint64_t>(end, uint64_t(trace.launch.static_shared_bytes) + trace.launch.dynamic_shared_bytes);
  window_words_ = std::min<uint64_t>(kMaxFlatWords, (end + 3) / 4);
  flat_.resize(window_words_);
}

void HazardDetector::begin_block(uint32_t block) {
  ++block_ordinal_;
  block_ = block;
  barriers_.assign(barriers_.size(), 0);
  for (auto& p : last_sync_) p.reset();
  if (space_ == MemSpace::Global) overflow_.clear();  // only one block's global words are compared
}

void HazardDetector::barrier(uint32_t warp) {
  if (warp >= barriers_.size()) barriers_.resize(warp + 1, 0);
  ++barriers_[warp];
}

uint64_t HazardDetector::gen_of(uint32_t warp) const {
  const uint32_t b = warp < barriers_.size() ? barriers_[warp] : 0;
  return (block_ordinal_ << 32) | b;
}

void HazardDetector::syncwarp(uint32_t warp, uint32_t mask, uint32_t member_mask, uint64_t seq) {
  uint32_t m = member_mask ? (member_mask & mask) : mask;
  if (std::popcount(m) < 2) return;
  if (warp >= last_sync_.size()) last_sync_.resize(warp + 1);
  if (!last_sync_[warp]) {
    last_sync_[warp] = std::make_unique<std::array<uint64_t, 32 * 32>>();
    last_sync_[warp]->fill(0);
  }
  auto& t = *last_sync_[warp];
  for (uint32_t a = m; a; a &= a - 1) {
    const uint32_t la = static_cast<uint32_t>(std::countr_zero(a));
    for (uint32_t b = m; b; b &= b - 1) t[la * 32 + static_cast<uint32_t>(std::countr_zero(b))] = seq + 1;
  }
}

bool HazardDetector::synced(uint32_t warp, uint32_t lane_a, uint32_t lane_b, uint64_t after_seq) const {
  if (warp >= last_sync_.size() || !last_sync_[warp]) return false;
  // stored value is seq+1 so that 0 means "never"; a sync strictly after after_seq has seq+1 > after_seq+1
  return (*last_sync_[warp])[lane_a * 32 + lane_b] > after_seq + 1;
}

HazardDetector::Word& HazardDetector::word(uint64_t index) {
  if (index < window_words_) return flat_[index];
  return overflow_[index];
}

void HazardDetector::access(const Event& e, uint64_t seq) {
  const auto offsets = trace_.lanes(e);
  const uint32_t width = e.width ? e.width : 1;
  const uint64_t gen = gen_of(e.warp);
  uint32_t mask = e.mask;
  Current c{};
  c.seq = seq;
  c.warp = e.warp;
  c.site = e.site;
  c.alloc = e.alloc;
  c.kind = e.kind;
  c.flags = static_cast<uint8_t>((e.kind == AccessKind::Atomic ? kAtomic : 0) |
                                 ((e.flags & kFlagVolatile) ? kVolatile : 0));
  for (size_t i = 0; mask && i < offsets.size(); ++i, mask &= mask - 1) {
    c.lane = static_cast<uint32_t>(std::countr_zero(mask));
    c.thread = e.warp * uint32_t(kWarpSize) + c.lane;
    c.address = trace_.address(e, offsets[i]);
    const uint64_t last = c.address + width - 1;
    for (uint64_t wi = c.address / 4; wi <= last / 4; ++wi) {
      const uint64_t lo = std::max(c.address, wi * 4), hi = std::min(last, wi * 4 + 3);
      uint8_t bytes = 0;
      for (uint64_t b = lo; b <= hi; ++b) bytes |= uint8_t(1u << (b - wi * 4));
      Word& w = word(wi);
      if (w.gen < gen) {  // older block or older barrier interval: nothing to race with
        w.gen = gen;
        w.writer = {};
        w.readers.clear();
      } else if (w.gen > gen) {
        continue;  // this warp lags behind a barrier others have passed: ordered, skip
      }
      check_word(w, wi, bytes, c);
    }
  }
}

void HazardDetector::check_word(Word& w, uint64_t wi, uint8_t bytes, const Current& c) {
  const bool writes = c.kind != AccessKind::Load;
  const bool atomic = c.flags & kAtomic;
  // Against the last writers of the bytes (RAW for a load, WAW for a store/atomic).
  const Writer* prev = nullptr;
  for (uint32_t b = 0; b < 4; ++b) {
    if (!(bytes >> b & 1u)) continue;
    const Writer& wr = w.writer[b];
    if (!wr.valid || wr.thread == c.thread) continue;
    if (prev && prev->seq == wr.seq && prev->thread == wr.thread) continue;  // same writer, next byte
    prev = &wr;
    if (atomic && (wr.flags & kAtomic)) continue;
    if (optimistic_read(writes, wr.flags & kAtomic)) continue;
    report(writes ? HazardKind::WAW : HazardKind::RAW, wr.thread, wr.site, wr.flags, wr.seq, c,
           wi * 4 + b);
  }
  if (writes) {
    // Against readers (WAR), then this access becomes the bytes' last writer.
    for (const Reader& r : w.readers) {
      if (!(r.bytes & bytes) || r.thread == c.thread) continue;
      if (atomic && (r.flags & kAtomic)) continue;
      if (optimistic_read(false, atomic)) continue;
      report(HazardKind::WAR, r.thread, r.site, r.flags, r.seq, c,
             wi * 4 + static_cast<uint32_t>(std::countr_zero(uint32_t(r.bytes & bytes))));
    }
    for (uint32_t b = 0; b < 4; ++b)
      if (bytes >> b & 1u) w.writer[b] = Writer{c.seq, c.thread, c.site, c.flags, true};
    std::erase_if(w.readers, [&](Reader& r) {
      r.bytes = static_cast<uint8_t>(r.bytes & ~bytes);
      return r.bytes == 0;
    });
  } else {
    for (Reader& r : w.readers) {
      if (r.thread == c.thread && r.site == c.site) {
        r.seq = c.seq;
        r.bytes |= bytes;
        r.flags = c.flags;
        return;
      }
    }
    if (w.readers.size() >= max_readers_) w.readers.erase(w.readers.begin());
    w.readers.push_back(Reader{c.seq, c.thread, c.site, bytes, c.flags});
  }
}

void HazardDetector::report(HazardKind kind, uint32_t first_thread, uint32_t first_site, uint8_t first_flags,
                            uint64_t first_seq, const Current& c, uint64_t byte_address) {
  const uint32_t first_warp = first_thread / kWarpSize, first_lane = first_thread % kWarpSize;
  HazardScope scope = HazardScope::InterWarp;
  if (first_seq == c.seq) {
    scope = HazardScope::SameInstruction;
  } else if (first_warp == c.warp) {
    if (synced(c.warp, first_lane, c.lane, first_seq)) return;  // a __syncwarp orders them
    scope = HazardScope::IntraWarpLockstep;
  }
  const bool both_volatile = (first_flags & kVolatile) && (c.flags & kVolatile);
  if (c.alloc < trace_.allocations.size()) {
    const Allocation& a = trace_.allocations[c.alloc];
    const uint64_t element = (byte_address - std::min(byte_address, a.base)) / std::max<uint64_t>(a.elem_size, 1);
    ElementHazards& e = elements_[uint64_t(c.alloc) << 40 | element];
    e.alloc = c.alloc;
    e.element = element;
    ++(scope == HazardScope::IntraWarpLockstep ? e.lockstep : e.races);
  }
  Key key{static_cast<uint8_t>(kind), static_cast<uint8_t>(scope), first_site, c.site, c.alloc};
  auto [it, inserted] = index_.try_emplace(key, hazards_.size());
  if (!inserted) {
    Hazard& h = hazards_[it->second];
    ++h.count;
    if (both_volatile) ++h.volatile_count;
    return;
  }
  Hazard h;
  h.kind = kind;
  h.scope = scope;
  h.first_site = first_site;
  h.second_site = c.site;
  h.alloc = c.alloc;
  h.count = 1;
  h.volatile_count = both_volatile ? 1 : 0;
  h.block = block_;
  h.block_index = trace_.block_index(block_);
  h.space = space_;
  auto side = [&](HazardAccess& a, uint32_t thread, uint32_t site, uint8_t flags, uint64_t seq) {
    a.site = site;
    a.thread = thread;
    a.warp = thread / kWarpSize;
    a.lane = thread % kWarpSize;
    a.thread_index = trace_.thread_index(a.warp, a.lane);
    a.is_volatile = flags & kVolatile;
    a.event = seq;
    a.kind = seq < trace_.events.size() ? trace_.events[seq].kind : AccessKind::Load;
  };
  side(h.first, first_thread, first_site, first_flags, first_seq);
  side(h.second, c.thread, c.site, c.flags, c.seq);
  const uint64_t base = c.alloc < trace_.allocations.size() ? trace_.allocations[c.alloc].base : 0;
  h.byte_offset = byte_address >= base ? byte_address - base : byte_address;
  if (c.alloc < trace_.allocations.size())
    h.element = element_name(trace_.allocations[c.alloc], h.byte_offset);
  else
    h.element = (space_ == MemSpace::Shared ? "shared+" : "global+") + std::to_string(byte_address);
  hazards_.push_back(std::move(h));
}

std::vector<ElementHazards> HazardDetector::take_elements() {
  std::vector<ElementHazards> out;
  out.reserve(elements_.size());
  for (const auto& [k, e] : elements_) out.push_back(e);
  std::sort(out.begin(), out.end(), [](const ElementHazards& a, const ElementHazards& b) {
    return a.alloc != b.alloc ? a.alloc < b.alloc : a.element < b.element;
  });
  elements_.clear();
  return out;
}

std::vector<Hazard> HazardDetector::take() {
  std::vector<Hazard> out = std::move(hazards_);
  std::stable_sort(out.begin(), out.end(), [](const Hazard& a, const Hazard& b) {
    if (a.scope != b.scope) return a.scope < b.scope;
    if (a.first_site != b.first_site) return a.first_site < b.first_site;
    if (a.second_site != b.second_site) return a.second_site < b.second_site;
    return a.kind < b.kind;
  });
  hazards_.clear();
  index_.clear();
  return out;
}

}  // namespace detail
}  // namespace ws::analysis
