// The command line of the real binary: exit codes 0 (ok), 1 (runtime failure), 2 (bad usage), and
// messages a user can act on.
#include "run_binary.h"

#include "model/options.h"
#include "cli/commands/launch_options.h"
#include "ws/timing/timing.h"
#include "ws/viz/png.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;


TEST(Cli, HelpListsEveryOption) {
  RunResult r = run_warpscope("--help");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  for (const char* opt : {"--headless", "--size", "--scale", "--screenshot", "--frames", "--presentation", "F1", "F12", "Ctrl+Q"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << "help lacks " << opt << ":\n" << r.out;
}

TEST(Cli, UnknownOptionIsUsageError) {
  RunResult r = run_warpscope("--bogus");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--bogus"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--help"), std::string::npos) << r.out;
}

TEST(Cli, BadSizeNamesTheFormat) {
  for (const char* bad : {"0x10", "abc", "100x", "1600x900x2", "-5x10", "20000x100", "16385x1"}) {
    RunResult r = run_warpscope(std::string("--headless --screenshot x.png --size ") + bad);
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.out;
    EXPECT_NE(r.out.find("WIDTHxHEIGHT"), std::string::npos) << bad << ": " << r.out;
    EXPECT_NE(r.out.find("16384"), std::string::npos) << bad << ": " << r.out;
  }
}

TEST(Cli, BadScaleAndFrames) {
  RunResult r = run_warpscope("--scale 9");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--scale"), std::string::npos) << r.out;
  r = run_warpscope("--scale 0.1");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  r = run_warpscope("--frames 0");
  EXPECT_EQ(r.exit_code, 2) << r.out;
}

TEST(Cli, UnwritableScreenshotFailsCleanly) {
  RunResult r = run_warpscope("--headless --size 320x200 --screenshot /nonexistent/dir/x.png");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("cannot write /nonexistent/dir/x.png"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists("/nonexistent/dir/x.png"));
}

// A device node is not a file to replace: the screenshot and the trace are refused, /dev/null stays
// the device it was.
TEST(Cli, ADeviceAsOutputIsRefusedAndLeftAlone) {
  for (const char* args : {"--headless --size 320x200 --screenshot /dev/null", "trace -k reduce -v 3 --n 1024 -o /dev/null"}) {
    RunResult r = run_warpscope(args);
    EXPECT_EQ(r.exit_code, 1) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("/dev/null: it is a character device, not a regular file"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
  }
}

// A scale that is not a number from 0.5 to 4 (NaN passed CLI11's range check once and aborted in
// the font atlas) is bad usage, for the viewer and for lesson exports alike.
TEST(Cli, AScaleOutsideHalfToFourIsRefused) {
  for (const char* args : {"--headless --size 320x200 --scale NaN --screenshot /tmp/ws-nan.png",
                           "--headless --size 320x200 --scale 8 --screenshot /tmp/ws-nan.png",
                           "lesson lessons/reduction.toml --export /tmp/ws-nan --scale nan"}) {
    RunResult r = run_warpscope(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("a scale is a number from 0.5 to 4"), std::string::npos) << r.out;
  }
  EXPECT_FALSE(fs::exists("/tmp/ws-nan.png"));
}

// A launch that stops at a fault is analysed as far as it went, and both analyze and trace say so
// in their exit code and in words; the trace file keeps the fault's record.
TEST(Cli, AFaultingLaunchIsNotASuccess) {
  RunResult a = run_warpscope("analyze -k dot -v divergent-barrier");
  EXPECT_EQ(a.exit_code, 1) << a.out;
  EXPECT_NE(a.out.find("the launch stopped at a fault"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("barrier divergence"), std::string::npos) << a.out;
  const std::string file = (fs::temp_directory_path() / "ws-fault.wst").string();
  RunResult t = run_warpscope("trace -k dot -v divergent-barrier -o " + file);
  EXPECT_EQ(t.exit_code, 1) << t.out;
  EXPECT_NE(t.out.find("holds what was recorded until then and the fault's record"), std::string::npos) << t.out;
  RunResult again = run_warpscope("analyze --trace " + file);
  EXPECT_EQ(again.exit_code, 1) << again.out;
  EXPECT_EQ(run_warpscope("analyze -k reduce -v 3 --n 4096").exit_code, 0);
  fs::remove(file);
}

TEST(Cli, HeadlessWithoutScreenshotIsUsageError) {
  RunResult r = run_warpscope("--headless");
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--screenshot"), std::string::npos) << r.out;
}

TEST(Cli, NoDisplayGivesOneLineWithTheHeadlessCommand) {
  RunResult r = run_warpscope("", "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.out.find("no display"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("warpscope --headless --size"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(Cli, MissingFontIsSaidNotHidden) {
  fs::path out = fs::temp_directory_path() / "ws-cli-nofont.png";
  RunResult r = run_warpscope("--headless --size 320x200 --screenshot " + out.string(),
                              "WARPSCOPE_UI_FONT=/nonexistent/font.ttf");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("UI font not usable (cannot open /nonexistent/font.ttf"), std::string::npos) << r.out;
  fs::remove(out);
}

// A font setting that names something else (a text file, a device) is said, and the viewer goes on
// with ImGui's own font, instead of aborting inside the rasteriser.
TEST(Cli, AFontSettingThatIsNoFontIsSaidNotFatal) {
  const fs::path out = fs::temp_directory_path() / "ws-cli-notafont.png";
  const fs::path text = fs::temp_directory_path() / "ws-cli-notafont.ttf";
  std::ofstream(text) << "this is not a font, whatever its name says\n";
  for (const std::string& font : {text.string(), std::string("/dev/zero")}) {
    RunResult r = run_warpscope("--headless --size 320x200 --screenshot " + out.string(), "WARPSCOPE_UI_FONT=" + font);
    EXPECT_EQ(r.exit_code, 0) << font << ": " << r.out;
    EXPECT_NE(r.out.find("UI font not usable"), std::string::npos) << r.out;
    EXPECT_TRUE(fs::exists(out)) << font;
    fs::remove(out);
  }
  fs::remove(text);
}

// gpu-trace's whole-grid counters are on unless --no-counters says otherwise (the launch option
// reaches the catalog's RunConfig; `warpscope run --help` documents it).
TEST(LaunchOptions, NoCountersTurnsOffTheGridCounters) {
  ws::app::LaunchOptions opt;
  opt.kernel = "reduce";
  opt.backend = "gpu-trace";
  ws::RunConfig cfg;
  ws::BackendKind be{};
  ASSERT_EQ(opt.to_config(cfg, be), "");
  EXPECT_TRUE(cfg.record.count_every_block);
  EXPECT_EQ(be, ws::BackendKind::GpuTrace);
  opt.no_counters = true;
  ws::RunConfig off;
  ASSERT_EQ(opt.to_config(off, be), "");
  EXPECT_FALSE(off.record.count_every_block);
  RunResult help = run_warpscope("run --help");
  EXPECT_EQ(help.exit_code, 0) << help.out;
  EXPECT_NE(help.out.find("--no-counters"), std::string::npos) << help.out;
}

// Every way into warpscope reads a launch with the same rules (ws::apply_launch_text): a value
// nothing can run is refused before anything runs, with what is allowed, exit 2 everywhere.
TEST(LaunchOptions, TheCommandsAndTheViewerRefuseTheSameValuesWithTheSameWords) {
  const std::pair<std::string, std::string> cases[] = {
      {"--block 0", "block '0' is not a shape: write X, X,Y or X,Y,Z with whole numbers >= 1"},
      {"--n -5", "n = -5: n is a whole number from 1 to 4294967295"},
      {"--n 0", "n = 0: n is a whole number from 1 to 4294967295"},
      {"--seed -1", "seed = -1: seed is a whole number >= 0"},
      {"--param per_thread=x", "parameter per_thread = 'x': the value is a whole number from 0 to"},
      {"--param per_thread=8.5", "parameter per_thread = 8.5: per_thread takes whole numbers"},
  };
  for (const auto& [args, message] : cases) {
    RunResult cmd = run_warpscope("run -k reduce " + args);
    EXPECT_EQ(cmd.exit_code, 2) << args << "\n" << cmd.out;
    EXPECT_NE(cmd.out.find(message), std::string::npos) << args << "\n" << cmd.out;
    RunResult view = run_warpscope("--headless --view lab --screenshot /tmp/never-written.png " + args);
    EXPECT_EQ(view.exit_code, 2) << args << "\n" << view.out;
    EXPECT_NE(view.out.find(message), std::string::npos) << args << "\n" << view.out;
  }
  RunResult blocks = run_warpscope("run -k reduce --blocks 4294967296");
  EXPECT_EQ(blocks.exit_code, 2);
  EXPECT_NE(blocks.out.find("block indices from 0 to 4294967295"), std::string::npos) << blocks.out;
  RunResult matadd = run_warpscope("run -k matadd --block 0,4");
  EXPECT_EQ(matadd.exit_code, 2);
  EXPECT_NE(matadd.out.find("block '0,4' is not a shape"), std::string::npos) << matadd.out;
  // A time limit that is not a number never means "no limit".
  for (const char* t : {"nan", "inf", "-1", "0", "1e9", "5s"}) {
    RunResult timeout = run_warpscope(std::string("run -k reduce --timeout ") + t);
    EXPECT_EQ(timeout.exit_code, 2) << t << "\n" << timeout.out;
    EXPECT_NE(timeout.out.find("a time limit is a number of seconds from 0.1 to 1000000"), std::string::npos) << timeout.out;
  }
  // --step-budget: the emulator's runaway limit, checked like every launch value.
  RunResult budget = run_warpscope("run -k reduce --step-budget 10");
  EXPECT_EQ(budget.exit_code, 2);
  EXPECT_NE(budget.out.find("step-budget = 10"), std::string::npos) << budget.out;
}

// `warpscope run` says the same verdict as the lab: a race or a lockstep-only hazard is not a
// pass (exit 1) even where the sum came out right; the first pair is named.
TEST(RunCommand, TheVerdictIsRaceLockstepOrPass) {
  RunResult race = run_warpscope("run -k race -v 0");
  EXPECT_EQ(race.exit_code, 1) << race.out;
  EXPECT_NE(race.out.find("RACE: thread (0,0,0) writes cache["), std::string::npos) << race.out;
  EXPECT_NE(race.out.find("different warps, no __syncthreads() between"), std::string::npos) << race.out;
  RunResult unsafe = run_warpscope("run -k reduce -v 5u --n 4096");
  EXPECT_EQ(unsafe.exit_code, 1) << unsafe.out;
  EXPECT_NE(unsafe.out.find("LOCKSTEP ONLY: thread "), std::string::npos) << unsafe.out;
  RunResult fine = run_warpscope("run -k reduce -v 3 --n 4096");
  EXPECT_EQ(fine.exit_code, 0) << fine.out;
  EXPECT_NE(fine.out.find("  PASS\n"), std::string::npos) << fine.out;
  RunResult json = run_warpscope("run -k dot -v nosync --json");
  EXPECT_EQ(json.exit_code, 1) << json.out;
  EXPECT_NE(json.out.find("\"verdict\": \"RACE\""), std::string::npos) << json.out;
}

// `analyze` with one recorded block still reports the whole grid (the emulator counts every block):
// reduce 2 at n = 4096 is 16 blocks of 70 load conflicts each; --no-counters drops the section.
TEST(Analyze, WholeGridSectionWithOneRecordedBlock) {
  RunResult on = run_warpscope("analyze -k reduce -v 2 --n 4096 --block 256 --blocks 0 --launch 0");
  ASSERT_EQ(on.exit_code, 0) << on.out;
  const size_t grid = on.out.find("Whole grid, every block counted by the emulator (16 blocks)");
  ASSERT_NE(grid, std::string::npos) << on.out;
  const size_t conflicts = on.out.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", grid);
  ASSERT_NE(conflicts, std::string::npos);
  const std::string line = on.out.substr(conflicts, on.out.find('\n', conflicts) - conflicts);
  EXPECT_TRUE(line.ends_with(" 1120")) << line;  // 16 x 70
  RunResult off = run_warpscope("analyze -k reduce -v 2 --n 4096 --block 256 --blocks 0 --launch 0 --no-counters");
  ASSERT_EQ(off.exit_code, 0) << off.out;
  EXPECT_EQ(off.out.find("Whole grid"), std::string::npos) << off.out;
}

TEST(ParseSize, AcceptsAndRejects) {
  std::string err;
  auto s = ws::app::parse_size("1600x900", err);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->width, 1600);
  EXPECT_EQ(s->height, 900);
  EXPECT_TRUE(ws::app::parse_size("16384x1", err));
  EXPECT_FALSE(ws::app::parse_size("16385x1", err));
  EXPECT_FALSE(ws::app::parse_size("x", err));
  EXPECT_FALSE(ws::app::parse_size("12 x 3", err));
  EXPECT_FALSE(ws::app::parse_size("", err));
}

TEST(ParsePoint, APixelOfThePicture) {
  std::string err;
  auto p = ws::app::parse_point("0,899", {1600, 900}, err);
  ASSERT_TRUE(p) << err;
  EXPECT_EQ(p->x, 0);
  EXPECT_EQ(p->y, 899);
  EXPECT_FALSE(ws::app::parse_point("1600,0", {1600, 900}, err));
  EXPECT_EQ(err, "'1600,0' is outside the picture: expected X,Y, a pixel of the 1600x900 picture "
                 "(X 0..1599, Y 0..899)");
  EXPECT_FALSE(ws::app::parse_point("-1,5", {1600, 900}, err));
  EXPECT_FALSE(ws::app::parse_point("5", {1600, 900}, err));
  EXPECT_NE(err.find("is not a point"), std::string::npos) << err;
  EXPECT_FALSE(ws::app::parse_point("5,y", {1600, 900}, err));
  EXPECT_FALSE(ws::app::parse_point("", {1600, 900}, err));
}

// The window path (GLFW), where a virtual X server is available: it opens, draws the same shell,
// saves the screenshot after --frames and exits 0. scripts/test.sh installs xvfb for this; without
// it the test is skipped (the headless tests above cover the drawing code).
TEST(Window, OpensUnderXvfbAndSavesAScreenshot) {
  if (!fs::exists("/usr/bin/xvfb-run")) GTEST_SKIP() << "xvfb-run not installed";
  fs::path dir = fs::temp_directory_path() / "ws-window-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path png = dir / "window.png";
  RunResult r = run_warpscope("--size 1024x640 --frames 5 --screenshot " + png.string(),
                              "XDG_CONFIG_HOME=" + dir.string() + " xvfb-run -a -s '-screen 0 1280x800x24'");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::exists(png)) << r.out;
  EXPECT_TRUE(fs::exists(dir / "warpscope" / "settings.ini")) << "settings not saved";
  EXPECT_TRUE(fs::exists(dir / "warpscope" / "imgui.ini")) << "layout not saved";
  fs::remove_all(dir);
}

// A window never opens larger than its screen (a 1600x900 request on a 720p projector), and a
// lesson's presentation mode is for its run: the settings it leaves behind start the next run
// in the normal look.
TEST(Window, FitsItsScreenAndALessonDoesNotLeavePresentationOn) {
  if (!fs::exists("/usr/bin/xvfb-run")) GTEST_SKIP() << "xvfb-run not installed";
  fs::path dir = fs::temp_directory_path() / "ws-window-lesson-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path png = dir / "window.png";
  const std::string screen = "XDG_CONFIG_HOME=" + dir.string() + " xvfb-run -a -s '-screen 0 1280x720x24'";
  RunResult r = run_warpscope("--size 1600x900 --frames 5 --screenshot " + png.string(), screen);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ws::viz::Image img;
  std::string err;
  ASSERT_TRUE(ws::viz::load_png(png, img, err)) << err;
  EXPECT_LE(img.width, 1280);
  EXPECT_LE(img.height, 720);
  RunResult lesson = run_warpscope(std::string("--lesson ") + WS_LESSONS_DIR + "/divergence.toml --frames 5 --screenshot " +
                                       png.string(),
                                   screen);
  ASSERT_EQ(lesson.exit_code, 0) << lesson.out;
  std::ifstream in(dir / "warpscope" / "settings.ini");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("presentation = 0"), std::string::npos) << text;
  fs::remove_all(dir);
}

// A lesson that names kernel files is refused on the command line until --trust says to run
// them (exit 2, the files named, nothing built or run); the reader never blocks on a FIFO.
TEST(LessonCli, AnUntrustedLessonIsRefusedAndRunsNothing) {
  const fs::path dir = fs::temp_directory_path() / ("ws-cli-trust-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "k");
  std::ofstream(dir / "k" / "ran.cu") << "#include <fstream>\nstatic const bool ran = [] { std::ofstream(\""
                                      << (dir / "RAN").string() << "\") << 1; return true; }();\n";
  std::ofstream(dir / "lesson.toml") << "[[step]]\nfile = \"k/ran.cu\"\n";
  for (const std::string& how : {std::string("lesson "), std::string("--headless --screenshot ") + (dir / "x.png").string() + " --lesson "}) {
    RunResult r = run_warpscope(how + (dir / "lesson.toml").string());
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.out.find("builds and runs code"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("k/ran.cu"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--trust"), std::string::npos) << r.out;
    EXPECT_FALSE(fs::exists(dir / "RAN"));
  }
  // A FIFO where the lesson should be: refused at once, not read (it would block).
  const fs::path fifo = dir / "fifo.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  RunResult f = run_warpscope("lesson " + fifo.string());
  EXPECT_EQ(f.exit_code, 2) << f.out;
  EXPECT_NE(f.out.find("not a regular file"), std::string::npos) << f.out;
  fs::remove_all(dir);
}

// `warpscope streams`: the shipped recording loads and says, per scenario, end to end beside the
// work summed; a bad plan is refused before anything runs (exit 2); recording where it cannot
// be done says why and where the shipped recording is (exit 1); a damaged file names its fault.
TEST(StreamsCommand, LoadsRefusesAndExplains) {
  RunResult load = run_warpscope(std::string("streams --load ") + WS_ASSETS_DIR + "/streams_h100.json");
  EXPECT_EQ(load.exit_code, 0) << load.out;
  EXPECT_NE(load.out.find("pinned, 2 streams x 8 chunks"), std::string::npos) << load.out;
  EXPECT_NE(load.out.find("end to end"), std::string::npos);
  RunResult plan = run_warpscope("streams --n 1000 --chunks 3");
  EXPECT_EQ(plan.exit_code, 2);
  EXPECT_NE(plan.out.find("n = 1000 is not a multiple of chunks = 3"), std::string::npos) << plan.out;
  RunResult zero = run_warpscope("streams --streams 2,0");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.out.find("0 streams"), std::string::npos) << zero.out;
  const auto bad = std::filesystem::temp_directory_path() / "ws_bad_streams.json";
  std::ofstream(bad) << R"({"format": "warpscope-streams", "version": 1, "device": "d", "recorded": "r", "command": "c",
    "clock": "k", "scenarios": [{"name": "s", "description": "d", "ops": [{"kind": "sleep", "name": "x", "stream": 0,
    "start_us": 0, "end_us": 1, "bytes": 0, "pinned": false}]}]})";
  RunResult damaged = run_warpscope("streams --load " + bad.string());
  std::filesystem::remove(bad);
  EXPECT_EQ(damaged.exit_code, 1);
  EXPECT_NE(damaged.out.find("\"kind\" is 'sleep', not host, kernel, HtoD, DtoH or DtoD"), std::string::npos) << damaged.out;
  if (!ws::timing::device().present) {  // (with a GPU this records: the GPU tests cover that)
    RunResult rec = run_warpscope("streams");
    EXPECT_EQ(rec.exit_code, 1);
    EXPECT_NE(rec.out.find("cannot record"), std::string::npos) << rec.out;
    EXPECT_NE(rec.out.find("streams_h100.json"), std::string::npos) << rec.out;
  }
}
