// A launch as a person types it (on the command line, in a lesson file) and the one set of rules
// that turns it into a RunConfig: every way into warpscope accepts and refuses the same values,
// with the same words.
//
//   ws::LaunchText t;
//   t.variant = "3";  t.n = "65536";  t.block = "128";  t.params = {"max_blocks=32"};
//   ws::RunConfig cfg;
//   if (std::string err = ws::apply_launch_text(t, cfg); !err.empty())
//     ...  // e.g. "n = -5: n is a whole number from 1 to 4294967295"
//
// What is left empty keeps the kernel's default. What a kernel accepts beyond the syntax (block
// limits, parameter ranges, its own rules) is checked by the Catalog when it runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ws/run/config.h"

namespace ws {

struct LaunchText {
  std::string variant, dtype;
  std::string n;           // whole number from 1 to 4294967295
  std::string block;       // X, X,Y or X,Y,Z, each >= 1
  std::string grid;        // likewise
  std::string seed;        // whole number from 0 to 2^64 - 1
  std::string blocks;      // recorded blocks: "all" or a list such as "0,1,7"
  std::string max_events;  // whole number >= 1
  std::string workers;     // emulator worker threads: 0 (one per core) to 1024
  std::string step_budget;  // emulator: warp instructions one block may issue, 1000 to 2^40
  std::vector<std::string> params;  // NAME=VALUE, VALUE a whole number (may be negative)
};

// How a lesson file writes each value: Word, a name or number (variant = "3", 3 read too);
// Text, text in quotes; Number, a bare number (n = 65536; "65536" read too); Shape, numbers with
// commas (block = "16,16"; 256 and [16, 16] read too); Params, a table (params = { stride = 8 }).
enum class LaunchForm { Word, Text, Number, Shape, Params };

// LaunchText's fields, listed once, with their names in a lesson file (and on the command line,
// as --NAME): the lesson reader and writer go through this list.
template <class L, class Visit>
  requires std::is_same_v<std::remove_const_t<L>, LaunchText>
void visit_fields(L& t, Visit&& v) {
  v("variant", t.variant, LaunchForm::Word);
  v("n", t.n, LaunchForm::Number);
  v("block", t.block, LaunchForm::Shape);
  v("grid", t.grid, LaunchForm::Shape);
  v("dtype", t.dtype, LaunchForm::Text);
  v("seed", t.seed, LaunchForm::Number);
  v("blocks", t.blocks, LaunchForm::Shape);
  v("max_events", t.max_events, LaunchForm::Number);
  v("workers", t.workers, LaunchForm::Number);
  v("step_budget", t.step_budget, LaunchForm::Number);
  v("params", t.params, LaunchForm::Params);
}

// Fills `cfg` from the fields of `t` that are given; returns "" or the first wrong value and what
// is allowed.
std::string apply_launch_text(const LaunchText& t, RunConfig& cfg);

// The pieces, each returning "" or what is wrong. `what` names the value in the message ("n").
std::string parse_whole(std::string_view text, std::string_view what, uint64_t min, uint64_t max, uint64_t& out);
std::string parse_dim3(std::string_view text, std::string_view what, Dim3& out);
// NAME=VALUE, VALUE a number: whole, or real (2.5) for a real parameter (the kernel decides).
std::string parse_param(std::string_view text, std::string& name, double& value);
std::string parse_block_list(std::string_view text, std::vector<uint32_t>& out);

}  // namespace ws
