#include "ws/viz/timeline.h"

#include "ws/viz/gl.h"
#include "ws/viz/shader.h"
#include "gl_draw_state.h"

#include <algorithm>

namespace ws::viz {

struct TimelineRenderer::Impl {
  ShaderProgram program;
  GLuint vao = 0, texture = 0;
  bool ready = false;
  uint64_t uploaded = ~0ull;
  const void* uploaded_from = nullptr;
  int wrap = 0;
};

TimelineRenderer::TimelineRenderer() : impl_(new Impl) {}
TimelineRenderer::~TimelineRenderer() {
  if (impl_->texture) glDeleteTextures(1, &impl_->texture);
  if (impl_->vao) glDeleteVertexArrays(1, &impl_->vao);
  delete impl_;
}

bool TimelineRenderer::draw(const TimelineGrid& g, const TimelineView& v, const TimelineColors& colors,
                            std::string& error) {
  const size_t cells = size_t(g.warps) * size_t(g.columns);
  if (g.warps <= 0 || g.columns <= 0 || g.masks.size() != cells || g.kinds.size() != cells ||
      g.column_flags.size() != size_t(g.columns) || g.live.size() != size_t(g.warps)) {
    error = "timeline data does not match its " + std::to_string(g.warps) + " warps x " + std::to_string(g.columns) +
            " columns";
    return false;
  }
  if (g.warps > kTimelineMaxWarps) {
    error = "the timeline draws at most " + std::to_string(kTimelineMaxWarps) + " warps per block";
    return false;
  }
  Impl& m = *impl_;
  if (!m.ready) {
    if (!m.program.build("fullscreen.vert", "timeline.frag", error)) return false;
    glGenVertexArrays(1, &m.vao);
    glGenTextures(1, &m.texture);
    m.ready = true;
  }
  const GlDrawState saved;  // put back when this returns

  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, m.texture);
  if (m.uploaded != g.version || m.uploaded_from != &g) {
    // (warps + 1) * columns texels, wrapped into rows of at most 4096.
    const size_t total = cells + size_t(g.columns);
    const int wrap = int(std::min<size_t>(total, 4096));
    const int rows = int((total + size_t(wrap) - 1) / size_t(wrap));
    std::vector<uint32_t> data(size_t(wrap) * size_t(rows) * 2, 0);
    for (size_t i = 0; i < cells; ++i) {
      data[2 * i] = g.masks[i];
      data[2 * i + 1] = g.kinds[i];
    }
    for (int c = 0; c < g.columns; ++c) data[2 * (cells + size_t(c)) + 1] = g.column_flags[size_t(c)];
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32UI, wrap, rows, 0, GL_RG_INTEGER, GL_UNSIGNED_INT, data.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    m.wrap = wrap;
    m.uploaded = g.version;
    m.uploaded_from = &g;
  }
  GLint viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_VIEWPORT, viewport);

  glUseProgram(m.program.id());
  auto u = [&](const char* n) { return m.program.uniform(n); };
  glUniform1i(u("u_cells"), 0);
  glUniform1i(u("u_wrap"), m.wrap);
  glUniform1i(u("u_warps"), g.warps);
  glUniform1i(u("u_columns"), g.columns);
  glUniform1f(u("u_col0"), v.col0);
  // The view's sizes are layout pixels; a 2x export has two output pixels for each.
  const float k = ImGui::GetCurrentContext() ? ImGui::GetIO().DisplayFramebufferScale.y : 1.0f;
  glUniform1f(u("u_col_px"), std::max(v.col_px * k, 1e-3f));
  glUniform1f(u("u_lane_px"), std::max(v.lane_px * k, 1e-3f));
  glUniform1f(u("u_gap_px"), v.gap_px * k);
  glUniform1f(u("u_height"), float(viewport[3]));
  glUniform1f(u("u_cursor"), v.cursor);
  std::vector<GLuint> live(kTimelineMaxWarps, 0);
  for (int w = 0; w < g.warps; ++w) live[size_t(w)] = g.live[size_t(w)];
  glUniform1uiv(u("u_live"), kTimelineMaxWarps, live.data());
  float col[32];
  for (int i = 0; i < 8; ++i) {
    col[4 * i] = colors[size_t(i)].x, col[4 * i + 1] = colors[size_t(i)].y;
    col[4 * i + 2] = colors[size_t(i)].z, col[4 * i + 3] = colors[size_t(i)].w;
  }
  glUniform4fv(u("u_colors"), 8, col);
  glBindVertexArray(m.vao);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  return true;
}

}  // namespace ws::viz
