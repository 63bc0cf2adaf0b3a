// The checks of numbers from the command line: a finite number in a range. (CLI::Range lets NaN
// through, as every comparison with NaN is false: a NaN scale reached the font atlas, a NaN time
// limit meant no limit.)
#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace ws::app {

// A finite number from `lo` to `hi`; otherwise `what_is_allowed` and the value given.
inline CLI::Validator finite_check(double lo, double hi, std::string what_is_allowed, std::string name) {
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end == s.c_str() || *end != '\0' || !std::isfinite(v) || v < lo || v > hi)
          return what_is_allowed + " (not '" + s + "')";
        return {};
      },
      std::move(name));
}

// Every --scale option: 0.5 to 4.
inline CLI::Validator scale_check() { return finite_check(0.5, 4.0, "a scale is a number from 0.5 to 4", "0.5..4"); }

// A time limit in seconds: 0.1 to 10^6 ("nan", "inf" and "1e9" are refused, never taken for "no
// limit").
inline CLI::Validator seconds_check() {
  return finite_check(0.1, 1e6, "a time limit is a number of seconds from 0.1 to 1000000", "SECONDS");
}

}  // namespace ws::app
