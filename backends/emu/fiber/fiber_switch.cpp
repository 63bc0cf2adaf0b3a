#include "fiber_switch.h"

#include <boost/context/detail/fcontext.hpp>
#include <cstdint>

namespace ws::emu {

// [SECTION] x86-64 (System V ABI): six callee-saved registers and the stack pointer
#if WS_EMU_NATIVE_FIBER_SWITCH

// ws_emu_fiber_swap(save_sp = %rdi, load_sp = %rsi): pushes the callee-saved registers on the
// running stack, saves the stack pointer, loads the other one and pops that context's
// registers; `ret` then returns into the other context, where its own fiber_swap was called.
// Both stacks hold the same frame at the switch, so one set of CFI rules describes every
// instruction (a debugger or profiler can walk the stack from inside it).
// ws_emu_fiber_start is where a new context's first `ret` goes: fiber_make left the entry
// function in %r13 and its argument in %r12. Its CFI marks the end of the stack, so an unwinder
// or a debugger walking a fiber's frames stops there.
asm(R"(
  .pushsection .text
  .globl ws_emu_fiber_swap
  .type ws_emu_fiber_swap, @function
  .p2align 4
ws_emu_fiber_swap:
  .cfi_startproc
  pushq %rbp
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset rbp, 0
  pushq %rbx
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset rbx, 0
  pushq %r12
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset r12, 0
  pushq %r13
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset r13, 0
  pushq %r14
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset r14, 0
  pushq %r15
  .cfi_adjust_cfa_offset 8
  .cfi_rel_offset r15, 0
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  .cfi_adjust_cfa_offset -8
  .cfi_restore r15
  popq %r14
  .cfi_adjust_cfa_offset -8
  .cfi_restore r14
  popq %r13
  .cfi_adjust_cfa_offset -8
  .cfi_restore r13
  popq %r12
  .cfi_adjust_cfa_offset -8
  .cfi_restore r12
  popq %rbx
  .cfi_adjust_cfa_offset -8
  .cfi_restore rbx
  popq %rbp
  .cfi_adjust_cfa_offset -8
  .cfi_restore rbp
  ret
  .cfi_endproc
  .size ws_emu_fiber_swap, .-ws_emu_fiber_swap

  .globl ws_emu_fiber_start
  .hidden ws_emu_fiber_start
  .type ws_emu_fiber_start, @function
  .p2align 4
ws_emu_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%r13
  ud2
  .cfi_endproc
  .size ws_emu_fiber_start, .-ws_emu_fiber_start
  .popsection
)");

extern "C" void ws_emu_fiber_start();

FiberContext fiber_make(void* stack_top, std::size_t, FiberEntry entry, void* arg) {
  // The frame ws_emu_fiber_swap pops: r15 r14 r13 r12 rbx rbp, then the return address. After
  // that `ret` the stack pointer must be 16-byte aligned, as the ABI wants it at a call.
  auto top = reinterpret_cast<uintptr_t>(stack_top) & ~uintptr_t(15);
  void** sp = reinterpret_cast<void**>(top - 72);
  sp[0] = nullptr;                                  // r15
  sp[1] = nullptr;                                  // r14
  sp[2] = reinterpret_cast<void*>(entry);           // r13
  sp[3] = arg;                                      // r12
  sp[4] = nullptr;                                  // rbx
  sp[5] = nullptr;                                  // rbp
  sp[6] = reinterpret_cast<void*>(&ws_emu_fiber_start);  // return address
  sp[7] = sp[8] = nullptr;
  return FiberContext{sp};
}

#endif

// [SECTION] Portable: Boost.Context's fcontext
// jump_fcontext hands the resumed side the context it left and one pointer: the pointer is the
// slot (the leaving side's FiberContext) where the resumed side stores that context. A new
// context first runs `start`, which takes its entry and argument and at once switches back to
// fiber_make; the first fiber_swap to it then resumes it there and it calls the entry.
namespace portable {
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

}  // namespace portable

#if !WS_EMU_NATIVE_FIBER_SWITCH
FiberContext fiber_make(void* stack_top, std::size_t stack_bytes, FiberEntry entry, void* arg) {
  return portable::fiber_make(stack_top, stack_bytes, entry, arg);
}
void fiber_swap(FiberContext& from, const FiberContext& to) { portable::fiber_swap(from, to); }
#endif

}  // namespace ws::emu
