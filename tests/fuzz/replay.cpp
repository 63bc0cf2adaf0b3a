// Runs a fuzz target over files: every file of the folders (and files) named on the command line,
// once each. Built with the project's own compiler, so that CI replays the corpus (real inputs and
// every crash the fuzzer found) in every build; scripts/fuzz.sh builds the real fuzzer.
// `--mutants K` also runs K seeded mutations of each file (bytes changed, ranges cut or doubled,
// tokens of the formats inserted): the same every run, and a crash names the file and mutant.
// `--seconds T --seed S` runs a campaign instead: mutants of mutants (up to three rounds), numbered
// from S (a fresh seed each campaign: `--seed $RANDOM`), over every file in turn until T seconds
// have passed; an input that takes over 30 s counts as a hang. For targets libFuzzer cannot build.
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

char g_current[512];  // what runs now, for the crash handler

void say_current(int sig) {
  const char head[] = "replay: crashed or hung on ";
  (void)!write(2, head, sizeof head - 1);
  (void)!write(2, g_current, strnlen(g_current, sizeof g_current));
  (void)!write(2, "\n", 1);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Mutant k of `in`: one to four edits, from a generator seeded by k and the input's size.
std::string mutant(const std::string& in, uint64_t k) {
  static const char* const tokens[] = {
      "[[step]]\n", "=", "\"", "{", "}", "[", "]", "\n", ",", "\\u0000", "1e999", "-1", "nan", "4294967296",
      "views = [", "select = {", "[[step.goal]]\n", "metric = ", "file = \"/dev/zero\"\n", "\xff\xfe", "#",
      "\"\"\"", "'''"};
  uint64_t s = 0x9e3779b97f4a7c15ull ^ (k * 0xbf58476d1ce4e5b9ull) ^ in.size();
  auto next = [&] {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return s;
  };
  std::string m = in;
  for (int edits = 1 + int(next() % 4); edits > 0; --edits) {
    const size_t at = m.empty() ? 0 : size_t(next() % m.size());
    switch (next() % 4) {
      case 0:
        if (!m.empty()) m[at] = char(next());
        break;
      case 1: m.erase(at, size_t(next() % 64)); break;
      case 2: m.insert(at, m.substr(at, size_t(next() % 64))); break;
      default: m.insert(at, tokens[next() % std::size(tokens)]); break;
    }
  }
  return m;
}

void run(const std::string& bytes) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

// Mutants of mutants of each file, from mutant number `seed` on, until `seconds` have passed.
int campaign(const std::vector<std::string>& inputs, const std::vector<std::filesystem::path>& files, uint64_t seed,
             double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  uint64_t runs = 0;
  for (uint64_t k = seed << 20; std::chrono::steady_clock::now() < until; ++k) {
    const size_t f = size_t(k % inputs.size());
    std::snprintf(g_current, sizeof g_current, "%s, campaign mutant %llu (seed %llu)", files[f].string().c_str(),
                  (unsigned long long)k, (unsigned long long)seed);
    std::string m = mutant(inputs[f], k);
    for (uint64_t round = 1; round <= k % 3; ++round) m = mutant(m, k * 31 + round);
    ::alarm(30);  // a hang: SIGALRM, reported as the input that never finished
    run(m);
    ::alarm(0);
    ++runs;
  }
  std::printf("replay: campaign of %.0f s, seed %llu: %llu mutants of %zu inputs, none crashed or hung\n", seconds,
              (unsigned long long)seed, (unsigned long long)runs, inputs.size());
  return 0;
}

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  uint64_t mutants = 0, seed = 0;
  double seconds = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--mutants" && i + 1 < argc) {
      mutants = std::strtoull(argv[++i], nullptr, 10);
      continue;
    }
    if (std::string(argv[i]) == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
      continue;
    }
    if (std::string(argv[i]) == "--seconds" && i + 1 < argc) {
      seconds = std::strtod(argv[++i], nullptr);
      continue;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(argv[i], ec)) {
      for (const auto& e : std::filesystem::directory_iterator(argv[i], ec))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.emplace_back(argv[i]);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "replay: no input files (give files or folders)\n");
    return 2;
  }
  for (int sig : {SIGSEGV, SIGABRT, SIGILL, SIGFPE, SIGBUS, SIGALRM}) std::signal(sig, say_current);
  std::vector<std::string> inputs;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: cannot read %s\n", f.string().c_str());
      return 1;
    }
    const std::string& bytes = inputs.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::snprintf(g_current, sizeof g_current, "%s", f.string().c_str());
    run(bytes);
    for (uint64_t k = 0; k < mutants; ++k) {
      std::snprintf(g_current, sizeof g_current, "%s, mutant %llu", f.string().c_str(), (unsigned long long)k);
      run(mutant(bytes, k));
    }
  }
  std::printf("replay: %zu inputs and %llu mutants of each, none crashed\n", files.size(),
              (unsigned long long)mutants);
  return seconds > 0 ? campaign(inputs, files, seed, seconds) : 0;
}
