// What text a finished ImGui draw list shows, read back from its glyph quads: each run of text
// (one line of one call), its characters, the pixel size it was drawn at and its box, and whether
// its draw command's clip rectangle cuts it.
//
// It reads the vertices, not the code that drew them: ImGui::Text, AddText at any size, wrapped
// text and a view's own number painter all come out the same, so a check of what a slide shows
// (the smallest type in a view, the labels it draws) cannot be talked into a wrong answer by the
// code under test.
//
//   for (const ws::viz::DrawnText& t : ws::viz::drawn_text(*ImGui::GetWindowDrawList(), *io.Fonts))
//     if (t.px < 16) complain(t.text);   // "31" at 11 px
//
// A glyph is four vertices with its atlas rectangle's exact texture coordinates (ImFont::RenderText
// writes them so); its size is the font's size times the quad's height over the glyph's height in
// the atlas. Glyphs that ImGui clipped on the CPU (their coordinates trimmed) are not recognised
// and so not reported; glyphs wholly outside their clip rectangle are left out, partly outside
// ones mark their run `clipped`.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

namespace ws::viz {

struct DrawnText {
  std::string text;   // UTF-8; a gap wider than a third of the size between glyphs reads as a space
  float px = 0;       // the font size it was drawn at, in the list's coordinates
  ImVec2 min{0, 0}, max{0, 0};  // the glyphs' box
  bool clipped = false;         // some glyph is partly outside its command's clip rectangle
};

// Every run of text in `list` (fonts of `atlas`), in drawing order; only glyphs whose vertices
// come at or after `first_vertex` (what was drawn after a point: note VtxBuffer.Size there).
std::vector<DrawnText> drawn_text(const ImDrawList& list, const ImFontAtlas& atlas, int first_vertex = 0);

}  // namespace ws::viz
