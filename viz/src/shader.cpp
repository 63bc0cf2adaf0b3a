#include "ws/viz/shader.h"

#include "ws/viz/gl.h"

#include <ws_embedded_shaders.h>

namespace ws::viz {

std::string_view shader_source(std::string_view name) {
  for (const auto& s : embedded::kShaders)
    if (name == s.name) return s.text;
  return {};
}

namespace {

GLuint compile(GLenum type, std::string_view name, std::string& error) {
  std::string_view src = shader_source(name);
  if (src.empty()) {
    error = "no shader named " + std::string(name) + " in shaders/";
    return 0;
  }
  GLuint sh = glCreateShader(type);
  const char* text = src.data();
  GLint len = static_cast<GLint>(src.size());
  glShaderSource(sh, 1, &text, &len);
  glCompileShader(sh);
  GLint ok = 0;
  glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(sh, sizeof log, nullptr, log);
    error = "shaders/" + std::string(name) + " does not compile: " + log;
    glDeleteShader(sh);
    return 0;
  }
  return sh;
}

}  // namespace

ShaderProgram::~ShaderProgram() {
  if (program_) glDeleteProgram(program_);
}

bool ShaderProgram::build(std::string_view vertex, std::string_view fragment, std::string& error) {
  GLuint vs = compile(GL_VERTEX_SHADER, vertex, error);
  if (!vs) return false;
  GLuint fs = compile(GL_FRAGMENT_SHADER, fragment, error);
  if (!fs) {
    glDeleteShader(vs);
    return false;
  }
  GLuint prog = glCreateProgram();
  glAttachShader(prog, vs);
  glAttachShader(prog, fs);
  glLinkProgram(prog);
  glDeleteShader(vs);  // the program keeps them alive as long as it needs them
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(prog, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(prog, sizeof log, nullptr, log);
    error = "shaders " + std::string(vertex) + " + " + std::string(fragment) + " do not link: " + log;
    glDeleteProgram(prog);
    return false;
  }
  if (program_) glDeleteProgram(program_);
  program_ = prog;
  return true;
}

int ShaderProgram::uniform(const char* name) const { return glGetUniformLocation(program_, name); }

}  // namespace ws::viz
