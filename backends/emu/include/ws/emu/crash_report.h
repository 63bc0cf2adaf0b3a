// What the emulator knows when the process crashes: which emulated thread ran, where it last
// stopped, and whether it ran off its stack. A crash handler (the run process's) asks from the
// signal handler, on the thread that faulted:
//
//   char text[512];
//   if (size_t n = ws::emu::describe_crash(info->si_addr, "SIGSEGV", text, sizeof text))
//     // "block [0,0,0], thread [5,0,0] ran past the end of its 256 KiB stack (a recursion too
//     //  deep?); its last recorded access was at deep.cu:7"
//
// Only async-signal-tolerant work: no allocation, no lock; it reads the worker the thread runs.
#pragma once

#include <cstddef>

namespace ws::emu {

// Writes a sentence about the emulated thread the calling thread was running when it faulted at
// `fault_address` (the signal's si_addr); returns its length, or 0 when the calling thread ran no
// emulated thread (a crash in host code). `signal_name` names the signal ("SIGSEGV").
std::size_t describe_crash(const void* fault_address, const char* signal_name, char* out, std::size_t room) noexcept;

// Gives the calling thread an alternate signal stack (unless it has one), so that a handler can
// run after a thread overflowed its stack. Each thread that runs emulated threads calls it once;
// the stack goes when the thread ends.
void ensure_signal_stack() noexcept;

}  // namespace ws::emu
