// The check every --scale option uses: a finite number from 0.5 to 4. (CLI::Range lets NaN through,
// as every comparison with NaN is false, and a NaN scale reached the font atlas.)
#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace ws::app {

inline CLI::Validator scale_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const float v = std::strtof(s.c_str(), &end);
        if (end == s.c_str() || *end != '\0' || !std::isfinite(v) || v < 0.5f || v > 4.0f)
          return "a scale is a number from 0.5 to 4 (not '" + s + "')";
        return {};
      },
      "0.5..4");
}

}  // namespace ws::app
