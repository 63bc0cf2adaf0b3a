#include "views/access_map_layout.h"

#include "ws/analysis/views.h"
#include "ws/rules/global_sectors.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ws::app {

namespace {

// Shared memory: a bank column per lane column, a row per wavefront.
void lay_out_shared(const analysis::InstructionMetrics& m, const Allocation* a, float grid_y, float mem_y,
                    float E, AccessMapLayout& L) {
  const float cw = L.cell_w;
  for (int b = 0; b < 32; ++b)
    L.bank_headers.push_back({L.margin + b * cw, mem_y, L.margin + (b + 1) * cw - 1, grid_y});
  L.labels.push_back({0, mem_y, grid_y - mem_y, "bank", true});
  L.rows = int(m.shared.wavefronts);
  // A label per row where rows are as tall as the type; where they are thinner, at the top of
  // every row that is a line of type below the last label, and the last row's at the grid's foot.
  const float grid_bottom = grid_y + float(L.rows) * L.row_h;
  const float label_h = std::min(E, std::max(L.row_h, grid_bottom - grid_y));
  float next_free = grid_y;
  for (int r = 0; r < L.rows; ++r) {
    const bool last = r == L.rows - 1;
    const float y = last ? std::max(grid_y, std::min(grid_y + r * L.row_h, grid_bottom - label_h)) : grid_y + r * L.row_h;
    const bool room_below = last || grid_bottom - label_h - (y + label_h) >= 0.05f * E;  // the last's label fits after it
    if (y >= next_free - 0.5f && (L.row_h >= 0.95f * E || room_below)) {
      L.labels.push_back({0, L.row_h >= 0.95f * E ? grid_y + r * L.row_h : y, L.row_h >= 0.95f * E ? L.row_h : label_h,
                          "pass " + std::to_string(r + 1), false});
      next_free = y + 1.05f * label_h;
    } else {
      ++L.row_labels_skipped;
    }
  }
  for (int r = 0; r < L.rows; ++r) {
    const float y0 = grid_y + r * L.row_h;
    for (int b = 0; b < 32; ++b)
      L.empty_cells.push_back({L.margin + b * cw, y0, L.margin + (b + 1) * cw - 1, y0 + L.row_h - 1});
  }
  // The first wavefront of each phase: a word served later in its phase waited for a conflict.
  int phase_first[4] = {1 << 30, 1 << 30, 1 << 30, 1 << 30};
  for (const auto& w : m.shared.words) phase_first[w.phase & 3] = std::min<int>(phase_first[w.phase & 3], w.wavefront);
  const uint64_t base_word = a ? a->base / 4 : 0;
  for (const auto& w : m.shared.words) {
    AccessMapLayout::Cell c;
    c.word = w;
    c.conflict = w.wavefront > phase_first[w.phase & 3];
    c.box = {L.margin + w.bank * cw, grid_y + w.wavefront * L.row_h, 0, 0};
    c.box.x1 = c.box.x0 + cw - 1;
    c.box.y1 = c.box.y0 + L.row_h - 1;
    // The element in the word (for 4-byte elements, the index; else the word number).
    c.element = a && a->elem_size ? ((w.word - base_word) * 4) / a->elem_size : w.word;
    c.multicast = std::popcount(w.lanes) > 1;
    for (uint32_t lm = w.lanes; lm; lm &= lm - 1)
      L.links.push_back({std::countr_zero(lm), 0, 0, (c.box.x0 + c.box.x1) / 2, c.box.y0, c.conflict});
    L.cells.push_back(c);
  }
  L.height = grid_y + L.rows * L.row_h + 0.3f * E;
}

// Global memory: 128-byte lines of four 32-byte sectors; a line spans 8 lane columns when there
// are many (4 lines per row), the whole lane width when there is one (a coalesced load reads
// straight down).
void lay_out_global(const analysis::InstructionMetrics& m, float grid_y, float mem_y, float E, AccessMapLayout& L,
                    int lines_per_row) {
  const auto masks = analysis::sector_byte_masks(m);
  const auto& sectors = m.global.sector_addresses;
  const std::vector<uint64_t>& lines = m.global.line_addresses;
  const int per_row = std::clamp(std::max(global_lines_per_row(m.global.lines), lines_per_row), 1, 4);
  L.lines_per_row = per_row;
  const float line_w = 32 * L.cell_w / float(per_row);
  const float sw = line_w / 4, sh = L.row_h, pitch = sh + 0.4f * E;
  constexpr int kMaxRows = 8;
  L.lines_total = int(lines.size());
  L.lines_drawn = std::min<int>(L.lines_total, per_row * kMaxRows);
  const uint64_t first_line = lines.empty() ? 0 : lines.front();
  L.labels.push_back({0, mem_y, grid_y - mem_y, "lines", true});
  auto line_x = [&](int k) { return L.margin + float(k % per_row) * line_w; };
  auto line_y = [&](int k) { return grid_y + float(k / per_row) * pitch; };
  for (int k = 0; k < L.lines_drawn; ++k) {
    const float x0 = line_x(k), y0 = line_y(k);
    if (k % per_row == 0) L.labels.push_back({0, y0, sh, "+" + std::to_string(lines[size_t(k)] - first_line), true});
    L.line_boxes.push_back({x0, y0, x0 + 4 * sw - 1, y0 + sh - 1});
  }
  auto line_index = [&](uint64_t address) {
    const uint64_t line = address / rules::kLineBytes * rules::kLineBytes;
    return int(std::lower_bound(lines.begin(), lines.end(), line) - lines.begin());
  };
  for (size_t si = 0; si < sectors.size(); ++si) {
    const int k = line_index(sectors[si]);
    if (k >= L.lines_drawn) continue;
    AccessMapLayout::Sector s;
    s.address = sectors[si];
    s.used = masks[si];
    s.line = k;
    s.quarter = int((sectors[si] - lines[size_t(k)]) / rules::kSectorBytes);
    const float x0 = line_x(k) + s.quarter * sw, y0 = line_y(k);
    s.box = {x0, y0, x0 + sw - 1, y0 + sh - 1};
    L.sectors.push_back(s);
  }
  for (int l = 0; l < 32; ++l) {
    const int si = m.global.lane_sector[size_t(l)];
    if (si < 0) continue;
    const uint64_t sec = sectors[size_t(si)];
    const int k = line_index(sec);
    if (k >= L.lines_drawn) continue;
    const int q = int((sec - lines[size_t(k)]) / rules::kSectorBytes);
    const float off = float(m.lane_address[size_t(l)] - sec) + float(m.width) / 2;
    L.links.push_back({l, 0, 0, line_x(k) + q * sw + (sw - 1) * off / 32.0f, line_y(k), false});
  }
  // An atomic's lanes on one address queue there: their links are marked, and the address gets
  // the count of lanes that meet at it.
  if (m.kind == AccessKind::Atomic) {
    for (size_t i = 0; i < L.links.size(); ++i) {
      const uint64_t a = m.lane_address[size_t(L.links[i].lane)];
      uint32_t same = 0;
      bool first = true;
      for (size_t j = 0; j < L.links.size(); ++j)
        if (m.lane_address[size_t(L.links[j].lane)] == a) {
          ++same;
          first = first && j >= i;
        }
      if (same < 2) continue;
      L.links[i].conflict = true;
      if (first) L.collisions.push_back({L.links[i].x1, L.links[i].y1, same});
    }
  }
  const int rows_used = std::max(1, (L.lines_drawn + per_row - 1) / per_row);
  L.height = grid_y + rows_used * pitch;
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

AccessMapCaption access_map_caption(const analysis::InstructionMetrics& m, const Event& e, const Allocation* a) {
  AccessMapCaption c;
  const std::string name = a ? a->name : "?";
  c.what = std::string(e.space == MemSpace::Shared ? "shared " : "global ") + to_string(e.kind) + " " + name + ", " +
           std::to_string(m.width) + " B/lane, " + std::to_string(m.active_lanes) + " of 32 lanes";
  if (e.space == MemSpace::Shared) {
    c.numbers = plural(m.shared.wavefronts, "wavefront", "wavefronts") + " (ideal " +
                std::to_string(m.shared.ideal_wavefronts) + "), " +
                plural(m.shared.conflicts, "bank conflict", "bank conflicts") +
                (m.shared.max_ways > 1 ? " (" + std::to_string(m.shared.max_ways) + "-way)" : "");
    c.costly = m.shared.conflicts > 0;
  } else {
    const rules::GlobalMetrics& g = m.global;
    const uint64_t used_pct = g.bytes_moved ? (100 * g.bytes_unique + g.bytes_moved / 2) / g.bytes_moved : 0;
    c.numbers = plural(g.sectors, "sector", "sectors") + " in " + plural(g.lines, "line", "lines") + ": " +
                std::to_string(g.bytes_requested) + " B requested, " + std::to_string(g.bytes_moved) + " B moved, " +
                std::to_string(used_pct) + "% of it used";
    // Lanes on the same bytes: a load shares them (a broadcast); a store has one lane's value land
    // and loses the others' (undefined which); atomics have a note of their own below.
    if (g.bytes_requested > g.bytes_unique && e.kind == AccessKind::Load)
      c.notes.push_back({"broadcast: " + plural(m.active_lanes, "lane", "lanes") + " ask for " +
                             std::to_string(g.bytes_requested) + " B but only " + std::to_string(g.bytes_unique) +
                             " B are distinct; each sector is moved once for all of them"});
    else if (g.bytes_requested > g.bytes_unique && e.kind == AccessKind::Store)
      c.notes.push_back({plural(m.active_lanes, "lane", "lanes") + " write " + std::to_string(g.bytes_requested) +
                             " B to only " + std::to_string(g.bytes_unique) +
                             " B: one lane's value lands on each, the others are lost (which one is undefined)"});
    const uint64_t ideal = (g.bytes_unique + rules::kSectorBytes - 1) / rules::kSectorBytes;
    c.costly = g.sectors > ideal;
    // Lines that are not next to each other are drawn side by side: say what lies between.
    const std::vector<uint64_t>& lines = g.line_addresses;
    if (lines.size() > 1) {
      const uint64_t span = (lines.back() - lines.front()) / rules::kLineBytes + 1;
      const uint64_t skipped = span - lines.size();
      bool even = true;
      for (size_t k = 2; k < lines.size(); ++k) even = even && lines[k] - lines[k - 1] == lines[1] - lines[0];
      if (skipped > 0 && even)
        c.notes.push_back({"the lines are " + std::to_string(lines[1] - lines[0]) + " B apart: " +
                           plural((lines[1] - lines[0]) / rules::kLineBytes - 1, "line", "lines") +
                           " skipped between each two drawn side by side"});
      else if (skipped > 0)
        c.notes.push_back({plural(lines.size(), "line", "lines") + " spread over " + std::to_string(span) + ": " +
                           plural(skipped, "line", "lines") + " between them are not touched"});
    }
  }
  if (e.kind == AccessKind::Atomic) {
    if (m.compiler_aggregated)
      c.notes.push_back({"atomic: " + plural(m.atomic.max_same_address, "lane", "lanes") +
                             " on one address, as written. nvcc compiles this warp-uniform integer atomic as one lane's, after "
                             "a warp reduction: one update, 1 sector pass (what Nsight Compute counts)",
                         true});
    else if (m.atomic.max_same_address > 1)
      c.notes.push_back({"atomic: " + plural(m.atomic.max_same_address, "lane", "lanes") +
                             " on one address: the atomic unit does their updates one after another (" +
                             plural(m.atomic.distinct_addresses, "distinct address", "distinct addresses") + ")",
                         true});
    else if (m.active_lanes == 1)
      c.notes.push_back({"atomic: one lane: it waits for nobody"});
    else
      c.notes.push_back({"atomic: every lane on an address of its own: no lane waits for another"});
  }
  return c;
}

int global_lines_per_row(uint64_t lines) { return lines <= 1 ? 1 : lines <= 2 ? 2 : 4; }

AccessMapLayout access_map_layout(const analysis::InstructionMetrics& m, const Event& e, const Allocation* alloc,
                                  float width_px, float font_px, float digit_px, float height_px, float min_scale,
                                  int lines_per_row) {
  AccessMapLayout L;
  const float E = font_px;
  L.shared = e.space == MemSpace::Shared;
  // The left margin holds the row labels ("lanes", "pass 8"): about 4.2 em, less in a narrow view
  // (the labels shrink with the rows); the 32 columns take the rest, however narrow.
  L.margin = std::floor(std::min(4.2f * E, 0.14f * width_px));
  L.cell_w = std::max(std::floor((width_px - L.margin - 2) / 32.0f), std::floor(0.2f * E));
  L.lane_h = std::floor(1.5f * E);
  L.row_h = std::floor(1.5f * E);
  float link_h = std::floor(2.6f * E);
  float head_h = std::floor(1.1f * E);  // the bank numbers / "lines" over the grid
  // Everything shrinks to fit the room (a 32-way conflict is 32 rows; a lesson stacks two maps).
  const int rows = e.space == MemSpace::Shared ? int(m.shared.wavefronts)
                                               : std::max(1, std::min(8, (int(m.global.lines) + 3) / 4));
  const float gaps = e.space == MemSpace::Shared ? 0.3f * E : 0.4f * E * float(rows);
  auto need = [&] { return L.lane_h + link_h + head_h + L.row_h * float(rows) + gaps; };
  if (height_px > 0 && need() > height_px && min_scale < 0.45f) {
    // On a wall: the lanes and the bank numbers keep the type's size; the links' gap shrinks to
    // one line, then the rows share what is left (their labels and numbers then thin out).
    L.lane_h = std::floor(1.3f * E);
    head_h = std::floor(1.15f * E);
    link_h = std::floor(1.0f * E);
    L.row_h = std::max(2.0f, std::floor((height_px - L.lane_h - link_h - head_h - gaps) / float(rows)));
    if (need() < height_px) link_h = std::floor(height_px - (need() - link_h));
  } else if (height_px > 0) {
    // In a panel: first the gap for the links, then every height alike, down to `min_scale`; past
    // that the picture is taller than the room and scrolls.
    if (need() > height_px) link_h = std::max(std::floor(1.2f * E), link_h - (need() - height_px));
    if (need() > height_px) {
      const float f = std::clamp((height_px - gaps - head_h) / (need() - gaps - head_h), min_scale, 1.0f);
      L.lane_h = std::max(1.0f, std::floor(L.lane_h * f));
      link_h = std::max(1.0f, std::floor(link_h * f));
      head_h = std::floor(std::max(head_h * f, 0.7f * E));
      L.row_h = std::max(1.0f, std::floor(L.row_h * f));
    }
  }
  L.label_px = E;  // set below, once the widest number in a cell is known
  L.labels.push_back({0, 0, L.lane_h, "lanes", false});
  for (int l = 0; l < 32; ++l) {
    AccessMapLayout::Lane& lane = L.lanes[size_t(l)];
    lane.box = {L.margin + l * L.cell_w, 0, L.margin + l * L.cell_w + L.cell_w - 1, L.lane_h};
    lane.active = (e.mask >> l) & 1u;
    lane.live = uint32_t(l) < m.live_lanes;
  }
  const float mem_y = L.lane_h + link_h;
  const float grid_y = mem_y + head_h;
  L.grid_y = grid_y;
  if (L.shared)
    lay_out_shared(m, alloc, grid_y, mem_y, E, L);
  else
    lay_out_global(m, grid_y, mem_y, E, L, lines_per_row);
  // Every link starts under its lane's box.
  for (AccessMapLayout::Link& k : L.links) {
    k.x0 = L.margin + k.lane * L.cell_w + (L.cell_w - 1) / 2;
    k.y0 = L.lane_h;
  }
  L.width = L.margin + 32 * L.cell_w;
  // Every number in a cell at one size: the font, or smaller so that the widest one fits its cell
  // (a projector's large font must not drop element 1023 or lane numbers 10-31).
  // Lane and bank numbers (two digits) at one size, element numbers (up to "1023") at another:
  // a wide element number does not shrink the lane numbers the class reads first.
  auto fitting = [&](size_t digits) {
    return digit_px > 0 ? std::min(E, std::floor(E * (L.cell_w - 2) / (digit_px / 3.0f * float(digits)))) : E;
  };
  size_t digits = 1;
  for (const AccessMapLayout::Cell& c : L.cells) digits = std::max(digits, std::to_string(c.element).size());
  L.lane_label_px = std::min(fitting(2), std::floor(L.lane_h * 0.9f));
  L.label_px = std::min({fitting(digits), std::floor(L.row_h * 0.9f), std::floor(L.lane_h * 0.9f)});  // inside a row
  return L;
}

}  // namespace ws::app
