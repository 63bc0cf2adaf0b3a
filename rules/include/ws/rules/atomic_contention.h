// How much a warp's atomic instruction must serialize: lanes that hit the same address are done
// one after another by the atomic unit.
//
// max_same_address = the largest number of active lanes whose access starts at the same byte
// address; distinct_addresses = the number of different start addresses.
//
//     // all 32 lanes doing atomicAdd(&counter, 1): every address the same
//     ws::rules::AtomicMetrics a = ws::rules::atomic_contention(0xffffffffu, addr);
//     // a.max_same_address == 32, a.distinct_addresses == 1
//
// Addresses: one entry per ACTIVE lane, in lane order.
#pragma once

#include <cstdint>
#include <span>

namespace ws::rules {

struct AtomicMetrics {
  uint32_t max_same_address = 0;    // serialization: most lanes on one address
  uint32_t distinct_addresses = 0;
};

AtomicMetrics atomic_contention(uint32_t mask, std::span<const uint64_t> addresses);

}  // namespace ws::rules
