#include "ws/viz/heatmap.h"

#include "ws/viz/colormap.h"
#include "ws/viz/gl.h"
#include "ws/viz/shader.h"
#include "gl_draw_state.h"

namespace ws::viz {

struct HeatmapRenderer::Impl {
  ShaderProgram program;
  GLuint vao = 0;
  GLuint texture = 0;
  bool ready = false;
};

HeatmapRenderer::HeatmapRenderer() : impl_(new Impl) {}

HeatmapRenderer::~HeatmapRenderer() {
  if (impl_->texture) glDeleteTextures(1, &impl_->texture);
  if (impl_->vao) glDeleteVertexArrays(1, &impl_->vao);
  delete impl_;
}

bool HeatmapRenderer::draw(const Heatmap& h, ImVec4 empty, std::string& error) {
  if (h.cols <= 0 || h.rows <= 0 || h.values.size() != size_t(h.cols) * size_t(h.rows)) {
    error = "heatmap data has " + std::to_string(h.values.size()) + " values for " +
            std::to_string(h.cols) + "x" + std::to_string(h.rows) + " cells";
    return false;
  }
  Impl& m = *impl_;
  if (!m.ready) {
    if (!m.program.build("fullscreen.vert", "heatmap.frag", error)) return false;
    glGenVertexArrays(1, &m.vao);  // core profile draws need a VAO, even an empty one
    glGenTextures(1, &m.texture);
    m.ready = true;
  }
  const GlDrawState saved;  // put back when this returns

  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, m.texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  // Row 0 of the data is the top row; the shader flips, so upload rows as they are.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, h.cols, h.rows, 0, GL_RED, GL_FLOAT, h.values.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

  glUseProgram(m.program.id());
  glUniform1i(m.program.uniform("u_values"), 0);
  glUniform2f(m.program.uniform("u_range"), h.vmin, h.vmax);
  glUniform4f(m.program.uniform("u_empty"), empty.x, empty.y, empty.z, empty.w);
  glUniform2f(m.program.uniform("u_line"), h.line, h.line);
  glUniform1i(m.program.uniform("u_categories"), h.categories ? 1 : 0);
  glUniform1i(m.program.uniform("u_log"), h.log_scale ? 1 : 0);
  float palette[4 * kCategoryColors];
  for (int i = 0; i < kCategoryColors; ++i) {
    const ImVec4 c = category(i);
    palette[4 * i] = c.x, palette[4 * i + 1] = c.y, palette[4 * i + 2] = c.z, palette[4 * i + 3] = c.w;
  }
  glUniform4fv(m.program.uniform("u_palette"), kCategoryColors, palette);
  glBindVertexArray(m.vao);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  return true;
}

}  // namespace ws::viz
