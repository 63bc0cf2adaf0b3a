#include "ws/gpu/streams.h"

#include <cuda_runtime.h>
#include <cupti_activity.h>  // types only: the functions come from dlopen
#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include "ws/gpu/device.h"

namespace ws::gpu {

namespace {

// ---- CUPTI, opened at run time -------------------------------------------------------------------
struct Cupti {
  std::string why_not;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiGetTimestamp) timestamp = nullptr;
  decltype(&cuptiActivityPushExternalCorrelationId) push_id = nullptr;
  decltype(&cuptiActivityPopExternalCorrelationId) pop_id = nullptr;
};

const Cupti& cupti() {
  static const Cupti lib = [] {
    Cupti c;
    void* so = nullptr;
    std::string tried;
    for (const char* name : {"libcupti.so.13", "libcupti.so", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
                             "/usr/local/cuda/lib64/libcupti.so"}) {
      if ((so = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
      tried += std::string(tried.empty() ? "" : ", ") + name;
    }
    if (!so) {
      c.why_not = "CUPTI was not found (tried " + tried +
                  "): it ships with the CUDA toolkit; put the directory of libcupti.so on LD_LIBRARY_PATH";
      return c;
    }
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(so, name));
      if (!fn && c.why_not.empty()) c.why_not = std::string("libcupti lacks ") + name;
    };
    sym(c.enable, "cuptiActivityEnable");
    sym(c.disable, "cuptiActivityDisable");
    sym(c.register_callbacks, "cuptiActivityRegisterCallbacks");
    sym(c.flush_all, "cuptiActivityFlushAll");
    sym(c.next_record, "cuptiActivityGetNextRecord");
    sym(c.timestamp, "cuptiGetTimestamp");
    sym(c.push_id, "cuptiActivityPushExternalCorrelationId");
    sym(c.pop_id, "cuptiActivityPopExternalCorrelationId");
    return c;
  }();
  return lib;
}

// The records CUPTI hands back, copied out of its buffers (the callbacks run on CUPTI's thread).
struct DeviceRecord {
  StreamOpKind kind;
  std::string name;
  uint64_t start, end, bytes;
  bool pinned;
  uint32_t correlation, runtime_correlation;
};
std::mutex g_mutex;
std::vector<DeviceRecord> g_records;
std::map<uint32_t, uint64_t> g_external;  // CUPTI correlation id -> our host call's number

constexpr size_t kBufferBytes = 8u << 20;

// "scale_chunk" from the mangled name CUPTI reports (namespaces and parameters dropped).
std::string kernel_name(const char* mangled) {
  if (!mangled) return "kernel";
  int status = 0;
  char* d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string s = status == 0 && d ? d : mangled;
  std::free(d);
  if (const size_t paren = s.find('('); paren != std::string::npos) s.resize(paren);
  if (const size_t colon = s.rfind("::"); colon != std::string::npos) s = s.substr(colon + 2);
  return s;
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  std::lock_guard<std::mutex> lock(g_mutex);
  CUpti_Activity* rec = nullptr;
  while (cupti().next_record(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(rec);
      g_records.push_back({StreamOpKind::Kernel, kernel_name(k->name), k->start, k->end, 0, false, k->correlationId, 0});
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(rec);
      const StreamOpKind kind = m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD   ? StreamOpKind::CopyHtoD
                                : m->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? StreamOpKind::CopyDtoH
                                                                                 : StreamOpKind::CopyDtoD;
      const uint8_t host_side = kind == StreamOpKind::CopyHtoD ? m->srcKind : m->dstKind;
      g_records.push_back({kind, kind == StreamOpKind::CopyHtoD ? "copy HtoD" : kind == StreamOpKind::CopyDtoH ? "copy DtoH" : "copy DtoD",
                           m->start, m->end, m->bytes, host_side == CUPTI_ACTIVITY_MEMORY_KIND_PINNED, m->correlationId,
                           m->runtimeCorrelationId});
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
      const auto* x = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(rec);
      g_external[x->correlationId] = x->externalId;
    }
  }
  free(buffer);
}

// ---- the work ------------------------------------------------------------------------------------
// `work` rounds of y = fma(y, 0.999, 0.5) per element: the arithmetic of the catalog's streams
// kernel (kernels/memory/streams.cuh, which the lesson's pictures launch; a backend cannot include
// kernels/, so it is written here again), enough that the kernel's time is of the order of the
// copies' (what makes overlapping them worth showing: 2048 rounds on an H100).
__global__ void scale_chunk(float* data, uint64_t n, uint32_t work) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(blockDim.x) * gridDim.x) {
    float y = data[i];
    for (uint32_t k = 0; k < work; ++k) y = __fmaf_rn(y, 0.999f, 0.5f);
    data[i] = y;
  }
}

// One scenario's host side: each CUDA call goes through call(), which timestamps it and tags the
// device work it issues with the call's number.
struct Recorder {
  StreamScenario scenario;
  std::vector<uint32_t> host_stream;  // per host call: our stream number (0 = default)
  std::vector<bool> host_issues;      // per host call: it puts one copy or kernel on the device
  uint64_t tag = 0;                   // the scenario's number from 1: the high half of its calls' ids
  std::string error;

  template <class F>
  void call(const char* name, uint32_t stream, bool issues, F&& f) {
    if (!error.empty()) return;
    const Cupti& c = cupti();
    const uint64_t id = (tag << 32) | scenario.ops.size();
    c.push_id(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, id);
    uint64_t t0 = 0, t1 = 0;
    c.timestamp(&t0);
    const cudaError_t e = f();
    c.timestamp(&t1);
    uint64_t last = 0;
    c.pop_id(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
    if (e != cudaSuccess) error = std::string(name) + ": " + cudaGetErrorString(e);
    StreamOp op;
    op.kind = StreamOpKind::HostCall;
    op.name = name;
    op.stream = stream;
    op.start_us = double(t0) / 1000.0;
    op.end_us = double(t1) / 1000.0;
    scenario.ops.push_back(op);
    host_stream.push_back(stream);
    host_issues.push_back(issues);
  }
};

// Turns the scenario's CUPTI records into operations on our streams, times from its first one.
// Each device record goes with the host call that issued it: by CUPTI's external correlation, or
// where that gave nothing, by order (the scenario's records, in the order of their correlation
// ids, which CUPTI hands out in call order, are its issuing calls' work one for one).
void attach_device_ops(Recorder& r, const std::vector<DeviceRecord>& recs, const std::map<uint32_t, uint64_t>& external) {
  const size_t host_calls = r.scenario.ops.size();
  std::vector<std::pair<const DeviceRecord*, uint64_t>> matched;  // record, host call
  for (const DeviceRecord& d : recs) {
    auto it = external.find(d.correlation);
    if (it == external.end()) it = external.find(d.runtime_correlation);
    if (it == external.end() || (it->second >> 32) != r.tag) continue;  // not one of this scenario's calls
    if ((it->second & 0xffffffffu) < host_calls) matched.push_back({&d, it->second & 0xffffffffu});
  }
  if (matched.empty()) {
    const double first = r.scenario.ops.front().start_us * 1000.0, last = r.scenario.ops.back().end_us * 1000.0;
    std::vector<const DeviceRecord*> mine;
    for (const DeviceRecord& d : recs)
      if (double(d.start) >= first && double(d.end) <= last) mine.push_back(&d);
    std::sort(mine.begin(), mine.end(), [](const DeviceRecord* a, const DeviceRecord* b) { return a->correlation < b->correlation; });
    size_t next = 0;
    for (size_t call = 0; call < host_calls && next < mine.size(); ++call)
      if (r.host_issues[call]) matched.push_back({mine[next++], call});
  }
  for (const auto& [dp, call] : matched) {
    const DeviceRecord& d = *dp;
    StreamOp op;
    op.kind = d.kind;
    op.name = d.name;
    op.stream = r.host_stream[call];
    op.start_us = double(d.start) / 1000.0;
    op.end_us = double(d.end) / 1000.0;
    op.bytes = d.bytes;
    op.pinned = d.pinned;
    r.scenario.ops.push_back(op);
  }
  double t0 = 1e300;
  for (const StreamOp& o : r.scenario.ops) t0 = std::min(t0, o.start_us);
  for (StreamOp& o : r.scenario.ops) o.start_us -= t0, o.end_us -= t0;
}

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return b;
}

}  // namespace

namespace {

// The scenarios' memory: the host input pageable (malloc) and pinned (cudaMallocHost), the
// device array, the streams ([0]: the legacy default stream). Freed with it.
struct StreamBuffers {
  uint64_t n = 0;
  std::vector<float> pageable;
  float* pinned = nullptr;
  float* dev = nullptr;
  std::vector<cudaStream_t> streams;
  uint32_t block = 256, grid = 1;

  StreamBuffers() = default;
  StreamBuffers(const StreamBuffers&) = delete;
  StreamBuffers& operator=(const StreamBuffers&) = delete;
  ~StreamBuffers() {
    for (size_t s = 1; s < streams.size(); ++s)
      if (streams[s]) cudaStreamDestroy(streams[s]);
    if (dev) cudaFree(dev);
    if (pinned) cudaFreeHost(pinned);
  }
  uint64_t bytes() const { return n * sizeof(float); }

  // "" or why the plan's buffers cannot be made.
  std::string make(const StreamPlan& plan) {
    n = plan.n;
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    if (bytes() > free_b / 2)
      return "n = " + std::to_string(plan.n) + " floats (" + std::to_string(bytes() >> 20) + " MB) do not fit the device's free memory (" +
             std::to_string(free_b >> 20) + " MB, half of it usable)";
    try {
      pageable.resize(plan.n);
    } catch (const std::bad_alloc&) {
      return "the host's pageable buffer of " + std::to_string(bytes() >> 20) + " MB could not be allocated";
    }
    for (uint64_t i = 0; i < plan.n; ++i) pageable[i] = float(i % 1000) * 0.001f;
    if (cudaMallocHost(&pinned, bytes()) != cudaSuccess) {
      pinned = nullptr;
      return "cudaMallocHost of " + std::to_string(bytes() >> 20) + " MB failed";
    }
    std::memcpy(pinned, pageable.data(), bytes());
    if (cudaMalloc(&dev, bytes()) != cudaSuccess) {
      dev = nullptr;
      return "cudaMalloc of " + std::to_string(bytes() >> 20) + " MB failed";
    }
    const uint32_t max_streams = *std::max_element(plan.streams.begin(), plan.streams.end());
    streams.assign(max_streams + 1, nullptr);
    for (uint32_t s = 1; s <= max_streams; ++s)
      if (cudaStreamCreateWithFlags(&streams[s], cudaStreamDefault) != cudaSuccess) {
        streams[s] = nullptr;
        return "cudaStreamCreate failed for stream " + std::to_string(s) + " of " + std::to_string(max_streams);
      }
    const int sms = device().sm_count > 0 ? device().sm_count : 80;
    grid = uint32_t(std::min<uint64_t>((plan.n + block - 1) / block, uint64_t(sms) * 8));
    // Warm-up (context, module load, first-touch of the buffers): not recorded.
    cudaMemcpy(dev, pinned, bytes(), cudaMemcpyHostToDevice);
    scale_chunk<<<grid, block>>>(dev, plan.n, plan.work);
    cudaMemcpy(pinned, dev, bytes(), cudaMemcpyDeviceToHost);
    cudaDeviceSynchronize();
    return {};
  }
};

// The scenarios, each a Recorder of its host calls (the device work is attached later).
class StreamScenarios {
 public:
  StreamScenarios(const StreamPlan& plan, StreamBuffers& b) : plan_(plan), b_(b) {}
  std::vector<Recorder> recorders;

  // Every scenario once.
  void run_all() {
    recorders.clear();
    const std::string k = std::to_string(plan_.chunks);
    whole("pageable, one stream", "cudaMemcpy from malloc'd memory, the kernel, cudaMemcpy back: each waits for the last", false);
    whole("pinned, one stream", "the same from cudaMallocHost memory: the copies run at the bus's speed", true);
    for (uint32_t S : plan_.streams)
      chunked("pinned, " + std::to_string(S) + " streams x " + k + " chunks",
              "chunk i: cudaMemcpyAsync, kernel, cudaMemcpyAsync in stream 1 + i % " + std::to_string(S) +
                  ": one chunk's copy overlaps another's kernel",
              S, true, -1);
    chunked("pageable, " + std::to_string(plan_.streams.front()) + " streams x " + k + " chunks",
            "the chunked version from malloc'd memory: cudaMemcpyAsync from pageable memory is staged and blocks the host: little overlap",
            plan_.streams.front(), false, -1);
    chunked("pinned, " + std::to_string(plan_.streams.front()) + " streams, a default-stream launch in the middle",
            "a kernel on the legacy default stream after chunk " + std::to_string(plan_.chunks / 2) +
                " waits for every stream and makes them all wait: the pipeline drains",
            plan_.streams.front(), true, int(plan_.chunks / 2));
    cudaDeviceSynchronize();
  }

 private:
  // The whole array: copy in, the kernel, copy out, in the default stream.
  void whole(const char* name, const char* description, bool use_pinned) {
    Recorder& r = begin(name, description);
    float* host = use_pinned ? b_.pinned : b_.pageable.data();
    float* dev = b_.dev;
    const uint64_t bytes = b_.bytes();
    r.call("cudaMemcpy", 0, true, [&] { return cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice); });
    r.call("scale_chunk<<<>>>", 0, true, [&] {
      scale_chunk<<<b_.grid, b_.block>>>(dev, plan_.n, plan_.work);
      return cudaGetLastError();
    });
    r.call("cudaMemcpy", 0, true, [&] { return cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost); });
    r.call("cudaDeviceSynchronize", 0, false, [&] { return cudaDeviceSynchronize(); });
  }
  // Chunk i goes to stream 1 + i % S; `default_launch_at` >= 0: after that chunk, a launch on the
  // legacy default stream.
  void chunked(std::string name, std::string description, uint32_t S, bool use_pinned, int default_launch_at) {
    Recorder& r = begin(std::move(name), std::move(description));
    float* host = use_pinned ? b_.pinned : b_.pageable.data();
    const uint64_t per = plan_.n / plan_.chunks;
    const uint32_t chunk_grid = uint32_t(std::max<uint64_t>(1, b_.grid / plan_.chunks));
    for (uint32_t i = 0; i < plan_.chunks; ++i) {
      const uint32_t s = 1 + i % S;
      cudaStream_t st = b_.streams[s];
      float* d = b_.dev + i * per;
      float* h = host + i * per;
      r.call("cudaMemcpyAsync", s, true, [&] { return cudaMemcpyAsync(d, h, per * sizeof(float), cudaMemcpyHostToDevice, st); });
      r.call("scale_chunk<<<>>>", s, true, [&] {
        scale_chunk<<<chunk_grid, b_.block, 0, st>>>(d, per, plan_.work);
        return cudaGetLastError();
      });
      r.call("cudaMemcpyAsync", s, true, [&] { return cudaMemcpyAsync(h, d, per * sizeof(float), cudaMemcpyDeviceToHost, st); });
      if (int(i) == default_launch_at)
        r.call("scale_chunk<<<>>> (default stream)", 0, true, [&] {
          scale_chunk<<<1, 32>>>(b_.dev, 32, 1);
          return cudaGetLastError();
        });
    }
    r.call("cudaDeviceSynchronize", 0, false, [&] { return cudaDeviceSynchronize(); });
  }
  Recorder& begin(std::string name, std::string description) {
    Recorder& r = recorders.emplace_back();
    r.tag = recorders.size();
    r.scenario.name = std::move(name);
    r.scenario.description = std::move(description);
    return r;
  }

  const StreamPlan& plan_;
  StreamBuffers& b_;
};

const CUpti_ActivityKind kStreamActivityKinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                                   CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_RUNTIME,
                                                   CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION};

// Runs the scenarios with CUPTI's activity records on; "" or why CUPTI would not.
std::string record_activity(const Cupti& c, StreamScenarios& scenarios) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_records.clear();
    g_external.clear();
  }
  c.register_callbacks(buffer_requested, buffer_completed);
  // (External correlation records come with API records: the driver's are enabled for them.)
  for (CUpti_ActivityKind k : kStreamActivityKinds)
    if (c.enable(k) != CUPTI_SUCCESS && k != CUPTI_ACTIVITY_KIND_RUNTIME) {  // (a static runtime has no API records)
      for (CUpti_ActivityKind d : kStreamActivityKinds) c.disable(d);
      return "CUPTI refused to record activity kind " + std::to_string(int(k)) + " (another profiler attached?)";
    }
  scenarios.run_all();
  cudaDeviceSynchronize();
  c.flush_all(1);
  for (CUpti_ActivityKind kd : kStreamActivityKinds) c.disable(kd);
  return {};
}

// The scenarios' host calls with the device work CUPTI recorded attached to them.
std::string assemble_timeline(std::vector<Recorder>& recorders, const std::string& command, StreamTimeline& out) {
  std::vector<DeviceRecord> recs;
  std::map<uint32_t, uint64_t> external;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    recs.swap(g_records);
    external.swap(g_external);
  }
  StreamTimeline t;
  t.device = device().name;
  t.recorded = now_utc();
  t.command = command;
  t.clock = "CUPTI activity records (device work) and cuptiGetTimestamp around each host call, one clock, ns";
  size_t attached = 0;
  for (Recorder& r : recorders) {
    if (!r.error.empty()) return r.scenario.name + ": " + r.error;
    const size_t host_calls = r.scenario.ops.size();
    attach_device_ops(r, recs, external);
    attached += r.scenario.ops.size() - host_calls;
    t.scenarios.push_back(std::move(r.scenario));
  }
  if (attached == 0) {
    size_t kernels = 0, copies = 0;
    for (const DeviceRecord& d : recs) (d.kind == StreamOpKind::Kernel ? kernels : copies)++;
    return "CUPTI delivered " + std::to_string(kernels) + " kernel and " + std::to_string(copies) + " copy records and " +
           std::to_string(external.size()) + " correlations, but none could be tied to a host call";
  }
  out = std::move(t);
  return {};
}

}  // namespace

std::string record_streams(const StreamPlan& plan, StreamTimeline& out, const std::string& command) {
  if (std::string why = check_stream_plan(plan); !why.empty()) return why;
  if (!device().present) return device().why_not;
  if (!usable()) return unusable_reason();
  const Cupti& c = cupti();
  if (!c.why_not.empty()) return c.why_not;
  // The GPU alone: no timing or recording of the viewer's runs interleaves with the scenarios.
  const std::unique_lock<std::mutex> gpu_lock = lock_gpu();
  StreamBuffers buffers;
  if (std::string why = buffers.make(plan); !why.empty()) return why;
  StreamScenarios scenarios(plan, buffers);
  // Every scenario twice: the first pass (not recorded) brings the clocks up and touches every
  // page and copy path, so the recorded one shows the steady state.
  scenarios.run_all();
  if (std::string why = record_activity(c, scenarios); !why.empty()) return why;
  return assemble_timeline(scenarios.recorders, command, out);
}

}  // namespace ws::gpu
