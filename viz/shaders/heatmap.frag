#version 330 core
// A grid of cells colored by value: bank x instruction, lanes x steps, elements of an array.
// One texel per cell in an R32F texture (row 0 = top row), so a 32 x 10000 grid is one draw call,
// not 320000 ImGui rectangles.
in vec2 v_uv;
out vec4 frag_color;

uniform sampler2D u_values;  // R32F; NaN = no data
uniform vec2 u_range;        // values mapped to the two ends of the color map
uniform vec4 u_empty;        // color of cells without data and of the grid lines
uniform vec2 u_line;         // grid line width as a fraction of a cell (x, y); 0 = none
uniform int u_categories;    // 1: values are indices into u_palette instead of a viridis scale
uniform int u_log;           // 1: log scale, log2(1 + v - min) / log2(1 + max - min) (scale_position)
uniform vec4 u_palette[8];   // Okabe-Ito (ws::viz::category)

// Viridis (perceptually uniform, readable in grey and by the color-blind), polynomial fit.
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

void main() {
  ivec2 size = textureSize(u_values, 0);
  vec2 cell = vec2(v_uv.x, 1.0 - v_uv.y) * vec2(size);
  ivec2 c = clamp(ivec2(cell), ivec2(0), size - 1);
  float v = texelFetch(u_values, c, 0).r;
  vec2 f = fract(cell);
  if (isnan(v) || f.x < u_line.x || f.y < u_line.y) {
    frag_color = u_empty;
    return;
  }
  if (u_categories == 1) {
    int k = int(floor(v + 0.5));
    frag_color = u_palette[((k % 8) + 8) % 8];
    return;
  }
  float t = u_log == 1 ? clamp(log2(1.0 + max(v - u_range.x, 0.0)) / max(log2(1.0 + u_range.y - u_range.x), 1e-20), 0.0, 1.0)
                       : clamp((v - u_range.x) / max(u_range.y - u_range.x, 1e-20), 0.0, 1.0);
  frag_color = vec4(clamp(viridis(t), 0.0, 1.0), 1.0);
}
