// Internal: the shared-memory hazard detector behind analyze() (rules in hazards.h).
//
// Shadow state per 4-byte word of the block's shared window (a flat array; words beyond the
// allocation table's window go to a hash map): for each byte its last writer, and the recent
// readers (one record per (thread, site), up to Options::max_readers_per_word). Each word carries a
// generation = (block ordinal, barrier interval); a word whose generation is older than the
// accessing warp's interval is empty. Nothing is cleared between blocks or barriers, so the cost is
// O(lane accesses x words per access), independent of the shared-memory size.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "ws/analysis/hazards.h"
#include "ws/trace/trace.h"

namespace ws::analysis::detail {

class HazardDetector {
 public:
  // `space`: the memory it watches. Shared words live in a flat array over the block's window;
  // global words in a hash map emptied at every block (a block's accesses, not the grid's).
  HazardDetector(const Trace& trace, uint32_t max_readers_per_word, MemSpace space = MemSpace::Shared);

  void begin_block(uint32_t block);
  void barrier(uint32_t warp);
  // A __syncwarp(member_mask) issued by `mask` lanes of `warp`, event index `seq`.
  void syncwarp(uint32_t warp, uint32_t mask, uint32_t member_mask, uint64_t seq);
  // A shared-memory Access event, event index `seq`.
  void access(const Event& e, uint64_t seq);

  // All hazards found, aggregated and sorted (InterWarp, SameInstruction, IntraWarpLockstep).
  std::vector<Hazard> take();
  // The pairs per element (of the later access's array), sorted by (alloc, element).
  std::vector<ElementHazards> take_elements();

 private:
  static constexpr uint8_t kAtomic = 1, kVolatile = 2;
  struct Writer {
    uint64_t seq = 0;
    uint32_t thread = 0;
    uint32_t site = 0;
    uint8_t flags = 0;
    bool valid = false;
  };
  struct Reader {
    uint64_t seq = 0;
    uint32_t thread = 0;
    uint32_t site = 0;
    uint8_t bytes = 0;  // bit b = byte b of the word
    uint8_t flags = 0;
  };
  struct Word {
    uint64_t gen = 0;
    std::array<Writer, 4> writer{};
    std::vector<Reader> readers;
  };
  struct Current {  // the lane access being checked
    uint64_t seq;
    uint32_t thread, warp, lane, site, alloc;
    uint64_t address;  // first byte of the lane's access
    AccessKind kind;
    uint8_t flags;
  };
  struct Key {
    uint8_t kind, scope;
    uint32_t first_site, second_site, alloc;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      uint64_t h = (uint64_t(k.first_site) << 32) ^ k.second_site;
      h ^= (uint64_t(k.alloc) * 0x9e3779b97f4a7c15ull) ^ (uint64_t(k.kind) << 8 | k.scope);
      return static_cast<size_t>(h * 0xff51afd7ed558ccdull);
    }
  };

  Word& word(uint64_t index);
  uint64_t gen_of(uint32_t warp) const;
  bool synced(uint32_t warp, uint32_t lane_a, uint32_t lane_b, uint64_t after_seq) const;
  void check_word(Word& w, uint64_t word_index, uint8_t bytes, const Current& c);
  // A plain load of a global word against another thread's atomic on it: the atomicCAS loop's
  // first read (`old = *address; do { ... } while (atomicCAS(address, ...) != ...)`) and a poll of
  // a counter are built to tolerate a stale value, and CUDA's guide writes them so. Not reported
  // (racecheck does not look at global memory at all); a plain store against an atomic still is.
  bool optimistic_read(bool load_is_a_write, bool other_is_atomic) const {
    return space_ == MemSpace::Global && !load_is_a_write && other_is_atomic;
  }
  void report(HazardKind kind, uint32_t first_thread, uint32_t first_site, uint8_t first_flags,
              uint64_t first_seq, const Current& c, uint64_t byte_address);

  const Trace& trace_;
  uint32_t max_readers_;
  MemSpace space_;
  uint64_t window_words_ = 0;
  std::vector<Word> flat_;
  std::unordered_map<uint64_t, Word> overflow_;
  uint64_t block_ordinal_ = 0;
  uint32_t block_ = 0;
  std::vector<uint32_t> barriers_;  // per warp of the current block
  // Per warp (lazily): last_sync[a*32+b] = event index of the last __syncwarp covering lanes a, b.
  std::vector<std::unique_ptr<std::array<uint64_t, 32 * 32>>> last_sync_;
  std::unordered_map<Key, size_t, KeyHash> index_;
  std::vector<Hazard> hazards_;
  std::unordered_map<uint64_t, ElementHazards> elements_;  // key: alloc << 40 | element
};

}  // namespace ws::analysis::detail
