// The Backend a catalog driver sees when it runs on the CPU emulator: RunConfig in, emulator
// launches, RunResult out.
//
// A driver is written once against this interface (and the GPU backends' identical one):
//   auto in  = be.upload("g_idata", host);          // ws::global_array<T>
//   auto out = be.template alloc<T>("g_odata", blocks);
//   if (!be.launch("reduce3", grid, block, smem, reduce3<T>, in, out, n)) return;
//   std::vector<T> partial = be.download(out);
#pragma once

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ws/emu/launch.h"
#include "ws/kernel/device_variable.h"
#include "ws/run/config.h"
#include "ws/run/recorded_blocks.h"
#include "ws/run/result.h"

namespace ws {

namespace emu_backend_detail {
template <class T>
struct is_global_view : std::false_type {};
template <class T>
struct is_global_view<global_array<T>> : std::true_type {};
template <class T>
inline constexpr bool is_const_view = false;
template <class T>
inline constexpr bool is_const_view<global_array<const T>> = true;
}  // namespace emu_backend_detail

template <class Kernel, class... Args>
inline constexpr bool kPlainKernel = false;
template <class... P, class... Args>
inline constexpr bool kPlainKernel<void (*)(P...), Args...> = sizeof...(P) == sizeof...(Args);

// Marks the allocation of every argument that the kernel takes as a writable view.
template <class... P, class... Args>
void mark_writable(void (*)(P...), std::vector<uint8_t>& read_only, bool& unknown, const Args&... args) {
  using namespace emu_backend_detail;
  auto one = [&]<class Param, class Arg>(const Arg& a) {
    using Pm = std::remove_cvref_t<Param>;
    if constexpr (is_global_view<Arg>::value) {
      if (!is_const_view<Pm> && a.alloc_id() < read_only.size()) read_only[a.alloc_id()] = 0;
    } else if constexpr (!std::is_arithmetic_v<Arg> && !std::is_enum_v<Arg>) {
      unknown = true;  // a struct could carry a view
    }
  };
  (one.template operator()<P>(args), ...);
}

class EmuBackend {
 public:
  static constexpr BackendKind kind = BackendKind::Emu;

  EmuBackend(const std::string& kernel, const RunConfig& cfg, RunResult& out)
      : kernel_(kernel), cfg_(cfg), out_(out) {}

  template <class T>
  global_array<T> upload(const std::string& name, const std::vector<T>& host) {
    return mem_.upload<T>(name, host);
  }
  template <class T>
  global_array<T> alloc(const std::string& name, uint64_t count) {
    return mem_.alloc<T>(name, count);
  }
  // Working space of a library call: an allocation like any other (the GPU backend leaves it out
  // of the bytes a timed run must move).
  template <class T>
  global_array<T> scratch(const std::string& name, uint64_t count) {
    return mem_.alloc<T>(name, count);
  }
  template <class T>
  void fill(const global_array<T>& a, const T& v) {
    mem_.fill(a, v);
  }
  // (gpu-fast replays a fill before each timed run; fill_once is for state the kernel restores.)
  template <class T>
  void fill_once(const global_array<T>& a, const T& v) {
    mem_.fill(a, v);
  }
  template <class T>
  std::vector<std::remove_cv_t<T>> download(const global_array<T>& a) const {
    return mem_.download(a);
  }
  // `a` is a matrix stored row after row, `row_length` elements a row: the views draw it so.
  template <class T>
  void shape(const global_array<T>& a, uint32_t row_length) {
    mem_.set_row_length(a, row_length);
  }

  // A `__device__` variable of the file: set to its first value and named in the allocation
  // table, its id written into it (ws/kernel/device_variable.h).
  void adopt(DeviceVariable& v) {
    std::byte* object = static_cast<std::byte*>(const_cast<void*>(v.symbol));
    if (!v.initial.empty()) std::memcpy(object + v.value_offset, v.initial.data(), v.initial.size());
    const uint32_t id = mem_.adopt(v.name, std::string(v.type), v.elem_size, v.count);
    std::memcpy(object + v.alloc_offset, &id, sizeof id);
    if (v.writable) writable_.push_back(id);
  }

  // Launches `kernel(args...)` on a grid; returns false (and records why) when it faulted.
  template <class Kernel, class... Args>
  bool launch(const std::string& entry, Dim3 grid, Dim3 block, uint32_t dynamic_shared,
              Kernel kernel, Args... args) {
    emu::LaunchOptions opt;
    opt.grid = grid;
    opt.block = block;
    opt.dynamic_shared_bytes = dynamic_shared;
    opt.workers = cfg_.emu.workers;
    opt.step_budget = cfg_.emu.step_budget;
    opt.defer_loads = cfg_.emu.defer_loads;
    opt.eager_shuffles = cfg_.emu.eager_shuffles;
    opt.converged_issue = cfg_.emu.converged_issue;
    // The asked blocks this grid has (recorded_blocks.h); the first launch says which it lacks.
    RecordedBlocks rec = recorded_blocks(cfg_.record.blocks, grid.count(), out_.launches.empty());
    if (!rec.note.empty()) out_.notes.push_back(rec.note);
    opt.record.blocks = std::move(rec.blocks);
    opt.record.max_events = cfg_.record.max_events;
    const uint64_t memory_limit = cfg_.memory_limit ? cfg_.memory_limit : default_memory_limit();
    opt.record = emu::record_within(memory_limit, opt.record);
    opt.stack_budget = memory_limit / 4;  // (the other quarters: events, lane accesses, arrays)
    opt.cancel = cfg_.cancel.get();
    // When every block is recorded in full, the analysis' totals already cover the grid.
    opt.record.count_every_block = cfg_.record.count_every_block && !cfg_.record.blocks.empty();
    opt.read_only = read_only_allocations(kernel, args...);
    const LaunchInfo info = launch_info(kernel_, cfg_, entry);
    emu::LaunchResult r = emu::launch(mem_, opt, info, [=] { kernel(args...); });
    std::fflush(stdout);  // the kernel's printf, shown at the launch's end as CUDA shows it
    const bool ok = r.ok();
    out_.emulate_seconds += r.seconds;
    if (!ok)
      for (const Diagnostic& d : r.trace.diagnostics)
        if (d.severity == Severity::Error) out_.errors.push_back(d);
    if (r.trace.truncated && opt.record.max_events < cfg_.record.max_events)
      out_.notes.push_back("the record stopped at " + std::to_string(r.trace.events.size()) +
                           " warp instructions: a quarter of the run's memory limit (" + bytes_text(memory_limit) +
                           ", WARPSCOPE_MEMORY_LIMIT) holds no more");
    out_.launches.push_back(std::move(r.trace));
    return ok;
  }

  const RunConfig& config() const { return cfg_; }

  // Which allocations this launch cannot write: those that reach the kernel only through
  // global_array<const T> parameters. Decided from the kernel's parameter types, so only for a
  // plain kernel function; anything else (a functor, a struct argument that may hold a view)
  // leaves every allocation writable.
  template <class Kernel, class... Args>
  std::vector<uint8_t> read_only_allocations(Kernel, const Args&... args) const {
    std::vector<uint8_t> ro(mem_.table().size(), 1);
    if constexpr (!kPlainKernel<Kernel, Args...>) {
      ro.assign(ro.size(), 0);
    } else {
      bool unknown = false;
      mark_writable(static_cast<Kernel>(nullptr), ro, unknown, args...);
      if (unknown) ro.assign(ro.size(), 0);
    }
    for (uint32_t id : writable_) ro[id] = 0;  // no argument names a `__device__` variable
    return ro;
  }
  RunResult& result() { return out_; }

 private:
  std::string kernel_;
  const RunConfig& cfg_;
  RunResult& out_;
  emu::Memory mem_;
  std::vector<uint32_t> writable_;  // adopted variables the kernel may write
};

}  // namespace ws
