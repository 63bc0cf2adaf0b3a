#include "ws/run/launch_text.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <charconv>
#include <limits>

namespace ws {

namespace {

std::string quoted(std::string_view what, std::string_view text) {
  return std::string(what) + " '" + std::string(text) + "'";
}

// A whole number with an optional sign, all of `text`; false for anything else or out of range.
bool whole(std::string_view text, int64_t& out) {
  const char* b = text.data();
  const char* e = b + text.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  return b != e && ec == std::errc() && p == e;
}

}  // namespace

std::string parse_whole(std::string_view text, std::string_view what, uint64_t min, uint64_t max, uint64_t& out) {
  const std::string range = max == std::numeric_limits<uint64_t>::max()
                                ? "a whole number >= " + std::to_string(min)
                                : "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size() || v < min || v > max)
    return std::string(what) + " = " + std::string(text) + ": " + std::string(what) + " is " + range;
  out = v;
  return {};
}

std::string parse_dim3(std::string_view text, std::string_view what, Dim3& out) {
  Dim3 d{1, 1, 1};
  uint32_t* dims[3] = {&d.x, &d.y, &d.z};
  int k = 0;
  std::string_view rest = text;
  bool ok = !rest.empty();
  while (ok && !rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    uint64_t v = 0;
    ok = k < 3 && parse_whole(part, what, 1, 0xffffffffu, v).empty();
    if (ok) *dims[k++] = uint32_t(v);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
    ok = ok && !rest.empty();
  }
  if (!ok)
    return quoted(what, text) + " is not a shape: write X, X,Y or X,Y,Z with whole numbers >= 1 (e.g. 256 or 16,16)";
  out = d;
  return {};
}

// A choice's name: a letter, then letters, digits, '-' and '_' ("one-colour", "sorted").
static bool choice_name(std::string_view v) {
  if (v.empty() || !std::isalpha(static_cast<unsigned char>(v[0]))) return false;
  for (char c : v)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return true;
}

std::string parse_param(std::string_view text, std::string& name, double& value) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return quoted("parameter", text) + " is not NAME=VALUE (e.g. stride=8)";
  // A whole number, or a real one for a real parameter (the kernel's spec decides: Catalog::check).
  const std::string v(text.substr(eq + 1));
  char* end = nullptr;
  errno = 0;
  value = v.empty() || std::isspace(uint8_t(v[0])) ? 0 : std::strtod(v.c_str(), &end);
  if (v.empty() || std::isspace(uint8_t(v[0])) || end != v.c_str() + v.size() || errno == ERANGE || !std::isfinite(value))
    return "parameter " + std::string(text.substr(0, eq)) + " = '" + v + "': the value is a number (8, -1, 2.5)";
  name = std::string(text.substr(0, eq));
  return {};
}

std::string parse_block_list(std::string_view text, std::vector<uint32_t>& out) {
  out.clear();
  if (text == "all") return {};
  std::string_view rest = text;
  while (true) {
    const size_t comma = rest.find(',');
    uint64_t v = 0;
    if (!parse_whole(rest.substr(0, comma), "block", 0, 0xffffffffu, v).empty())
      return quoted("blocks", text) + " is not 'all' or a list of block indices from 0 to 4294967295 (e.g. 0,1,7)";
    out.push_back(uint32_t(v));
    if (comma == std::string_view::npos) return {};
    rest.remove_prefix(comma + 1);
  }
}

std::string apply_launch_text(const LaunchText& t, RunConfig& cfg) {
  std::string err;
  if (!t.variant.empty()) cfg.variant = t.variant;
  if (!t.dtype.empty()) cfg.dtype = t.dtype;
  uint64_t v = 0;
  if (!t.n.empty()) {
    if (!(err = parse_whole(t.n, "n", 1, 0xffffffffu, v)).empty()) return err;
    cfg.n = v;
  }
  if (!t.block.empty() && !(err = parse_dim3(t.block, "block", cfg.block)).empty()) return err;
  if (!t.grid.empty() && !(err = parse_dim3(t.grid, "grid", cfg.grid)).empty()) return err;
  if (!t.seed.empty()) {
    if (!(err = parse_whole(t.seed, "seed", 0, std::numeric_limits<uint64_t>::max(), v)).empty()) return err;
    cfg.seed = v;
  }
  if (!t.blocks.empty() && !(err = parse_block_list(t.blocks, cfg.record.blocks)).empty()) return err;
  if (!t.max_events.empty()) {
    if (!(err = parse_whole(t.max_events, "max-events", 1, std::numeric_limits<uint64_t>::max(), v)).empty())
      return err;
    cfg.record.max_events = v;
  }
  if (!t.step_budget.empty()) {
    if (!(err = parse_whole(t.step_budget, "step-budget", 1000, uint64_t(1) << 40, v)).empty()) return err;
    cfg.emu.step_budget = v;
  }
  if (!t.workers.empty()) {
    if (!(err = parse_whole(t.workers, "workers", 0, 1024, v)).empty()) return err;
    cfg.emu.workers = unsigned(v);
  }
  for (const std::string& p : t.params) {
    std::string name;
    double value = 0;
    if (!(err = parse_param(p, name, value)).empty()) {
      // Not a number: the name of one of the parameter's choices, resolved against the kernel.
      const size_t eq = p.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == p.size() || !choice_name(std::string_view(p).substr(eq + 1)))
        return err;
      name = p.substr(0, eq);
      cfg.param_choices[name] = p.substr(eq + 1);
      cfg.params.erase(name);
      continue;
    }
    cfg.params[name] = value;
    cfg.param_choices.erase(name);
  }
  return {};
}

}  // namespace ws
