#include "ws/run/recorded_blocks.h"

namespace ws {

RecordedBlocks recorded_blocks(const std::vector<uint32_t>& asked, uint64_t grid_blocks, bool first_launch) {
  RecordedBlocks r;
  std::vector<uint32_t> missing;
  for (uint32_t b : asked) (b < grid_blocks ? r.blocks : missing).push_back(b);
  if (!asked.empty() && r.blocks.empty()) r.blocks = {0};
  if (first_launch && !missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size() && i < 8; ++i) list += (i ? ", " : "") + std::to_string(missing[i]);
    if (missing.size() > 8) list += " and " + std::to_string(missing.size() - 8) + " more";
    r.note = std::string(missing.size() > 1 ? "blocks " : "block ") + list + (missing.size() > 1 ? " are" : " is") +
             " not in the grid (" + std::to_string(grid_blocks) + " block" + (grid_blocks == 1 ? "" : "s") + ", 0 to " +
             std::to_string(grid_blocks - 1) + "): " +
             (r.blocks == std::vector<uint32_t>{0} && asked.size() == missing.size() ? "block 0 is recorded instead"
                                                                                       : "not recorded");
  }
  return r;
}

}  // namespace ws
