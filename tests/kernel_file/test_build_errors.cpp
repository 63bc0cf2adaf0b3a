// Kernel files that do not compile, do not load or do not run: each gives a message that says
// what is wrong and where, and nothing else is lost (the catalog keeps the last good build).
#include <chrono>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ws/kernel_file/build.h"
#include "ws/run/catalog.h"

namespace {

using namespace ws;
namespace fs = std::filesystem;

struct TempFiles {
  fs::path dir;
  TempFiles() {
    std::string t = (fs::temp_directory_path() / "ws-kf-test-XXXXXX").string();
    dir = mkdtemp(t.data());
  }
  ~TempFiles() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir / name;
    std::ofstream(p) << text;
    return p.string();
  }
};

const std::string kGood =
    "#include \"ws/kernel.cuh\"\n"                                                            // 1
    "__global__ void add_one(ws::global_array<int> a, unsigned n) {\n"                         // 2
    "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"                                  // 3
    "  if (i < n) a[i] = a[i] + ONE;\n"                                                        // 4
    "}\n"                                                                                      // 5
    "/* warpscope\n"                                                                           // 6
    "kernel = \"add_one\"\n"                                                                   // 7
    "n = 100\n"                                                                                // 8
    "block = 64\n"                                                                             // 9
    "args = [\"a\", \"n\"]\n"                                                                  // 10
    "[arrays.a]\n"                                                                             // 11
    "type = \"int\"\n"                                                                         // 12
    "size = \"n\"\n"                                                                           // 13
    "fill = \"i\"\n"                                                                           // 14
    "expect = \"a[i] + ONE\"\n"                                                                // 15
    "*/\n";

std::string with_one(int one) { return "constexpr int ONE = " + std::to_string(one) + ";\n" + kGood; }

kernel_file::Build build(const std::string& path) { return kernel_file::build(path, {}); }

TEST(KernelFileBuild, CompileErrorPointsAtTheUsersLine) {
  TempFiles t;
  std::string text = with_one(1);
  text.replace(text.find("a[i] + ONE;"), 11, "a[i] + ONE + undeclared_thing;");
  const std::string path = t.write("broken.cu", text);
  const kernel_file::Build b = build(path);
  EXPECT_FALSE(b.ok);
  ASSERT_FALSE(b.diagnostics.empty());
  const kernel_file::BuildDiagnostic& d = b.diagnostics.front();
  EXPECT_EQ(d.severity, kernel_file::BuildDiagnostic::Severity::Error);
  EXPECT_EQ(d.file, fs::weakly_canonical(path).string());
  EXPECT_EQ(d.line, 5u);  // (line 4 of kGood, after with_one's line)
  EXPECT_GT(d.column, 0u);
  EXPECT_NE(d.message.find("undeclared_thing"), std::string::npos) << d.message;
}

TEST(KernelFileBuild, ErrorInAnExpectationPointsAtTheDescription) {
  TempFiles t;
  std::string text = with_one(1);
  text.replace(text.find("expect = \"a[i] + ONE\""), 21, "expect = \"a[i] + TWO\"");
  const kernel_file::Build b = build(t.write("expect.cu", text));
  EXPECT_FALSE(b.ok);
  ASSERT_FALSE(b.diagnostics.empty());
  EXPECT_EQ(b.diagnostics.front().line, 16u) << kernel_file::to_text(b.diagnostics.front());
  EXPECT_NE(b.diagnostics.front().message.find("TWO"), std::string::npos);
}

TEST(KernelFileBuild, MissingFileAndNoKernel) {
  TempFiles t;
  kernel_file::Build b = build((t.dir / "nope.cu").string());
  EXPECT_FALSE(b.ok);
  EXPECT_NE(b.summary.find("no such file"), std::string::npos) << b.summary;
  b = build(t.write("plain.cu", "__global__ void k() {}\n"));
  EXPECT_NE(b.summary.find("no launch description"), std::string::npos) << b.summary;
  b = build(t.dir.string());
  EXPECT_NE(b.summary.find("not a regular file"), std::string::npos) << b.summary;
  // The description names a kernel the file does not have: the compiler says so, at that line.
  std::string text = with_one(1);
  text.replace(text.find("kernel = \"add_one\""), 18, "kernel = \"add_two\"");
  b = build(t.write("wrong_name.cu", text));
  EXPECT_FALSE(b.ok);
  ASSERT_FALSE(b.diagnostics.empty());
  EXPECT_EQ(b.diagnostics.front().line, 8u) << kernel_file::to_text(b.diagnostics.front());
}

TEST(KernelFileBuild, SavedAgainReplacesTheKernelAndAFailedBuildKeepsTheLastGood) {
  TempFiles t;
  const std::string path = t.write("reload_me.cu", with_one(1));
  std::string error;
  const std::string name = kernel_file::load(path, Catalog::instance(), {}, error);
  ASSERT_EQ(name, "reload_me") << error;
  RunResult r = Catalog::instance().run(name, {}, BackendKind::Emu);
  ASSERT_TRUE(r.passed) << r.result;
  ASSERT_EQ(r.checked.at(0).second.bytes.size(), 100 * sizeof(int));
  int first = 0;
  std::memcpy(&first, r.checked[0].second.bytes.data() + 7 * sizeof(int), sizeof(int));
  EXPECT_EQ(first, 7 + 1);
  // Saved with ONE = 5: the same name now runs the new code.
  t.write("reload_me.cu", with_one(5));
  ASSERT_EQ(kernel_file::load(path, Catalog::instance(), {}, error), name) << error;
  r = Catalog::instance().run(name, {}, BackendKind::Emu);
  EXPECT_TRUE(r.passed);
  std::memcpy(&first, r.checked.at(0).second.bytes.data() + 7 * sizeof(int), sizeof(int));
  EXPECT_EQ(first, 7 + 5);
  // Saved broken: the build fails, the catalog still runs the ONE = 5 build.
  t.write("reload_me.cu", "oops\n" + with_one(9));
  EXPECT_TRUE(kernel_file::load(path, Catalog::instance(), {}, error).empty());
  EXPECT_FALSE(error.empty());
  r = Catalog::instance().run(name, {}, BackendKind::Emu);
  std::memcpy(&first, r.checked.at(0).second.bytes.data() + 7 * sizeof(int), sizeof(int));
  EXPECT_EQ(first, 7 + 5);
}

TEST(KernelFileBuild, NamesOfBuiltInsAndOfOtherFiles) {
  TempFiles t;
  std::string error;
  // A file called reduce.cu is not the catalog's reduce.
  EXPECT_EQ(kernel_file::load(t.write("reduce.cu", with_one(1)), Catalog::instance(), {}, error), "reduce_file") << error;
  EXPECT_TRUE(Catalog::instance().find("reduce")->spec.file.empty());
  // ... but a description that asks for the name is refused.
  std::string text = with_one(1);
  text.replace(text.find("n = 100"), 7, "name = \"reduce\"\nn = 100");
  EXPECT_TRUE(kernel_file::load(t.write("named.cu", text), Catalog::instance(), {}, error).empty());
  EXPECT_NE(error.find("built-in"), std::string::npos) << error;
  // A name another kernel file had is taken over (the viewer's next file, the command line's).
  text = with_one(1);
  text.replace(text.find("n = 100"), 7, "name = \"twin\"\nn = 100");
  EXPECT_EQ(kernel_file::load(t.write("twin_a.cu", text), Catalog::instance(), {}, error), "twin") << error;
  const std::string b = t.write("twin_b.cu", text);
  EXPECT_EQ(kernel_file::load(b, Catalog::instance(), {}, error), "twin") << error;
  EXPECT_EQ(Catalog::instance().find("twin")->spec.file, fs::weakly_canonical(b).string());
}

TEST(KernelFileBuild, RunTimeFaultsAreReportedNotFatal) {
  TempFiles t;
  std::string error;
  // Out of bounds: the emulator stops the launch and names the access.
  std::string text = with_one(1);
  text.replace(text.find("if (i < n) a[i]"), 15, "a[i + 1]");
  text.replace(text.find("a[i] + ONE;"), 11, "0;");
  const std::string oob = kernel_file::load(t.write("oob.cu", text), Catalog::instance(), {}, error);
  ASSERT_FALSE(oob.empty()) << error;
  RunResult r = Catalog::instance().run(oob, {}, BackendKind::Emu);
  EXPECT_FALSE(r.completed);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].code, "out-of-bounds") << r.errors[0].message;
  // A kernel that never ends: the emulator's step budget stops it.
  text = with_one(1);
  text.replace(text.find("if (i < n) a[i] = a[i] + ONE;"), 29, "while (a[0] >= 0) a[i % n] = a[i % n] + 0;");
  const std::string hang = kernel_file::load(t.write("hang.cu", text), Catalog::instance(), {}, error);
  ASSERT_FALSE(hang.empty()) << error;
  RunConfig c;
  c.emu.step_budget = 200000;
  r = Catalog::instance().run(hang, c, BackendKind::Emu);
  EXPECT_FALSE(r.completed);
  ASSERT_FALSE(r.errors.empty());
  // A size that evaluates to zero is refused before anything runs.
  text = with_one(1);
  text.replace(text.find("size = \"n\""), 10, "size = \"n - n\"");
  const std::string zero = kernel_file::load(t.write("zero.cu", text), Catalog::instance(), {}, error);
  ASSERT_FALSE(zero.empty()) << error;
  r = Catalog::instance().run(zero, {}, BackendKind::Emu);
  EXPECT_NE(r.refused.find("array a: size evaluates to 0"), std::string::npos) << r.refused;
  // A size past the memory limit too.
  text = with_one(1);
  text.replace(text.find("size = \"n\""), 10, "size = \"n * 1000000000ull\"");
  const std::string huge = kernel_file::load(t.write("huge.cu", text), Catalog::instance(), {}, error);
  ASSERT_FALSE(huge.empty()) << error;
  r = Catalog::instance().run(huge, {}, BackendKind::Emu);
  EXPECT_NE(r.refused.find("use a smaller n"), std::string::npos) << r.refused;
}

}  // namespace

namespace {

// A catalog entry (spec, validate, driver) works as a file too: the README's scale example, as is.
TEST(KernelFileBuild, TheCatalogEntryFormWorksInAFile) {
  TempFiles t;
  std::ifstream in(std::string(WS_KERNELS_DIR) + "/examples/scale.cuh");
  std::stringstream text;
  text << in.rdbuf() << "\n/* warpscope\nentry = \"ScaleEntry\"\n*/\n";
  std::string error;
  const std::string name = ws::kernel_file::load(t.write("my_scale.cu", text.str()), ws::Catalog::instance(), {}, error);
  ASSERT_EQ(name, "scale_file") << error;  // (the spec says "scale": the built-in keeps it)
  const ws::RunResult r = ws::Catalog::instance().run(name, {}, ws::BackendKind::Emu);
  EXPECT_TRUE(r.passed) << r.result;
  EXPECT_EQ(r.expected, "0");
}

}  // namespace

namespace {

// Names a user picks (B of A + B = C, a parameter `size`, `why`), a standard header the prelude
// does not have, and a tolerance finer than six decimals: the generated driver takes them all.
TEST(KernelFileBuild, UsersNamesHeadersAndFineTolerances) {
  TempFiles t;
  const std::string text =
      "#include <unordered_map>\n"
      "#include \"ws/kernel.cuh\"\n"
      "__global__ void add(ws::global_array<const double> A, ws::global_array<const double> B, ws::global_array<double> C,\n"
      "                    unsigned size, long why) {\n"
      "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < size) C[i] = A[i] + B[i] + double(why) * 1e-8;\n"
      "}\n"
      "std::unordered_map<int, int> unused_map;\n"
      "/* warpscope\nkernel = \"add\"\nn = 300\nblock = 128\nargs = [\"A\", \"B\", \"C\", \"size\", \"why\"]\n"
      "[params.size]\ndefault = 300\nmin = 1\nmax = 300\n[params.why]\ndefault = 1\nmax = 5\n"
      "[arrays.A]\ntype = \"double\"\nsize = \"n\"\nfill = \"i\"\n"
      "[arrays.B]\ntype = \"double\"\nsize = \"n\"\nfill = \"2 * i\"\n"
      "[arrays.C]\ntype = \"double\"\nsize = \"n\"\nexpect = \"A[i] + B[i]\"\ntolerance = 1e-12\n*/\n";
  std::string error;
  const std::string name = ws::kernel_file::load(t.write("names.cu", text), ws::Catalog::instance(), {}, error);
  ASSERT_EQ(name, "names") << error;
  // A tolerance of 1e-12 is kept as 1e-12 (not rounded to 0): why = 1 adds 1e-8, which it must catch
  // for elements up to 900 (relative 1e-8 / 900 > 1e-12), and why = 0 passes.
  ws::RunConfig c;
  c.params["why"] = 1;
  EXPECT_FALSE(ws::Catalog::instance().run(name, c, ws::BackendKind::Emu).passed);
  c.params["why"] = 0;
  EXPECT_TRUE(ws::Catalog::instance().run(name, c, ws::BackendKind::Emu).passed);
}

TEST(KernelFileBuild, AnEntryWithoutVariantsIsRefused) {
  TempFiles t;
  const std::string text =
      "#include \"ws/kernel.cuh\"\n"
      "struct Bare {\n"
      "  static ws::KernelSpec spec() { ws::KernelSpec s; s.name = \"bare\"; return s; }\n"
      "  static std::string validate(const ws::RunConfig&) { return {}; }\n"
      "  template <class B> static void run(B&, const ws::RunConfig&, ws::RunResult&) {}\n"
      "};\n"
      "/* warpscope\nentry = \"Bare\"\n*/\n";
  std::string error;
  EXPECT_TRUE(ws::kernel_file::load(t.write("bare.cu", text), ws::Catalog::instance(), {}, error).empty());
  EXPECT_NE(error.find("sets no variant"), std::string::npos) << error;
}

}  // namespace

#include "ws/kernel_file/compiler.h"

namespace {

// A __device__ function called from host code compiles for the emulator (its __device__ is
// `inline`); nvcc refuses it. Where nvcc is (a CUDA build; no GPU needed) the check says so.
TEST(KernelFileBuild, NvccsCheckFindsADeviceFunctionCalledFromTheHost) {
  if (ws::kernel_file::toolchain().nvcc.empty()) GTEST_SKIP() << "this build has no CUDA (nvcc)";
  TempFiles t;
  const std::string text =
      "#include \"ws/kernel.cuh\"\n"
      "__device__ int twice(int v) { return 2 * v; }\n"
      "__global__ void k(ws::global_array<int> a, unsigned n) {\n"
      "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) a[i] = twice(a[i]);\n"
      "}\n"
      "int host_ref(int v) { return twice(v); }\n"
      "/* warpscope\nkernel = \"k\"\nn = 64\nblock = 64\nargs = [\"a\", \"n\"]\n"
      "[arrays.a]\ntype = \"int\"\nsize = \"n\"\nfill = \"i\"\nexpect = \"host_ref(a[i])\"\n*/\n";
  ws::kernel_file::BuildOptions o;
  o.gpu_check = true;
  const ws::kernel_file::Build b = ws::kernel_file::build(t.write("device_from_host.cu", text), o);
  ASSERT_TRUE(b.ok) << b.summary;  // the emulator's build is good, and is used
  EXPECT_TRUE(b.gpu_check_failed);
  bool said = false;
  for (const auto& d : b.diagnostics)
    said = said || (d.severity == ws::kernel_file::BuildDiagnostic::Severity::Warning &&
                    d.message.find("GPU build (nvcc)") != std::string::npos && d.line == 7 &&
                    d.message.find("function(\"twice(int)\") from a __host__ function") != std::string::npos);
  EXPECT_TRUE(said);
  for (const auto& d : b.diagnostics) std::printf("%s\n", ws::kernel_file::to_text(d).c_str());
}

// Includes resolve as nvcc resolves them for the file itself: a header beside the file is that
// header; "../x.h" that is not beside it is never taken from the folder the build runs in (a
// header planted in the shared temporary folder is not compiled in); an edit to a header that a
// local header includes is a new build; a FIFO or a device as a header is refused, never read.
TEST(KernelFileBuild, IncludesResolveLikeNvccsAndAreAllInTheCacheKey) {
  TempFiles t;
  fs::create_directories(t.dir / "src");
  std::ofstream(t.dir / "src" / "one.h") << "#include \"two.h\"\n";
  std::ofstream(t.dir / "src" / "two.h") << "constexpr int ONE = 1;\n";
  const std::string file = (t.dir / "src" / "k.cu").string();
  std::ofstream(file) << "#include \"one.h\"\n" << kGood;
  kernel_file::Build first = build(file);
  ASSERT_TRUE(first.ok) << first.summary;
  std::ofstream(t.dir / "src" / "two.h") << "constexpr int ONE = 2;\n";  // two levels down
  kernel_file::Build second = build(file);
  ASSERT_TRUE(second.ok) << second.summary;
  EXPECT_FALSE(second.from_cache) << "an edited header's build came from the cache";

  // "../planted.h" is not beside the file; one in the shared temporary folder must not be used.
  const fs::path planted = fs::temp_directory_path() / "planted.h";
  std::ofstream(planted) << "constexpr int ONE = 1;\n";
  std::ofstream(file) << "#include \"../planted.h\"\n" << kGood;
  kernel_file::Build third = build(file);
  EXPECT_FALSE(third.ok) << "a header from the shared temporary folder was compiled in";
  fs::remove(planted);

  // A FIFO as a header: refused at once with its name.
  ASSERT_EQ(::mkfifo((t.dir / "src" / "fifo.h").c_str(), 0600), 0);
  std::ofstream(file) << "#include \"fifo.h\"\n" << with_one(1);
  kernel_file::Build fifo = build(file);
  EXPECT_FALSE(fifo.ok);
  EXPECT_NE(fifo.summary.find("fifo.h"), std::string::npos) << fifo.summary;
  EXPECT_NE(fifo.summary.find("not a regular file"), std::string::npos) << fifo.summary;
}

// Clang's parser reads a plain-CUDA file's headers before the compiler does: a device, a FIFO
// (reached through a name that climbs out with "..", quoted or angled) or a name hidden in a macro
// is refused before either reads anything, with the name and why.
TEST(KernelFileBuild, PlainCudaHeadersThatAreNotFilesAreRefusedBeforeParsing) {
  TempFiles t;
  ASSERT_EQ(::mkfifo((t.dir / "pipe.h").c_str(), 0600), 0);
  const std::string file = (t.dir / "k.cu").string();
  const std::string plain = R"(/* warpscope
kernel = "k"
n = 64
block = 32
args = ["a"]
[arrays.a]
type = "int"
size = "n"
*/
__global__ void k(int* a) { a[threadIdx.x] = 1; }
)";
  const std::string up = "../../../../../../../../..";
  const std::pair<std::string, std::string> cases[] = {
      {"#include \"/dev/zero\"", "/dev/zero"},
      {"#include <" + up + "/dev/zero>", "/dev/zero"},
      {"#include \"pipe.h\"", "pipe.h"},
      {"  #include \"" + up + t.dir.string() + "/pipe.h\"", "pipe.h"},
      {"#define H \"/dev/zero\"\n#include H", "#include of a macro"},
  };
  for (const auto& [line, said] : cases) {
    std::ofstream(file) << line << "\n" << plain;
    const auto start = std::chrono::steady_clock::now();
    kernel_file::Build b = build(file);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(b.ok) << line;
    EXPECT_NE(b.summary.find(said), std::string::npos) << line << " -> " << b.summary;
    EXPECT_LT(seconds, 30.0) << line << " was read, not refused";
  }
  // A directive inside a comment is not one.
  std::ofstream(file) << "// #include \"/dev/zero\"\n" << plain;
  kernel_file::Build fine = build(file);
  EXPECT_TRUE(fine.ok) << fine.summary;
}

}  // namespace

namespace {

// A killed warpscope cannot remove its build folder: the next one removes the folders of processes
// that have ended, and no other.
TEST(KernelFileBuild, BuildFoldersOfKilledProcessesAreRemovedAtTheNextStart) {
  TempFiles tmp;
  const pid_t ended = fork();
  if (ended == 0) _exit(0);
  ASSERT_GT(ended, 0);
  int status = 0;
  ASSERT_EQ(waitpid(ended, &status, 0), ended);  // (reaped: its pid names no process now)
  const fs::path dead = tmp.dir / ("warpscope-build-" + std::to_string(ended) + "-AbC123");
  const fs::path alive = tmp.dir / ("warpscope-build-" + std::to_string(getpid()) + "-XyZ789");
  const fs::path other = tmp.dir / "warpscope-builds-of-mine";
  for (const fs::path& d : {dead, alive, other}) {
    fs::create_directories(d);
    std::ofstream(d / "k_emu.so") << "x";
  }
  EXPECT_EQ(kernel_file::remove_orphaned_build_folders(tmp.dir.string()), 1u);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(alive / "k_emu.so")) << "a running process's folder stays";
  EXPECT_TRUE(fs::exists(other / "k_emu.so")) << "a folder of another name stays";
}

}  // namespace

namespace {
// A file that includes one outside its folder (a student's `#include "/etc/shadow"` in a graded
// submission): the compiler's errors there are reported by path, without the text it quoted.
TEST(KernelFileBuild, AnErrorInAFileOutsideTheKernelsFolderIsNotQuoted) {
  TempFiles kernel, elsewhere;
  const std::string secret = elsewhere.write("secret.txt", "secret_token_4711: do not show\n");
  std::string text = with_one(1);
  text = "#include \"" + secret + "\"\n" + text;
  const kernel_file::Build b = build(kernel.write("quotes.cu", text));
  EXPECT_FALSE(b.ok);
  bool named = false;
  for (const kernel_file::BuildDiagnostic& d : b.diagnostics) {
    EXPECT_EQ(d.message.find("secret_token_4711"), std::string::npos) << d.message;
    named = named || d.message.find("secret.txt") != std::string::npos;
  }
  EXPECT_TRUE(named);
}
}  // namespace
