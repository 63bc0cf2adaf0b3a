#include "lessons/slide_report.h"

#include "lessons/lesson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

namespace ws::app {

float ViewReport::fill_w() const {
  const float w = box_max.x - box_min.x;
  return w > 0 ? std::clamp((picture_max.x - picture_min.x) / w, 0.0f, 1.0f) : 0.0f;
}

float ViewReport::fill_h() const {
  const float h = box_max.y - box_min.y;
  return h > 0 ? std::clamp((picture_max.y - picture_min.y) / h, 0.0f, 1.0f) : 0.0f;
}

const char* ViewReport::limiting_axis() const {
  const float w = box_max.x - box_min.x, h = box_max.y - box_min.y;
  if (natural.x > 0 && natural.y > 0 && w > 0 && h > 0) return natural.x / w >= natural.y / h ? "width" : "height";
  if (natural.x > 0) return "height";
  if (natural.y > 0) return "width";
  return fill_w() <= fill_h() ? "width" : "height";
}

float ViewReport::fill() const { return std::string(limiting_axis()) == "width" ? fill_w() : fill_h(); }

SlideRules back_row_rules(float height) {
  // 22 and 16 px at 720 lines, in proportion at any other height.
  const float k = height / 720.0f;
  return SlideRules{std::floor(22.0f * k), std::floor(16.0f * k), 0.6f};
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The label kinds a caption may name, by their singular and plural words.
const std::map<std::string, std::string>& label_words() {
  static const std::map<std::string, std::string> words = {
      {"lane", "lane"},   {"lanes", "lane"},       {"bank", "bank"},       {"banks", "bank"},
      {"warp", "warp"},   {"warps", "warp"},       {"pass", "pass"},       {"passes", "pass"},
      {"block", "block"}, {"blocks", "block"},     {"element", "element"}, {"elements", "element"}};
  return words;
}

struct Token {
  std::string word;  // lower case; a number's digits; or one punctuation character
  bool number = false;
};

std::vector<Token> tokens(const std::string& text) {
  std::vector<Token> out;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isspace(c)) {
      ++i;
    } else if (std::isdigit(c)) {
      size_t j = i;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      // "1.5" or "4x" is not a label's number
      const bool part = j < text.size() && (std::isalpha(static_cast<unsigned char>(text[j])) ||
                                            (text[j] == '.' && j + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[j + 1]))));
      out.push_back({text.substr(i, j - i), !part});
      i = j;
    } else if (std::isalpha(c)) {
      size_t j = i;
      while (j < text.size() && (std::isalpha(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      out.push_back({lower(text.substr(i, j - i)), false});
      i = j;
    } else {
      out.push_back({std::string(1, char(c)), false});
      ++i;
    }
  }
  return out;
}

// Whether the caption points at a picture by its place: "(left)", "(right, one pass)", "on the
// left", "at the bottom", or a sentence that starts "Left:" / "Right, ...". Not "is left:" or
// "top to bottom, ...", which say something else.
bool layout_phrase(const std::string& caption, const std::vector<std::string>& words) {
  const std::string c = lower(caption);
  auto sentence_start = [&](size_t at) {
    size_t k = at;
    while (k > 0 && c[k - 1] == ' ') --k;
    return k == 0 || c[k - 1] == '.' || c[k - 1] == ';' || c[k - 1] == '!' || c[k - 1] == '?';
  };
  for (const std::string& w : words) {
    for (const std::string& form : {"(" + w + ")", "(" + w + ",", "on the " + w, "at the " + w})
      for (size_t at = c.find(form); at != std::string::npos; at = c.find(form, at + 1))
        if (at == 0 || !std::isalpha(static_cast<unsigned char>(c[at - 1]))) return true;
    for (const std::string& form : {w + ":", w + ","})
      for (size_t at = c.find(form); at != std::string::npos; at = c.find(form, at + 1))
        if (sentence_start(at)) return true;
  }
  return false;
}

// Nouns a number counts ("8 trips", "32 passes"): a number followed by one is a count, not the
// name of a lane, bank or warp.
bool counts_something(const std::string& word) {
  static const char* const kNouns[] = {"trip",  "trips",   "pass",  "passes", "lane",  "lanes",    "bank",  "banks",
                                       "warp",  "warps",   "word",  "words",  "byte",  "bytes",    "sector", "sectors",
                                       "line",  "lines",   "thread", "threads", "block", "blocks", "element", "elements",
                                       "time",  "times",   "row",   "rows",   "column", "columns", "way",   "ways",
                                       "step",  "steps",   "instruction", "instructions", "wavefront", "wavefronts",
                                       "conflict", "conflicts", "cycle", "cycles", "ms", "us", "kb", "mb", "gb", "b"};
  return std::find(std::begin(kNouns), std::end(kNouns), word) != std::end(kNouns);
}

bool drawn(const SlideReport& r, const NamedLabel& l) {
  const std::string num = std::to_string(l.value);
  const std::string phrase = l.kind + " " + num;
  for (const ViewReport& v : r.views)
    for (const ws::viz::DrawnText& t : v.texts) {
      if (t.text == num) return true;
      const std::string low = lower(t.text);
      for (size_t at = low.find(phrase); at != std::string::npos; at = low.find(phrase, at + 1)) {
        const size_t end = at + phrase.size();
        if (end == low.size() || !std::isdigit(static_cast<unsigned char>(low[end]))) return true;
      }
    }
  return false;
}

std::string px_text(float px) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f px", px);
  return buf;
}

}  // namespace

std::vector<NamedLabel> caption_labels(const std::string& caption) {
  std::vector<NamedLabel> out;
  const std::vector<Token> t = tokens(caption);
  for (size_t i = 0; i < t.size(); ++i) {
    // "cache[128 .. 159]": a range of an array's elements, each drawn with its number.
    if (i + 7 < t.size() + 1 && t[i].word == "[" && i > 0 && std::isalpha(static_cast<unsigned char>(t[i - 1].word[0])) &&
        i + 1 < t.size() && t[i + 1].number) {
      size_t j = i + 2;
      if (j + 2 < t.size() && t[j].word == "." && t[j + 1].word == "." && t[j + 2].number && j + 3 < t.size() &&
          t[j + 3].word == "]") {
        const long a = std::stol(t[i + 1].word.substr(0, 9)), b = std::stol(t[j + 2].word.substr(0, 9));
        if (b >= a && b - a < 64)
          for (long v = a; v <= b; ++v) out.push_back({"element", v});
        i = j + 3;
        continue;
      }
    }
    const auto kind = label_words().find(t[i].word);
    if (kind == label_words().end()) continue;
    // A list of numbers after the word: "0, 8, 16 and 24", "8 to 11", "0 - 3", "0 .. 7".
    std::vector<long> values;
    size_t j = i + 1;
    bool range = false;
    while (j < t.size() && t[j].number) {
      // "bank 0, 32 passes", "the warp 8 trips": a number that counts something is no label
      if (j + 1 < t.size() && (counts_something(t[j + 1].word) || t[j + 1].word == "%")) break;
      const long v = std::stol(t[j].word.substr(0, 9));
      if (range && !values.empty() && v > values.back() && v - values.back() <= 32)
        for (long x = values.back() + 1; x < v; ++x) values.push_back(x);
      values.push_back(v);
      range = false;
      ++j;
      if (j < t.size() && (t[j].word == "," || t[j].word == "and" || t[j].word == "or")) {
        ++j;
        if (j < t.size() && (t[j].word == "and" || t[j].word == "or")) ++j;  // "1, 3, and 5"
      } else if (j < t.size() && (t[j].word == "to" || t[j].word == "-")) {
        range = true, ++j;
      } else if (j + 1 < t.size() && t[j].word == "." && t[j + 1].word == ".") {
        range = true, j += 2;
        while (j < t.size() && t[j].word == ".") ++j;
      } else {
        break;
      }
    }
    for (long v : values) out.push_back({kind->second, v});
    i = j > i + 1 ? j - 1 : i;
  }
  return out;
}

std::vector<std::string> slide_problems(const SlideReport& r, const LessonStep& step, const SlideRules& rules) {
  std::vector<std::string> out;
  const float slack = 0.5f;  // a glyph's quad is measured to a fraction of a pixel
  if (r.title_px > 0 && r.title_px + slack < rules.caption_px)
    out.push_back("the title is " + px_text(r.title_px) + "; the back row needs " + px_text(rules.caption_px));
  if (r.caption_px > 0 && r.caption_px + slack < rules.caption_px)
    out.push_back("the caption is " + px_text(r.caption_px) + "; the back row needs " + px_text(rules.caption_px));
  for (size_t i = 0; i < r.views.size(); ++i) {
    const ViewReport& v = r.views[i];
    const std::string name = "view " + std::to_string(i + 1) + " (" + v.id + ")";
    if (v.smallest_px > 0 && v.smallest_px + slack < rules.label_px)
      out.push_back(name + ": '" + v.smallest_text + "' is " + px_text(v.smallest_px) + "; the back row needs " +
                    px_text(rules.label_px));
    if (v.fill() < rules.min_fill) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ": the picture fills %.0f%% of its box's width and %.0f%% of its height (%.0f%% of the %s needed)",
                    100 * v.fill_w(), 100 * v.fill_h(), 100 * rules.min_fill, v.limiting_axis());
      out.push_back(name + buf);
    }
    for (const std::string& c : v.clipped) out.push_back(name + ": '" + c + "' is cut off by its box");
    if (v.scrolls) out.push_back(name + ": the picture is larger than its box (it scrolls)");
  }
  // What the caption names must be on the slide, labelled.
  const std::string& caption = step.caption;
  std::vector<NamedLabel> missing;
  for (const NamedLabel& l : caption_labels(caption))
    if (!drawn(r, l)) missing.push_back(l);
  // One line per run of consecutive numbers of a kind: "elements 128-159".
  for (size_t i = 0; i < missing.size();) {
    size_t j = i + 1;
    while (j < missing.size() && missing[j].kind == missing[i].kind && missing[j].value == missing[j - 1].value + 1) ++j;
    std::string why = "the caption names " + missing[i].kind + (j - i > 1 ? "s " : " ") + std::to_string(missing[i].value) +
                      (j - i > 1 ? "-" + std::to_string(missing[j - 1].value) : "") + ", which no view labels";
    for (const ViewReport& v : r.views)
      for (const std::string& lo : v.left_out) why += " (" + v.id + " left out " + lo + ")";
    out.push_back(why);
    i = j;
  }
  // Words of layout against the layout drawn.
  const bool across = (r.layout == "row" && r.group_views > 1) || r.compare_layout == "row" || r.layout == "grid";
  const bool stacked = (r.layout == "column" && r.group_views > 1) || r.compare_layout == "column" || r.layout == "grid";
  if (layout_phrase(caption, {"left", "right"}) && !across)
    out.push_back("the caption says left/right, but the pictures are drawn one under another");
  if (layout_phrase(caption, {"top", "bottom", "above", "below"}) && !stacked)
    out.push_back("the caption says top/bottom, but the pictures are drawn side by side");
  return out;
}

std::string slide_report_json(const SlideReport& r, float factor) {
  auto box = [&](ImVec2 a, ImVec2 b) {
    return nlohmann::json{{"x", a.x * factor}, {"y", a.y * factor}, {"w", (b.x - a.x) * factor}, {"h", (b.y - a.y) * factor}};
  };
  nlohmann::json j;
  j["size"] = {{"w", r.size.x * factor}, {"h", r.size.y * factor}};
  j["title_px"] = r.title_px * factor;
  j["caption_px"] = r.caption_px * factor;
  j["layout"] = r.layout;
  j["group_views"] = r.group_views;
  if (!r.compare_layout.empty()) j["compare_layout"] = r.compare_layout;
  j["views"] = nlohmann::json::array();
  for (const ViewReport& v : r.views) {
    nlohmann::json jv;
    jv["id"] = v.id;
    jv["box"] = box(v.box_min, v.box_max);
    jv["picture"] = box(v.picture_min, v.picture_max);
    jv["natural"] = {{"w", v.natural.x * factor}, {"h", v.natural.y * factor}};
    jv["fill"] = {{"w", v.fill_w()}, {"h", v.fill_h()}, {"limiting_axis", v.limiting_axis()}, {"limiting", v.fill()}};
    jv["zoom"] = v.zoom;
    jv["smallest_text"] = {{"px", v.smallest_px * factor}, {"text", v.smallest_text}};
    jv["left_out"] = v.left_out;
    jv["clipped"] = v.clipped;
    jv["scrolls"] = v.scrolls;
    jv["text_count"] = v.texts.size();
    j["views"].push_back(std::move(jv));
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ws::app
