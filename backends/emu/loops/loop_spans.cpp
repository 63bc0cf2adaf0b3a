#include "loop_spans.h"

#include <cctype>
#include <string>

namespace ws::emu {

namespace {

struct Token {
  std::string_view text;
  SourcePos begin, end;  // first and last character
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The tokens that matter for statements: identifiers, numbers (pp-numbers, so that 1'000 is one),
// and single punctuation characters. Comments, literals and preprocessor lines are left out.
std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  uint32_t line = 1, col = 1;
  size_t i = 0;
  bool line_start = true;  // only blanks so far on this line
  auto advance = [&](size_t k) {
    for (; k > 0 && i < s.size(); --k, ++i) {
      if (s[i] == '\n') ++line, col = 1, line_start = true;
      else ++col;
    }
  };
  auto skip_to = [&](size_t stop) { advance(stop - i); };
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      advance(1);
      continue;
    }
    if (c == '#' && line_start) {  // a preprocessor line, with its continuations
      size_t j = i;
      while (j < s.size() && !(s[j] == '\n' && (j == 0 || s[j - 1] != '\\'))) ++j;
      skip_to(j);
      continue;
    }
    line_start = false;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      const size_t j = s.find('\n', i);
      skip_to(j == std::string_view::npos ? s.size() : j);
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const size_t j = s.find("*/", i + 2);
      skip_to(j == std::string_view::npos ? s.size() : j + 2);
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < s.size() && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      skip_to(std::min(s.size(), j + 1));
      line_start = false;
      continue;
    }
    const SourcePos begin{line, col};
    size_t j = i + 1;
    if (ident_start(c)) {
      while (j < s.size() && ident_char(s[j])) ++j;
      const std::string_view word = s.substr(i, j - i);
      if (j < s.size() && s[j] == '"' && !word.empty() && word.back() == 'R' &&
          (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R")) {
        // A raw string: R"delim( ... )delim".
        const size_t open = s.find('(', j);
        if (open != std::string_view::npos) {
          const std::string close = ")" + std::string(s.substr(j + 1, open - j - 1)) + "\"";
          const size_t end = s.find(close, open);
          skip_to(end == std::string_view::npos ? s.size() : end + close.size());
          continue;
        }
      }
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (j < s.size() && (ident_char(s[j]) || s[j] == '.' ||
                              (s[j] == '\'' && j + 1 < s.size() && ident_char(s[j + 1]))))
        ++j;
    }
    const std::string_view text = s.substr(i, j - i);
    skip_to(j);
    out.push_back({text, begin, {begin.line, begin.column + uint32_t(text.size()) - 1}});
  }
  return out;
}

class StatementReader {
 public:
  explicit StatementReader(const std::vector<Token>& t) : t_(t), ends_do_(t.size(), false) {}

  // Index of the token that closes the bracket opened at `i` ((, [ or {), or the last token.
  size_t match(size_t i) const {
    int depth = 0;
    for (size_t j = i; j < t_.size(); ++j) {
      const std::string_view x = t_[j].text;
      if (x == "(" || x == "[" || x == "{") ++depth;
      else if ((x == ")" || x == "]" || x == "}") && --depth == 0) return j;
    }
    return t_.size() - 1;
  }

  // Index of the last token of the statement that starts at `i`.
  size_t statement_end(size_t i) {
    const size_t last = t_.size() - 1;
    if (i > last) return last;
    const std::string_view x = t_[i].text;
    if (x == "{") return match(i);
    if (x == ";") return i;
    if (x == "[" && i < last && t_[i + 1].text == "[") return statement_end(match(i) + 1);  // [[likely]] ...
    if (x == "if") {
      size_t j = i + 1;
      if (j <= last && t_[j].text == "constexpr") ++j;
      if (j <= last && t_[j].text == "(") j = match(j) + 1;
      size_t e = statement_end(j);
      if (e < last && t_[e + 1].text == "else") e = statement_end(e + 2);
      return e;
    }
    if (x == "for" || x == "while" || x == "switch") {
      size_t j = i + 1;
      if (j <= last && t_[j].text == "(") j = match(j) + 1;
      return statement_end(j);
    }
    if (x == "do") {
      size_t j = statement_end(i + 1) + 1;
      if (j > last || t_[j].text != "while") return j - 1;
      ends_do_[j] = true;
      if (j + 1 <= last && t_[j + 1].text == "(") j = match(j + 1);
      return j + 1 <= last && t_[j + 1].text == ";" ? j + 1 : j;
    }
    for (size_t j = i; j <= last; ++j) {  // an expression or declaration, up to its `;`
      const std::string_view y = t_[j].text;
      if (y == "(" || y == "[" || y == "{") j = match(j);
      else if (y == ";") return j;
      else if (y == "}") return j > i ? j - 1 : i;  // (the enclosing block ends: no `;`)
    }
    return last;
  }

  bool ends_do(size_t i) const { return ends_do_[i]; }

 private:
  const std::vector<Token>& t_;
  std::vector<bool> ends_do_;  // `while` tokens that close a do-while, not loops of their own
};

}  // namespace

std::vector<LoopSpan> find_loops(std::string_view source) {
  const std::vector<Token> t = tokenize(source);
  std::vector<LoopSpan> out;
  if (t.empty()) return out;
  StatementReader r(t);
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string_view x = t[i].text;
    if (x != "for" && x != "while" && x != "do") continue;
    if (x == "while" && r.ends_do(i)) continue;
    out.push_back({t[i].begin, t[r.statement_end(i)].end});
  }
  return out;
}

std::optional<LoopSpan> innermost_loop(const std::vector<LoopSpan>& spans, SourcePos p) {
  std::optional<LoopSpan> best;
  for (const LoopSpan& s : spans)
    if (s.contains(p) && (!best || best->begin < s.begin)) best = s;
  return best;
}

}  // namespace ws::emu
