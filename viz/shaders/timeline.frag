#version 330 core
// The divergence timeline: for each warp of a block a band of 32 lane rows, x = issue columns.
// One texel per (warp, column) holds the active mask and the instruction kind, so a 64-warp x
// 10k-column block is a 640k-texel texture and one draw, whatever the zoom.
//
// Texel i (row-major in a u_wrap-wide texture): i = warp * columns + column, R = active mask,
// G = kind (0 none, 1 shared access, 2 global access, 3 warp-sync op, 4 fence, 5 barrier).
// Texels warps*columns + column hold the column flags (G = 5: a barrier column).
out vec4 frag_color;

uniform usampler2D u_cells;
uniform int u_wrap;          // texture width
uniform int u_warps;
uniform int u_columns;
uniform float u_col0;        // first visible column (may be fractional: pan)
uniform float u_col_px;      // pixels per column (zoom)
uniform float u_lane_px;     // pixels per lane row
uniform float u_gap_px;      // pixels between warp bands
uniform float u_height;      // viewport height in pixels (gl_FragCoord is bottom-up)
uniform float u_cursor;      // columns >= u_cursor are dimmed (playback); huge = none
uniform uint u_live[64];     // live-lane mask per warp (a partial last warp has fewer lanes)
uniform vec4 u_colors[8];    // 0 background, 1 inactive lane, 2 shared, 3 global, 4 sync, 5 fence,
                             // 6 barrier, 7 unused

uvec2 cell(int i) { return texelFetch(u_cells, ivec2(i % u_wrap, i / u_wrap), 0).rg; }

void main() {
  float x = gl_FragCoord.x - 0.5;
  float y = u_height - gl_FragCoord.y - 0.5;  // from the top
  float colf = u_col0 + x / u_col_px;
  int col = int(floor(colf));
  if (col < 0 || col >= u_columns) { frag_color = u_colors[0]; return; }
  vec4 c = u_colors[0];
  float band = 32.0 * u_lane_px + u_gap_px;
  int warp = int(floor(y / band));
  float within = y - float(warp) * band;
  bool barrier_col = cell(u_warps * u_columns + col).g == 5u;
  // A thin separation between columns once they are wide enough to see it.
  bool edge = u_col_px >= 5.0 && fract(colf) * u_col_px >= u_col_px - 1.0;
  if (barrier_col) {
    c = u_colors[6];
  } else if (warp >= 0 && warp < u_warps && within < 32.0 * u_lane_px && !edge) {
    int lane = int(floor(within / u_lane_px));
    uint bit = 1u << uint(lane);
    if ((u_live[warp] & bit) != 0u) {
      uvec2 v = cell(warp * u_columns + col);
      if (v.g == 0u) c = u_colors[0];
      else if ((v.r & bit) != 0u) c = u_colors[min(int(v.g) + 1, 7)];
      else c = u_colors[1];
    }
  }
  if (colf >= u_cursor) c = mix(c, u_colors[0], 0.7);
  frag_color = c;
}
