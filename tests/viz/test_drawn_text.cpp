// Reading text back from a draw list: the words, the size each was drawn at (whatever call drew
// it), lines of wrapped text as runs of their own, and what a clip rectangle hides or cuts.
#include "ws/viz/drawn_text.h"
#include "ws/viz/fonts.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

// An ImGui context with warpscope's fonts at `px`, a frame begun and one window open.
struct Frame {
  ImGuiContext* ctx = ImGui::CreateContext();
  explicit Frame(float px) {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ws::viz::build_fonts(*io.Fonts, px, ws::viz::default_font_paths());
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(800, 600));
    ImGui::Begin("text", nullptr, ImGuiWindowFlags_NoDecoration);
  }
  std::vector<ws::viz::DrawnText> read() { return ws::viz::drawn_text(*ImGui::GetWindowDrawList(), *ImGui::GetIO().Fonts); }
  ~Frame() {
    ImGui::End();
    ImGui::Render();
    ImGui::DestroyContext(ctx);
  }
};

const ws::viz::DrawnText* find(const std::vector<ws::viz::DrawnText>& runs, const std::string& text) {
  auto it = std::find_if(runs.begin(), runs.end(), [&](const auto& r) { return r.text == text; });
  return it == runs.end() ? nullptr : &*it;
}

}  // namespace

TEST(DrawnText, WordsAndTheSizeTheyWereDrawnAt) {
  Frame f(20);
  ImGui::Text("hello world");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText(ImGui::GetFont(), 37.0f, ImVec2(100, 200), IM_COL32_WHITE, "31");
  dl->AddText(ImGui::GetFont(), 11.0f, ImVec2(300, 200), IM_COL32_WHITE, "1023");
  ImGui::PushFont(ws::viz::mono_font());
  ImGui::Text("sdata[tid]");
  ImGui::PopFont();
  const auto runs = f.read();
  const auto* hello = find(runs, "hello world");
  ASSERT_TRUE(hello) << runs.size() << " runs";
  EXPECT_NEAR(hello->px, 20.0f, 0.05f);
  const auto* big = find(runs, "31");
  ASSERT_TRUE(big);
  EXPECT_NEAR(big->px, 37.0f, 0.05f);
  EXPECT_GE(big->min.x, 100.0f);
  EXPECT_LE(big->max.y, 200.0f + 37.0f);
  const auto* small = find(runs, "1023");
  ASSERT_TRUE(small);
  EXPECT_NEAR(small->px, 11.0f, 0.05f);
  const auto* code = find(runs, "sdata[tid]");
  ASSERT_TRUE(code);
  EXPECT_NEAR(code->px, 20.0f, 0.05f);
  for (const auto& r : runs) EXPECT_FALSE(r.clipped) << r.text;
}

TEST(DrawnText, WrappedLinesAreRunsOfTheirOwn) {
  Frame f(16);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::CalcTextSize("lanes 0 to 7").x + 2);
  ImGui::TextUnformatted("lanes 0 to 7 wait here");
  ImGui::PopTextWrapPos();
  const auto runs = f.read();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].text, "lanes 0 to 7");
  EXPECT_EQ(runs[1].text, "wait here");
  EXPECT_GT(runs[1].min.y, runs[0].min.y);
}

TEST(DrawnText, HiddenByTheClipRectangleOrCutByIt) {
  Frame f(20);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(0, 0), ImVec2(200, 100), false);
  dl->AddText(ImVec2(10, 10), IM_COL32_WHITE, "inside");
  dl->AddText(ImVec2(10, 300), IM_COL32_WHITE, "below");
  dl->AddText(ImVec2(10, 90), IM_COL32_WHITE, "cut");
  dl->PopClipRect();
  const auto runs = f.read();
  ASSERT_TRUE(find(runs, "inside"));
  EXPECT_FALSE(find(runs, "inside")->clipped);
  EXPECT_FALSE(find(runs, "below"));
  ASSERT_TRUE(find(runs, "cut"));
  EXPECT_TRUE(find(runs, "cut")->clipped);
}

TEST(DrawnText, RectanglesAndLinesAreNotText) {
  Frame f(20);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(10, 10), ImVec2(50, 50), IM_COL32_WHITE);
  dl->AddLine(ImVec2(0, 0), ImVec2(100, 100), IM_COL32_WHITE, 2.0f);
  dl->AddCircleFilled(ImVec2(200, 200), 20, IM_COL32_WHITE);
  EXPECT_TRUE(f.read().empty());
}
