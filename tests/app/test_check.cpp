// `warpscope check`: an exercise graded on a student's file as a course's autograder runs it (the
// real binary). The exercise here is seed 003's reduce0 with goals on its divergence and result;
// the submissions are copies with the edits students make: the fix, a wrong sum, a syntax error,
// an endless loop, a crash, a launch description changed to pass.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/kernel_file_watch.h"
#include "lessons/exercise.h"
#include "lessons/exercise_session.h"
#include "lessons/lesson.h"
#include "run_binary.h"
#include "model/session.h"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

struct Exercise {
  fs::path dir;
  std::string start;
  Exercise() {
    std::string t = (fs::temp_directory_path() / "ws-check-XXXXXX").string();
    dir = mkdtemp(t.data());
    start = read(WS_PLAIN_DIR "/seed_reduce0.cu");
    std::ofstream(dir / "start.cu") << start;
    std::ofstream(dir / "exercise.toml") << R"TOML(title = "Divergence"
[[step]]
title = "Remove the divergence of tid % (2*s)"
file = "start.cu"
hints = ["Which threads work at s = 1?", "Let the first threads of the block do the work."]
[[step.goal]]
metric = "simd_efficiency"
line = "sdata[tid] += sdata[tid + s]"
min = 60
says = "the tree step keeps its warps' lanes busy"
[[step.goal]]
metric = "result"
says = "the block sums are right"
)TOML";
    fs::create_directories(dir / "subs");
  }
  ~Exercise() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  // The sequential-addressing tree: the lanes that work are the block's first s threads.
  std::string fixed() const {
    return replaced(start, "for(unsigned int s=1; s < blockDim.x; s *= 2) {\n        if (tid % (2*s) == 0)",
                    "for(unsigned int s=blockDim.x/2; s > 0; s >>= 1) {\n        if (tid < s)");
  }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / "subs" / name) << text;
    return dir / "subs" / name;
  }
  std::string check(const std::string& args) const { return "check '" + (dir / "exercise.toml").string() + "' " + args; }
};

// At s = 1 the starting file's tree step runs with every other lane of each warp, the fix
// with whole warps until s < 32: the goal's line and value say which.
TEST(Check, AStudentsFileIsGradedGoalByGoal) {
  Exercise e;
  const RunResult start = run_warpscope(e.check(""));
  EXPECT_EQ(start.exit_code, 1) << start.out;
  EXPECT_NE(start.out.find("(the exercise's starting file)"), std::string::npos) << start.out;
  EXPECT_NE(start.out.find("✗ the tree step keeps its warps' lanes busy (simd_efficiency >= 60%)"), std::string::npos) << start.out;
  EXPECT_NE(start.out.find("sdata[tid] += sdata[tid + s];"), std::string::npos) << start.out;
  EXPECT_NE(start.out.find("✓ the block sums are right"), std::string::npos) << start.out;

  const fs::path fixed = e.write("fixed.cu", e.fixed());
  const RunResult ok = run_warpscope(e.check("--file '" + fixed.string() + "' --json"));
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  const nlohmann::json r = nlohmann::json::parse(ok.out);
  EXPECT_EQ(r["status"], "graded");
  EXPECT_TRUE(r["passed"].get<bool>());
  ASSERT_EQ(r["goals"].size(), 2u);
  // s = 128, 64, 32: whole warps (8, 4, 2 warps... all 32 lanes); s = 16 .. 1: one warp with s
  // lanes. Loads and store of the line: (3 passes x 32 + (16+8+4+2+1)) lanes per instruction kind
  // over 4+2+1 + 5 warp instructions: (4+2+1)*32 + 31 = 255 lanes in 12 instructions = 66.4%.
  // The goal's line holds only the tree step, so that is its value.
  const double expected = 100.0 * ((4 + 2 + 1) * 32 + (16 + 8 + 4 + 2 + 1)) / (12 * 32);
  EXPECT_NEAR(r["goals"][0]["value"].get<double>(), expected, 0.01) << ok.out;
}

// The launch, arrays and expectations are the exercise's: a copy whose own description would let
// anything pass is graded under the starting file's.
TEST(Check, TheStudentsOwnLaunchDescriptionIsNotUsed) {
  Exercise e;
  std::string cheat = replaced(e.start, "expect = \"block_sum(in, i)\"", "expect = \"out[i]\"");
  cheat = replaced(cheat, "sdata[tid] += sdata[tid + s];", "sdata[tid] += 0;");
  const RunResult r = run_warpscope(e.check("--file '" + e.write("cheat.cu", cheat).string() + "'"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("✗ the block sums are right (result passes): FAIL"), std::string::npos) << r.out;
}

// A folder of submissions: one line each, whatever the student did, and the grader goes on.
TEST(Check, AFolderIsGradedOneLineEachAndNoSubmissionStopsTheGrader) {
  Exercise e;
  e.write("a_fixed.cu", e.fixed());
  e.write("b_wrong.cu", replaced(e.fixed(), "sdata[tid] += sdata[tid + s];", "sdata[tid] += sdata[tid + s] + 1;"));
  e.write("c_syntax.cu", replaced(e.fixed(), "sdata[tid] += sdata[tid + s];", "sdata[tid] += sdata[tid + s]"));
  e.write("d_loop.cu", replaced(e.fixed(), "s >>= 1)", "s >>= 0)"));
  e.write("e_crash.cu", replaced(e.fixed(), "#include <vector>", "#include <vector>\n#include <csignal>\nstatic int boom = (std::raise(SIGSEGV), 1);"));
  const RunResult r = run_warpscope(e.check("--file '" + (e.dir / "subs").string() + "' --timeout 3 --jobs 2"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  auto line_of = [&](const std::string& file) {
    const size_t at = r.out.find(file + "  ");
    return at == std::string::npos ? std::string() : r.out.substr(at, r.out.find('\n', at) - at);
  };
  EXPECT_NE(line_of("a_fixed.cu").find("2/2 goals  PASS"), std::string::npos) << r.out;
  EXPECT_NE(line_of("b_wrong.cu").find("✗ result passes: FAIL"), std::string::npos) << r.out;
  EXPECT_NE(line_of("c_syntax.cu").find("does not build: "), std::string::npos) << r.out;
  EXPECT_NE(line_of("c_syntax.cu").find("c_syntax.cu:"), std::string::npos) << r.out;  // file:line:col
  EXPECT_NE(line_of("d_loop.cu").find("did not finish: "), std::string::npos) << r.out;
  EXPECT_NE(line_of("e_crash.cu").find("crashed: "), std::string::npos) << r.out;
  EXPECT_NE(line_of("e_crash.cu").find("signal 11"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("graded 5 files in "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 pass, 4 do not; per file: median "), std::string::npos) << r.out;
}

// A submission's run process gets the address space it was given: 4 GiB asked for at load ends it.
TEST(Check, ASubmissionGetsTheMemoryItWasGiven) {
  Exercise e;
  const fs::path big = e.write("big.cu", replaced(e.fixed(), "#include <vector>",
                                                  "#include <vector>\nchar* hog = new char[size_t(4) << 30];  // (extern: the allocation stays)"));
  const RunResult capped = run_warpscope(e.check("--file '" + big.string() + "' --memory 1024"));
  EXPECT_EQ(capped.exit_code, 1) << capped.out;
  EXPECT_NE(capped.out.find("crashed: "), std::string::npos) << capped.out;
  EXPECT_NE(capped.out.find("std::bad_alloc"), std::string::npos) << capped.out;
  const RunResult roomy = run_warpscope(e.check("--file '" + big.string() + "' --memory 16384"));
  EXPECT_EQ(roomy.exit_code, 0) << roomy.out;  // (reserved, never touched)
}

// A submission's run process has a CPU-time limit and writes no core file: its static initialiser
// reads its own limits and ends the process (SIGSEGV) when either is missing.
TEST(Check, ASubmissionRunsUnderACpuLimitAndWritesNoCore) {
  Exercise e;
  const std::string look = R"CODE(#include <vector>
#include <csignal>
#include <sys/resource.h>
static int limited = [] {
  rlimit cpu{}, core{};
  getrlimit(RLIMIT_CPU, &cpu);
  getrlimit(RLIMIT_CORE, &core);
  if (cpu.rlim_cur == RLIM_INFINITY || cpu.rlim_cur > 3600 || core.rlim_cur != 0) std::raise(SIGSEGV);
  return 0;
}();)CODE";
  const fs::path f = e.write("limits.cu", replaced(e.fixed(), "#include <vector>", look));
  const RunResult r = run_warpscope(e.check("--file '" + f.string() + "'"));
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// Whether this kernel lets this user make a user and a network namespace (as the grader's run
// process does), tried in a child.
bool namespaces_allowed() {
  const pid_t probe = fork();
  if (probe == 0) _exit(::unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0 ? 0 : 1);
  int status = 0;
  waitpid(probe, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Where the kernel lets a user make namespaces, a submission cannot reach the network, not even
// this machine: its connect to a port the test listens on fails.
TEST(Check, ASubmissionCannotReachTheNetwork) {
  if (!namespaces_allowed()) GTEST_SKIP() << "this kernel lets no user make a namespace";
  Exercise e;
  const std::string reach = R"CODE(#include <vector>
#include <arpa/inet.h>
#include <csignal>
#include <sys/socket.h>
#include <unistd.h>
static int reached = [] {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(PORT);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (s >= 0 && connect(s, (sockaddr*)&a, sizeof a) == 0) std::raise(SIGSEGV);
  return 0;
}();)CODE";
  const int server = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(server, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(server, 4), 0);
  socklen_t len = sizeof a;
  getsockname(server, reinterpret_cast<sockaddr*>(&a), &len);
  std::string code = replaced(reach, "PORT", std::to_string(ntohs(a.sin_port)));
  const fs::path f = e.write("net.cu", replaced(e.fixed(), "#include <vector>", code));
  const RunResult r = run_warpscope(e.check("--file '" + f.string() + "'"));
  close(server);
  EXPECT_EQ(r.exit_code, 0) << "the submission reached 127.0.0.1:" << ntohs(a.sin_port) << "\n" << r.out;
}

// Where a submission's run process has a namespace of its own, the threads and processes it can
// start are bounded: a fork bomb in its static initialiser stops short of 256 and the run goes on.
TEST(Check, ASubmissionStartsABoundedNumberOfProcesses) {
  if (!namespaces_allowed()) GTEST_SKIP() << "this kernel lets no user make a namespace";
  Exercise e;
  const fs::path count = e.dir / "forks.txt";
  const std::string bomb = R"CODE(#include <vector>
#include <csignal>
#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>
static int forked = [] {
  static pid_t kids[4096];
  int n = 0;
  while (n < 4096) {
    const pid_t p = fork();
    if (p < 0) break;
    if (p == 0) for (;;) pause();
    kids[n++] = p;
  }
  if (FILE* f = std::fopen("COUNT", "w")) std::fprintf(f, "%d\n", n), std::fclose(f);
  for (int i = 0; i < n; ++i) kill(kids[i], SIGKILL), waitpid(kids[i], nullptr, 0);
  return n;
}();)CODE";
  const fs::path f = e.write("bomb.cu", replaced(e.fixed(), "#include <vector>", replaced(bomb, "COUNT", count.string())));
  // RLIMIT_NPROC does not hold root: where the tests run as root, the grader runs as nobody.
  std::string as_user;
  if (::geteuid() == 0) {
    if (::system("command -v setpriv > /dev/null") != 0) GTEST_SKIP() << "root, and no setpriv to grade as another user";
    fs::create_directories(e.dir / "home");
    for (const fs::path& p : {e.dir, e.dir / "subs", e.dir / "home"}) fs::permissions(p, fs::perms::all);
    for (const fs::path& p : {e.dir / "exercise.toml", e.dir / "start.cu", f}) fs::permissions(p, fs::perms::all);
    as_user = "HOME='" + (e.dir / "home").string() + "' setpriv --reuid=65534 --regid=65534 --clear-groups ";
  }
  const RunResult r = run_warpscope(e.check("--file '" + f.string() + "'"), as_user);
  EXPECT_EQ(r.exit_code, 0) << r.out << "\n" << read(f);
  int forks = -1;
  std::ifstream(count) >> forks;
  EXPECT_GT(forks, 0) << r.out;
  EXPECT_LT(forks, 256) << "a submission forked without bound";
}

// The viewer: opening an exercise copies its starting file into the student's folder (never over
// the student's work), grades the copy, and grades it again after every save; restoring puts
// the starting file back.
TEST(ExercisePanel, TheCopyIsGradedAfterEverySaveAndRestored) {
  using namespace ws::app;
  Exercise e;
  const fs::path work = e.dir / "work" / "alice";  // (made when the exercise opens)
  Session s;
  KernelFileWatch w;
  ExerciseSession x;
  ASSERT_EQ(x.open(e.dir / "exercise.toml", 0, work, w), "");
  EXPECT_TRUE(x.copied());
  EXPECT_EQ(read(work / "start.cu"), e.start);
  auto graded = [&](size_t held) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    while (std::chrono::steady_clock::now() < end) {
      w.poll(s);
      s.poll();
      x.poll(s, w);
      if (x.graded() && x.held() == held) return true;
      if (w.failed() && !w.building()) {
        for (const auto& d : w.last().diagnostics) ADD_FAILURE() << ws::kernel_file::to_text(d);
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  };
  ASSERT_TRUE(graded(1)) << x.status();  // the result holds, the divergence goal does not
  EXPECT_FALSE(x.results()[0].held);
  EXPECT_GT(x.results()[0].line, 0u);
  // A failed goal's line is one click from its instruction in every view.
  ASSERT_TRUE(s.select_line(x.results()[0].file, x.results()[0].line)) << x.results()[0].file;
  ASSERT_NE(s.trace(), nullptr);
  EXPECT_EQ(s.trace()->sites[s.sel.site].line, x.results()[0].line);
  // The panel measures what `check` measures (the whole grid, not the blocks a picture shows).
  ASSERT_TRUE(s.data());
  EXPECT_TRUE(s.data()->request.config.record.blocks.empty()) << "every block recorded";
  const Graded checked = grade_submission(x.step(), {.file = work / "start.cu", .workers = ""});
  ASSERT_EQ(checked.goals.size(), x.results().size()) << checked.message;
  for (size_t i = 0; i < checked.goals.size(); ++i) EXPECT_EQ(x.results()[i].value, checked.goals[i].value) << i;

  std::ofstream(work / "start.cu") << e.fixed();
  fs::last_write_time(work / "start.cu", fs::file_time_type::clock::now() + std::chrono::seconds(5));
  ASSERT_TRUE(graded(2)) << x.status();
  EXPECT_EQ(x.status(), "2 of 2 goals hold: done");

  // Opening again keeps the student's file.
  ExerciseSession again;
  ASSERT_EQ(again.open(e.dir / "exercise.toml", 0, work, w), "");
  EXPECT_FALSE(again.copied());
  EXPECT_EQ(read(work / "start.cu"), e.fixed());
  EXPECT_EQ(x.restore(), "");
  EXPECT_EQ(read(work / "start.cu"), e.start);
}

// The File menu's list: every shipped exercise is found and loads.
TEST(ExercisePanel, TheShippedExercisesAreListed) {
  const std::vector<fs::path> found = ws::app::shipped_exercises();
  size_t in_folder = 0;
  for (const fs::directory_entry& d : fs::directory_iterator(WS_EXERCISES_DIR)) in_folder += d.path().extension() == ".toml";
  EXPECT_EQ(found.size(), in_folder);
  for (const fs::path& f : found) EXPECT_TRUE(ws::app::load_lesson(f).ok()) << f << ": " << ws::app::load_lesson(f).error;
}

TEST(Check, BadInputIsRefusedWithWhatIsAllowed) {
  Exercise e;
  const RunResult missing = run_warpscope("check /nonexistent/exercise.toml");
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_NE(missing.out.find("/nonexistent/exercise.toml"), std::string::npos) << missing.out;
  const RunResult lesson = run_warpscope("check '" WS_LESSONS_DIR "/reduction.toml'");
  EXPECT_EQ(lesson.exit_code, 2) << lesson.out;
  EXPECT_NE(lesson.out.find("has no exercise step: a step with goals ([[step.goal]])"), std::string::npos) << lesson.out;
  const RunResult nofile = run_warpscope(e.check("--file /nonexistent.cu"));
  EXPECT_EQ(nofile.exit_code, 2) << nofile.out;
  EXPECT_NE(nofile.out.find("--file /nonexistent.cu: no such file"), std::string::npos) << nofile.out;
}

}  // namespace
