#include "ws/kernel_file/generate.h"
#include "ws/plain_cuda/rewrite.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "ws/run/catalog.h"

namespace ws::kernel_file {

namespace {

// Whether one of a launch's arguments names the array (`out`, `out + 4`, `(int*)out`).
bool names_array(const std::vector<Expr>& args, const std::string& name) {
  for (const Expr& e : args) {
    for (size_t at = e.text.find(name); at != std::string::npos; at = e.text.find(name, at + 1)) {
      auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
      const bool starts = at == 0 || !word(e.text[at - 1]);
      const bool ends = at + name.size() >= e.text.size() || !word(e.text[at + name.size()]);
      if (starts && ends) return true;
    }
  }
  return false;
}


// A C++ string literal holding `s`.
std::string lit(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch == '\\' || ch == '"') out += '\\', out += char(ch);
    else if (ch == '\n') out += "\\n";
    else if (ch < 0x20 || ch == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\%03o", ch);
      out += b;
    } else out += char(ch);
  }
  return out + "\"";
}

// The generated text, keeping count of its lines so that the driver's own lines can be named
// after the user's expressions interrupt them.
class Writer {
 public:
  Writer(std::string path) : path_(std::move(path)) {}
  Writer& operator<<(const std::string& s) {
    text_ += s;
    lines_ += uint32_t(std::count(s.begin(), s.end(), '\n'));
    return *this;
  }
  // `e` on lines of its own, at its line and column in the file (so a compile error's caret lands
  // under it).
  std::string expr(const Expr& e) {
    std::string s = "(\n#line " + std::to_string(e.line) + " " + lit(path_) + "\n" +
                    std::string(e.column > 1 ? e.column - 1 : 0, ' ') + e.text + "\n)";
    s += "\n";
    s += "#line " + std::to_string(lines_ + uint32_t(std::count(s.begin(), s.end(), '\n')) + 2) + " " + lit(driver_name()) + "\n";
    return s;
  }
  std::string driver_name() const { return path_ + " (warpscope driver)"; }
  const std::string& text() const { return text_; }

 private:
  std::string path_, text_;
  uint32_t lines_ = 0;
};

// A double as a C++ literal that reads back to the same value.
std::string number(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  std::string t = b;
  if (t.find_first_of(".eEn") == std::string::npos) t += ".0";
  return t;
}

// A double as C++ source that reads back the same value ("2.5", "-3.0", "1e-06").
std::string real_literal(double v) {
  std::string t = param_text(v);
  if (t.find_first_of(".e") == std::string::npos) t += ".0";
  return t;
}

std::string prologue(const Description& d) {
  std::string s =
      "    [[maybe_unused]] const uint64_t n = ws_c.n;\n"
      "    [[maybe_unused]] const ws::Dim3 block = ws_c.block;\n"
      "    [[maybe_unused]] const uint64_t seed = ws_c.seed;\n";
  // (a whole parameter as int64_t, a real one as double: what the kernel's argument converts from)
  for (const ParamDesc& p : d.params)
    s += std::string("    [[maybe_unused]] const ") + (p.real ? "double " : "int64_t ") + p.name + " = " +
         (p.real ? "ws_c.real_param(" + lit(p.name) + ", " + real_literal(p.def)
                 : "ws_c.param(" + lit(p.name) + ", int64_t(" + std::to_string(int64_t(p.def)) + ")") + ");\n";
  return s;
}

void write_spec(Writer& w, const Description& d) {
  w << "  static ws::KernelSpec spec() {\n    ws::KernelSpec s;\n";
  w << "    s.name = " + lit(d.name) + ";\n    s.title = " + lit(d.title) + ";\n";
  w << "    s.description = " + lit(d.description.empty() ? "A kernel file: " + d.path : d.description) + ";\n";
  w << "    s.source = " + lit(d.path) + ";\n    s.file = " + lit(d.path) + ";\n    s.lecture = \"kernel file\";\n";
  for (const VariantDesc& v : d.variants) {
    w << "    s.variants.emplace_back(" + lit(v.id) + ", " + lit(v.name) + ", " + lit(v.summary) + ");\n";
    if (v.block[0])
      w << "    s.variants.back().block_x = " + std::to_string(v.block[0]) + ", s.variants.back().block_y = " +
               std::to_string(v.block[1]) + ";\n";
    w << "    s.variants.back().takes_grid = true;\n";
  }
  for (const ParamDesc& p : d.params) {
    std::string choices;
    for (const std::string& c : p.choices) choices += (choices.empty() ? "" : ", ") + lit(c);
    w << "    s.params.push_back({" + lit(p.name) + ", " + lit(p.description) + ", " + real_literal(p.min) + ", " +
             real_literal(p.max) + ", " + real_literal(p.def) + ", {" + choices + "}, " + (p.real ? "true" : "false") + "});\n";
  }
  w << "    s.default_n = " + std::to_string(d.n) + ";\n";
  w << "    s.default_block = " + std::to_string(d.block[0]) + ";\n";
  w << "    s.default_block_y = " + std::to_string(d.block[1]) + ";\n";
  w << "    s.block_2d = " + std::string(d.block[1] > 1 ? "true" : "false") + ";\n";
  w << "    s.dtypes = {" + lit(d.dtype) + "};\n";
  // The exact estimate is validate()'s, from the arrays' own sizes.
  w << "    s.arrays = 1;\n    s.elements = [](const ws::RunConfig&) { return uint64_t(0); };\n";
  w << "    s.timing.n = " + std::to_string(d.n) + ";\n    s.timing.scales = false;\n";
  w << "    s.timing.ceiling = ws::TimingSpec::Ceiling::Copy;\n";
  w << "    return s;\n  }\n";
}

// sizes(c, size): every array's size, or why one cannot be.
void write_sizes(Writer& w, const Description& d) {
  const size_t k = std::max<size_t>(1, d.arrays.size());
  w << "  static std::string ws_sizes([[maybe_unused]] const ws::RunConfig& ws_c, [[maybe_unused]] uint64_t (&ws_size)[" +
           std::to_string(k) + "]) {\n" + prologue(d);
  for (size_t a = 0; a < d.arrays.size(); ++a) {
    const ArrayDesc& x = d.arrays[a];
    w << "    if (std::string ws_why = ws::kernel_file_support::size_problem(" + lit(x.name) + ", " + w.expr(x.size) + ", sizeof(" +
             x.type + "), ws_size[" + std::to_string(a) + "]); !ws_why.empty()) return ws_why;\n";
  }
  w << "    return {};\n  }\n";
  // grid(c, grid): the launch's grid for c.variant (--grid wins).
  w << "  static std::string ws_grid_of(const ws::RunConfig& ws_c, ws::Dim3& ws_grid) {\n" + prologue(d);
  w << "    if (ws_c.grid.x) { ws_grid = ws_c.grid; return {}; }\n";
  const char* axes[3] = {"x", "y", "z"};
  const char* limits[3] = {"2147483647", "65535", "65535"};
  for (const VariantDesc& v : d.variants) {
    w << "    if (ws_c.variant == " + lit(v.id) + ") {\n";
    for (int a = 0; a < 3; ++a) {
      const Expr& e = v.grid[a] ? *v.grid[a] : d.grid[a];
      const std::string value = !e.text.empty() ? w.expr(e) : a == 0 ? std::string("(n + block.x - 1) / block.x") : std::string("1");
      w << "      if (std::string ws_why = ws::kernel_file_support::grid_problem(" + lit(axes[a]) + ", " + value + ", " + limits[a] +
               ", ws_grid." + axes[a] + "); !ws_why.empty()) return ws_why;\n";
    }
    w << "      return {};\n    }\n";
  }
  w << "    return \"no variant \" + ws_c.variant;\n  }\n";
}

void write_validate(Writer& w, const Description& d) {
  const size_t k = std::max<size_t>(1, d.arrays.size());
  w << "  static std::string validate(const ws::RunConfig& ws_c) {\n";
  w << "    uint64_t ws_size[" + std::to_string(k) + "] = {};\n";
  w << "    if (std::string ws_why = ws_sizes(ws_c, ws_size); !ws_why.empty()) return ws_why;\n";
  w << "    ws::Dim3 ws_grid;\n    if (std::string ws_why = ws_grid_of(ws_c, ws_grid); !ws_why.empty()) return ws_why;\n";
  w << "    if (std::string ws_why = ws_launch_problem(ws_c); !ws_why.empty()) return ws_why;\n";
  w << "    long double ws_bytes = 0;\n";
  for (size_t a = 0; a < d.arrays.size(); ++a)
    w << "    ws_bytes += 2.0L * ws_size[" + std::to_string(a) + "] * sizeof(" + d.arrays[a].type + ");  // host and device\n";
  w << "    const uint64_t ws_limit = ws_c.memory_limit ? ws_c.memory_limit : ws::default_memory_limit();\n";
  w << "    if (ws_bytes > ws_limit) return \"the arrays need about \" + ws::bytes_text(uint64_t(ws_bytes)) + "
       "\" on the host and the device, over the \" + ws::bytes_text(ws_limit) + \" a run may take (WARPSCOPE_MEMORY_LIMIT sets it): use a smaller n\";\n";
  w << "    return {};\n  }\n";
  // ws_launch_problem(c): the dynamic shared memory and row lengths as evaluated, or why not.
  w << "  static std::string ws_launch_problem([[maybe_unused]] const ws::RunConfig& ws_c) {\n" + prologue(d);
  w << "    [[maybe_unused]] uint32_t ws_value = 0;\n";
  // What the description says it accepts (its `accepts`, the variant's): refused with the condition.
  auto accept = [&](const Expr& e, const std::string& guard) {
    w << "    if (" + guard + "!(" + w.expr(e) + ")) return " +
             lit("this kernel accepts only launches where " + e.text + " (this one: n = ") +
             " + std::to_string(n) + \", block = \" + std::to_string(block.x) + \"x\" + std::to_string(block.y) + "
             "\"x\" + std::to_string(block.z) + \")\";\n";
  };
  for (const Expr& e : d.accepts) accept(e, "");
  for (const VariantDesc& x : d.variants)
    for (const Expr& e : x.accepts) accept(e, "ws_c.variant == " + lit(x.id) + " && ");
  if (!d.shared.text.empty())
    w << "    if (std::string ws_why = ws::kernel_file_support::value_problem(\"shared\", " + w.expr(d.shared) +
             ", 0, 232448, ws_value); !ws_why.empty()) return ws_why;\n";
  for (const VariantDesc& x : d.variants)
    if (x.shared)
      w << "    if (ws_c.variant == " + lit(x.id) + ") if (std::string ws_why = ws::kernel_file_support::value_problem(\"shared\", " +
               w.expr(*x.shared) + ", 0, 232448, ws_value); !ws_why.empty()) return ws_why;\n";
  for (const ArrayDesc& x : d.arrays)
    if (!x.row_length.text.empty())
      w << "    if (std::string ws_why = ws::kernel_file_support::value_problem(" + lit("arrays." + x.name + ".row_length") + ", " +
               w.expr(x.row_length) + ", 1, 4294967295.0, ws_value); !ws_why.empty()) return ws_why;\n";
  w << "    return {};\n  }\n";
}

void write_run(Writer& w, const Description& d) {
  const size_t k = std::max<size_t>(1, d.arrays.size());
  w << "  template <class WsBackend>\n  static void run(WsBackend& ws_be, const ws::RunConfig& ws_c, ws::RunResult& ws_result) {\n" +
           prologue(d);
  w << "    uint64_t ws_size[" + std::to_string(k) + "] = {};\n";
  w << "    if (std::string ws_why = ws_sizes(ws_c, ws_size); !ws_why.empty()) { ws_result.errors.push_back({ws::Severity::Error, "
       "\"bad-launch\", ws_why}); return; }\n";
  w << "    ws::Dim3 grid;\n";
  w << "    if (std::string ws_why = ws_grid_of(ws_c, grid); !ws_why.empty()) { ws_result.errors.push_back({ws::Severity::Error, "
       "\"bad-launch\", ws_why}); return; }\n";
  // Host inputs.
  for (size_t a = 0; a < d.arrays.size(); ++a) {
    const ArrayDesc& x = d.arrays[a];
    const std::string T = "ws_type_" + x.name, in = "ws_in_" + x.name, sz = "ws_size[" + std::to_string(a) + "]";
    w << "    using " + T + " = " + x.type + ";\n";
    if (x.fill == "random")
      w << "    std::vector<" + T + "> " + in + " = ws::kernel_file_support::random_fill<" + T + ">(" + sz + ", ws_c.seed * 1000003u + " +
               std::to_string(a) + ", " + (x.has_range ? "true" : "false") + ", " + number(x.lo) + ", " + number(x.hi) + ");\n";
    else if (x.fill == "iota")
      w << "    std::vector<" + T + "> " + in + " = ws::kernel_file_support::iota_fill<" + T + ">(" + sz + ");\n";
    else {
      w << "    std::vector<" + T + "> " + in + "(" + sz + ");\n";
      if (x.fill == "ones")
        w << "    for (auto& v : " + in + ") v = ws::kernel_file_support::fill_value<" + T + ">(1);\n";
      else if (x.fill == "expression")
        w << "    for (uint64_t i = 0; i < " + sz + "; ++i) " + in + "[i] = ws::kernel_file_support::fill_value<" + T + ">(" +
                 w.expr(x.fill_expr) + ");\n";
    }
  }
  // Device arrays, the launch, the results.
  for (const ArrayDesc& x : d.arrays) w << "    std::vector<ws_type_" + x.name + "> ws_out_" + x.name + ";\n";
  w << "    {\n";
  // The file's `__device__` variables first: their allocations are named before the arrays'.
  w << "      ws::kernel_file_support::adopt_device_variables(ws_be);\n";
  for (const ArrayDesc& x : d.arrays) {
    w << "      auto " + x.name + " = ws_be.upload(" + lit(x.name) + ", ws_in_" + x.name + ");\n";
    if (!x.row_length.text.empty()) w << "      ws_be.shape(" + x.name + ", uint32_t(" + w.expr(x.row_length) + "));\n";
  }
  w << "      const uint32_t ws_shared = uint32_t(" + (d.shared.text.empty() ? std::string("0") : w.expr(d.shared)) + ");\n";
  w << "      bool ws_ok = false;\n";
  for (size_t v = 0; v < d.variants.size(); ++v) {
    const VariantDesc& x = d.variants[v];
    std::string args;
    for (const Expr& e : x.args ? *x.args : d.args) args += ", " + w.expr(e);
    const std::string shared = x.shared ? "uint32_t(" + w.expr(*x.shared) + ")" : std::string("ws_shared");
    w << "      " + std::string(v ? "else if" : "if") + " (ws_c.variant == " + lit(x.id) + ") ws_ok = ws_be.launch(" + lit(x.kernel.text) +
             ", grid, block, " + shared + ", " + w.expr(x.kernel) + args + ");\n";
  }
  w << "      if (!ws_ok) return;  // the fault is in ws_result.errors\n";
  for (const ArrayDesc& x : d.arrays) w << "      ws_out_" + x.name + " = ws_be.download(" + x.name + ");\n";
  w << "    }\n";
  // The check: names are the arrays before the launch.
  w << "    {\n";
  for (const ArrayDesc& x : d.arrays) w << "      [[maybe_unused]] const auto& " + x.name + " = ws_in_" + x.name + ";\n";
  w << "      ws::kernel_file_support::Checker ws_check(ws_result);\n";
  std::string checked;
  for (const ArrayDesc& x : d.arrays) {
    if (x.expect.text.empty()) continue;
    // An array's expect holds for the variants that pass it to their kernel.
    std::string variants;
    for (const VariantDesc& v : d.variants)
      if (names_array(v.args ? *v.args : d.args, x.name)) variants += (variants.empty() ? "" : " || ") + ("ws_c.variant == " + lit(v.id));
    if (variants.empty()) continue;
    checked += (checked.empty() ? "" : ", ") + x.name;
    w << "      if (" + variants + ") {\n";
    w << "      for (uint64_t i = 0; i < ws_out_" + x.name + ".size(); ++i) ws_check.compare(" + lit(x.name) + ", i, ws_out_" + x.name +
             "[i], " + w.expr(x.expect) + ", " + number(x.tolerance) + ");\n";
    w << "      ws::keep_checked(ws_result, " + lit(x.name) + ", ws_out_" + x.name + ".data(), ws_out_" + x.name + ".size());\n";
    w << "      }\n";
  }
  w << "      ws_check.finish(" + lit(checked) + ");\n    }\n  }\n";
}

}  // namespace

std::string include_as_nvcc_finds_it(const std::string& line, const std::string& file) {
  namespace fs = std::filesystem;
  const size_t open = line.find('"');
  const size_t close = open == std::string::npos ? open : line.find('"', open + 1);
  if (close == std::string::npos) return line;  // <header>: the include path's, as written
  const std::string name = line.substr(open + 1, close - open - 1);
  std::error_code ec;
  const fs::path beside = fs::path(name).is_absolute() ? fs::path(name) : fs::path(file).parent_path() / name;
  if (fs::exists(beside, ec)) return line.substr(0, open) + "\"" + fs::weakly_canonical(beside, ec).string() + "\"" + line.substr(close + 1);
  // Not beside the file: the project's headers only (-I), never the folder the build runs in.
  return line.substr(0, open) + "<" + name + ">" + line.substr(close + 1);
}

const char* to_string(Flavor f) {
  switch (f) {
    case Flavor::Emu: return "emu";
    case Flavor::GpuFast: return "gpu_fast";
    case Flavor::GpuTrace: return "gpu_trace";
  }
  return "emu";
}

std::string entry_symbol(Flavor f) { return std::string("ws_kernel_file_entry_") + to_string(f); }

unsigned abi_stamp() {
  return unsigned(sizeof(KernelSpec) * 1000003u + sizeof(RunConfig) * 1009u + sizeof(RunResult) * 31u + sizeof(CatalogEntry) +
                  sizeof(VariantSpec) * 7u + sizeof(TimingSpec) * 131u);
}

std::string translation_unit(const Description& d, const std::string& text, Flavor flavor, const std::string& unique) {
  Writer w(d.path);
  const std::string ns = "ws_file_" + unique + "_" + to_string(flavor);
  w << "// Generated by warpscope from " + d.path + " (" + to_string(flavor) + " build): edit that file, not this one.\n";
  if (flavor != Flavor::Emu) w << "#define WS_KERNEL_FILE_GPU 1\n#define WS_TRACE_CONTROL ws_trace_control_" + ns + "\n";
  if (flavor == Flavor::GpuTrace) w << "#define WS_GPU_TRACE 1\n";
  w << "#include \"ws/kernel_file/prelude.h\"\n";
  // The file's own #include lines go above the namespace the file is put in (a standard header
  // inside a namespace does not compile), each at its line; the file keeps a blank line there.
  std::string body;
  {
    uint32_t line = 0;
    size_t at = 0;
    while (at < text.size()) {
      size_t eol = text.find('\n', at);
      if (eol == std::string::npos) eol = text.size();
      const std::string l = text.substr(at, eol - at);
      ++line;
      // A `#line` of the plain CUDA rewrite (ws/plain_cuda) renumbers the lines after it.
      if (l.rfind("#line ", 0) == 0) line = uint32_t(std::strtoul(l.c_str() + 6, nullptr, 10)) - 1;
      const size_t first = l.find_first_not_of(" \t");
      const bool include = first != std::string::npos && l.compare(first, 1, "#") == 0 &&
                           l.find_first_not_of(" \t", first + 1) != std::string::npos &&
                           l.compare(l.find_first_not_of(" \t", first + 1), 7, "include") == 0;
      if (include) {
        // The CUDA toolkit's runtime headers: the emulator's API is what they declare.
        const std::string header = plain_cuda::included_header(l);
        const bool provided = (flavor == Flavor::Emu && plain_cuda::is_cuda_toolkit_header(header)) ||
                              (flavor == Flavor::GpuTrace && plain_cuda::is_cooperative_groups_header(header));
        w << "#line " + std::to_string(line) + " " + lit(d.path) + "\n" +
                 (provided ? "// (warpscope provides " + header + ")" : include_as_nvcc_finds_it(l, d.path)) + "\n";
        body += "\n";
      } else {
        body += l + "\n";
      }
      at = eol + 1;
    }
  }
  // The file's assert() is checked, whatever NDEBUG warpscope itself was built with (the headers
  // above keep that one). On the emulator a failed one is a fault of the run at its line, as on a
  // GPU (where it traps), not the end of the process the emulator runs in.
  w << "#ifdef assert\n#undef NDEBUG\n#undef assert\n";
  if (flavor == Flavor::Emu)
    w << "#define assert(e) (static_cast<bool>(e) ? void(0) : ::ws::assert_failed(#e, std::source_location::current()))\n";
  else
    w << "#include <assert.h>\n";
  w << "#endif\n";
  w << "\nnamespace " + ns + " {\n";
  // The CUDA runtime's host API, for a pasted program's host code: it compiles, and says it is
  // not run if something calls it (nvcc's builds have the real runtime).
  if (flavor == Flavor::Emu)
    w << "#define WS_CUDA_HOST_BODY(name) { ::ws::kernel_file_support::host_code_not_run(name); }\n"
         "#include \"ws/plain_cuda/cuda_host_runtime.inc\"\n#undef WS_CUDA_HOST_BODY\n";
  w << "#line 1 " + lit(d.path) + "\n" + body;
  w << "#line 1 " + lit(w.driver_name()) + "\n";
  const std::string entry = d.entry.empty() ? "WsFileEntry" : d.entry;
  if (d.entry.empty()) {
    w << "struct WsFileEntry {\n";
    write_spec(w, d);
    write_sizes(w, d);
    write_validate(w, d);
    write_run(w, d);
    w << "};\n";
  }
  w << "}  // namespace " + ns + "\n\n";
  const std::string backend = flavor == Flavor::Emu ? "ws::EmuBackend" : "ws::GpuBackend";
  w << "extern \"C\" __attribute__((visibility(\"default\"))) unsigned " + std::string(kAbiSymbol) + "() { return " +
             std::to_string(abi_stamp()) + "u; }\n";
  w << "extern \"C\" __attribute__((visibility(\"default\"))) void " + entry_symbol(flavor) + "(ws::CatalogEntry* out) {\n";
  w << "  ws::Catalog local;\n";
  w << "  local.add(" + ns + "::" + entry + "::spec(), &" + ns + "::" + entry + "::validate);\n";
  w << "  ws::register_runner<" + ns + "::" + entry + ", " + backend + ">(local);\n";
  w << "  *out = local.entries().front();\n}\n";
  return w.text();
}

}  // namespace ws::kernel_file
