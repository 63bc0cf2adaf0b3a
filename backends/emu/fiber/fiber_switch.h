// Switching between the emulator's fibers (one per CUDA thread): save the running context, resume
// another one. The emulator switches about once per lane access, so this is its hottest path.
//
// Why not boost::context::fiber, which the emulator used first: its switch costs ~22 ns where
// this one costs ~5 ns (a ring of 256 fibers, each switching 5 calls deep, this VM). Boost's
// jump_fcontext saves and restores the x87 and SSE control words (fldcw and ldmxcsr are slow,
// microcoded instructions) and returns into the resumed fiber with an indirect jump, so the
// CPU's return-address predictor is one entry off after every switch and the resumed lane's
// next returns mispredict. fiber_swap ends in `ret`: the lanes stop at the same call sites, so
// the return addresses the predictor holds from the lane before are the right ones.
//
// What a switch keeps: the callee-saved registers of the platform's C ABI and the stack. What
// it does not: the floating-point control words (rounding mode, exception masks), which no
// kernel changes (the CUDA API the kernels use has no call that sets a rounding mode).
//
// Example (a fiber that hands control back three times):
//
//   FiberContext main_ctx, fiber_ctx;
//   struct Ping { FiberContext* main; FiberContext* self; int n = 0; } ping{&main_ctx, &fiber_ctx};
//   fiber_ctx = fiber_make(stack_top, stack_bytes, [](void* p) {
//     auto& s = *static_cast<Ping*>(p);
//     for (;;) { ++s.n; fiber_swap(*s.self, *s.main); }   // an entry never returns
//   }, &ping);
//   for (int i = 0; i < 3; ++i) fiber_swap(main_ctx, fiber_ctx);   // ping.n == 3 afterwards
#pragma once

#include <cstddef>

namespace ws::emu {

// A suspended context: where its stack pointer was saved.
struct FiberContext {
  void* sp = nullptr;
};

// What a fiber runs. It must never return: it ends by switching away for the last time.
using FiberEntry = void (*)(void* arg);

// A context on the stack that ends at `stack_top` (the stack grows down from there, over
// `stack_bytes`), which calls entry(arg) the first time it is switched to.
FiberContext fiber_make(void* stack_top, std::size_t stack_bytes, FiberEntry entry, void* arg);

// Saves the running context in `from` and resumes `to`; returns when something switches to
// `from` again. `to` must be a context made by fiber_make or saved by fiber_swap, and not running.
#if defined(__x86_64__) && !defined(WS_EMU_PORTABLE_FIBER_SWITCH)
#define WS_EMU_NATIVE_FIBER_SWITCH 1
#endif

#if WS_EMU_NATIVE_FIBER_SWITCH
extern "C" void ws_emu_fiber_swap(void** save_sp, void* load_sp);  // fiber_switch.cpp, in assembly
inline void fiber_swap(FiberContext& from, const FiberContext& to) { ws_emu_fiber_swap(&from.sp, to.sp); }
#else
void fiber_swap(FiberContext& from, const FiberContext& to);
#endif

// The same pair through Boost.Context's fcontext: what fiber_make and fiber_swap are on the
// platforms that have no switch of our own (anything but x86-64, or any platform with the CMake
// option WARPSCOPE_EMU_PORTABLE_SWITCH). Built everywhere so that the tests run it on x86-64 too.
namespace portable {
FiberContext fiber_make(void* stack_top, std::size_t stack_bytes, FiberEntry entry, void* arg);
void fiber_swap(FiberContext& from, const FiberContext& to);
}  // namespace portable

}  // namespace ws::emu
