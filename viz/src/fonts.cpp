#include "ws/viz/fonts.h"

#include "ws/util/atomic_file.h"
#include "ws/viz/canvas.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <span>
#include <thread>

namespace ws::viz {

namespace {

// Latin-1 plus the few symbols the UI writes (dashes, ellipsis, arrows, minus, <=, squares,
// triangles, the exercise panel's check and cross). A small set keeps the atlas small even at
// presentation sizes.
const ImWchar kUiRanges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x2199, 0x2212, 0x2212,
                             0x2264, 0x2265, 0x25A0, 0x25A1, 0x25B2, 0x25BC, 0x2713, 0x2713, 0x2717, 0x2717, 0};
const ImWchar kMonoRanges[] = {0x0020, 0x00FF, 0x2190, 0x2193, 0};

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return (v && *v) ? v : fallback;
}

uint32_t be32(const std::string& b, size_t at) {
  return uint32_t(uint8_t(b[at])) << 24 | uint32_t(uint8_t(b[at + 1])) << 16 | uint32_t(uint8_t(b[at + 2])) << 8 |
         uint32_t(uint8_t(b[at + 3]));
}

}  // namespace

std::string font_file_problem(const std::string& bytes) {
  // An sfnt: a version tag, a table count, then 16-byte table records (tag, checksum, offset,
  // length) that must lie in the file. ImGui's rasteriser trusts all of it.
  if (bytes.size() < 12) return "too short to be a font";
  const uint32_t tag = be32(bytes, 0);
  if (tag == 0x74746366u) return "a font collection (.ttc): give one .ttf or .otf";
  if (tag != 0x00010000u && tag != 0x74727565u /* true */ && tag != 0x4f54544fu /* OTTO */)
    return "not a TrueType or OpenType font";
  const uint32_t tables = uint32_t(uint8_t(bytes[4])) << 8 | uint8_t(bytes[5]);
  if (tables == 0 || 12 + uint64_t(tables) * 16 > bytes.size()) return "its table directory is cut off";
  bool cmap = false, head = false, hhea = false, hmtx = false, maxp = false, outlines = false;
  for (uint32_t k = 0; k < tables; ++k) {
    const size_t at = 12 + size_t(k) * 16;
    const uint32_t t = be32(bytes, at);
    if (uint64_t(be32(bytes, at + 8)) + be32(bytes, at + 12) > bytes.size()) return "a table lies past its end";
    cmap |= t == 0x636d6170u, head |= t == 0x68656164u, hhea |= t == 0x68686561u, hmtx |= t == 0x686d7478u;
    maxp |= t == 0x6d617870u, outlines |= t == 0x676c7966u /* glyf */ || t == 0x43464620u /* CFF */;
  }
  if (!(cmap && head && hhea && hmtx && maxp && outlines)) return "a table every font has is missing";
  return "";
}

namespace {

// Fonts that the trial build (below) found the rasteriser cannot take: path -> why.
using Refused = std::map<std::string, std::string>;

// "" when the font was added, else why not.
std::string add_ttf(ImFontAtlas& atlas, const std::string& path, float px, const ImWchar* ranges, const Refused& refused) {
  if (path.empty()) return "none configured";
  if (auto r = refused.find(path); r != refused.end()) return path + ": " + r->second;
  std::string bytes, error;
  if (!read_file(path, bytes, error, uint64_t(64) << 20)) return error;
  if (std::string why = font_file_problem(bytes); !why.empty()) return path + ": " + why;
  ImFontConfig cfg;
  cfg.OversampleH = 3;
  cfg.OversampleV = 1;
  // Fractional advances: snapped ones would round differently at 1x and 2x, and a 2x export
  // would wrap its text elsewhere. Horizontal oversampling keeps the stems sharp.
  cfg.PixelSnapH = false;
  // The atlas owns (and frees) the copy it is given.
  void* data = IM_ALLOC(bytes.size());
  std::memcpy(data, bytes.data(), bytes.size());
  return atlas.AddFontFromMemoryTTF(data, int(bytes.size()), px, &cfg, ranges) ? "" : path + ": ImGui could not read it";
}



// The atlas: the UI font first, the mono font, then the heading, caption and zoom sizes.
std::string build_atlas(ImFontAtlas& atlas, float px, const FontPaths& paths, float raster, std::span<const float> zooms,
                        const Refused& refused) {
  atlas.Clear();
  std::string warning;
  if (std::string why = add_ttf(atlas, paths.ui, px * raster, kUiRanges, refused); !why.empty()) {
    warning = "UI font not usable (" + why + "): install fonts-dejavu-core; using ImGui's small bitmap font";
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * raster;
    atlas.AddFontDefault(&cfg);
  }
  if (std::string why = add_ttf(atlas, paths.mono, px * raster, kMonoRanges, refused); !why.empty()) {
    if (warning.empty()) warning = "code font not usable (" + why + "): install fonts-jetbrains-mono";
    // No second font: mono_font() falls back to the UI font.
  } else {
    // Only with both fonts, so that the positions below hold: headings, captions, then the
    // pictures' larger sizes, a UI and a mono font each.
    add_ttf(atlas, paths.ui, std::round(px * kHeadingFactor) * raster, kUiRanges, refused);
    add_ttf(atlas, paths.ui, std::round(px * kCaptionFactor) * raster, kUiRanges, refused);
    for (float z : zooms) {
      add_ttf(atlas, paths.ui, std::round(px * z) * raster, kUiRanges, refused);
      add_ttf(atlas, paths.mono, std::round(px * z) * raster, kMonoRanges, refused);
    }
  }
  atlas.Build();
  return warning;
}

// ImGui's rasteriser (stb_truetype) trusts a font's contents: offsets inside its tables are
// followed unchecked and its asserts abort. So the atlas is built once in a child process first,
// exactly as it will be here (same fonts, sizes and ranges), in under 10 s; only what came
// through is built here. "" when it did, else why not. Kept per fonts' contents and sizes for the process.
std::string trial_build(float px, const FontPaths& paths, float raster, std::span<const float> zooms) {
  static std::mutex mutex;
  static std::map<uint64_t, std::string> tried;
  uint64_t key = kHashSeed;  // of the fonts' bytes and the sizes
  auto mix = [&](const void* p, size_t n) { key = hash_bytes(key, p, n); };
  for (const std::string* path : {&paths.ui, &paths.mono}) {
    std::string bytes, error;
    if (!path->empty() && read_file(*path, bytes, error, uint64_t(64) << 20)) mix(bytes.data(), bytes.size());
    mix(path->data(), path->size() + 1);
  }
  for (float f : {px, raster}) mix(&f, sizeof f);
  for (float z : zooms) mix(&z, sizeof z);
  std::lock_guard lock(mutex);
  if (auto it = tried.find(key); it != tried.end()) return it->second;
  std::string why;
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, SIG_DFL);  // (no parent's reports)
    if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, 2);  // (nor the rasteriser's asserts)
    ImFontAtlas trial;
    build_atlas(trial, px, paths, raster, zooms, {});
    ::_exit(trial.IsBuilt() ? 0 : 3);
  }
  if (pid > 0) {
    int status = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    pid_t got = 0;
    while ((got = ::waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (got == 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      why = "the font rasteriser did not finish with it in 10 s";
    } else if (WIFSIGNALED(status)) {
      why = "the font rasteriser crashed on it (signal " + std::to_string(WTERMSIG(status)) + "): its tables are damaged";
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      why = "ImGui could not read it";
    }
  }  // (no child: the directory check alone)
  if (tried.size() >= 64) tried.clear();  // (a few fonts in a session; any number under a fuzzer)
  tried.emplace(key, why);
  return why;
}

}  // namespace

FontPaths default_font_paths() {
  return {env_or("WARPSCOPE_UI_FONT", WS_FONT_UI_PATH),
          env_or("WARPSCOPE_MONO_FONT", WS_FONT_MONO_PATH)};
}

std::string build_fonts(ImFontAtlas& atlas, float px, const FontPaths& paths, float raster,
                        std::span<const float> zooms) {
  Refused refused;
  if (!trial_build(px, paths, raster, zooms).empty()) {
    // Which font: the UI one alone, then the mono one beside what is left.
    FontPaths use = paths;
    if (std::string why = trial_build(px, {use.ui, ""}, raster, zooms); !why.empty()) refused[use.ui] = why, use.ui.clear();
    if (std::string why = trial_build(px, use, raster, zooms); !why.empty() && !use.mono.empty()) refused[use.mono] = why;
  }
  return build_atlas(atlas, px, paths, raster, zooms, refused);
}

namespace {

constexpr int kFirstZoomFont = 4;

ImFont* font_at(int i) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  return i < atlas->Fonts.Size ? atlas->Fonts[i] : atlas->Fonts[0];
}

int font_index(const ImFont* f) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  for (int i = 0; i < atlas->Fonts.Size; ++i)
    if (atlas->Fonts[i] == f) return i;
  return -1;
}

}  // namespace

ImFont* mono_font() {
  // The mono font of the size in use: a zoomed picture's code grows with its labels.
  const int i = font_index(ImGui::GetFont());
  if (i >= kFirstZoomFont) return font_at((i - kFirstZoomFont) / 2 * 2 + kFirstZoomFont + 1);
  return font_at(1);
}

ImFont* heading_font() { return font_at(2); }

ImFont* caption_font() { return font_at(3); }

ImFont* zoom_font(float zoom) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  const float want = std::round(atlas->Fonts[0]->FontSize * ImGui::GetIO().FontGlobalScale * zoom);
  for (int i = kFirstZoomFont; i < atlas->Fonts.Size; i += 2)
    if (std::round(atlas->Fonts[i]->FontSize * ImGui::GetIO().FontGlobalScale) == want) return atlas->Fonts[i];
  return nullptr;
}

}  // namespace ws::viz
