// Runs sent to a real run process (`warpscope serve-runs`): they give what the same run gives in
// this process, and a crash, an endless loop, a cancel or a kill costs that process only — this
// one goes on, and the next run starts a new process.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <chrono>
#include <filesystem>
#include <thread>

#include "paths.h"
#include "ws/isolation/isolated_runs.h"
#include "ws/isolation/wire.h"
#include "ws/kernel_file/build.h"
#include "ws/run/catalog.h"
#include "ws/trace/trace_io.h"

namespace ws::isolation {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

class RunProcess : public ::testing::Test {
 protected:
  void TearDown() override { disable(); }
  static void use(double timeout, bool everything) {
    IsolationOptions o;
    o.exe = test::warpscope_exe();
    o.timeout_seconds = timeout;
    o.everything = everything;
    enable(Catalog::instance(), o);
  }
  static std::string load(const std::string& name) {
    std::string error;
    const std::string kernel =
        kernel_file::load(test::test_file(name), Catalog::instance(), {}, error);
    EXPECT_FALSE(kernel.empty()) << error;
    return kernel;
  }
  static RunConfig with(const std::string& param, int64_t value) {
    RunConfig c;
    c.params[param] = value;
    return c;
  }
  static std::string first_error(const RunResult& r) { return r.errors.empty() ? std::string() : r.errors.front().code + ": " + r.errors.front().message; }
};

TEST_F(RunProcess, GivesWhatTheSameRunGivesHere) {
  RunConfig cfg;
  cfg.variant = "4";
  cfg.n = 5000;
  cfg.block = {128, 1, 1};
  cfg.record.blocks = {0, 2};
  const RunResult here = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  use(60, true);
  const RunResult there = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  EXPECT_NE(process_id(), 0) << "the run went to the run process";
  ASSERT_TRUE(there.refused.empty()) << there.refused;
  EXPECT_EQ(there.passed, here.passed);
  EXPECT_TRUE(there.passed);
  EXPECT_EQ(there.result, here.result);
  EXPECT_EQ(there.expected, here.expected);
  ASSERT_EQ(there.launches.size(), here.launches.size());
  for (size_t i = 0; i < here.launches.size(); ++i)
    EXPECT_EQ(serialize_trace(there.launches[i]), serialize_trace(here.launches[i])) << "launch " << i;
  // A refusal comes back as a refusal, said by this process's catalog before anything is sent.
  RunConfig bad = cfg;
  bad.block = {100, 1, 1};
  EXPECT_FALSE(Catalog::instance().run("reduce", bad, BackendKind::Emu).refused.empty());
}

TEST_F(RunProcess, BuiltInEmulatorRunsStayHereUnlessAsked) {
  use(60, false);
  const RunResult r = Catalog::instance().run("reduce", RunConfig{}, BackendKind::Emu);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(process_id(), 0) << "an emulator run of a built-in kernel needs no run process";
}

TEST_F(RunProcess, ACrashInAKernelFilesHostCodeCostsOnlyTheRunProcess) {
  const std::string kernel = load("host_crash.cu");
  ASSERT_FALSE(kernel.empty());
  use(60, false);  // the default policy: a kernel file's runs go there
  const RunResult fine = Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu);
  EXPECT_TRUE(fine.passed) << first_error(fine);
  const int first_pid = process_id();
  EXPECT_NE(first_pid, 0);
  const RunResult crashed = Catalog::instance().run(kernel, with("crash", 1), BackendKind::Emu);
  EXPECT_FALSE(crashed.completed);
  EXPECT_FALSE(crashed.passed);
  ASSERT_FALSE(crashed.errors.empty());
  EXPECT_EQ(crashed.errors[0].code, "run-process-ended");
  // (By signal 11; under the sanitizers (scripts/test_asan.sh) the run process reports the null
  // pointer itself and ends by abort or exit status: what counts is that it ended, and how.)
  EXPECT_NE(crashed.errors[0].message.find("the run process ended during the run of " + kernel + " on emu, by "),
            std::string::npos) << crashed.errors[0].message;
  // The next run starts a new process and passes.
  const RunResult again = Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu);
  EXPECT_TRUE(again.passed) << first_error(again);
  EXPECT_NE(process_id(), first_pid);
}

// A thread that recurses past its stack ends the run process; warpscope says which thread it was
// and how large its stack was (a quarter of the memory limit shared among the stacks).
TEST_F(RunProcess, AThreadThatRunsPastItsStackIsNamed) {
  const std::string kernel = load("deep_recursion.cu");
  ASSERT_FALSE(kernel.empty());
  use(60, false);
  EXPECT_TRUE(Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu).passed);  // depth 4 fits
  RunConfig deep = with("depth", 100000);  // 100000 calls of a kilobyte each: far past 256 KiB
  deep.emu.workers = 1;
  deep.memory_limit = 64ull << 20;         // a quarter, 16 MiB, over 64 threads: 256 KiB each
  const RunResult r = Catalog::instance().run(kernel, deep, BackendKind::Emu);
  EXPECT_FALSE(r.completed);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].code, "run-process-ended");
  EXPECT_NE(r.errors[0].message.find("block [0,0,0], thread [37,0,0] ran past the end of its 256 KiB stack"),
            std::string::npos) << r.errors[0].message;
  deep.memory_limit = 8ull << 20;          // 2 MiB of stacks over 64 threads: 32 KiB each
  const RunResult small = Catalog::instance().run(kernel, deep, BackendKind::Emu);
  ASSERT_FALSE(small.errors.empty());
  EXPECT_NE(small.errors[0].message.find("thread [37,0,0] ran past the end of its 32 KiB stack"), std::string::npos)
      << small.errors[0].message;
}

TEST_F(RunProcess, AnEndlessLoopIsStoppedByTheTimeLimit) {
  const std::string kernel = load("host_loop.cu");
  ASSERT_FALSE(kernel.empty());
  // (Built first without a tight limit: a run process builds a file it has not seen, from the
  // build cache when warpscope built it before, and that build counts towards the limit.)
  use(120, false);
  ASSERT_TRUE(Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu).passed);
  use(1.5, false);
  const auto t0 = Clock::now();
  const RunResult r = Catalog::instance().run(kernel, with("loop", 1), BackendKind::Emu);
  const double took = seconds_since(t0);
  EXPECT_FALSE(r.completed);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].code, "time-limit");
  EXPECT_NE(r.errors[0].message.find("did not finish in 1.5 s"), std::string::npos) << r.errors[0].message;
  EXPECT_GE(took, 1.4);
  EXPECT_LT(took, 10.0);
  // The next run starts a new run process, which builds the file again (from the build cache):
  // under AddressSanitizer on a loaded machine that alone took over 1.5 s.
  use(120, false);
  const RunResult again = Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu);
  EXPECT_TRUE(again.passed) << first_error(again);
}

TEST_F(RunProcess, ACancelStopsAnEndlessLoopWithinItsGrace) {
  const std::string kernel = load("host_loop.cu");
  ASSERT_FALSE(kernel.empty());
  use(600, false);
  ASSERT_TRUE(Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu).passed);
  RunConfig cfg = with("loop", 1);
  cfg.cancel = std::make_shared<std::atomic<bool>>(false);
  std::thread canceller([flag = cfg.cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    flag->store(true);
  });
  const auto t0 = Clock::now();
  const RunResult r = Catalog::instance().run(kernel, cfg, BackendKind::Emu);
  const double took = seconds_since(t0);
  canceller.join();
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].code, "cancelled");
  EXPECT_LT(took, 8.0) << "cancelled after 0.3 s, 2 s of grace";
  EXPECT_TRUE(Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu).passed);
}

// (pid lines a kernel file wrote: "loaded 123", "filled 123")
std::vector<std::pair<std::string, int>> pids_written(const std::string& path) {
  std::vector<std::pair<std::string, int>> out;
  std::ifstream in(path);
  std::string what;
  int pid = 0;
  while (in >> what >> pid) out.emplace_back(what, pid);
  return out;
}

TEST_F(RunProcess, AKernelFilesCodeRunsOnlyInTheRunProcess) {
  const std::string pids = ::testing::TempDir() + "/where_code_runs.pids";
  std::remove(pids.c_str());
  ::setenv("WS_TEST_PID_FILE", pids.c_str(), 1);  // (the run process inherits it)
  use(120, false);
  const std::string kernel = load("where_code_runs.cu");
  ASSERT_FALSE(kernel.empty());
  // The entry came back as data: its launch description's numbers, its backends.
  const CatalogEntry* e = Catalog::instance().find(kernel);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->spec.default_n, 128u);
  EXPECT_EQ(e->spec.default_block, 64u);
  EXPECT_TRUE(e->runners.count(BackendKind::Emu));
  const RunResult r = Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu);
  EXPECT_TRUE(r.passed) << first_error(r);
  const int run_process = process_id();
  ::unsetenv("WS_TEST_PID_FILE");
  const auto written = pids_written(pids);
  bool loaded = false, filled = false;
  for (const auto& [what, pid] : written) {
    EXPECT_NE(pid, int(getpid())) << what << " in this process";
    EXPECT_EQ(pid, run_process) << what;
    loaded = loaded || what == "loaded";
    filled = filled || what == "filled";
  }
  EXPECT_TRUE(loaded && filled) << written.size() << " lines in " << pids;
}

TEST_F(RunProcess, AKernelFileThatCrashesWhenLoadedCostsOnlyTheRunProcess) {
  use(120, false);
  std::string error;
  EXPECT_TRUE(kernel_file::load(test::test_file("load_crash.cu"), Catalog::instance(), {}, error).empty());
  EXPECT_NE(error.find("the kernel file's code ended the run process as it was loaded"), std::string::npos)
      << error;
  EXPECT_EQ(Catalog::instance().find("load_crash"), nullptr);
  // This process goes on; the next file is built in a new run process.
  const std::string kernel = load("where_code_runs.cu");
  ASSERT_FALSE(kernel.empty());
  EXPECT_TRUE(Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu).passed);
}

// A static initialiser that never ends is stopped a run's time limit after loading starts, not
// after the build's limit (which covers compiling): the message says which stage it was.
TEST_F(RunProcess, AKernelFileThatHangsWhenLoadedIsStoppedAtARunsLimit) {
  use(3, false);
  kernel_file::BuildOptions o;
  o.timeout_seconds = 600;  // (compiling, under a sanitizer on a busy machine)
  const kernel_file::Build b = kernel_file::build(test::test_file("load_hang.cu"), o);
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.run_process_failure, "time-limit") << b.summary;
  EXPECT_NE(b.summary.find("loading load_hang.cu (its static initialisers run then) did not finish in 3 s"), std::string::npos)
      << b.summary;
  use(120, false);
  const std::string kernel = load("where_code_runs.cu");
  ASSERT_FALSE(kernel.empty());
  EXPECT_TRUE(Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu).passed);
}

// An allocation the run process cannot have, made as a file loads, fails that build and says
// which limit it met, by code (a grader reports it as the submission's doing, not its own).
TEST_F(RunProcess, AKernelFileThatRunsOutOfMemoryWhenLoadedIsSaidSo) {
  use(120, false);
  kernel_file::BuildOptions o;
  const kernel_file::Build b = kernel_file::build(test::test_file("load_hog.cu"), o);
  EXPECT_FALSE(b.ok);
#if defined(__SANITIZE_ADDRESS__)
  // (AddressSanitizer's allocator ends the process on an impossible size instead of throwing:
  // what counts there is that the run process, not this one, ended, and the build says so.)
  EXPECT_EQ(b.run_process_failure, "run-process-ended") << b.summary;
#else
  EXPECT_EQ(b.run_process_failure, "out-of-memory") << b.summary;
  EXPECT_NE(b.summary.find("ran out of the memory it was given"), std::string::npos) << b.summary;
#endif
  const std::string kernel = load("where_code_runs.cu");
  ASSERT_FALSE(kernel.empty());
  EXPECT_TRUE(Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu).passed);
}

// (a process that has ended, or is a zombie waiting to be reaped)
bool process_gone(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string skip, state;
  return !(stat >> skip >> skip >> state) || state == "Z" || state == "X";
}

TEST_F(RunProcess, WhatTheCodeForkedIsStoppedWithTheRunProcess) {
  const std::string pids = ::testing::TempDir() + "/host_fork.pids";
  std::remove(pids.c_str());
  ::setenv("WS_TEST_PID_FILE", pids.c_str(), 1);
  use(120, false);
  const std::string kernel = load("host_fork.cu");
  ASSERT_FALSE(kernel.empty());
  ASSERT_TRUE(Catalog::instance().run(kernel, RunConfig{}, BackendKind::Emu).passed);
  // (5 s, not less: the new run process loads the file again before the fork, and under a loaded
  // machine's ctest -j2 that took more than 1.5 s, so nothing had forked yet.)
  use(5, false);
  const RunResult r = Catalog::instance().run(kernel, with("fork", 1), BackendKind::Emu);
  ::unsetenv("WS_TEST_PID_FILE");
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].code, "time-limit");
  const auto written = pids_written(pids);
  ASSERT_EQ(written.size(), 1u) << "the kernel file forked";
  const int forked = written[0].second;
  bool gone = false;
  for (int i = 0; i < 200 && !(gone = process_gone(forked)); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(gone) << "process " << forked << " outlived the run process";
  if (!gone) ::kill(forked, SIGKILL);
}

// The processes whose parent is `pid`.
std::vector<int> children_of(int pid) {
  std::vector<int> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const size_t close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    std::string state;
    int ppid = 0;
    if (rest >> state >> ppid && ppid == pid && state != "Z") out.push_back(std::stoi(name));
  }
  return out;
}

// warpscope killed while a kernel file's code loops in its run process: the run process (and
// its group) ends too, instead of spinning on without anyone to stop it.
TEST_F(RunProcess, TheRunProcessEndsWhenWarpscopeIsKilled) {
  const std::string exe = test::warpscope_exe(), file = test::test_file("host_loop.cu");
  std::vector<std::string> args = {exe, "run", "--file", file, "--param", "loop=1", "--timeout", "300"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t cli = 0;
  ASSERT_EQ(posix_spawn(&cli, exe.c_str(), nullptr, nullptr, argv.data(), environ), 0);
  std::vector<int> run_process;
  for (int i = 0; i < 600 && run_process.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    run_process = children_of(cli);
  }
  ASSERT_EQ(run_process.size(), 1u) << "no run process under warpscope " << cli;
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // (into the loop, or building it)
  ::kill(cli, SIGKILL);
  ::waitpid(cli, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 300 && !(gone = process_gone(run_process[0])); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(gone) << "run process " << run_process[0] << " outlived warpscope";
  if (!gone) ::kill(run_process[0], SIGKILL);
}

TEST_F(RunProcess, ARunProcessKilledFromOutsideIsStartedAgain) {
  use(60, true);
  EXPECT_TRUE(Catalog::instance().run("reduce", RunConfig{}, BackendKind::Emu).passed);
  const int pid = process_id();
  ASSERT_GT(pid, 0);
  ::kill(pid, SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // The first request after finds it gone (said as such), or starts a new one at once.
  RunResult r = Catalog::instance().run("reduce", RunConfig{}, BackendKind::Emu);
  if (!r.passed) {
    ASSERT_FALSE(r.errors.empty());
    EXPECT_EQ(r.errors[0].code, "run-process-ended");
    r = Catalog::instance().run("reduce", RunConfig{}, BackendKind::Emu);
  }
  EXPECT_TRUE(r.passed) << first_error(r);
  EXPECT_NE(process_id(), pid);
}

TEST_F(RunProcess, ARequestItDoesNotKnowIsAnsweredWithWhy) {
  use(60, true);
  const Answer a = call(Kind(77), "x", {});
  EXPECT_FALSE(a.ok);
  EXPECT_FALSE(a.process_lost);
  EXPECT_NE(a.error.find("does not know request 77"), std::string::npos) << a.error;
  // A request whose payload is cut short: the run process says so and stays.
  const Answer cut = call(Kind::Run, "abc", {});
  EXPECT_FALSE(cut.ok);
  EXPECT_FALSE(cut.process_lost);
  EXPECT_NE(cut.error.find("ends in the middle of"), std::string::npos) << cut.error;
}

TEST_F(RunProcess, AMissingExecutableIsAClearError) {
  IsolationOptions o;
  o.exe = "/nonexistent/warpscope";
  o.everything = true;
  enable(Catalog::instance(), o);
  const RunResult r = Catalog::instance().run("reduce", RunConfig{}, BackendKind::Emu);
  EXPECT_FALSE(r.passed);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].message.find("/nonexistent/warpscope"), std::string::npos) << r.errors[0].message;
}

}  // namespace
}  // namespace ws::isolation
