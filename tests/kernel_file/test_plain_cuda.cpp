// Plain CUDA kernel files: the rewrite keeps the user's text where it was, refuses what it cannot
// record with the line and column, and a plain kernel counts as its wrapped twin in the catalog
// and as the hardware would (expected values computed here from the index arithmetic).
//
// [SECTION] Helpers: files, runs, per-line counts
// [SECTION] The rewrite: lines and columns kept, refusals at their place
// [SECTION] Runs: the seeds pasted verbatim and their catalog twins
// [SECTION] Runs: what students write (structs, pointers, cooperative groups, clock, printf, assert)
// [SECTION] Runs: whole programs, real parameters
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "ws/analysis/analysis.h"
#include "ws/kernel_file/build.h"
#include "ws/kernel_file/compiler.h"
#include "ws/plain_cuda/rewrite.h"
#include "ws/run/catalog.h"
#include "ws/run/launch_text.h"

namespace {

using namespace ws;
namespace fs = std::filesystem;

std::string plain_file(const std::string& name) { return std::string(WS_PLAIN_DIR) + "/" + name; }

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A file written for one test, in a folder of this process's, removed when the tests end.
std::string write_file(const std::string& name, const std::string& text) {
  struct Folder {
    fs::path dir = fs::temp_directory_path() / ("ws_plain_" + std::to_string(getpid()));
    ~Folder() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  };
  static Folder folder;
  fs::create_directories(folder.dir);
  std::ofstream(folder.dir / name) << text;
  return (folder.dir / name).string();
}

//-----------------------------------------------------------------------------
// The rewrite's text
//-----------------------------------------------------------------------------
// Where each character of `text` is as the compiler sees it: `#line N` lines renumber.
std::map<std::pair<uint32_t, uint32_t>, char> as_compiled(const std::string& text) {
  std::map<std::pair<uint32_t, uint32_t>, char> at;
  std::istringstream in(text);
  std::string l;
  uint32_t line = 0;
  while (std::getline(in, l)) {
    ++line;
    if (l.rfind("#line ", 0) == 0) {
      line = uint32_t(std::stoul(l.substr(6))) - 1;
      continue;
    }
    for (uint32_t c = 0; c < l.size(); ++c) at[{line, c + 1}] = l[c];
  }
  return at;
}

// [SECTION] The rewrite: lines and columns kept, refusals at their place
TEST(PlainCudaRewrite, EveryAccessKeepsItsLineAndColumn) {
  const std::string path = plain_file("reduce_plain.cu");
  const std::string text = read(path);
  const plain_cuda::Rewritten r = plain_cuda::rewrite(text, path);
  ASSERT_TRUE(r.refusals.empty()) << r.refusals[0].line << ": " << r.refusals[0].message;
  ASSERT_TRUE(r.rewritten);
  EXPECT_NE(r.text, text);
  const auto compiled = as_compiled(r.text);
  // Every subscript of the original, `name[` with its index, is where it was.
  const std::regex access(R"(\b(sdata|g_idata|g_odata|vs)\[[^\]]*\])");
  std::istringstream in(text);
  std::string l;
  int checked = 0;
  for (uint32_t line = 1; std::getline(in, l); ++line) {
    for (auto m = std::sregex_iterator(l.begin(), l.end(), access); m != std::sregex_iterator(); ++m) {
      if (l.find("extern __shared__") != std::string::npos || l.find("__shared__ int") != std::string::npos) continue;
      const std::string s = m->str();
      for (uint32_t k = 0; k < s.size(); ++k) {
        auto it = compiled.find({line, uint32_t(m->position()) + 1 + k});
        ASSERT_TRUE(it != compiled.end() && it->second == s[k]) << "line " << line << ": " << s;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 60);
}

TEST(PlainCudaRewrite, AFileInTheWrappedDialectIsTakenAsWritten) {
  const std::string text = read(std::string(WS_EXAMPLES_DIR) + "/saxpy.cu");
  const plain_cuda::Rewritten r = plain_cuda::rewrite(text, "saxpy.cu");
  EXPECT_FALSE(r.rewritten);
  EXPECT_TRUE(r.refusals.empty());
  EXPECT_EQ(r.text, text);
}

// Each construct warpscope cannot record faithfully, with the line and column it must name and a
// word of what the message says. Nothing is compiled into a silent miscount.
TEST(PlainCudaRewrite, WhatCannotBeRecordedIsRefusedAtItsLineAndColumn) {
  const std::string text =
      "struct Holder { float* data; float vals[4]; __device__ float f() const { return 0; } };\n"  // 1
      "__constant__ float table[64];\n"                                                            // 2
      "__device__ int counter[2][2]; extern __device__ int shared_count;\n"                        // 3
      "#define DECLARE_TILE __shared__ float t[32]\n"                                              // 4
      "__global__ void k(float** pp, Holder h, Holder* hs, float* out) {\n"                        // 5
      "  __shared__ float cube[4][4][4];\n"                                                        // 6
      "  float *a = out, *b = out;\n"                                                              // 7
      "  DECLARE_TILE;\n"                                                                          // 8
      "  out[0] = h.data[threadIdx.x];\n"                                                          // 9
      "  out[1] = table[threadIdx.x];\n"                                                           // 10
      "  out[4] = shared_count;\n"                                                                 // 11
      "  out[2] = hs[0].f();\n"                                                                    // 12
      "  __shared__ volatile int vshared[32];\n"                                                   // 13
      "  __shared__ float tile[64]; out[3] = sizeof(tile);\n"                                      // 14
      "}\n__device__ float* pick(float* p) { return p; }\n";                                      // 15
  const plain_cuda::Rewritten r = plain_cuda::rewrite(text, write_file("refusals.cu", text));
  EXPECT_FALSE(r.rewritten);
  struct Want {
    uint32_t line, column;
    const char* says;
  };
  const std::vector<Want> want = {{5, 27, "pointer to a pointer"}, {6, 20, "dimensions"},
                                  {7, 10, "one pointer per statement"}, {7, 20, "one pointer per statement"},
                                  {8, 3, "macro"},                     {9, 12, "pointer kept in a struct"},
                                  {10, 12, "outside the kernel"},      {3, 16, "more than one dimension"},
                                  {3, 53, "extern __device__"},
                                  {12, 18, "member function"},         {13, 27, "volatile shared array"},
                                  {14, 39, "sizeof of the shared array"}, {16, 19, "returning a pointer"}};
  for (const Want& w : want) {
    bool found = false;
    for (const plain_cuda::Refusal& x : r.refusals)
      found = found || (x.line == w.line && x.column == w.column && x.message.find(w.says) != std::string::npos);
    EXPECT_TRUE(found) << "no refusal at " << w.line << ":" << w.column << " saying '" << w.says << "'";
  }
  EXPECT_EQ(r.refusals.size(), want.size());
  if (r.refusals.size() != want.size())
    for (const plain_cuda::Refusal& x : r.refusals) ADD_FAILURE() << x.line << ":" << x.column << " " << x.message;
}

// A statement Clang gives up on would be missing from the rewrite: its error is the refusal.
TEST(PlainCudaRewrite, WhatClangCannotParseIsRefusedWithItsMessage) {
  const std::string text =
      "__global__ void k(float* out) {\n"
      "  out[threadIdx.x] = undeclared_helper(3);\n"
      "}\n";
  const plain_cuda::Rewritten r = plain_cuda::rewrite(text, write_file("unparsed.cu", text));
  ASSERT_EQ(r.refusals.size(), 1u);
  EXPECT_EQ(r.refusals[0].line, 2u);
  EXPECT_EQ(r.refusals[0].column, 22u);
  EXPECT_NE(r.refusals[0].message.find("undeclared_helper"), std::string::npos) << r.refusals[0].message;
}

//-----------------------------------------------------------------------------
// Built and run on the emulator
//-----------------------------------------------------------------------------
std::string load_ok(const std::string& path) {
  std::string error;
  const std::string name = kernel_file::load(path, Catalog::instance(), {}, error);
  EXPECT_FALSE(name.empty()) << path << ":\n" << error;
  return name;
}

// Both GPU builds of the file compile with nvcc (gpu-fast as written, gpu-trace rewritten), where
// this build has nvcc: no GPU needed to compile.
void expect_both_gpu_builds_compile(const std::string& path) {
  if (ws::kernel_file::toolchain().nvcc.empty()) return;
  ws::kernel_file::BuildOptions o;
  o.gpu_check = true;
  const ws::kernel_file::Build b = ws::kernel_file::build(path, o);
  ASSERT_TRUE(b.ok) << b.summary;
  EXPECT_FALSE(b.gpu_check_failed);
  for (const auto& d : b.diagnostics) ADD_FAILURE() << ws::kernel_file::to_text(d);
}

RunResult run(const std::string& kernel, RunConfig c) {
  RunResult r = Catalog::instance().run(kernel, c, BackendKind::Emu);
  EXPECT_TRUE(r.refused.empty()) << r.refused;
  EXPECT_TRUE(r.completed) << (r.errors.empty() ? "" : r.errors[0].message);
  return r;
}

// The first launch's sites, summed per line, in line order: what the source view shows.
struct LineCounts {
  MemSpace space;
  AccessKind kind;
  uint64_t instructions, lane_accesses, sectors, wavefronts, conflicts;
  bool operator==(const LineCounts&) const = default;
};
std::vector<LineCounts> per_line(const RunResult& r, size_t launch = 0) {
  const analysis::Report rep = analysis::analyze(r.launches.at(launch));
  std::map<std::tuple<uint32_t, int, int>, LineCounts> by_line;
  for (const analysis::SiteMetrics& m : rep.sites) {
    LineCounts& c = by_line.try_emplace({rep.site_table[m.site].line, int(m.space), int(m.kind)},
                                        LineCounts{m.space, m.kind, 0, 0, 0, 0, 0}).first->second;
    c.instructions += m.instructions;
    c.lane_accesses += m.lane_accesses;
    c.sectors += m.sectors;
    c.wavefronts += m.wavefronts;
    c.conflicts += m.conflicts;
  }
  std::vector<LineCounts> out;
  for (auto& [k, c] : by_line) out.push_back(c);
  return out;
}

std::string describe(const std::vector<LineCounts>& v) {
  std::string s;
  for (const LineCounts& c : v)
    s += std::string(c.space == MemSpace::Shared ? "shared " : "global ") + std::to_string(int(c.kind)) + ": " +
         std::to_string(c.instructions) + " instr, " + std::to_string(c.sectors) + " sectors, " +
         std::to_string(c.wavefronts) + " wavefronts, " + std::to_string(c.conflicts) + " conflicts\n";
  return s;
}

// [SECTION] Runs: the seeds pasted verbatim and their catalog twins
TEST(PlainCudaRun, SeedReduce0PastedVerbatimRunsAndPasses) {
  const std::string name = load_ok(plain_file("seed_reduce0.cu"));
  if (name.empty()) return;
  const RunResult r = run(name, {});
  EXPECT_TRUE(r.passed) << r.result << " / " << r.check;
  // Its shared-memory accesses are recorded: the `sdata[tid] += sdata[tid + s]` line is there.
  const analysis::Report rep = analysis::analyze(r.launches.at(0));
  uint64_t shared = 0;
  for (const analysis::SiteMetrics& m : rep.sites) shared += m.space == MemSpace::Shared ? m.instructions : 0;
  EXPECT_GT(shared, 0u);
}

// Pasted code includes the CUDA runtime's headers: nvcc's builds include them, the emulator's
// API is what they declare.
TEST(PlainCudaRun, AFileThatIncludesTheCudaRuntimeHeadersRuns) {
  const std::string path = write_file("with_headers.cu",
                                      "#include <cuda_runtime.h>\n#include <device_launch_parameters.h>\n#include <cstdio>\n"
                                      "/* warpscope\nkernel = \"scale\"\nn = 256\nblock = 128\nargs = [\"a\", \"n\"]\n"
                                      "[arrays.a]\ntype = \"float\"\nsize = \"n\"\nfill = \"iota\"\nexpect = \"2 * i\"\n*/\n"
                                      "__global__ void scale(float* a, int n) {\n"
                                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "  if (i < n) a[i] = 2 * a[i];\n"
                                      "}\n");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  const RunResult r = run(name, {});
  EXPECT_TRUE(r.passed) << r.result;
}

// A variant with its own block and dynamic shared memory launches with them by default.
TEST(PlainCudaRun, AVariantHasItsOwnBlockAndSharedMemory) {
  const std::string path = write_file("own_block.cu",
                                      "/* warpscope\nn = 256\nblock = 64\nshared = \"64 * 4\"\nargs = [\"shape\"]\n"
                                      "[[variants]]\nid = \"flat\"\nkernel = \"shape_of\"\n"
                                      "[[variants]]\nid = \"square\"\nkernel = \"shape_of\"\nblock = [16, 8]\nshared = \"128 * 4\"\n"
                                      "[arrays.shape]\ntype = \"unsigned\"\nsize = \"4\"\n*/\n"
                                      "__global__ void shape_of(unsigned* shape) {\n"
                                      "  extern __shared__ unsigned s[];\n"
                                      "  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;\n"
                                      "  s[t] = t;\n"
                                      "  if (blockIdx.x == 0 && t == 0) { shape[0] = blockDim.x; shape[1] = blockDim.y; }\n"
                                      "}\n");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  for (const auto& [variant, x, y] : {std::tuple{"flat", 64u, 1u}, std::tuple{"square", 16u, 8u}}) {
    RunConfig c;
    c.variant = variant;
    const RunResult r = run(name, c);
    ASSERT_FALSE(r.launches.empty()) << variant;
    EXPECT_EQ(r.launches[0].launch.block.x, x) << variant;
    EXPECT_EQ(r.launches[0].launch.block.y, y) << variant;
    // Every thread's s[t] is inside the dynamic shared memory the variant asked for (else: a fault).
    EXPECT_TRUE(r.completed) << variant << ": " << (r.errors.empty() ? "" : r.errors[0].message);
  }
}

// The description says which launches it takes; any other is refused with the condition it broke.
TEST(PlainCudaRun, ALaunchTheDescriptionDoesNotAcceptIsRefusedWithWhy) {
  const std::string path = write_file("accepts.cu",
                                      "/* warpscope\nn = 1024\nblock = 64\naccepts = [\"block.x % 32 == 0\"]\nargs = [\"a\"]\n"
                                      "[[variants]]\nid = \"any\"\nkernel = \"touch\"\n"
                                      "[[variants]]\nid = \"pairs\"\nkernel = \"touch\"\naccepts = [\"n % (2 * block.x) == 0\"]\n"
                                      "[arrays.a]\ntype = \"int\"\nsize = \"n\"\n*/\n"
                                      "__global__ void touch(int* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }\n");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  RunConfig c;
  c.variant = "any";
  c.block = {48, 1, 1};
  RunResult r = Catalog::instance().run(name, c, BackendKind::Emu);
  EXPECT_NE(r.refused.find("block.x % 32 == 0"), std::string::npos) << r.refused;
  EXPECT_NE(r.refused.find("block = 48x1x1"), std::string::npos) << r.refused;
  c.block = {64, 1, 1};
  c.variant = "pairs";
  c.n = 1088;  // 17 blocks of 64: not pairs of blocks
  r = Catalog::instance().run(name, c, BackendKind::Emu);
  EXPECT_NE(r.refused.find("n % (2 * block.x) == 0"), std::string::npos) << r.refused;
  c.n = 1024;
  r = Catalog::instance().run(name, c, BackendKind::Emu);
  EXPECT_TRUE(r.refused.empty()) << r.refused;
  EXPECT_TRUE(r.completed);
}

// The plain file and the catalog's wrapped kernels are the same statements line for line: every
// line counts the same instructions, sectors, wavefronts and conflicts.
TEST(PlainCudaRun, EachReductionStepCountsAsItsCatalogTwin) {
  const std::string name = load_ok(plain_file("reduce_plain.cu"));
  if (name.empty()) return;
  for (const char* v : {"1", "2", "3", "4", "5", "6"}) {
    SCOPED_TRACE(std::string("variant ") + v);
    RunConfig c;
    c.variant = v;
    c.n = 4096;
    c.block = {256, 1, 1};
    const RunResult plain = run(name, c);
    RunConfig cc = c;
    cc.dtype = "int";
    const RunResult wrapped = run("reduce", cc);
    ASSERT_FALSE(plain.launches.empty());
    ASSERT_FALSE(wrapped.launches.empty());
    const std::vector<LineCounts> a = per_line(plain), b = per_line(wrapped);
    EXPECT_EQ(a, b) << "plain:\n" << describe(a) << "catalog:\n" << describe(b);
  }
}

// Seed 004's shortcut problem, version 2, pasted from the slides: myppkernel and mykernel count
// as the catalog's shortcut V2 (its two launches) line for line, and both compute the right values.
TEST(PlainCudaRun, SeedShortcutV2PastedCountsAsItsCatalogTwin) {
  const std::string name = load_ok(plain_file("seed_shortcut_v2.cu"));
  if (name.empty()) return;
  RunConfig cat;
  cat.variant = "2";
  cat.n = 100;
  const RunResult wrapped = run("shortcut", cat);
  ASSERT_EQ(wrapped.launches.size(), 2u) << (wrapped.errors.empty() ? wrapped.refused : wrapped.errors[0].message);
  for (const auto& [variant, launch] : {std::pair<const char*, size_t>{"pp", 0}, {"v2", 1}}) {
    SCOPED_TRACE(variant);
    RunConfig c;
    c.variant = variant;
    const RunResult plain = run(name, c);
    EXPECT_TRUE(plain.passed) << plain.result << " / " << plain.expected;
    ASSERT_EQ(plain.launches.size(), 1u);
    const std::vector<LineCounts> a = per_line(plain), b = per_line(wrapped, launch);
    EXPECT_EQ(a, b) << "plain:\n" << describe(a) << "catalog:\n" << describe(b);
  }
}

analysis::SiteMetrics sum_of(const analysis::Report& rep, MemSpace space, AccessKind kind, uint32_t line) {
  analysis::SiteMetrics sum;
  for (const analysis::SiteMetrics& m : rep.sites)
    if (m.space == space && m.kind == kind && rep.site_table[m.site].line == line) {
      sum.instructions += m.instructions;
      sum.lane_accesses += m.lane_accesses;
      sum.sectors += m.sectors;
      sum.wavefronts += m.wavefronts;
      sum.conflicts += m.conflicts;
    }
  return sum;
}

uint32_t line_of(const std::string& path, const std::string& snippet) {
  std::istringstream in(read(path));
  std::string l;
  for (uint32_t n = 1; std::getline(in, l); ++n)
    if (l.find(snippet) != std::string::npos) return n;
  ADD_FAILURE() << snippet;
  return 0;
}

// Distinct 32-byte sectors a warp's lanes touch at byte addresses `address(lane)`.
template <class F>
uint64_t sectors_of_warp(F address) {
  std::set<uint64_t> s;
  for (uint32_t lane = 0; lane < 32; ++lane) s.insert(address(lane) / 32);
  return s.size();
}

// [SECTION] Runs: what students write (structs, pointers, cooperative groups, clock, printf, assert)
TEST(PlainCudaRun, StructMembersAutoCopiesAndVectorLoadsCountAsTheCompilerIssuesThem) {
  const std::string path = plain_file("features.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  const uint64_t warps = 1024 / 32;
  RunConfig c;
  c.variant = "member";  // out[i] = pts[i].y: one 4-byte load per lane at 12 i + 4
  analysis::Report rep = analysis::analyze(run(name, c).launches.at(0));
  analysis::SiteMetrics m = sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "pts[i].y"));
  EXPECT_EQ(m.instructions, warps);
  EXPECT_EQ(m.sectors, warps * sectors_of_warp([](uint32_t l) { return 12 * l + 4; }));
  c.variant = "auto";  // auto v = in[i]: one load, used three times
  rep = analysis::analyze(run(name, c).launches.at(0));
  EXPECT_EQ(sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "auto v = in[i]")).instructions, warps);
  EXPECT_EQ(sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "v * v + v")).instructions, 0u);
  c.variant = "vector";  // 16-byte loads: 512 bytes a warp, 16 sectors; a quarter of the threads
  rep = analysis::analyze(run(name, c).launches.at(0));
  m = sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "reinterpret_cast<const float4*>"));
  EXPECT_EQ(m.instructions, warps / 4);
  EXPECT_EQ(m.sectors, warps / 4 * sectors_of_warp([](uint32_t l) { return 16 * l; }));
}

TEST(PlainCudaRun, ASharedScalarIsOneCopyPerBlockAndRecorded) {
  const std::string path = plain_file("features.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  RunConfig c;
  c.variant = "scalar";
  const RunResult r = run(name, c);
  EXPECT_TRUE(r.passed) << r.result;  // every block counted its own 256 threads
  const std::vector<float> counts = r.value<float>("counts");
  ASSERT_EQ(counts.size(), 1024u);
  for (float v : counts) ASSERT_EQ(v, 256.0f);
  const analysis::Report rep = analysis::analyze(r.launches.at(0));
  EXPECT_EQ(sum_of(rep, MemSpace::Shared, AccessKind::Atomic, line_of(path, "atomicAdd(&count, 1)")).instructions,
            1024u / 32);
}

// tile[threadIdx.x][threadIdx.y] reads a column: lane l of warp y reads word l * Pitch + y.
TEST(PlainCudaRun, ATwoDimensionalTileConflictsAsTheBankModelCounts) {
  const std::string path = plain_file("features.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  for (int pitch : {33, 32}) {
    RunConfig c;
    c.variant = pitch == 33 ? "padded" : "unpadded";
    const RunResult r = run(name, c);
    EXPECT_TRUE(r.passed) << r.result;
    uint64_t want = 0;
    for (uint32_t y = 0; y < 8; ++y) {
      std::map<uint32_t, std::set<uint32_t>> words;
      for (uint32_t l = 0; l < 32; ++l) words[(l * pitch + y) % 32].insert(l * pitch + y);
      uint64_t most = 0;
      for (auto& [bank, w] : words) most = std::max<uint64_t>(most, w.size());
      want += most;  // wavefronts of warp y's column read
    }
    const analysis::Report rep = analysis::analyze(r.launches.at(0));
    const analysis::SiteMetrics m =
        sum_of(rep, MemSpace::Shared, AccessKind::Load, line_of(path, "tile[threadIdx.x][threadIdx.y]"));
    EXPECT_EQ(m.wavefronts, want) << "pitch " << pitch;
    EXPECT_EQ(m.instructions, 8u);
  }
}

TEST(PlainCudaRun, PointersThroughHelpersAndArithmeticAreRecordedAsTheirArrays) {
  const std::string path = plain_file("features.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  RunConfig c;
  c.variant = "helper";
  const RunResult r = run(name, c);
  EXPECT_TRUE(r.passed) << r.result;
  const analysis::Report rep = analysis::analyze(r.launches.at(0));
  // The helper's p[k] is a load of `in`, the store through `dst` a store to `doubled`: 32 warps each.
  EXPECT_EQ(sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "return 2.0f * p[k]")).instructions, 32u);
  EXPECT_EQ(sum_of(rep, MemSpace::Global, AccessKind::Store, line_of(path, "*(dst + threadIdx.y")).instructions, 32u);
}


// The warp-synchronous calls and barriers of the first launch, in the order they were recorded.
std::vector<std::tuple<int, int, uint32_t, uint32_t>> warp_calls(const RunResult& r) {
  std::vector<std::tuple<int, int, uint32_t, uint32_t>> out;
  for (const Event& e : r.launches.at(0).events)
    if (e.type == EventType::WarpSync || e.type == EventType::Barrier)
      out.emplace_back(int(e.type), e.type == EventType::WarpSync ? int(e.op) : -1, e.mask,
                       e.type == EventType::WarpSync ? e.aux() : 0u);
  return out;
}

// Cooperative groups are recorded as the intrinsics they stand for: tile.shfl_down as
// __shfl_down_sync, reduce over a tile of 8 as __shfl_xor_sync of width 8 under that tile's mask,
// block.sync() as __syncthreads(), coalesced_threads() as __activemask().
TEST(PlainCudaRun, CooperativeGroupsCountAsTheIntrinsicsTheyStandFor) {
  const std::string name = load_ok(plain_file("cooperative_groups.cu"));
  if (name.empty()) return;
  RunConfig groups_cfg;
  groups_cfg.variant = "groups";
  RunConfig plain_cfg;
  plain_cfg.variant = "plain";
  const RunResult groups = run(name, groups_cfg), plain = run(name, plain_cfg);
  EXPECT_TRUE(groups.passed) << groups.result << " / " << groups.check;
  EXPECT_TRUE(plain.passed) << plain.result << " / " << plain.check;
  ASSERT_FALSE(groups.launches.empty());
  ASSERT_FALSE(plain.launches.empty());
  EXPECT_EQ(per_line(groups), per_line(plain)) << "groups:\n" << describe(per_line(groups)) << "plain:\n" << describe(per_line(plain));
  const auto a = warp_calls(groups), b = warp_calls(plain);
  EXPECT_EQ(a, b);
  // What the kernel does, counted here: per recorded warp 5 shuffles down, 3 xor shuffles per tile of 8
  // (4 tiles: 3 instructions for the warp, each under one tile's mask), one barrier, one __activemask.
  const uint32_t warps = uint32_t(groups.launches.at(0).recorded_blocks.size()) * (128 / 32);
  ASSERT_GT(warps, 0u);
  auto count = [&](WarpOp op) {
    return std::count_if(a.begin(), a.end(), [&](const auto& t) { return std::get<0>(t) == int(EventType::WarpSync) && std::get<1>(t) == int(op); });
  };
  EXPECT_EQ(count(WarpOp::ShflDown), long(5 * warps));
  EXPECT_GE(count(WarpOp::ShflXor), long(3 * warps));
  for (const auto& t : a)
    if (std::get<0>(t) == int(EventType::WarpSync) && std::get<1>(t) == int(WarpOp::ShflXor)) {
      const uint32_t named = std::get<3>(t);
      EXPECT_EQ(std::popcount(named), 8) << std::hex << named;
      EXPECT_EQ(named >> std::countr_zero(named), 0xffu) << std::hex << named;  // 0xff << 8k
    }
  EXPECT_EQ(count(WarpOp::ActiveMask) > 0, true);
}

}  // namespace

namespace {
// The same file compiles with nvcc for both GPU builds: gpu-fast with NVIDIA's cooperative
// groups, gpu-trace with warpscope's recorded ones (no GPU needed to compile).
TEST(PlainCudaBuild, CooperativeGroupsCompileForBothGpuBuilds) {
  if (ws::kernel_file::toolchain().nvcc.empty()) GTEST_SKIP() << "this build has no CUDA (nvcc)";
  expect_both_gpu_builds_compile(plain_file("cooperative_groups.cu"));
}
}  // namespace

namespace {
// clock64() and clock() are recorded instructions whose value on the emulator is the block's issue
// clock: with one warp, the four loads between two reads make them 5 apart.
TEST(PlainCudaRun, ClockReadsTheIssueClockAndIsRecorded) {
  const std::string path = write_file("clock.cu",
                                      "/* warpscope\nkernel = \"timed\"\nn = 32\nblock = 32\nargs = [\"in\", \"t\", \"t32\"]\n"
                                      "[arrays.in]\ntype = \"int\"\nsize = \"4 * n\"\nfill = \"iota\"\n"
                                      "[arrays.t]\ntype = \"long long\"\nsize = \"n\"\nexpect = \"5\"\n"
                                      "[arrays.t32]\ntype = \"long\"\nsize = \"n\"\nexpect = \"2\"\n*/\n"
                                      "__global__ void timed(const int* in, long long* t, long* t32) {\n"
                                      "  long long start = clock64();\n"
                                      "  int s = 0;\n"
                                      "  for (int k = 0; k < 4; ++k) s += in[threadIdx.x + 32 * k];\n"
                                      "  long long stop = clock64();\n"
                                      "  long c0 = clock();\n"
                                      "  t[threadIdx.x] = stop - start + 0 * s;\n"
                                      "  long c1 = clock();\n"
                                      "  t32[threadIdx.x] = c1 - c0;\n"
                                      "}\n");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  const RunResult r = run(name, {});
  EXPECT_TRUE(r.passed) << r.result << " / " << r.check;
  ASSERT_FALSE(r.launches.empty());
  // Four clock reads, each a warp instruction at its own line.
  std::vector<uint32_t> lines;
  for (const Event& e : r.launches[0].events)
    if (e.type == EventType::WarpSync && WarpOp(e.op) == WarpOp::Clock) lines.push_back(r.launches[0].sites.at(e.site).line);
  EXPECT_EQ(lines, (std::vector<uint32_t>{20, 23, 24, 26}));
  // And both GPU builds compile it (gpu-trace with the recorded ws_clock64, gpu-fast as written).
  expect_both_gpu_builds_compile(path);
}
}  // namespace

namespace {
// Whether the first launch's allocation table names `name` with `extent` elements of `type`.
bool has_allocation(const RunResult& r, const std::string& name, uint64_t extent, const std::string& type) {
  for (const Allocation& a : r.launches.at(0).allocations)
    if (a.name == name) return a.extent == extent && a.type_name == type && a.space == MemSpace::Global;
  return false;
}

// Seed 002's fence example keeps its block counter in a `__device__ unsigned int count`: the
// counter is global memory of its own in the trace, each block's atomicInc one recorded warp
// instruction, and the last block (whichever it is) finds the total.
TEST(PlainCudaRun, SeedFenceSumPastedWithItsDeviceCounterRunsAndPasses) {
  const std::string path = plain_file("seed_fence_sum.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  for (int again = 0; again < 2; ++again) {  // the kernel resets count itself: both runs pass
    const RunResult r = run(name, {});
    EXPECT_TRUE(r.passed) << r.result << " / " << r.check;
    ASSERT_FALSE(r.launches.empty());
    EXPECT_TRUE(has_allocation(r, "count", 1, "unsigned int"));
    const uint32_t blocks = 4096 / 256;
    const analysis::Report rep = analysis::analyze(r.launches.at(0));
    EXPECT_EQ(sum_of(rep, MemSpace::Global, AccessKind::Atomic, line_of(path, "atomicInc(&count")).instructions, blocks);
    EXPECT_EQ(sum_of(rep, MemSpace::Global, AccessKind::Store, line_of(path, "  count = 0;")).instructions, 1u);
    EXPECT_TRUE(rep.hazards.empty());
  }
  expect_both_gpu_builds_compile(path);
}

// Seed 003's CSR product, pasted: `uint` (glibc's, as nvcc's includes give it), a __device__
// helper taking the pointers the kernel moved (`Aj+row_begin`), and every non-zero loaded once
// from each of Av, Aj and x at the helper's line. Row r has r % 4 non-zeros: 1536 in 1024 rows.
TEST(PlainCudaRun, SeedCsrProductPastedRunsAndCountsEachNonZero) {
  const std::string path = plain_file("seed_csrmul.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  const RunResult r = run(name, {});
  EXPECT_TRUE(r.passed) << r.result << " / " << r.check;
  ASSERT_FALSE(r.launches.empty());
  uint64_t nonzeros = 0;
  for (uint64_t row = 0; row < 1024; ++row) nonzeros += row % 4;
  const analysis::Report rep = analysis::analyze(r.launches.at(0));
  const analysis::SiteMetrics at_row = sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "sum += Av[column] * x[Aj[column]]"));
  EXPECT_EQ(at_row.lane_accesses, 3 * nonzeros);
  // Ap[row] and Ap[row+1]: one load per thread each, 1024 threads.
  EXPECT_EQ(sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "uint row_begin = Ap[row];")).lane_accesses, 1024u);
  expect_both_gpu_builds_compile(path);
}

// A `__device__` variable starts every run at the value the file gives it (as a freshly loaded
// program does), however the last run left it; a `__device__` array is recorded as global memory:
// the 4 ints a warp reads lie in one 32-byte sector.
TEST(PlainCudaRun, ADeviceVariableStartsEachRunAtItsFirstValue) {
  const std::string path = write_file("device_variables.cu",
                                      "/* warpscope\nkernel = \"stamp\"\nn = 256\nblock = 64\nargs = [\"first\", \"out\"]\n"
                                      "[arrays.first]\ntype = \"int\"\nsize = \"1\"\nexpect = \"5\"\n"
                                      "[arrays.out]\ntype = \"int\"\nsize = \"n\"\nexpect = \"10 * (i % 4 + 1)\"\n*/\n"
                                      "__device__ int seen = 5;\n"
                                      "__device__ int table[4] = {10, 20, 30, 40};\n"
                                      "__global__ void stamp(int* first, int* out) {\n"
                                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "  if (i == 0) first[0] = atomicAdd(&seen, 1);\n"
                                      "  out[i] = table[i % 4];\n"
                                      "}\n");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  for (int again = 0; again < 3; ++again) {
    const RunResult r = run(name, {});
    EXPECT_TRUE(r.passed) << "run " << again << ": " << r.result;
    ASSERT_FALSE(r.launches.empty());
    EXPECT_TRUE(has_allocation(r, "seen", 1, "int"));
    EXPECT_TRUE(has_allocation(r, "table", 4, "int"));
    const analysis::Report rep = analysis::analyze(r.launches.at(0));
    const analysis::SiteMetrics m = sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "table[i % 4]"));
    EXPECT_EQ(m.instructions, 256u / 32);
    EXPECT_EQ(m.sectors, 256u / 32);  // 16 bytes of one 256-byte-aligned allocation: one sector a warp
  }
  expect_both_gpu_builds_compile(path);
}
}  // namespace

namespace {
// The sectors a warp's load of 4-byte field `field` of 12-byte elements touches, counted here.
uint64_t float3_field_sectors(uint32_t warps) {
  uint64_t sectors = 0;
  for (uint32_t w = 0; w < warps; ++w)
    for (uint32_t field = 0; field < 3; ++field) {
      std::set<uint64_t> s;
      for (uint32_t l = 0; l < 32; ++l) s.insert((12ull * (32 * w + l) + 4 * field) / 32);
      sectors += s.size();
    }
  return sectors;
}

TEST(PlainCudaRun, StudentIdiomsRunAndCountAsNvccIssuesThem) {
  const std::string path = plain_file("student_idioms.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  for (const char* variant : {"float", "double"}) {
    RunConfig c;
    c.variant = variant;
    testing::internal::CaptureStdout();
    const RunResult r = run(name, c);
    const std::string printed = testing::internal::GetCapturedStdout();
    EXPECT_TRUE(r.passed) << variant << ": " << r.result << " / " << r.check;
    ASSERT_FALSE(r.launches.empty());
    const analysis::Report rep = analysis::analyze(r.launches.at(0));
    EXPECT_TRUE(rep.hazards.empty()) << rep.hazards.front().message;  // the CAS loop's read is no race
    const uint32_t warps = 256 / 32;
    // A float3 is three 4-byte loads; a uchar4 one 4-byte load, 128 bytes a warp.
    const analysis::SiteMetrics p = sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "float3 p = pos[i];"));
    EXPECT_EQ(p.instructions, 3u * warps);
    EXPECT_EQ(p.sectors, float3_field_sectors(warps));
    const analysis::SiteMetrics px = sum_of(rep, MemSpace::Global, AccessKind::Load, line_of(path, "uchar4 c = img[i];"));
    EXPECT_EQ(px.instructions, warps);
    EXPECT_EQ(px.sectors, 4u * warps);
    // printf's element arguments are loaded values: thread 0 of block 0 prints them.
    EXPECT_NE(printed.find("pos[1].y = 2.000000, img[0].x = 0, evens = 64, odd lanes = aaaaaaaa"), std::string::npos)
        << printed;
  }
  expect_both_gpu_builds_compile(path);
}

// printf in a kernel comes out as a GPU prints it: a warp's lines of one printf together, in lane
// order (the emulator runs a warp's highest lane first), then the warp's next printf; every line
// before a __syncthreads() before any after it; warps and blocks in order. `std::printf` is the
// same call. The expected text is written out here, thread by thread.
TEST(PlainCudaRun, PrintfComesOutInTheGpusLaneOrder) {
  const std::string path = write_file("printf_order.cu",
                                      "#include <cstdio>\n"
                                      "/* warpscope\nkernel = \"k\"\nn = 128\nblock = 64\nargs = [\"a\"]\n"
                                      "[arrays.a]\ntype = \"int\"\nsize = \"n\"\nfill = \"iota\"\n*/\n"
                                      "__global__ void k(const int* a) {\n"
                                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "  printf(\"first %d %d\\n\", i, a[i]);\n"
                                      "  if (threadIdx.x % 2) std::printf(\"odd %d\\n\", i);\n"
                                      "  __syncthreads();\n"
                                      "  printf(\"after %d\\n\", i);\n"
                                      "}\n");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  testing::internal::CaptureStdout();
  const RunResult r = Catalog::instance().run(name, {}, BackendKind::Emu);
  const std::string printed = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.completed) << (r.errors.empty() ? r.refused : r.errors[0].message);
  std::string expected;
  for (int block = 0; block < 2; ++block) {
    for (int warp = 0; warp < 2; ++warp) {
      for (int lane = 0; lane < 32; ++lane) {
        const int i = block * 64 + warp * 32 + lane;
        expected += "first " + std::to_string(i) + " " + std::to_string(i) + "\n";
      }
      for (int lane = 1; lane < 32; lane += 2) expected += "odd " + std::to_string(block * 64 + warp * 32 + lane) + "\n";
    }
    for (int t = 0; t < 64; ++t) expected += "after " + std::to_string(block * 64 + t) + "\n";
  }
  EXPECT_EQ(printed, expected);
}

// A kernel that prints without end (empty lines too) keeps at most CUDA's 1 MB of printf a
// launch, not a line's worth of memory per call, and the run says the rest was dropped.
TEST(PlainCudaRun, PrintfWithoutEndIsCutAtTheBuffer) {
  const std::string path = write_file("printf_flood.cu",
                                      "#include <cstdio>\n"
                                      "/* warpscope\nkernel = \"k\"\nn = 64\nblock = 64\nargs = [\"a\"]\n"
                                      "[arrays.a]\ntype = \"int\"\nsize = \"n\"\nfill = \"iota\"\n*/\n"
                                      "__global__ void k(int* a) {\n"
                                      "  for (int j = 0; j < 100000; ++j) printf(\"\");\n"
                                      "  a[threadIdx.x] += 1;\n"
                                      "}\n");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  testing::internal::CaptureStdout();
  const RunResult r = Catalog::instance().run(name, {}, BackendKind::Emu);
  testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.completed) << (r.errors.empty() ? r.refused : r.errors[0].message);
  ASSERT_EQ(r.launches.size(), 1u);
  bool said = false;
  for (const Diagnostic& d : r.launches[0].diagnostics) said = said || d.code == "printf-buffer-full";
  EXPECT_TRUE(said) << "6.4 million printf calls and no word of the buffer";
}

// A failed assert() in a kernel is a fault of the run with CUDA's words (where, which thread),
// not the end of the process.
TEST(PlainCudaRun, AFailedAssertIsAFaultAtItsLine) {
  const std::string path = write_file("asserts.cu",
                                      "#include <cassert>\n"
                                      "/* warpscope\nkernel = \"k\"\nn = 64\nblock = 32\nargs = [\"a\"]\n"
                                      "[arrays.a]\ntype = \"int\"\nsize = \"n\"\nfill = \"iota\"\n*/\n"
                                      "__global__ void k(const int* a) {\n"
                                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "  assert(a[i] != 40);\n"
                                      "}\n");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  const RunResult r = Catalog::instance().run(name, {}, BackendKind::Emu);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].code, "assert");
  EXPECT_NE(r.errors[0].message.find("asserts.cu:14: block [1,0,0], thread [8,0,0]: assertion `a[i] != 40` failed"),
            std::string::npos)
      << r.errors[0].message;
}
}  // namespace

// [SECTION] Runs: whole programs, real parameters
namespace {
// A pasted program's main() (cudaMalloc, <<<>>>, cudaDeviceSynchronize, an error-checking macro)
// compiles in every build; the launch description's one launch is what runs.
TEST(PlainCudaRun, AWholeProgramWithItsOwnMainRunsFromTheDescription) {
  const std::string path = plain_file("whole_program.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  const RunResult r = run(name, {});
  EXPECT_TRUE(r.passed) << r.result;
  ASSERT_EQ(r.launches.size(), 1u);
  const analysis::Report rep = analysis::analyze(r.launches.at(0));
  EXPECT_EQ(sum_of(rep, MemSpace::Global, AccessKind::Store, line_of(path, "c[i] = a[i] + b[i]")).instructions, 1024u / 32);
  expect_both_gpu_builds_compile(path);
}
}  // namespace

namespace ws {
namespace {

// A parameter written with a real number (`default = 2.5`) is a real one: it reaches the kernel's
// `float alpha` and the description's expressions as a double, any value in its range is taken
// (from RunConfig, the command line's NAME=VALUE and a lesson), and a whole parameter refuses 2.5.
TEST(PlainCudaRun, ARealParameterReachesTheKernelAndTheExpectation) {
  const std::string path = plain_file("real_param.cu");
  const std::string name = load_ok(path);
  if (name.empty()) return;
  const CatalogEntry* e = Catalog::instance().find(name);
  ASSERT_NE(e, nullptr);
  ASSERT_NE(e->spec.param("alpha"), nullptr);
  EXPECT_TRUE(e->spec.param("alpha")->real);
  EXPECT_EQ(e->spec.param("alpha")->def, 2.5);
  EXPECT_FALSE(e->spec.param("steps")->real);
  EXPECT_TRUE(run(name, {}).passed);  // alpha = 2.5: y = 2.5 x + 1
  RunConfig c;
  LaunchText t;
  t.params = {"alpha=-0.75"};
  ASSERT_EQ(apply_launch_text(t, c), "");
  EXPECT_EQ(c.params.at("alpha"), -0.75);
  const RunResult r = run(name, c);
  EXPECT_TRUE(r.passed) << r.result << " / " << r.check;
  ASSERT_FALSE(r.launches.empty());
  expect_both_gpu_builds_compile(path);
  bool named = false;  // the trace's launch names the value as it was given
  for (const auto& [k, v] : r.launches[0].launch.params) named |= k == "alpha" && v == "-0.75";
  EXPECT_TRUE(named);
  c.params["alpha"] = 4.5;
  EXPECT_NE(Catalog::instance().run(name, c, BackendKind::Emu).refused.find("alpha = 4.5 is out of range [-4, 4]"),
            std::string::npos);
  c.params = {{"steps", 2.5}};
  EXPECT_NE(Catalog::instance().run(name, c, BackendKind::Emu).refused.find("steps takes whole numbers"), std::string::npos);
  t.params = {"alpha=1e999"};
  EXPECT_NE(apply_launch_text(t, c).find("the value is a number (8, -1, 2.5)"), std::string::npos);
  t.params = {"alpha=two"};  // (a choice's name, for a parameter that has none)
  ASSERT_EQ(apply_launch_text(t, c), "");
  EXPECT_NE(Catalog::instance().run(name, c, BackendKind::Emu).refused.find("the value is a number from -4 to 4"),
            std::string::npos);
}

}  // namespace
}  // namespace ws
