#include "ws/emu/launch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "fiber_stack.h"
#include "helper_threads.h"
#include "site_registry.h"
#include "worker.h"
#include "ws/run/config.h"
#include "ws/trace/sources.h"

namespace ws::emu {

// --- memory -----------------------------------------------------------------------------------

namespace {
constexpr uint64_t kGlobalBase = 0x7f0000000000ull;  // where emulated global memory starts
constexpr uint64_t kGlobalAlign = 256;               // cudaMalloc's alignment
}  // namespace

Memory::Memory() : next_address_(kGlobalBase) {}
Memory::~Memory() = default;

void* Memory::allocate(const std::string& name, const std::string& type, uint32_t elem_size,
                       uint64_t count) {
  storage_.emplace_back(new (kStorageAlign) std::byte[std::max<uint64_t>(elem_size * count, 1)]);
  adopt(name, type, elem_size, count);
  return storage_.back().get();
}

uint32_t Memory::adopt(const std::string& name, const std::string& type, uint32_t elem_size, uint64_t count) {
  const uint64_t bytes = std::max<uint64_t>(elem_size * count, 1);
  Allocation a;
  a.name = name;
  a.type_name = type;
  a.space = MemSpace::Global;
  a.elem_size = elem_size;
  a.extent = count;
  a.base = next_address_;
  next_address_ += (bytes + kGlobalAlign - 1) / kGlobalAlign * kGlobalAlign;
  table_.push_back(std::move(a));
  return uint32_t(table_.size() - 1);
}

// --- validation -------------------------------------------------------------------------------

std::string validate(const LaunchOptions& opt) {
  const Dim3 b = opt.block, g = opt.grid;
  auto dims = [](const Dim3& d) {
    std::string s = "(";  // (appended piecewise: GCC 12 warns wrongly on "(" + std::to_string())
    s += std::to_string(d.x);
    s += ',';
    s += std::to_string(d.y);
    s += ',';
    s += std::to_string(d.z);
    s += ')';
    return s;
  };
  if (b.x == 0 || b.y == 0 || b.z == 0)
    return "block " + dims(b) + " has a zero dimension; every dimension must be at least 1";
  if (g.x == 0 || g.y == 0 || g.z == 0)
    return "grid " + dims(g) + " has a zero dimension; every dimension must be at least 1";
  if (b.count() > Limits::max_threads_per_block)
    return "block " + dims(b) + " has " + std::to_string(b.count()) +
           " threads, more than the limit of " + std::to_string(Limits::max_threads_per_block) +
           " threads per block";
  if (b.x > Limits::max_block_x || b.y > Limits::max_block_y || b.z > Limits::max_block_z)
    return "block " + dims(b) + " is over the per-dimension limits (x <= 1024, y <= 1024, z <= 64)";
  if (g.x > Limits::max_grid_x || g.y > Limits::max_grid_yz || g.z > Limits::max_grid_yz)
    return "grid " + dims(g) + " is over the limits (x <= 2^31-1, y <= 65535, z <= 65535)";
  if (opt.dynamic_shared_bytes > Limits::max_shared_bytes_per_block)
    return std::to_string(opt.dynamic_shared_bytes) +
           " bytes of dynamic shared memory is over the per-block limit of " +
           std::to_string(Limits::max_shared_bytes_per_block) + " bytes";
  if (g.count() > 0xffffffffull) return "grid " + dims(g) + " has more than 2^32 blocks";
  return {};
}

// --- launch -----------------------------------------------------------------------------------

namespace {

bool is_recorded(const RecordOptions& r, uint32_t block) {
  if (!r.enabled) return false;
  if (r.blocks.empty()) return true;
  return std::binary_search(r.blocks.begin(), r.blocks.end(), block);
}

// A block's printf lines as a GPU prints them: each printf of a warp together (its lanes' n-th
// printf), in lane order; warps in order. (Across warps and blocks a GPU's order is whatever
// ran first; the emulator keeps block and warp order, so a run prints the same every time.)
// `printed`: the launch's bytes so far, at most LaunchState::kPrintfBytes (the rest is dropped:
// returns false).
bool print_in_gpu_order(std::vector<PrintedLine>& lines, uint64_t& printed) {
  std::stable_sort(lines.begin(), lines.end(), [](const PrintedLine& a, const PrintedLine& b) { return a.key() < b.key(); });
  for (const PrintedLine& l : lines) {
    if (printed + l.text.size() > LaunchState::kPrintfBytes) return false;
    printed += l.text.size();
    std::fwrite(l.text.data(), 1, l.text.size(), stdout);
  }
  return true;
}

// Turns the per-block records into one Trace: blocks in ascending order, sites renumbered in
// order of first appearance, the record cap applied event by event. Deterministic whatever the
// number of workers.
void merge(Trace& t, std::vector<BlockRecord>& records, const RecordOptions& ropt,
           uint64_t& issued, uint64_t& lane_accesses, bool& printf_cut) {
  uint64_t printed = 0;
  std::unordered_map<uint32_t, uint32_t> site_map;
  auto site_of = [&](uint32_t reg_id) -> uint32_t {
    if (reg_id == Diagnostic::kNoSite) return reg_id;
    auto [it, inserted] = site_map.try_emplace(reg_id, uint32_t(t.sites.size()));
    if (inserted) {
      const SiteInfo s = SiteRegistry::instance().info(reg_id);
      Site site;
      site.file = s.file;
      site.line = s.line;
      site.column = s.column;
      site.text = source_line(s.file, s.line, s.path);
      t.sites.push_back(std::move(site));
    }
    return it->second;
  };
  // Per-site counters of every block (sums: the same whatever the worker count).
  std::map<std::tuple<uint32_t, uint8_t, uint8_t>, SiteCounters> counters;
  for (uint32_t b = 0; b < records.size(); ++b) {
    BlockRecord& r = records[b];
    issued += r.issued;
    lane_accesses += r.lane_accesses;
    if (r.recorded) {
      t.recorded_blocks.push_back(b);
      if (r.full) {  // the record budget ran out in this block: what it did not keep
        t.truncated = true;
        t.dropped_events += r.issued - std::min<uint64_t>(r.issued, r.events.size());
      }
      for (Event e : r.events) {
        const uint64_t lanes = e.type == EventType::Access ? uint64_t(std::popcount(e.mask)) : 0;
        if (t.events.size() + 1 > ropt.max_events ||
            t.lane_offsets.size() + lanes > ropt.max_lane_accesses) {
          t.truncated = true;
          ++t.dropped_events;
          continue;
        }
        if (lanes) {
          const uint64_t begin = e.lane_begin;
          e.lane_begin = t.lane_offsets.size();
          t.lane_offsets.insert(t.lane_offsets.end(), r.lanes.begin() + int64_t(begin),
                                r.lanes.begin() + int64_t(begin + lanes));
        }
        e.site = site_of(e.site);
        t.events.push_back(e);
      }
    } else {
      t.unrecorded_events += r.issued;
      t.unrecorded_lane_accesses += r.lane_accesses;
    }
    for (Diagnostic d : r.diagnostics) {
      d.site = site_of(d.site);
      t.diagnostics.push_back(std::move(d));
    }
    printf_cut = !print_in_gpu_order(r.printed, printed) || r.printf_cut || printf_cut;
    for (const SiteCounters& c : r.counters) {  // keyed by registry id until every event is in
      auto [it, inserted] = counters.try_emplace({c.site, uint8_t(c.kind), uint8_t(c.space)}, c);
      if (!inserted) it->second += c;
    }
    r = BlockRecord{};  // free as we go
  }
  // A site keeps the number of its first event; sites met only by unrecorded blocks come after,
  // in source order (registry ids follow the workers' timing, so they must not decide).
  std::vector<std::pair<SiteInfo, SiteCounters>> by_source;
  for (const auto& [key, c] : counters) by_source.emplace_back(SiteRegistry::instance().info(c.site), c);
  std::stable_sort(by_source.begin(), by_source.end(), [](const auto& a, const auto& b) {
    return std::tie(a.first.file, a.first.line, a.first.column, a.second.kind, a.second.space) <
           std::tie(b.first.file, b.first.line, b.first.column, b.second.kind, b.second.space);
  });
  for (auto& [info, c] : by_source) {
    c.site = site_of(c.site);
    t.site_counters.push_back(c);
  }
  assign_site_ranks(t);  // the backend-independent identity of a site: (file, line, rank)
}

// Adds the launch's shared arrays to the trace's allocation table. The workers number them as
// threads first touch them, and how far a thread runs ahead of its warp's turn (deferred loads,
// eager shuffles, read-only loads) changes which array that is; so the table takes them in the
// order of their first issued access in the trace (then, for any the recorded blocks never
// touch, by name), lays the static ones out again in that order, and renumbers the events: the
// trace depends on the issue order alone.
void number_shared_allocations(Trace& t, const LaunchState& state) {
  const uint32_t first = state.global_allocs, count = uint32_t(state.shared_allocs.size());
  std::vector<uint32_t> order;  // old index (from `first`) in the new order
  std::vector<uint8_t> placed(count, 0);
  for (const Event& e : t.events) {
    if (e.type != EventType::Access || e.space != MemSpace::Shared || e.alloc < first) continue;
    const uint32_t i = e.alloc - first;
    if (i < count && !placed[i]) placed[i] = 1, order.push_back(i);
  }
  std::vector<uint32_t> rest;
  for (uint32_t i = 0; i < count; ++i)
    if (!placed[i]) rest.push_back(i);
  std::sort(rest.begin(), rest.end(), [&](uint32_t a, uint32_t b) {
    const Allocation &x = state.shared_allocs[a], &y = state.shared_allocs[b];
    return std::tie(x.name, x.type_name, x.extent, x.base) < std::tie(y.name, y.type_name, y.extent, y.base);
  });
  order.insert(order.end(), rest.begin(), rest.end());
  std::vector<uint32_t> new_index(count);
  uint64_t static_base = 0;
  for (uint32_t k = 0; k < count; ++k) {
    Allocation a = state.shared_allocs[order[k]];
    // An array over the block's limit faulted the threads that touched it before any access: the
    // trace names it with no elements (its size is in the fault's message), as no block can hold it.
    if (!state.shared_errors[order[k]].empty()) a.extent = 0;
    if (a.base < LaunchState::kDynamicBase) {  // (dynamic views all start at the dynamic window)
      a.base = static_base;
      static_base += (a.elem_size * a.extent + 127) / 128 * 128;  // as register_shared lays them out
    }
    new_index[order[k]] = first + k;
    t.allocations.push_back(std::move(a));
  }
  for (Event& e : t.events)
    if (e.type == EventType::Access && e.space == MemSpace::Shared && e.alloc >= first && e.alloc - first < count)
      e.alloc = new_index[e.alloc - first];
}

}  // namespace

unsigned launch_workers(unsigned requested, uint32_t blocks, uint32_t threads_per_block) {
  unsigned workers = requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min<unsigned>(workers, std::max<uint32_t>(1, blocks));
  const uint32_t stacks_fit = uint32_t(kMaxStacksInUse / std::max<uint32_t>(1, threads_per_block));
  return std::min<unsigned>(workers, std::max<uint32_t>(1, stacks_fit));
}

StackPlan plan_stacks(unsigned workers, uint32_t threads_per_block, uint64_t budget) {
  StackPlan p;
  p.workers = std::max(1u, workers);
  const uint64_t threads = std::max<uint32_t>(1, threads_per_block);
  if (budget == 0) return p;
  constexpr uint64_t kPage = 4096;
  const uint64_t share = budget / (threads * p.workers) / kPage * kPage;
  if (share >= kMinStackBytes) {
    p.stack_bytes = uint32_t(std::min<uint64_t>(share, kMaxStackBytes));
    return p;
  }
  const uint64_t fit = budget / (threads * kMinStackBytes);  // workers whose stacks fit at the least
  if (fit == 0) {
    p.refused = "a block of " + std::to_string(threads) + " threads needs " + bytes_text(threads * kMinStackBytes) +
                " for its thread stacks (" + std::to_string(kMinStackBytes / 1024) + " KiB each at the least), more than the " +
                bytes_text(budget) + " they may take (a quarter of the run's memory limit, WARPSCOPE_MEMORY_LIMIT): "
                "a smaller block or a larger limit";
    return p;
  }
  p.workers = unsigned(fit);
  p.stack_bytes = uint32_t(std::min<uint64_t>(budget / (threads * fit) / kPage * kPage, kMaxStackBytes));
  return p;
}

LaunchResult launch(Memory& mem, const LaunchOptions& opt_in, const LaunchInfo& info,
                    std::function<void()> body) {
  const auto start = std::chrono::steady_clock::now();
  LaunchResult result;
  Trace& t = result.trace;
  t.launch = info;
  t.launch.backend = "emu";
  t.launch.device = "CPU emulator";
  t.launch.grid = opt_in.grid;
  t.launch.block = opt_in.block;
  t.launch.dynamic_shared_bytes = opt_in.dynamic_shared_bytes;
  t.total_blocks = opt_in.grid.count();
  t.allocations = mem.table();

  if (std::string err = validate(opt_in); !err.empty()) {
    Diagnostic d;
    d.code = "invalid-launch";
    d.message = err;
    t.diagnostics.push_back(std::move(d));
    return result;
  }

  LaunchState state;
  state.opt = opt_in;
  std::sort(state.opt.record.blocks.begin(), state.opt.record.blocks.end());
  state.body = std::move(body);
  state.events_left = state.opt.record.max_events;
  state.lanes_left = state.opt.record.max_lane_accesses;
  state.global_allocs = uint32_t(mem.table().size());
  for (const Allocation& a : mem.table()) state.global_names.push_back(a.name);

  const uint32_t blocks = uint32_t(opt_in.grid.count());
  std::vector<BlockRecord> records(blocks);
  for (uint32_t b = 0; b < blocks; ++b) records[b].recorded = is_recorded(state.opt.record, b);

  const uint32_t threads = uint32_t(opt_in.block.count());
  const StackPlan stacks = plan_stacks(launch_workers(opt_in.workers, blocks, threads), threads, opt_in.stack_budget);
  if (!stacks.refused.empty()) {
    Diagnostic d;
    d.code = "memory-limit";
    d.message = stacks.refused;
    t.diagnostics.push_back(std::move(d));
    return result;
  }
  const unsigned workers = stacks.workers;
  state.stack_bytes = stacks.stack_bytes;
  std::atomic<uint32_t> next{0};
  std::mutex error_mutex;
  std::string worker_error;  // a worker that could not get memory (its stacks, its block's records)
  auto work = [&] {
    try {
      Worker w(state);
      for (;;) {
        if (state.aborted.load(std::memory_order_relaxed)) break;
        if (opt_in.cancel && opt_in.cancel->load(std::memory_order_relaxed)) {
          state.aborted = true;  // reported once, below
          break;
        }
        const uint32_t b = next.fetch_add(1, std::memory_order_relaxed);
        if (b >= blocks || state.stops(b)) break;
        if (!w.run_block(b, records[b])) break;
      }
    } catch (const std::exception& e) {
      std::lock_guard lock(error_mutex);
      if (worker_error.empty())
        worker_error = std::string("an emulator worker could not get the memory it needs (") + e.what() +
                       ") for its " + std::to_string(threads) +
                       " thread stacks or its blocks' records; fewer workers (`--workers`), a smaller "
                       "block or fewer recorded blocks need less";
      state.aborted = true;
    }
  };
  {
    // The calling thread is one of the workers; the others are helper threads kept between
    // launches (helper_threads.h).
    const std::function<void()> job = work;
    HelperThreads::Batch helpers(workers - 1, job);
    work();
  }  // (waits for the others)

  // Blocks after the first that failed were cut short wherever they were when it failed: they
  // keep nothing, as if never run (see LaunchState::first_failed).
  for (uint32_t b = state.first_failed.load() + 1u; b != 0 && b < blocks; ++b)
    records[b] = BlockRecord{}, records[b].recorded = is_recorded(state.opt.record, b);
  bool printf_cut = false;
  merge(t, records, state.opt.record, result.issued_instructions, result.lane_accesses, printf_cut);
  if (!worker_error.empty()) {
    Diagnostic d;
    d.code = "emulator-resources";
    d.message = worker_error;
    t.diagnostics.insert(t.diagnostics.begin(), std::move(d));
  }
  if (opt_in.cancel && opt_in.cancel->load() &&
      std::none_of(t.diagnostics.begin(), t.diagnostics.end(), [](const Diagnostic& d) { return d.code == "cancelled"; })) {
    Diagnostic d;
    d.code = "cancelled";
    d.message = "the run was cancelled";
    t.diagnostics.push_back(std::move(d));
  }
  if (printf_cut || state.printf_dropped.load()) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.code = "printf-buffer-full";
    d.message = "printf's output passed 1 MB (CUDA's default printf buffer, cudaLimitPrintfFifoSize): the rest was dropped, as a GPU "
                "drops it";
    t.diagnostics.push_back(std::move(d));
  }
  number_shared_allocations(t, state);
  t.launch.static_shared_bytes = uint32_t(state.static_shared_bytes);
  if (state.aborted || state.first_failed.load() != UINT32_MAX) {
    // Only the first error matters to the user; blocks that were cut short by it add nothing.
    std::stable_partition(t.diagnostics.begin(), t.diagnostics.end(),
                          [](const Diagnostic& d) { return d.severity == Severity::Error; });
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

RecordOptions record_within(uint64_t memory_limit, RecordOptions asked) {
  asked.max_events = std::min<uint64_t>(asked.max_events, std::max<uint64_t>(1, memory_limit / 4 / sizeof(Event)));
  asked.max_lane_accesses = std::min<uint64_t>(asked.max_lane_accesses, std::max<uint64_t>(32, memory_limit / 4 / sizeof(uint64_t)));
  return asked;
}

}  // namespace ws::emu
