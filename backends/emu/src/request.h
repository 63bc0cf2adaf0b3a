// What a lane queues: one request per instrumented operation it meets (an access, a warp-synchronous
// call, a fence, a barrier, its exit or an error), in the order it met them, and the states a
// lane's oldest request puts it in. Also how a shuffle picks its source lane (PTX's shfl.sync).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "site_registry.h"
#include "ws/emu/hooks.h"

namespace ws::emu {

// The state of a lane's oldest queued operation. WaitWarp: at a warp-synchronous call
// (__shfl_*_sync, __syncwarp, votes) whose mask names lanes that have not arrived yet; as on Volta
// and later, the call waits for them. Running: the queue is empty because the lane runs.
enum class LaneState : uint8_t { Ready, AtBarrier, WaitWarp, Exited, Failed, Running };
// Exit: the thread returned from the kernel. Fail: an error the thread met while it ran ahead.
// The order matters: the types up to Fence are the ones a lane issues (can_issue).
enum class ReqType : uint8_t { Access, WarpOp, Fence, Barrier, Exit, Fail };

constexpr bool can_issue(ReqType t) { return t <= ReqType::Fence; }  // an access, a warp op, a fence

// Shuffles, as PTX's shfl.sync defines them.
constexpr bool is_shuffle(WarpOp op) { return op >= WarpOp::Shfl && op <= WarpOp::ShflXor; }
// A shuffle's `width` as the lane gave it, or 32 where it is not a power of two from 1 to 32
// (undefined on the GPU).
constexpr int shuffle_width(int32_t w) {
  const uint32_t u = uint32_t(w);
  return (u - 1 < 32 && (u & (u - 1)) == 0) ? w : 32;
}
// The lane that lane `i` reads in a shuffle of `width` lanes (shuffle_width) with operand
// `b` (only its low five bits count): a source outside the lane's segment of `width` lanes
// (for a butterfly, past its segment's end) is the lane itself.
constexpr int shuffle_source(WarpOp op, int i, int width, int b) {
  b &= 31;
  const int first = i & -width, last = first | (width - 1);
  switch (op) {
    case WarpOp::Shfl: return first | (b & (last - first));
    case WarpOp::ShflUp: return i - b >= first ? i - b : i;
    case WarpOp::ShflDown: return i + b <= last ? i + b : i;
    case WarpOp::ShflXor: return (i ^ b) <= last ? i ^ b : i;
    default: return i;
  }
}
static_assert(shuffle_source(WarpOp::ShflDown, 20, 16, 33) == 21 && shuffle_source(WarpOp::ShflXor, 20, 16, 16) == 4 &&
              shuffle_source(WarpOp::ShflXor, 4, 16, 16) == 4 && shuffle_source(WarpOp::ShflUp, 17, 16, 2) == 17);

// One operation a lane posted, 40 bytes: a lane's bookkeeping and its first queued operation
// share one cache line, and the scheduler touches hundreds of lanes in turn. `loc` is the call
// site's std::source_location record (libstdc++ keeps one static record per call site, so the
// pointer names the site); the site's registry id is looked up once per issued warp instruction.
struct Request {
  const void* loc = nullptr;
  // The tail word (tail()), beside `loc`: same_operation compares the two words at once.
  // Access: the allocation. A warp-synchronous call: its member mask (member_mask(); here, in the
  // tail word, so that same_operation compares it too: lanes that agree name the same lanes).
  uint32_t alloc = 0;
  ReqType type = ReqType::Access;
  SubOp sub = SubOp::Load;  // Load / Store / Atomic is the access kind
  uint8_t width = 0;        // Access: bytes
  uint8_t bits = 0;         // Access: MemSpace (bit 0), kFlagVolatile (bit 1), AtomicOp (bits 4..7)
  union {
    // Access. A store the scheduler writes at issue (the lane went on without waiting) has
    // `store_to` set and its bytes in `value` (a deferred store: its Combine function, see
    // emu_hooks.h); so has a deferred load (where it reads, and the lane's operand slot it reads
    // into). Any other load, and an atomic, is performed by the lane itself when it resumes.
    struct {
      uint64_t byte_offset;  // from the allocation's first element
      void* store_to;
      uint64_t value;
    } access;
    struct {
      uint64_t value;  // the lane's operand (its member mask is `alloc`: member_mask())
      int32_t arg;
      int32_t width;
      WarpOp op;
      bool eager;  // a shuffle whose lane took its result without waiting (try_eager_shuffle)
    } warp;
    bool block_scope;  // Fence
    // Barrier: the lane reached it `last - first + 1` times in a row (see post_barrier), as the
    // block's release number `first` up to `last` (1 = the block's first release).
    // __syncthreads_count and its forms: `counts` is set, and `predicate` is the lane's.
    struct {
      uint32_t first;
      uint32_t last;
      bool counts;
      bool predicate;
    } barrier;
  };

  Request() : access{} {}
  // The issue-order key (issue_order, and the sub-operation): computed, not stored.
  uint64_t order() const { return sub_order(issue_order(site_location(loc)), sub); }
  AccessKind kind() const { return AccessKind(sub); }
  uint32_t member_mask() const { return alloc; }  // WarpOp
  MemSpace space() const { return MemSpace(bits & 1); }
  uint8_t flags() const { return (bits >> 1) & 1; }
  bool deferred() const { return bits & kTagDeferred; }
  // alloc, type, sub, width and bits as one word: what an access_tag word (emu_hooks.h) set.
  uint64_t tail() const;  // (defined below Request: it needs offsetof)
  // The tail without the deferred flag: what makes two accesses at one site the same warp
  // instruction (a deferred store and a plain one at a site are one instruction, as they are
  // when nothing is deferred).
  uint64_t group_tail() const { return tail() & ~(uint64_t(kTagDeferred) << 56); }
  AtomicOp atomic() const { return AtomicOp(bits >> 4); }
};
static_assert(sizeof(Request) == 40);
inline uint64_t Request::tail() const {
  uint64_t t;
  std::memcpy(&t, reinterpret_cast<const char*>(this) + offsetof(Request, alloc), sizeof t);
  return t;
}
// The tail that an access_tag word (emu_hooks.h) is copied onto, in its order (a little-endian
// word: its low bits land on `alloc`).
static_assert(std::endian::native == std::endian::little, "the access tag word is laid out little-endian");
static_assert(offsetof(Request, alloc) == 8 && offsetof(Request, type) == 12 && offsetof(Request, sub) == 13 &&
              offsetof(Request, width) == 14 && offsetof(Request, bits) == 15 && uint8_t(ReqType::Access) == 0);

}  // namespace ws::emu
