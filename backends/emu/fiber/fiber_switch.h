// Switching between the emulator's fibers (each runs one CUDA thread at a time, from its start to
// its exit): save the running context, resume another one, through Boost.Context's fcontext
// (make_fcontext / jump_fcontext from libboost-context-dev: a well-kept, many-platform
// implementation, not one of our own).
//
// What a switch costs, and why the emulator makes few: jump_fcontext also saves and reloads the
// x87 and SSE control words (microcoded instructions) and returns into the resumed fiber by an
// indirect jump, which leaves the CPU's return-address predictor one entry off, so the resumed
// lane's next returns mispredict: a few times what a hand-written switch of six registers and a
// `ret` costs. The emulator keeps the library and switches less instead: a thread does not stop
// at a load whose value only feeds a store, nor at a shuffle whose source lane has already been
// there, and a thread that exits hands its fiber to the next thread to start without a switch
// (fiber_pool.h); with the first two, a hand-written switch no longer makes the reductions much
// faster.
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

// A suspended context: where its stack pointer was saved. (Under AddressSanitizer also its
// stack's extent, which ASan must be told at every switch: fiber_switch.cpp.)
struct FiberContext {
  void* sp = nullptr;
#if defined(__SANITIZE_ADDRESS__)
  const void* stack_bottom = nullptr;  // lowest address (set by fiber_make, and again by every
  std::size_t stack_size = 0;          // switch that saves a context here)
#endif
};

// What a fiber runs. It must never return: it ends by switching away for the last time.
using FiberEntry = void (*)(void* arg);

// A context on the stack that ends at `stack_top` (the stack grows down from there, over
// `stack_bytes`), which calls entry(arg) the first time it is switched to.
FiberContext fiber_make(void* stack_top, std::size_t stack_bytes, FiberEntry entry, void* arg);

// Saves the running context in `from` and resumes `to`; returns when something switches to
// `from` again. `to` must be a context made by fiber_make or saved by fiber_swap, and not running.
void fiber_swap(FiberContext& from, const FiberContext& to);

}  // namespace ws::emu
