#include "ws/viz/drawn_text.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace ws::viz {

namespace {

uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

uint64_t uv_key(ImVec2 uv) { return (uint64_t(bits(uv.x)) << 32) | bits(uv.y); }

struct GlyphOf {
  const ImFont* font;
  const ImFontGlyph* glyph;
};

// Every visible glyph of every font, by the texture coordinates of its top-left corner.
std::unordered_map<uint64_t, GlyphOf> glyph_index(const ImFontAtlas& atlas) {
  std::unordered_map<uint64_t, GlyphOf> out;
  for (const ImFont* f : atlas.Fonts)
    for (const ImFontGlyph& g : f->Glyphs)
      if (g.Visible && g.Y1 > g.Y0) out.emplace(uv_key(ImVec2(g.U0, g.V0)), GlyphOf{f, &g});
  return out;
}

void append_utf8(std::string& s, unsigned c) {
  if (c < 0x80) {
    s += char(c);
  } else if (c < 0x800) {
    s += char(0xC0 | (c >> 6)), s += char(0x80 | (c & 0x3F));
  } else {
    s += char(0xE0 | (c >> 12)), s += char(0x80 | ((c >> 6) & 0x3F)), s += char(0x80 | (c & 0x3F));
  }
}

// A glyph quad as ImFont::RenderText writes it: indices v, v+1, v+2, v, v+2, v+3 over vertices
// top-left, top-right, bottom-right, bottom-left.
bool is_quad(const ImDrawIdx* idx) {
  return idx[1] == idx[0] + 1 && idx[2] == idx[0] + 2 && idx[3] == idx[0] && idx[4] == idx[0] + 2 &&
         idx[5] == idx[0] + 3;
}

}  // namespace

std::vector<DrawnText> drawn_text(const ImDrawList& list, const ImFontAtlas& atlas, int first_vertex) {
  std::vector<DrawnText> out;
  const auto index = glyph_index(atlas);
  const ImDrawVert* vtx = list.VtxBuffer.Data;
  const int vtx_count = list.VtxBuffer.Size;
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback) continue;
    const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
    const ImVec4 clip = cmd.ClipRect;
    // The run being read: its last glyph's vertex and where its pen would go next.
    int last_v = -10;
    float pen = 0, top = 0, px = 0;
    DrawnText* run = nullptr;
    for (unsigned k = 0; k + 6 <= cmd.ElemCount;) {
      const int v = int(cmd.VtxOffset) + int(idx[k]);
      if (!is_quad(idx + k) || v + 3 >= vtx_count || v < first_vertex) {
        k += 3;
        continue;
      }
      k += 6;
      const auto it = index.find(uv_key(vtx[v].uv));
      if (it == index.end()) continue;
      const ImFontGlyph& g = *it->second.glyph;
      if (vtx[v + 2].uv.x != g.U1 || vtx[v + 2].uv.y != g.V1) continue;
      const ImVec2 a = vtx[v].pos, b = vtx[v + 2].pos;
      if (b.x <= clip.x || a.x >= clip.z || b.y <= clip.y || a.y >= clip.w) continue;  // not visible
      const float scale = (b.y - a.y) / (g.Y1 - g.Y0);
      const float size = it->second.font->FontSize * scale;
      const float glyph_pen = a.x - g.X0 * scale, glyph_top = a.y - g.Y0 * scale;
      const bool same_run = run && v == last_v + 4 && std::fabs(size - px) < 0.01f * px + 0.01f &&
                            std::fabs(glyph_top - top) < 0.5f && glyph_pen >= pen - 0.5f;
      if (!same_run) {
        out.push_back(DrawnText{"", size, a, b, false});
        run = &out.back();
        px = size, top = glyph_top;
      } else if (glyph_pen > pen + 0.2f * size) {
        run->text += ' ';
      }
      append_utf8(run->text, g.Codepoint);
      run->min = ImVec2(std::fmin(run->min.x, a.x), std::fmin(run->min.y, a.y));
      run->max = ImVec2(std::fmax(run->max.x, b.x), std::fmax(run->max.y, b.y));
      if (a.x < clip.x || b.x > clip.z || a.y < clip.y || b.y > clip.w) run->clipped = true;
      pen = glyph_pen + g.AdvanceX * scale;
      last_v = v;
    }
  }
  return out;
}

}  // namespace ws::viz
