#include "ws/run/config.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace ws {

const char* to_string(BackendKind k) {
  switch (k) {
    case BackendKind::Emu: return "emu";
    case BackendKind::GpuFast: return "gpu-fast";
    case BackendKind::GpuTrace: return "gpu-trace";
  }
  return "?";
}

LaunchInfo launch_info(const std::string& kernel, const RunConfig& cfg, const std::string& entry) {
  LaunchInfo info;
  info.kernel = kernel;
  info.variant = cfg.variant;
  info.entry = entry;
  info.n = cfg.n;
  info.params.emplace_back("dtype", cfg.dtype);
  info.params.emplace_back("seed", std::to_string(cfg.seed));
  for (const auto& [k, v] : cfg.params) info.params.emplace_back(k, param_text(v));
  return info;
}

std::string bytes_text(uint64_t bytes) {
  char b[32];
  if (bytes >= (uint64_t(1) << 30)) std::snprintf(b, sizeof b, "%.1f GB", double(bytes) / double(uint64_t(1) << 30));
  else if (bytes >= (uint64_t(1) << 20)) std::snprintf(b, sizeof b, "%.1f MB", double(bytes) / double(uint64_t(1) << 20));
  else if (bytes >= (uint64_t(1) << 10)) std::snprintf(b, sizeof b, "%.1f KB", double(bytes) / double(uint64_t(1) << 10));
  else std::snprintf(b, sizeof b, "%llu bytes", static_cast<unsigned long long>(bytes));
  return b;
}

std::string param_text(double value) {
  if (value == std::trunc(value) && std::fabs(value) < 9.0e15) return std::to_string(int64_t(value));
  char b[32];
  for (int digits = 6; digits <= 17; ++digits) {  // the fewest digits that give the same double back
    std::snprintf(b, sizeof b, "%.*g", digits, value);
    if (std::strtod(b, nullptr) == value) break;
  }
  return b;
}

uint64_t default_memory_limit(std::string* source) {
  if (const char* env = std::getenv("WARPSCOPE_MEMORY_LIMIT"); env && *env) {
    char* end = nullptr;
    const double v = std::strtod(env, &end);
    const uint64_t unit = *end == 'K' || *end == 'k' ? 1ull << 10 : *end == 'M' || *end == 'm' ? 1ull << 20
                          : *end == 'G' || *end == 'g' ? 1ull << 30 : 1;
    if (end != env && v > 0 && v * double(unit) < 1.8e19) {
      if (source) *source = std::string("WARPSCOPE_MEMORY_LIMIT=") + env;
      return uint64_t(v * double(unit));
    }
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  const uint64_t total = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : (uint64_t(8) << 30);
  if (source) *source = "half of this machine's " + bytes_text(total);
  return total / 2;
}

}  // namespace ws
