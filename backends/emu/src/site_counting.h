// The per-site counters of every block (RecordOptions::count_every_block), counted as the warps
// issue: one warp memory instruction at a time, by the counting rules (ws/rules) the analysis uses too, so that the numbers
// are those analyze() gives for the same instructions in a full trace. Byte offsets stand for
// addresses: all lanes of an instruction touch one allocation, and every allocation starts at a
// multiple of 128 bytes (shared: each array starts at bank 0; global: cudaMalloc's 256), so banks,
// words, sectors and lines come out the same as from base + offset.
//
// Most instructions of a site repeat one lane pattern (a[tid], a[tid + s], a[2 * s * tid]): lanes
// at one stride from the first. Their counts depend only on the width, the mask, the stride and
// the first offset modulo 128 (banks, sectors and lines repeat every 128 bytes), so each site
// remembers the counts of the last such pattern it met, and a warp that repeats it skips the
// rules; and each (site, kind, space) remembers where its row of the block's counters is.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "request.h"
#include "ws/rules/global_sectors.h"
#include "ws/rules/shared_banks.h"
#include "ws/trace/trace.h"

namespace ws::emu {

class SiteCounting {
 public:
  // Adds warp memory instruction `r` (registry site id `site`, active lanes `mask`, their byte
  // offsets in lane order) to the block's row for its site, kind and space in `counters`.
  // (Inlined into the issue paths: it runs at every warp memory instruction.)
  [[gnu::always_inline]] inline void count(std::vector<SiteCounters>& counters, uint32_t site, const Request& r,
                                           uint32_t mask, std::span<const uint64_t> offsets);

 private:
  // Per site (direct-mapped), the counts of the last lane-linear pattern.
  struct CountMemo {
    uint32_t site = ~0u;
    uint32_t mask = 0;
    uint64_t stride = 0;
    uint32_t phase = 0;  // first lane's offset modulo 128
    uint8_t width = 0;
    MemSpace space = MemSpace::Global;
    uint32_t first = 0, second = 0;
  };
  static constexpr uint32_t kCountMemos = 64;
  CountMemo memo_[kCountMemos];
  // Per (site, kind, space), direct-mapped, the index of its row in the block's counters the last
  // time (checked before use: rows are per block).
  uint32_t row_slot_[kCountMemos] = {};
};

inline void SiteCounting::count(std::vector<SiteCounters>& counters, uint32_t site, const Request& r, uint32_t mask,
                                std::span<const uint64_t> offsets) {
  const uint32_t n = uint32_t(offsets.size());
  const AccessKind kind = r.kind();
  const MemSpace space = r.space();
  // The block's row for (site, kind, space): where it was last time, checked, or looked for.
  uint32_t& slot = row_slot_[(site * 8 + uint32_t(kind) * 2 + uint32_t(space)) % kCountMemos];
  SiteCounters* c = nullptr;
  if (slot < counters.size()) {
    SiteCounters& s = counters[slot];
    if (s.site == site && s.kind == kind && s.space == space) c = &s;
  }
  if (!c) {
    for (SiteCounters& s : counters)  // a kernel has a handful of sites
      if (s.site == site && s.kind == kind && s.space == space) c = &s;
    if (!c) {
      SiteCounters s;
      s.site = site;
      s.kind = kind;
      s.space = space;
      c = &counters.emplace_back(s);
    }
    slot = uint32_t(c - counters.data());
  }
  c->width = std::max<uint8_t>(c->width, r.width);
  ++c->instructions;
  c->lanes += n;

  // The counts of the lane pattern: remembered for a lane-linear one (see above).
  const uint64_t stride = n > 1 ? offsets[1] - offsets[0] : 0;
  uint64_t off_stride = 0;  // non-zero when some lane is not at `stride` from the one before
  uint32_t k = 2;
  for (; k + 1 < n; k += 2)
    off_stride |= ((offsets[k] - offsets[k - 1]) ^ stride) | ((offsets[k + 1] - offsets[k]) ^ stride);
  if (k < n) off_stride |= (offsets[k] - offsets[k - 1]) ^ stride;
  const bool linear = off_stride == 0;
  CountMemo& memo = memo_[site % kCountMemos];
  const uint32_t phase = uint32_t(offsets[0] % 128);
  uint32_t first, second;  // shared: wavefronts, ideal wavefronts; global: sectors, lines
  if (linear && memo.site == site && memo.mask == mask && memo.stride == stride && memo.phase == phase &&
      memo.width == r.width && memo.space == space) {
    first = memo.first, second = memo.second;
  } else {
    if (space == MemSpace::Shared) {
      const rules::SharedCounts sc = rules::shared_wavefront_counts(r.width, mask, offsets);
      first = sc.wavefronts, second = sc.ideal_wavefronts;
    } else {
      const rules::GlobalCounts gc = rules::global_access_counts(r.width, offsets);
      first = gc.sectors, second = gc.lines;
    }
    if (linear) memo = {site, mask, stride, phase, r.width, space, first, second};
  }
  if (space == MemSpace::Shared) {
    c->wavefronts += first;
    c->ideal_wavefronts += second;
  } else {
    c->sectors += first;
    c->lines += second;
  }
}

}  // namespace ws::emu
