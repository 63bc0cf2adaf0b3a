#include "ws/kernel_file/description.h"

#include <filesystem>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <toml++/toml.h>

#include "ws/run/config.h"
#include "ws/util/atomic_file.h"

namespace ws::kernel_file {

namespace {

// =================================================================================================
// [SECTION] Reading values with their place in the file
// =================================================================================================

struct Failure {
  uint32_t line, column;
  std::string message;
};

struct Reader {
  uint32_t first_line;  // file line of the block's first TOML line, minus 1
  uint32_t line(const toml::node& v) const { return first_line + uint32_t(v.source().begin.line); }
  [[noreturn]] void fail(const toml::node& at, const std::string& what) const {
    throw Failure{line(at), uint32_t(at.source().begin.column), what};
  }
  std::string text(const toml::node& v, const std::string& key) const {
    if (const auto* s = v.as_string()) return s->get();
    fail(v, key + " must be text in quotes");
  }
  // An expression: text, or a number (taken as its C++ literal).
  Expr expr(const toml::node& v, const std::string& key) const {
    if (const auto* s = v.as_string()) {
      if (s->get().find_first_not_of(" \t") == std::string::npos) fail(v, key + " is empty");
      if (s->get().find('\n') != std::string::npos) fail(v, key + " must fit on one line");
      return {s->get(), line(v), uint32_t(v.source().begin.column) + 1};  // (after the opening quote)
    }
    if (const auto* i = v.as_integer()) return {std::to_string(i->get()), line(v), uint32_t(v.source().begin.column)};
    if (const auto* f = v.as_floating_point()) {
      char b[64];
      std::snprintf(b, sizeof b, "%.17g", f->get());
      std::string t = b;
      if (t.find_first_of(".eEn") == std::string::npos) t += ".0";
      return {t, line(v), uint32_t(v.source().begin.column)};
    }
    fail(v, key + " must be a C++ expression in quotes or a number");
  }
  int64_t integer(const toml::node& v, const std::string& key, int64_t lo, int64_t hi) const {
    const auto* i = v.as_integer();
    if (!i) fail(v, key + " must be a whole number");
    if (i->get() < lo || i->get() > hi)
      fail(v, key + " = " + std::to_string(i->get()) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return i->get();
  }
  double number(const toml::node& v, const std::string& key) const {
    if (const auto* i = v.as_integer()) return double(i->get());
    if (const auto* f = v.as_floating_point()) return f->get();
    fail(v, key + " must be a number");
  }
  const toml::table& table(const toml::node& v, const std::string& key) const {
    if (const auto* t = v.as_table()) return *t;
    fail(v, key + " must be a table");
  }
};

[[noreturn]] void unknown_key(const Reader& r, const toml::node& at, const std::string& where, const std::string& key,
                              const char* allowed) {
  r.fail(at, "unknown key '" + key + "'" + where + " (allowed: " + allowed + ")");
}

// (Checked by hand, not with std::regex: libstdc++'s regex recurses per character, and a
// description may hold a line of any length.)
bool is_identifier(const std::string& s) {
  if (s.empty() || s.size() > 256 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A C++ type name as an array's type: letters, digits, _, ::, <, >, commas and spaces.
bool is_type_name(const std::string& s) {
  if (s.empty() || s.size() > 256 || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '<' || c == '>' || c == ',' || c == ' ';
  });
}

// Names the driver itself declares in the expressions' scope, the namespaces it names, and C++'s
// keywords: an array or parameter called so would not compile, far from the description.
bool is_reserved(const std::string& s) {
  static const std::set<std::string> names = {
      "n", "i", "block", "grid", "seed", "std", "ws",
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};
  return names.count(s) || s.rfind("ws_", 0) == 0 || s.rfind("__", 0) == 0;
}

// =================================================================================================
// [SECTION] The description's parts
// =================================================================================================

void read_shape(const Reader& r, const toml::node& v, uint32_t (&block)[3]) {
  if (v.as_integer()) {
    block[0] = uint32_t(r.integer(v, "block", 1, 1024));
    return;
  }
  const toml::array* a = v.as_array();
  if (!a || a->empty() || a->size() > 3) r.fail(v, "block is a number or [x, y] or [x, y, z]");
  // (z stays 1: a kernel file's block is 1D or 2D; the labs and --block give z as the catalog does.)
  const int64_t lim[3] = {1024, 1024, 1};
  if (a->size() == 3 && a->get(2)->as_integer() && a->get(2)->as_integer()->get() != 1)
    r.fail(*a->get(2), "block z must be 1 in a launch description ([x, y]); --block X,Y,Z gives a 3D block");
  for (size_t k = 0; k < a->size(); ++k) block[k] = uint32_t(r.integer(*a->get(k), "block", 1, lim[k]));
  if (uint64_t(block[0]) * block[1] * block[2] > 1024)
    r.fail(v, "block of " + std::to_string(uint64_t(block[0]) * block[1] * block[2]) + " threads is over the limit of 1024 threads per block");
}

void read_grid(const Reader& r, const toml::node& v, Expr (&grid)[3], const std::string& key) {
  if (const toml::array* a = v.as_array()) {
    if (a->empty() || a->size() > 3) r.fail(v, key + " is an expression or [x, y] or [x, y, z]");
    for (size_t k = 0; k < a->size(); ++k) grid[k] = r.expr(*a->get(k), key);
    return;
  }
  grid[0] = r.expr(v, key);
}

ArrayDesc read_array(const Reader& r, const std::string& name, const toml::node& node) {
  ArrayDesc a;
  a.name = name;
  a.line = r.line(node);
  if (!is_identifier(name) || is_reserved(name))
    r.fail(node, "array '" + name.substr(0, 64) + "': the name must be a C++ identifier, not a keyword nor one the driver uses (n, i, block, grid, seed, std, ws, ws_..., __...)");
  bool has_type = false, has_size = false;
  for (const auto& [k, v] : r.table(node, "arrays." + name)) {
    const std::string key(k.str());
    if (key == "type") {
      a.type = r.text(v, "type");
      if (!is_type_name(a.type)) r.fail(v, "type '" + a.type.substr(0, 80) + "' is not a C++ type name");
      has_type = true;
    } else if (key == "size") {
      a.size = r.expr(v, "size");
      has_size = true;
    } else if (key == "fill") {
      const std::string f = r.text(v, "fill");
      if (f == "random" || f == "iota" || f == "zeros" || f == "ones") {
        a.fill = f;
      } else {
        a.fill = "expression";
        a.fill_expr = r.expr(v, "fill");
      }
    } else if (key == "range") {
      const toml::array* x = v.as_array();
      if (!x || x->size() != 2) r.fail(v, "range is [lo, hi] (for fill = \"random\")");
      a.lo = r.number(*x->get(0), "range");
      a.hi = r.number(*x->get(1), "range");
      if (!(a.lo <= a.hi)) r.fail(v, "range [lo, hi] needs lo <= hi");
      if (!(a.lo >= -9.2e18 && a.hi <= 9.2e18)) r.fail(v, "range [lo, hi] must lie within +-9.2e18");
      a.has_range = true;
    } else if (key == "expect") {
      a.expect = r.expr(v, "expect");
    } else if (key == "tolerance") {
      a.tolerance = r.number(v, "tolerance");
      if (!(a.tolerance >= 0 && a.tolerance < 1e30)) r.fail(v, "tolerance must be a number >= 0 (relative to the expected value)");
    } else if (key == "row_length") {
      a.row_length = r.expr(v, "row_length");
    } else {
      unknown_key(r, v, " in [arrays." + name + "]", key, "type, size, fill, range, expect, tolerance, row_length");
    }
  }
  if (!has_type) r.fail(node, "array '" + name + "' has no type (e.g. type = \"float\")");
  if (!has_size) r.fail(node, "array '" + name + "' has no size (e.g. size = \"n\")");
  return a;
}

ParamDesc read_param(const Reader& r, const std::string& name, const toml::node& node) {
  ParamDesc p;
  p.name = name;
  if (!is_identifier(name) || is_reserved(name))
    r.fail(node, "parameter '" + name.substr(0, 64) + "': the name must be a C++ identifier, not a keyword nor one the driver uses (n, i, block, grid, seed, std, ws, ws_..., __...)");
  bool has_min = false, has_max = false, has_def = false;
  constexpr int64_t big = int64_t(1) << 40;
  // A parameter is real (alpha = 2.5 reaches the kernel as a double) when any of its numbers is
  // written as one (min = 0.0); else its values are whole numbers.
  auto number = [&](const toml::node& v, const char* key) {
    if (v.is_floating_point()) {
      const double x = *v.value<double>();
      if (!std::isfinite(x) || std::fabs(x) > double(big)) r.fail(v, std::string(key) + " must be a finite number within ±2^40");
      p.real = true;
      return x;
    }
    return double(r.integer(v, key, -big, big));
  };
  for (const auto& [k, v] : r.table(node, "params." + name)) {
    const std::string key(k.str());
    if (key == "default") p.def = number(v, "default"), has_def = true;
    else if (key == "min") p.min = number(v, "min"), has_min = true;
    else if (key == "max") p.max = number(v, "max"), has_max = true;
    else if (key == "description") p.description = r.text(v, "description");
    else if (key == "choices") {
      const toml::array* a = v.as_array();
      if (!a || a->empty()) r.fail(v, "choices is a list of names, e.g. [\"rows\", \"columns\"]");
      for (const toml::node& c : *a) p.choices.push_back(r.text(c, "choices"));
    } else {
      unknown_key(r, v, " in [params." + name + "]", key, "default, min, max, description, choices");
    }
  }
  if (!p.choices.empty()) {
    if (p.real) r.fail(node, "parameter '" + name + "': a parameter with choices takes whole numbers (its choices' indices)");
    if (!has_min) p.min = 0;
    if (!has_max) p.max = double(p.choices.size()) - 1;
  }
  if (!has_def) p.def = p.min;
  if (!has_max && p.choices.empty()) p.max = std::max(p.def, p.min);
  if (p.min > p.max || p.def < p.min || p.def > p.max)
    r.fail(node, "parameter '" + name + "': needs min <= default <= max (min " + param_text(p.min) + ", default " +
                     param_text(p.def) + ", max " + param_text(p.max) + ")");
  return p;
}

// accepts = ["block.x % 32 == 0", "n % (2 * block.x) == 0"]: C++ conditions a launch must meet.
void read_accepts(const Reader& r, const toml::node& v, std::vector<Expr>& out) {
  const toml::array* a = v.as_array();
  if (!a) r.fail(v, "accepts is a list of conditions on n, block and the parameters, e.g. [\"block.x % 32 == 0\"]");
  for (const toml::node& e : *a) out.push_back(r.expr(e, "accepts"));
}

VariantDesc read_variant(const Reader& r, const toml::node& node, size_t index) {
  VariantDesc v;
  v.line = r.line(node);
  for (const auto& [k, x] : r.table(node, "variants")) {
    const std::string key(k.str());
    if (key == "id") v.id = x.as_integer() ? std::to_string(x.as_integer()->get()) : r.text(x, "id");
    else if (key == "name") v.name = r.text(x, "name");
    else if (key == "summary") v.summary = r.text(x, "summary");
    else if (key == "kernel") v.kernel = r.expr(x, "kernel");
    else if (key == "args") {
      const toml::array* a = x.as_array();
      if (!a) r.fail(x, "args is the kernel's arguments in order, e.g. [\"x\", \"y\", \"n\"]");
      v.args.emplace();
      for (const toml::node& e : *a) v.args->push_back(r.expr(e, "args"));
    } else if (key == "grid") {
      Expr g[3];
      read_grid(r, x, g, "grid");
      for (int a = 0; a < 3; ++a)
        if (!g[a].text.empty()) v.grid[a] = g[a];
    } else if (key == "block") {
      read_shape(r, x, v.block);
    } else if (key == "shared") {
      v.shared = r.expr(x, "shared");
    } else if (key == "accepts") {
      read_accepts(r, x, v.accepts);
    } else {
      unknown_key(r, x, " in [[variants]]", key, "id, name, summary, kernel, args, grid, block, shared, accepts");
    }
  }
  if (v.kernel.text.empty()) r.fail(node, "variant " + std::to_string(index + 1) + " has no kernel (kernel = \"my_kernel\")");
  if (v.id.empty()) v.id = std::to_string(index + 1);
  if (v.name.empty()) v.name = v.kernel.text;
  return v;
}

// The TOML text of the block and the file line before its first line.
bool find_block(const std::string& text, std::string& toml, uint32_t& line_before, uint32_t& marker_line) {
  const std::string marker = "/* warpscope";
  size_t at = 0;
  while ((at = text.find(marker, at)) != std::string::npos) {
    const size_t after = at + marker.size();
    const size_t eol = text.find('\n', after);
    const std::string rest = text.substr(after, eol == std::string::npos ? std::string::npos : eol - after);
    if (rest.find_first_not_of(" \t\r") == std::string::npos) {
      marker_line = 1 + uint32_t(std::count(text.begin(), text.begin() + long(at), '\n'));
      line_before = marker_line;
      const size_t begin = eol == std::string::npos ? text.size() : eol + 1;
      const size_t end = text.find("*/", begin);
      if (end == std::string::npos) return false;
      toml = text.substr(begin, end - begin);
      return true;
    }
    at = after;
  }
  marker_line = 0;
  return false;
}

}  // namespace

std::string with_description_of(const std::string& text, const std::string& donor) {
  // [from, to): the comment from "/* warpscope" to its "*/", in `t`; false when there is none.
  auto span = [](const std::string& t, size_t& from, size_t& to) {
    std::string toml;
    uint32_t before = 0, marker = 0;
    if (!find_block(t, toml, before, marker)) return false;
    size_t at = 0;
    for (uint32_t line = 1; line < marker; ++line) at = t.find('\n', at) + 1;
    from = t.find("/* warpscope", at);
    to = t.find("*/", from) + 2;
    return true;
  };
  size_t from = 0, to = 0;
  if (!span(donor, from, to)) return {};
  const std::string block = donor.substr(from, to - from);
  std::string out = text;
  if (size_t a = 0, b = 0; span(out, a, b))
    for (size_t i = a; i < b; ++i)
      if (out[i] != '\n') out[i] = ' ';
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out + block + "\n";
}

std::string read_with_description_of(const std::string& path, const std::string& donor, std::string& error) {
  std::string text;
  if (!read_file(path, text, error, 4u << 20)) return {};
  std::string out = with_description_of(text, donor);
  if (out.empty()) error = "the exercise's starting file has no launch description (/* warpscope ... */)";
  return out;
}

std::string name_from_path(const std::string& path) {
  std::string stem = std::filesystem::path(path).stem().string(), out;
  for (char ch : stem) out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' ? ch : '_';
  return out.empty() ? "kernel" : out;
}

std::optional<Description> parse_description(const std::string& path, const std::string& text,
                                             std::vector<BuildDiagnostic>& problems) {
  auto problem = [&](uint32_t line, uint32_t column, const std::string& what) {
    problems.push_back({BuildDiagnostic::Severity::Error, path, line, column, what});
    return std::nullopt;
  };
  std::string block;
  uint32_t before = 0, marker = 0;
  if (!find_block(text, block, before, marker)) {
    if (marker) return problem(marker, 1, "the launch description that starts here has no closing */");
    return problem(0, 0,
                   "no launch description: the file needs a comment that opens with \"/* warpscope\" on a line of its "
                   "own and holds the launch in TOML (kernel, n, block, args, [arrays.NAME]); see docs/writing-kernels.md");
  }
  Description d;
  d.path = path;
  d.line = marker;
  d.name = name_from_path(path);
  const Reader r{before};
  try {
    toml::table root;
    try {
      root = toml::parse(block, path);
    } catch (const toml::parse_error& e) {
      return problem(before + uint32_t(e.source().begin.line), uint32_t(e.source().begin.column),
                     "launch description: " + std::string(e.description()));
    }
    Expr lone_kernel;
    const toml::node* variants = nullptr;
    for (const auto& [k, v] : root) {
      const std::string key(k.str());
      if (key == "kernel") lone_kernel = r.expr(v, "kernel");
      else if (key == "entry") {
        d.entry = r.text(v, "entry");
        if (!is_identifier(d.entry)) r.fail(v, "entry names a struct of the file (a C++ identifier)");
      } else if (key == "name") {
        d.name = r.text(v, "name");
        d.name_given = true;
        const bool ok = !d.name.empty() && d.name.size() <= 64 && std::all_of(d.name.begin(), d.name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
        });
        if (!ok) r.fail(v, "name is 1 to 64 letters, digits, - or _");
      } else if (key == "title") d.title = r.text(v, "title");
      else if (key == "description") d.description = r.text(v, "description");
      else if (key == "n") d.n = uint64_t(r.integer(v, "n", 1, 0xffffffffll));
      else if (key == "block") read_shape(r, v, d.block);
      else if (key == "grid") read_grid(r, v, d.grid, "grid");
      else if (key == "shared") d.shared = r.expr(v, "shared");
      else if (key == "accepts") read_accepts(r, v, d.accepts);
      else if (key == "dtype") d.dtype = r.text(v, "dtype");
      else if (key == "args") {
        const toml::array* a = v.as_array();
        if (!a) r.fail(v, "args is the kernel's arguments in order, e.g. [\"x\", \"y\", \"2.0f\", \"n\"]");
        for (const toml::node& x : *a) d.args.push_back(r.expr(x, "args"));
      } else if (key == "arrays") {
        for (const auto& [name, t] : r.table(v, "arrays")) d.arrays.push_back(read_array(r, std::string(name.str()), t));
      } else if (key == "params") {
        for (const auto& [name, t] : r.table(v, "params")) d.params.push_back(read_param(r, std::string(name.str()), t));
      } else if (key == "variants") {
        variants = &v;
      } else {
        unknown_key(r, v, "", key,
                    "kernel, variants, entry, name, title, description, n, block, grid, shared, accepts, dtype, args, arrays, params");
      }
    }
    if (!d.entry.empty()) return d;  // a catalog-style entry says the rest itself
    if (variants) {
      const toml::array* a = variants->as_array();
      if (!a || a->empty()) r.fail(*variants, "variants is a list of [[variants]] tables");
      for (size_t k = 0; k < a->size(); ++k) d.variants.push_back(read_variant(r, *a->get(k), k));
      if (!lone_kernel.text.empty()) r.fail(*variants, "give either kernel = ... or [[variants]], not both");
      std::set<std::string> ids;
      for (const VariantDesc& v : d.variants)
        if (!ids.insert(v.id).second) throw Failure{v.line, 1, "two variants have the id '" + v.id + "'"};
    } else if (!lone_kernel.text.empty()) {
      VariantDesc v;
      v.kernel = lone_kernel;
      v.id = v.name = lone_kernel.text;
      v.line = lone_kernel.line;
      d.variants.push_back(v);
    } else {
      throw Failure{marker, 1, "the launch description names no kernel: add kernel = \"my_kernel\" (or [[variants]], or entry = \"MyEntry\")"};
    }
    std::set<std::string> names;
    for (const ArrayDesc& a : d.arrays) names.insert(a.name);
    for (const ParamDesc& p : d.params)
      if (!names.insert(p.name).second) throw Failure{marker, 1, "'" + p.name + "' is both an array and a parameter"};
    bool all_own_args = true;
    for (const VariantDesc& v : d.variants) all_own_args = all_own_args && v.args.has_value();
    if (d.args.empty() && !all_own_args && d.arrays.size() + d.params.size() > 0)
      throw Failure{marker, 1, "args is missing: list the kernel's arguments in order, e.g. args = [\"x\", \"y\", \"n\"]"};
    if (d.title.empty()) d.title = d.name + " (" + std::filesystem::path(path).filename().string() + ")";
  } catch (const Failure& f) {
    return problem(f.line, f.column, f.message);
  }
  return d;
}

}  // namespace ws::kernel_file
