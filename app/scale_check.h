// The checks of numbers from the command line. The one every --scale option uses: a finite number from 0.5 to 4. (CLI::Range lets NaN through,
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

// A time limit in seconds: a finite number from 0.1 to 10^6 ("nan", "inf" and "1e9" are refused,
// never taken for "no limit").
inline CLI::Validator seconds_check() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end == s.c_str() || *end != '\0' || !std::isfinite(v) || v < 0.1 || v > 1e6)
          return "a time limit is a number of seconds from 0.1 to 1000000 (not '" + s + "')";
        return {};
      },
      "SECONDS");
}

}  // namespace ws::app
