#include "fiber_switch.h"

#include <boost/context/detail/fcontext.hpp>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace ws::emu {

// AddressSanitizer keeps shadow state per stack: it must be told where the stack a switch goes to
// lies (before the switch) and learn where the one it came from lies (after it), or it takes the
// fibers' frames for overflows. No-ops in other builds.
namespace {
#if defined(__SANITIZE_ADDRESS__)
struct SwitchNote {
  void* fake_stack = nullptr;
};
inline void before_switch(SwitchNote& n, const FiberContext& to) {
  __sanitizer_start_switch_fiber(&n.fake_stack, to.stack_bottom, to.stack_size);
}
inline void after_switch(SwitchNote& n, FiberContext* came_from) {
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(n.fake_stack, &bottom, &size);
  // (Every time: one slot holds different fibers over time, e.g. a lane's, from block to block.)
  if (came_from) came_from->stack_bottom = bottom, came_from->stack_size = size;
}
#else
struct SwitchNote {};
inline void before_switch(SwitchNote&, const FiberContext&) {}
inline void after_switch(SwitchNote&, FiberContext*) {}
#endif
}  // namespace

// jump_fcontext hands the resumed side the context it left and one pointer: the pointer is the
// slot (the leaving side's FiberContext) where the resumed side stores that context. A new
// context first runs `start`, which takes its entry and argument and at once switches back to
// fiber_make; the first fiber_swap to it then resumes it there and it calls the entry.
namespace {

namespace fc = boost::context::detail;

struct Start {
  FiberEntry entry;
  void* arg;
  FiberContext* maker;  // fiber_make's own context (its stack, for the switch back)
};

void start(fc::transfer_t t) {
  SwitchNote note;
  const Start s = *static_cast<const Start*>(t.data);
  // Learn fiber_make's stack: the switch back to it below must name it. (Named as empty, ASan
  // took the maker's thread for one with no stack, and the next exception thrown on that thread
  // was reported as a stack overflow.)
  after_switch(note, s.maker);
  before_switch(note, *s.maker);
  const fc::transfer_t first = fc::jump_fcontext(t.fctx, nullptr);  // back to fiber_make
  FiberContext* came_from = static_cast<FiberContext*>(first.data);
  came_from->sp = first.fctx;
  after_switch(note, came_from);
  s.entry(s.arg);
}

}  // namespace

FiberContext fiber_make(void* stack_top, std::size_t stack_bytes, FiberEntry entry, void* arg) {
  FiberContext maker, made_ctx;
#if defined(__SANITIZE_ADDRESS__)
  made_ctx.stack_bottom = static_cast<char*>(stack_top) - stack_bytes;
  made_ctx.stack_size = stack_bytes;
#endif
  Start s{entry, arg, &maker};
  const fc::fcontext_t made = fc::make_fcontext(stack_top, stack_bytes, &start);
  SwitchNote note;
  before_switch(note, made_ctx);
  made_ctx.sp = fc::jump_fcontext(made, &s).fctx;
  after_switch(note, &maker);
  return made_ctx;
}

void fiber_swap(FiberContext& from, const FiberContext& to) {
  SwitchNote note;
  before_switch(note, to);
  const fc::transfer_t back = fc::jump_fcontext(to.sp, &from);
  FiberContext* came_from = static_cast<FiberContext*>(back.data);
  came_from->sp = back.fctx;
  after_switch(note, came_from);
}

}  // namespace ws::emu
