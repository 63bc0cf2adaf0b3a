// Bank-conflict heatmap: banks x shared instructions of one warp or block (or per site for the
// launch); color = distinct words the bank served.
#pragma once

#include "views/view.h"

#include "ws/analysis/analysis.h"
#include "ws/analysis/views.h"
#include "ws/viz/canvas.h"
#include "ws/viz/heatmap.h"

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ws::app {

enum class BankScope : int { Warp = 0, Block = 1, Launch = 2 };

struct BankHeatmapView final : View {
  static const ViewOption kOptions[2];  // (bank_heatmap.cpp)
  void draw(Session& s) override;
  ImVec2 natural_size(Session& s) override;
  ImVec2 least_size(Session& s) override;

  BankScope scope = BankScope::Warp;
  ws::viz::Canvas canvas;
  ws::viz::HeatmapRenderer renderer;
  // Cached rows (recomputed when the data or the scope changes).
  uint64_t cache_key = ~0ull;
  std::vector<analysis::BankRow> rows;
  ws::viz::Heatmap map;
  // Last draw.
  ImVec2 grid_min{0, 0};
  float cell_w = 0, cell_h = 0;
  int first_row = 0, visible_rows = 0;
  float vmax = 1;

 struct SiteRow {  // a shared-memory site of the launch and its metrics
    uint32_t site;
    const analysis::SiteMetrics* m;
  };

 private:
  struct Layout {  // where the parts of one draw go
    bool side = false;  // the table beside the heatmap (else under it)
    float avail_h = 0, table_w = 0, label_w = 0, map_w = 0, cell_w = 0, cell_h = 0;
    int visible = 0;  // rows on screen
    const char* caption = "";
    std::string total_text;
    float table_row_h = 0, total_h = 0, table_needed = 0;
  };
  ImVec2 slide_size(Session& s, float row_em);
  size_t rows_shown(Session& s);
  void draw_header(Session& s);
  static std::vector<SiteRow> shared_sites(const analysis::Report* rep);
  void compute(Session& s, const std::vector<SiteRow>& sites);
  Layout plan(Session& s, const std::vector<SiteRow>& sites);
  int follow_selection(Session& s, int visible);
  ImVec2 draw_bank_numbers(const Layout& L);
  bool draw_rows(Session& s, const std::vector<SiteRow>& sites, const Layout& L, int sel_row);
  void hover(Session& s, const std::vector<SiteRow>& sites, const Layout& L);
  void draw_site_table(Session& s, const std::vector<SiteRow>& sites, const Layout& L);
};

}  // namespace ws::app
