// Where everything of the warp access map goes, computed from the instruction's metrics alone:
// no ImGui window, no GL, so it is tested without a display, and a 2x export is the same layout
// with every length doubled (all sizes are in font units, `em`).
//
//   lanes    [0][1][2] ... [31]          one box per lane, active / inactive / past the block
//              |   |   |
//   shared:  bank 0 1 2 ... 31            one row per wavefront ("pass"), a cell per word served;
//   pass 1   [..][..]                     a word served after its phase's first pass waited
//   pass 2   [..]                         (a bank conflict)
//   global:  +0   [sector|sector|...]     128-byte lines of four 32-byte sectors, the bytes used
//            +128 [.....]                 filled; lines beyond the room are counted, not drawn
//
//   AccessMapLayout L = access_map_layout(m, alloc, width_px, font_px, digit_px);
//   for (const AccessMapLayout::Cell& c : L.cells) paint(c.box, c.conflict ? vermillion : green);
#pragma once

#include "ws/analysis/instruction.h"
#include "ws/trace/trace.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ws::app {

struct AccessMapLayout {
  struct Box {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // relative to the picture's top-left
    bool contains(float x, float y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
  };
  struct Lane {
    Box box;
    bool active = false;  // in the instruction's mask
    bool live = true;     // exists (a partial last warp has fewer lanes)
  };
  // A row label at the left margin ("lanes", "bank", "pass 2", "+128").
  struct Label {
    float x = 0, y = 0, h = 0;  // top-left of the row it names and its height
    std::string text;
    bool dim = false;
  };
  // Shared: one 4-byte word served in one wavefront.
  struct Cell {
    Box box;
    rules::SharedWord word;
    bool conflict = false;    // served after its phase's first pass: it waited
    uint64_t element = 0;     // the element index in the allocation (the cell's number)
    bool multicast = false;   // several lanes read this one word
  };
  // Global: one 32-byte sector of a drawn line.
  struct Sector {
    Box box;
    uint64_t address = 0;
    uint32_t used = 0;   // bit b: byte b of the sector is used by a lane
    int line = 0;        // index into the instruction's lines
    int quarter = 0;     // which of the line's four sectors
  };
  struct Link {
    int lane = 0;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool conflict = false;  // shared: waited for its bank; an atomic: shares its address with another lane
  };
  // An atomic's address that several lanes update: they queue there ("x32" at the address).
  struct Collision {
    float x = 0, y = 0;  // where its lanes' links end (the address in its sector)
    uint32_t lanes = 0;
  };

  bool shared = false;
  float margin = 0;      // width of the row labels at the left
  float cell_w = 0;      // one lane / bank column
  float lane_h = 0, row_h = 0;
  float grid_y = 0;      // the top of the bank grid / the first line of sectors
  float label_px = 0;       // size of the element numbers in cells: the font, or smaller so the widest fits
  float lane_label_px = 0;  // size of the lane and bank numbers (two digits: often larger)
  std::array<Lane, 32> lanes{};
  std::vector<Label> labels;
  std::vector<Box> bank_headers;   // shared: the 32 bank numbers' boxes, bank b at [b]
  std::vector<Box> empty_cells;    // shared: every (row, bank) cell, drawn empty under the words
  std::vector<Cell> cells;
  std::vector<Box> line_boxes;     // global: the outline of each drawn line
  std::vector<Sector> sectors;
  std::vector<Link> links;
  std::vector<Collision> collisions;  // global atomics: addresses with more than one lane
  int rows = 0;                    // shared: wavefronts
  int row_labels_skipped = 0;      // shared: rows too thin for a label of their own
  int lines_drawn = 0, lines_total = 0;
  int lines_per_row = 1;           // global: 128-byte lines across
  float width = 0, height = 0;     // the whole picture
};

// What the picture says in words, above it: what the instruction is, what it costs, and (global)
// what the drawing leaves out. Percentages only where they mean what they say (the share of the
// moved bytes the lanes used, never over 100%).
struct AccessMapCaption {
  std::string what;     // "global store out, 4 B/lane, 32 of 32 lanes"
  std::string numbers;  // "32 sectors in 32 lines: 128 B requested, 1024 B moved, 12% of it used"
  bool costly = false;  // `numbers` says of a cost: bank conflicts, or sectors past the ideal
  struct Note {
    std::string text;  // broadcast, atomic contention, lines skipped
    bool costly = false;  // lanes waiting on one address
  };
  std::vector<Note> notes;
};
AccessMapCaption access_map_caption(const analysis::InstructionMetrics& m, const Event& e, const Allocation* alloc);

// `width_px`: the width available; `font_px`: the font size (1 em); `digit_px`: the width of
// "999" at the font size (the cell numbers shrink until the widest of them fits a cell).
// `height_px` (> 0): the room below; every height shrinks alike to fit it, down to `min_scale`
// of its size (past that the picture is taller than the room: with controls, it scrolls). A
// picture for a wall passes a `min_scale` under 0.45: its lanes and bank numbers keep the type's
// size and the wavefront rows share the rest, their labels thinned to every k-th row and their
// numbers hidden once rows are thinner than the type.
// `lines_per_row` (global): at least this many 128-byte lines across (1, 2 or 4; 0: as many as
// the instruction's lines need), so that two maps compared side by side draw a byte as wide on both.
AccessMapLayout access_map_layout(const analysis::InstructionMetrics& m, const Event& e, const Allocation* alloc,
                                  float width_px, float font_px, float digit_px, float height_px = 0,
                                  float min_scale = 0.45f, int lines_per_row = 0);
// How many 128-byte lines a global map draws across for `lines` lines: 1, 2 or 4.
int global_lines_per_row(uint64_t lines);

}  // namespace ws::app
