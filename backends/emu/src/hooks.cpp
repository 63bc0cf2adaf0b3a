// The kernel API's calls into the emulator (ws/emu/hooks.h), forwarded to the worker that
// runs the calling fiber.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "worker_post.h"
#include "ws/trace/sources.h"

namespace ws::emu {

namespace {

Worker& worker() {
  Worker* w = Worker::current();
  if (!w) {
    // A kernel function called directly on the host, outside ws::emu::launch: there is no warp
    // to schedule it in. This is a programming error in driver code, not a kernel fault.
    std::fputs("warpscope: a kernel was called outside ws::emu::launch()\n", stderr);
    std::abort();
  }
  return *w;
}

const char* verb(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return "read";
    case AccessKind::Store: return "write";
    case AccessKind::Atomic: return "atomic update";
  }
  return "access";
}

}  // namespace

void access(const std::source_location& loc, uint64_t tag, uint64_t byte_offset) {
  worker().post_access(site_key(loc), tag, byte_offset);
}

void out_of_bounds(const std::source_location& loc, uint32_t alloc, int64_t index, uint64_t extent,
                   AccessKind kind) {
  Worker& w = worker();
  const uint3 tid = threadIdx;
  const std::string name = w.allocation_name(alloc);
  std::string msg = "out-of-bounds " + std::string(verb(kind)) + " of " + name + "[" +
                    std::to_string(index) + "] (" + name + " has " + std::to_string(extent) +
                    " elements, valid indices 0.." + std::to_string(extent ? extent - 1 : 0) +
                    ") by thread (" + std::to_string(tid.x) + "," + std::to_string(tid.y) +
                    "," + std::to_string(tid.z) + ") of block (" + std::to_string(blockIdx.x) +
                    "," + std::to_string(blockIdx.y) + "," + std::to_string(blockIdx.z) +
                    ") at " + kernel_relative_path(loc.file_name()) + ":" + std::to_string(loc.line());
  w.fail(&loc, "out-of-bounds", std::move(msg));
}

void store(const std::source_location& loc, uint64_t tag, uint64_t byte_offset, void* target, uint64_t value) {
  worker().post_store(site_key(loc), tag, byte_offset, target, value);
}

void deferred_load(const std::source_location& loc, uint64_t tag, uint64_t byte_offset, const void* from,
                   uint32_t slot) {
  worker().post_deferred_load(site_key(loc), tag, byte_offset, from, slot);
}

void deferred_store(const std::source_location& loc, uint64_t tag, uint64_t byte_offset, void* target,
                    Combine combine) {
  worker().post_deferred_store(site_key(loc), tag, byte_offset, target, combine);
}

void syncthreads(const std::source_location& loc) { worker().post_barrier(loc); }

uint32_t syncthreads_reduce(const std::source_location& loc, bool predicate) {
  return worker().post_barrier_count(loc, predicate);
}

uint64_t warp_op(const std::source_location& loc, WarpOp op, uint32_t member_mask, uint64_t value,
                 int32_t arg, int32_t width) {
  return worker().post_warp_op(loc, op, member_mask, value, arg, width);
}

uint64_t shfl(const std::source_location& loc, uint32_t member_mask, uint64_t value, int32_t src_lane, int32_t width) {
  return worker().post_warp_op(loc, WarpOp::Shfl, member_mask, value, src_lane, width);
}

uint64_t shfl_up(const std::source_location& loc, uint32_t member_mask, uint64_t value, int32_t delta, int32_t width) {
  return worker().post_warp_op(loc, WarpOp::ShflUp, member_mask, value, delta, width);
}

uint64_t shfl_down(const std::source_location& loc, uint32_t member_mask, uint64_t value, int32_t delta,
                   int32_t width) {
  return worker().post_warp_op(loc, WarpOp::ShflDown, member_mask, value, delta, width);
}

uint64_t shfl_xor(const std::source_location& loc, uint32_t member_mask, uint64_t value, int32_t lane_mask,
                  int32_t width) {
  return worker().post_warp_op(loc, WarpOp::ShflXor, member_mask, value, lane_mask, width);
}

void fence(const std::source_location& loc, bool block_scope) {
  worker().post_fence(loc, block_scope);
}

uint32_t shared_alloc(void* storage, uint64_t bytes, uint32_t elem_size, uint64_t extent,
                      const char* name, std::string_view type_name, uint64_t& epoch,
                      uint32_t& cached) {
  return worker().shared_alloc(storage, bytes, elem_size, extent, name, type_name, epoch, cached);
}

uint32_t dynamic_shared_alloc(uint32_t elem_size, const char* name, std::string_view type_name,
                              void*& storage, uint64_t& extent, uint64_t& epoch, uint32_t& cached) {
  return worker().dynamic_shared_alloc(elem_size, name, type_name, storage, extent, epoch, cached);
}

void fail(const std::source_location& loc, std::string_view code, std::string message) {
  worker().fail(&loc, std::string(code), std::move(message));
}

}  // namespace ws::emu

// A plain CUDA file's printf in device code (its rewrite renames it): the thread's text is kept
// with its block and printed at the launch's end in a GPU's order (merge).
int ws_printf(const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  char small[256];
  const int n = std::vsnprintf(small, sizeof small, format, args);
  va_end(args);
  std::string text;
  if (n >= 0 && size_t(n) < sizeof small) {
    text.assign(small, size_t(n));
  } else if (n >= 0) {
    text.resize(size_t(n) + 1);
    std::vsnprintf(text.data(), text.size(), format, again);
    text.resize(size_t(n));
  }
  va_end(again);
  if (n < 0) return n;
  if (ws::emu::Worker* w = ws::emu::Worker::current()) w->post_print(text, format);
  else std::fwrite(text.data(), 1, text.size(), stdout);  // (not in a kernel: printed now)
  return n;
}
