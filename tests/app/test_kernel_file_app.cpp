// A kernel file in the viewer and on the command line: saved again, it is rebuilt and rerun; its
// errors reach the user with file, line and column; the viewer keeps the last good build.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "model/kernel_file_watch.h"
#include "run_binary.h"
#include "model/session.h"
#include "ws/isolation/isolated_runs.h"
#include "ws/kernel_file/build.h"

namespace {

namespace fs = std::filesystem;
using namespace ws;
using namespace ws::app;

std::string kernel_text(int add) {
  return "#include \"ws/kernel.cuh\"\n"
         "__global__ void bump(ws::global_array<int> a, unsigned n) {\n"
         "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) a[i] = a[i] + " + std::to_string(add) + ";\n"
         "}\n"
         "/* warpscope\nkernel = \"bump\"\nn = 64\nblock = 32\nargs = [\"a\", \"n\"]\n"
         "[arrays.a]\ntype = \"int\"\nsize = \"n\"\nfill = \"i\"\nexpect = \"a[i] + " + std::to_string(add) + "\"\n*/\n";
}

struct TempDir {
  fs::path dir;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "ws-kf-app-XXXXXX").string();
    dir = mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

// Writes `text` so that the watch sees a new file time even within one clock tick.
void save(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  static int bump = 0;
  fs::last_write_time(p, fs::file_time_type::clock::now() + std::chrono::seconds(++bump));
}

// Polls the watch and the session until `done` or 60 s.
template <class F>
bool poll_until(KernelFileWatch& w, Session& s, F done) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < end) {
    w.poll(s);
    s.poll();
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

int first_value(const SessionData& d) {
  int v = -1;
  if (!d.result.checked.empty() && d.result.checked[0].second.bytes.size() >= 2 * sizeof(int))
    std::memcpy(&v, d.result.checked[0].second.bytes.data() + sizeof(int), sizeof(int));  // a[1]
  return v;
}

TEST(KernelFileWatch, SavingRebuildsAndRerunsAndAFailedBuildKeepsTheLastGood) {
  TempDir t;
  const fs::path file = t.dir / "bump.cu";
  save(file, kernel_text(1));
  Session s;
  KernelFileWatch w;
  w.open(file.string());
  ASSERT_TRUE(poll_until(w, s, [&] { return !w.building() && s.data() && s.data()->request.kernel == "bump"; }))
      << w.status();
  EXPECT_FALSE(w.failed());
  EXPECT_EQ(w.kernel(), "bump");
  EXPECT_TRUE(s.data()->result.passed);
  EXPECT_EQ(first_value(*s.data()), 1 + 1);
  // Saved with + 7: rebuilt, rerun, the views get the new result.
  save(file, kernel_text(7));
  ASSERT_TRUE(poll_until(w, s, [&] { return w.builds() == 2 && !w.building() && s.data() && first_value(*s.data()) == 1 + 7; }))
      << w.status();
  EXPECT_TRUE(s.data()->result.passed);
  // Saved broken: the panel has the error at its line, the session still shows the + 7 build.
  std::string broken = kernel_text(3);
  broken.replace(broken.find("a[i] + 3;"), 9, "a[i] + missing_name;");
  save(file, broken);
  ASSERT_TRUE(poll_until(w, s, [&] { return w.builds() == 3 && !w.building(); }));
  EXPECT_TRUE(w.failed());
  ASSERT_FALSE(w.last().diagnostics.empty());
  EXPECT_EQ(w.last().diagnostics[0].line, 4u);
  EXPECT_NE(w.status().find("the last good build still runs"), std::string::npos) << w.status();
  const ws::RunResult again = Catalog::instance().run("bump", {}, BackendKind::Emu);
  EXPECT_TRUE(again.passed);
  std::vector<Session::Notice> notices = s.take_notices();
  ASSERT_FALSE(notices.empty());
  EXPECT_TRUE(notices.back().is_error);
  EXPECT_NE(notices.back().text.find("line 4: "), std::string::npos) << notices.back().text;
  s.stop();
}

// An edit that moves the kernel's lines: the rebuilt run's selection is the same instruction (its
// text, its kind, its instance in the warp), at its new line.
TEST(KernelFileWatch, TheSelectionFollowsTheInstructionThroughAnEdit) {
  TempDir t;
  const fs::path file = t.dir / "follow.cu";
  save(file, kernel_text(1));
  Session s;
  KernelFileWatch w;
  w.open(file.string());
  ASSERT_TRUE(poll_until(w, s, [&] { return !w.building() && s.data() && s.data()->request.kernel == "follow"; }));
  const Trace* tr = s.trace();
  ASSERT_NE(tr, nullptr);
  // Select block 1's store a[i] = ... (line 4).
  int64_t store = -1;
  for (size_t i = 0; i < tr->events.size(); ++i)
    if (tr->events[i].type == EventType::Access && tr->events[i].kind == AccessKind::Store && tr->events[i].block == 1) {
      store = int64_t(i);
      break;
    }
  ASSERT_GE(store, 0);
  s.select_event(store);
  ASSERT_EQ(tr->sites[s.sel.site].line, 4u);
  // Two comment lines above the kernel: the store is on line 6 now.
  save(file, "// a comment\n// another\n" + kernel_text(1));
  ASSERT_TRUE(poll_until(w, s, [&] { return w.builds() == 2 && !w.building() && s.data() && s.trace() && s.trace()->sites.size() > 0 &&
                                            s.trace()->sites[0].line > 4; }));
  const Trace* t2 = s.trace();
  ASSERT_GE(s.sel.event, 0);
  const Event& e = t2->events[size_t(s.sel.event)];
  EXPECT_EQ(e.kind, AccessKind::Store);
  EXPECT_EQ(e.block, 1u);
  EXPECT_EQ(t2->sites[e.site].line, 6u);
  s.stop();
}

TEST(KernelFileCli, RunChecksAndRaces) {
  const std::string examples = WS_EXAMPLES_DIR;
  ::RunResult r = run_warpscope("run --file " + examples + "/saxpy.cu");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
  r = run_warpscope("run --file " + examples + "/race.cu");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("RACE"), std::string::npos) << r.out;
  r = run_warpscope("run --file " + examples + "/race.cu --param fixed=1");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  r = run_warpscope("analyze --file " + examples + "/transpose.cu --variant tiled --json");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), std::string::npos);
}

TEST(KernelFileCli, BadFilesAndBadUse) {
  TempDir t;
  std::string broken = kernel_text(1);
  broken.replace(broken.find("a[i] + 1;"), 9, "a[i] + oops;");
  std::ofstream(t.dir / "broken.cu") << broken;
  ::RunResult r = run_warpscope("run --file " + (t.dir / "broken.cu").string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find((t.dir / "broken.cu").string() + ":4:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("oops"), std::string::npos) << r.out;
  r = run_warpscope("run --file " + (t.dir / "nothere.cu").string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("no such file"), std::string::npos) << r.out;
  r = run_warpscope("run --file x.cu --kernel reduce");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  r = run_warpscope("run");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--file FILE.cu"), std::string::npos) << r.out;
  // The viewer opens a file that does not build and shows why (a picture, exit 0).
  r = run_warpscope("open " + (t.dir / "broken.cu").string() + " --headless --size 640x360 --screenshot " +
                    (t.dir / "shot.png").string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::exists(t.dir / "shot.png"));
}

// --timeout: the run goes to a run process; a host loop is stopped at the limit, a crash in host
// code is said with its signal; both fail the command (exit 1), neither takes warpscope with it.
TEST(KernelFileCli, TimeoutStopsAHostLoopAndSaysACrash) {
  const std::string files = WS_ISOLATION_FILES;
  const auto t0 = std::chrono::steady_clock::now();
  ::RunResult r = run_warpscope("run --file " + files + "/host_loop.cu --param loop=1 --timeout 2");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("did not finish in 2 s"), std::string::npos) << r.out;
  EXPECT_LT(took, 30.0);
  r = run_warpscope("run --file " + files + "/host_crash.cu --param crash=1 --timeout 30");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("signal 11 (Segmentation fault)"), std::string::npos) << r.out;
  r = run_warpscope("run --file " + files + "/host_crash.cu --timeout 30");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
}

// The viewer's session with the run process: a long run says how long it has taken and when it
// will be stopped; stopped, the panels get the reason, and the next run goes on.
TEST(KernelFileSession, ALongRunSaysItsTimeAndTheLimitStopsIt) {
  std::string error;
  const std::string kernel =
      kernel_file::load(std::string(WS_ISOLATION_FILES) + "/host_loop.cu", Catalog::instance(), {}, error);
  ASSERT_FALSE(kernel.empty()) << error;
  isolation::IsolationOptions o;
  o.exe = WARPSCOPE_EXE;
  o.timeout_seconds = 30;
  isolation::enable(Catalog::instance(), o);
  Session s;
  RunRequest warm;  // (the run process builds the file once, from the build cache)
  warm.kernel = kernel;
  s.request(warm);
  ASSERT_TRUE(s.wait_idle(std::chrono::seconds(60)));
  s.poll();
  ASSERT_TRUE(s.data() && s.data()->result.passed) << (s.data() ? s.data()->error : "no data");
  o.timeout_seconds = 3;
  isolation::enable(Catalog::instance(), o);
  RunRequest req = warm;
  req.config.params["loop"] = 1;
  s.request(req);
  // (The run process loads the file again first: on a loaded machine that can take a second.)
  std::string busy;
  for (auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2800);
       std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(std::chrono::milliseconds(100))) {
    busy = s.busy_text();
    if (busy.find("running " + kernel) != std::string::npos && busy.find(" s (stopped at 3 s)") != std::string::npos) break;
  }
  EXPECT_NE(busy.find("running " + kernel), std::string::npos) << busy;
  EXPECT_NE(busy.find(" s (stopped at 3 s)"), std::string::npos) << busy;
  ASSERT_TRUE(s.wait_idle(std::chrono::seconds(30)));
  s.poll();
  ASSERT_TRUE(s.data());
  EXPECT_NE(s.data()->error.find("did not finish in 3 s"), std::string::npos) << s.data()->error;
  EXPECT_EQ(s.data()->error.find("the kernel stopped before it finished"), std::string::npos) << s.data()->error;
  s.request(warm);
  ASSERT_TRUE(s.wait_idle(std::chrono::seconds(30)));
  s.poll();
  EXPECT_TRUE(s.data() && s.data()->result.passed);
  s.stop();
  isolation::disable();
}

}  // namespace
