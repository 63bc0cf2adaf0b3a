// The GL state a full-screen-triangle view renderer (heatmap, timeline) changes, saved when it
// starts drawing and put back when it is done, so that ImGui's own renderer finds its texture,
// program, vertex array, unpack alignment, blending and scissor as it left them. Drawing also
// turns blending and scissoring off (the renderers fill every pixel of their canvas).
#pragma once

#include "ws/viz/gl.h"

namespace ws::viz {

class GlDrawState {
 public:
  GlDrawState() {
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture_);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program_);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao_);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack_);
    blend_ = glIsEnabled(GL_BLEND);
    scissor_ = glIsEnabled(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
  }
  ~GlDrawState() {
    glBindVertexArray(static_cast<GLuint>(vao_));
    glUseProgram(static_cast<GLuint>(program_));
    glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture_));
    glPixelStorei(GL_UNPACK_ALIGNMENT, unpack_);
    if (blend_) glEnable(GL_BLEND);
    if (scissor_) glEnable(GL_SCISSOR_TEST);
  }
  GlDrawState(const GlDrawState&) = delete;
  GlDrawState& operator=(const GlDrawState&) = delete;

 private:
  GLint texture_ = 0, program_ = 0, vao_ = 0, unpack_ = 0;
  GLboolean blend_ = GL_FALSE, scissor_ = GL_FALSE;
};

}  // namespace ws::viz
