#include "ws/run/config.h"

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
  for (const auto& [k, v] : cfg.params) info.params.emplace_back(k, std::to_string(v));
  return info;
}

}  // namespace ws
