// Which blocks a launch records in full, of those a run asked for (RunConfig::record.blocks): the
// ones its grid has. A block the first launch's grid does not have is said in a note rather than
// silently replaced; a later, smaller launch of a multi-pass driver (reduce's second pass: one
// block) records block 0 when none of them is left.
//
//   RecordedBlocks r = recorded_blocks({0, 999}, 16, true);
//   // r.blocks == {0}; r.note == "block 999 is not in the grid (16 blocks, 0 to 15): not recorded"
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

struct RecordedBlocks {
  std::vector<uint32_t> blocks;  // never empty when `asked` is not
  std::string note;              // "" or what was asked for and is not there
};

// `asked` empty means every block (nothing to choose: blocks is empty too).
RecordedBlocks recorded_blocks(const std::vector<uint32_t>& asked, uint64_t grid_blocks, bool first_launch);

}  // namespace ws
