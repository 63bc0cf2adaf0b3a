#include "fiber_switch.h"

#include <boost/context/detail/fcontext.hpp>

namespace ws::emu {

// jump_fcontext hands the resumed side the context it left and one pointer: the pointer is the
// slot (the leaving side's FiberContext) where the resumed side stores that context. A new
// context first runs `start`, which takes its entry and argument and at once switches back to
// fiber_make; the first fiber_swap to it then resumes it there and it calls the entry.
namespace {

namespace fc = boost::context::detail;

struct Start {
  FiberEntry entry;
  void* arg;
};

void start(fc::transfer_t t) {
  const Start s = *static_cast<const Start*>(t.data);
  const fc::transfer_t first = fc::jump_fcontext(t.fctx, nullptr);  // back to fiber_make
  static_cast<FiberContext*>(first.data)->sp = first.fctx;
  s.entry(s.arg);
}

}  // namespace

FiberContext fiber_make(void* stack_top, std::size_t stack_bytes, FiberEntry entry, void* arg) {
  Start s{entry, arg};
  const fc::fcontext_t made = fc::make_fcontext(stack_top, stack_bytes, &start);
  return FiberContext{fc::jump_fcontext(made, &s).fctx};
}

void fiber_swap(FiberContext& from, const FiberContext& to) {
  const fc::transfer_t back = fc::jump_fcontext(to.sp, &from);
  static_cast<FiberContext*>(back.data)->sp = back.fctx;
}

}  // namespace ws::emu
