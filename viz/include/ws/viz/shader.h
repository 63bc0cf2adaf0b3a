// GLSL programs from shaders/ (embedded at build time by viz/embed_shaders.cmake).
//
//   ws::viz::ShaderProgram prog;
//   if (!prog.build("fullscreen.vert", "heatmap.frag", err)) fail(err);  // err has the GL log
//   glUseProgram(prog.id());
#pragma once

#include <string>
#include <string_view>

namespace ws::viz {

// The text of shaders/<name>, or an empty view when there is no such shader.
std::string_view shader_source(std::string_view name);

class ShaderProgram {
 public:
  ShaderProgram() = default;
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  // Compiles and links two shaders of shaders/ by file name. Needs a current GL context.
  bool build(std::string_view vertex, std::string_view fragment, std::string& error);
  unsigned id() const { return program_; }
  int uniform(const char* name) const;

 private:
  unsigned program_ = 0;
};

}  // namespace ws::viz
