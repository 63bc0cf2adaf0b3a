// [SECTION] Parsing: the file through libclang, as CUDA, with parse_prelude()
// [SECTION] Cursors: locations, text and types of what Clang found
// [SECTION] Declarations: pointer parameters and locals, shared arrays, `auto` copies
// [SECTION] Expressions: dereferences, casts, member accesses, refused accesses
// [SECTION] The walk over the device code
#include "ws/plain_cuda/rewrite.h"

#include <clang-c/Index.h>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "edits.h"
#include "parse_prelude.h"

namespace ws::plain_cuda {

std::string included_header(const std::string& line) {
  static const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  std::smatch m;
  return std::regex_search(line, m, include) ? m[1].str() : "";
}

bool is_cuda_toolkit_header(const std::string& name) {
  static const std::set<std::string> headers = {
      "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h", "device_launch_parameters.h", "device_functions.h",
      "cuda_device_runtime_api.h", "vector_types.h", "vector_functions.h", "math_functions.h",
      "device_atomic_functions.h", "sm_20_atomic_functions.h", "sm_32_intrinsics.h", "sm_60_atomic_functions.h",
      "driver_types.h", "builtin_types.h", "cooperative_groups.h", "cooperative_groups/reduce.h"};
  return headers.count(name) > 0;
}

bool is_cooperative_groups_header(const std::string& name) {
  return name == "cooperative_groups.h" || name == "cooperative_groups/reduce.h";
}

bool uses_wrapped_dialect(const std::string& text) {
  static const std::regex wrapper(R"(\bws::)");
  return std::regex_search(text, wrapper);
}

namespace {

//-----------------------------------------------------------------------------
// [SECTION] Parsing
//-----------------------------------------------------------------------------
constexpr const char* kPreludePath = "/warpscope-parse/prelude.cuh";

struct Parsed {
  CXIndex index = nullptr;
  CXTranslationUnit tu = nullptr;
  Parsed() = default;
  Parsed(const Parsed&) = delete;
  Parsed& operator=(const Parsed&) = delete;
  ~Parsed() {
    if (tu) clang_disposeTranslationUnit(tu);
    if (index) clang_disposeIndex(index);
  }
};

// Clang's own headers (stddef.h, __clang_cuda_builtin_vars.h): where this build found them, else
// beside the libclang that was loaded (a machine that carries its libraries along).
std::string resource_dir() {
  std::error_code ec;
  if (std::filesystem::is_directory(WS_CLANG_RESOURCE_DIR, ec)) return WS_CLANG_RESOURCE_DIR;
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&clang_createIndex), &info) && info.dli_fname) {
    const std::filesystem::path beside = std::filesystem::path(info.dli_fname).parent_path() / "clang";
    for (const auto& e : std::filesystem::directory_iterator(beside, ec))
      if (std::filesystem::is_directory(e.path() / "include", ec)) return e.path().string();
  }
  return "";
}

// The text Clang reads: the CUDA toolkit's own headers (`#include <cuda_runtime.h>`) blanked, as
// the emulator's build leaves them out (the prelude is the CUDA vocabulary); every offset stays.
std::string without_cuda_headers(std::string text) {
  size_t at = 0;
  while (at < text.size()) {
    size_t eol = text.find('\n', at);
    if (eol == std::string::npos) eol = text.size();
    if (const std::string header = included_header(text.substr(at, eol - at)); !header.empty() && is_cuda_toolkit_header(header))
      std::fill(text.begin() + long(at), text.begin() + long(eol), ' ');
    at = eol + 1;
  }
  return text;
}

void parse(Parsed& p, const std::string& text, const std::string& path) {
  p.index = clang_createIndex(0, 0);
  const std::string folder = std::filesystem::path(path).parent_path().string();
  std::vector<std::string> args = {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++20",
                                   "-include", kPreludePath, "-w", "-ferror-limit=0"};
  if (const std::string res = resource_dir(); !res.empty()) args.insert(args.end(), {"-resource-dir", res});
  if (!folder.empty()) args.insert(args.end(), {"-I", folder});
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  const std::string& prelude = parse_prelude();
  CXUnsavedFile files[2] = {{path.c_str(), text.data(), (unsigned long)text.size()},
                            {kPreludePath, prelude.data(), (unsigned long)prelude.size()}};
  // KeepGoing: a header nvcc would find and Clang does not (cuda_runtime.h) must not end the parse.
  clang_parseTranslationUnit2(p.index, path.c_str(), argv.data(), int(argv.size()), files, 2,
                              CXTranslationUnit_KeepGoing, &p.tu);
}

//-----------------------------------------------------------------------------
// [SECTION] Cursors
//-----------------------------------------------------------------------------
std::string str(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

struct Where {
  bool in_file = false;
  uint32_t offset = 0, line = 0, column = 0;
};

// The main file, for where(): a location written through a macro of the prelude (`__shared__`
// at the start of a declaration) is in the file where the macro is expanded.
thread_local CXFile t_main_file = nullptr;

Where where(CXSourceLocation loc) {
  Where w;
  CXFile file = nullptr;
  unsigned line, column, offset;
  clang_getExpansionLocation(loc, &file, &line, &column, &offset);
  if (!file || !t_main_file || !clang_File_isEqual(file, t_main_file)) return w;
  w = {true, offset, line, column};
  return w;
}

Where begin_of(CXCursor c) { return where(clang_getRangeStart(clang_getCursorExtent(c))); }
Where end_of(CXCursor c) { return where(clang_getRangeEnd(clang_getCursorExtent(c))); }

std::vector<CXCursor> children(CXCursor c) {
  std::vector<CXCursor> out;
  clang_visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor>*>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

bool has_child(CXCursor c, CXCursorKind kind) {
  for (CXCursor k : children(c))
    if (k.kind == kind) return true;
  return false;
}

// The expression under implicit conversions and parentheses.
CXCursor bare(CXCursor c) {
  while (c.kind == CXCursor_UnexposedExpr || c.kind == CXCursor_ParenExpr) {
    const std::vector<CXCursor> k = children(c);
    if (k.size() != 1) break;
    c = k[0];
  }
  return c;
}

bool is_pointer(CXType t) { return clang_getCanonicalType(t).kind == CXType_Pointer || t.kind == CXType_Pointer; }

bool is_array(CXType t) {
  const CXTypeKind k = clang_getCanonicalType(t).kind;
  return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_DependentSizedArray ||
         k == CXType_VariableArray;
}

// The pointee as the user spelled it ("const float", "T", "volatile int"), or "" for a pointer to
// a function (left alone).
std::string pointee(CXType t) {
  CXType p = clang_getPointeeType(t);
  if (p.kind == CXType_Invalid) p = clang_getPointeeType(clang_getCanonicalType(t));
  const CXTypeKind k = clang_getCanonicalType(p).kind;
  if (k == CXType_FunctionProto || k == CXType_FunctionNoProto) return "";
  return str(clang_getTypeSpelling(p));
}

bool is_device_function(CXCursor fn) {
  return has_child(fn, CXCursor_CUDAGlobalAttr) || has_child(fn, CXCursor_CUDADeviceAttr);
}

bool file_scope(CXCursor var) {
  // Lexical: an `extern` local's semantic parent is the namespace around its function.
  const CXCursorKind k = clang_getCursorLexicalParent(var).kind;
  return k == CXCursor_TranslationUnit || k == CXCursor_Namespace || k == CXCursor_StructDecl ||
         k == CXCursor_ClassDecl;
}

// Declared in a header the user wrote (not the CUDA vocabulary of the prelude, not a system header).
bool in_users_header(CXCursor decl) {
  const CXSourceLocation loc = clang_getCursorLocation(decl);
  if (clang_Location_isInSystemHeader(loc)) return false;
  CXFile file = nullptr;
  clang_getExpansionLocation(loc, &file, nullptr, nullptr, nullptr);
  return file && str(clang_getFileName(file)) != kPreludePath;
}

std::string first_token(CXTranslationUnit tu, CXCursor c) {
  CXToken* tokens = nullptr;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(c), &tokens, &n);
  std::string s = n ? str(clang_getTokenSpelling(tu, tokens[0])) : "";
  clang_disposeTokens(tu, tokens, n);
  return s;
}

//-----------------------------------------------------------------------------
// [SECTION] The rewriter's state
//-----------------------------------------------------------------------------
class Rewriter {
 public:
  Rewriter(CXTranslationUnit tu, const std::string& text) : tu_(tu), text_(text) {}

  void walk(CXCursor c, bool device);
  std::vector<Edit> edits;
  std::vector<Refusal> refusals;

 private:
  void function(CXCursor fn);
  void parameter(CXCursor p);
  void variable(CXCursor v, CXCursor parent);
  void shared_variable(CXCursor v, CXCursor parent);
  void device_variable(CXCursor v);
  void auto_variable(CXCursor v);
  void declaration_ref(CXCursor e);
  void unary(CXCursor e);
  void cast(CXCursor e);
  void member(CXCursor e);
  void subscript(CXCursor e);
  void size_of(CXCursor e);
  void printf_call(CXCursor e);

  bool is_access(CXCursor e);
  void replace(const Where& b, const Where& e, std::string text, uint32_t outer_end = 0);
  void insert(const Where& at, std::string text, uint32_t outer_end = 0) { replace(at, at, std::move(text), outer_end); }
  void refuse(const Where& at, std::string message);
  std::string text_between(const Where& b, const Where& e) const {
    return b.in_file && e.in_file && e.offset >= b.offset ? text_.substr(b.offset, e.offset - b.offset) : "";
  }
  bool written_as(CXCursor c, const std::string& name) const {
    const Where w = where(clang_getCursorLocation(c));
    return w.in_file && text_.compare(w.offset, name.size(), name) == 0;
  }

  CXTranslationUnit tu_;
  const std::string& text_;
  // USRs of `__shared__ T x;` and `__device__ T x;`: one-element wrappers, each use x[0].
  std::set<std::string> scalars_;
  std::set<std::string> wrapped_;           // every shared array and device variable (for sizeof)
  std::set<std::string> device_variables_;  // `__device__` variables the file declares
  std::set<uint32_t> loaded_scalars_;       // uses of a scalar printf_call already made x[0]
  std::set<unsigned> refused_at_;
};

void Rewriter::replace(const Where& b, const Where& e, std::string text, uint32_t outer_end) {
  if (!b.in_file || !e.in_file) return;
  edits.push_back({b.offset, e.offset, std::move(text), outer_end});
}

void Rewriter::refuse(const Where& at, std::string message) {
  if (!at.in_file || !refused_at_.insert(at.offset).second) return;
  refusals.push_back({at.line, at.column, std::move(message)});
}

//-----------------------------------------------------------------------------
// [SECTION] Declarations
//-----------------------------------------------------------------------------
// `const float* __restrict__ in` -> `ws::ptr<const float> in` (the whole declaration: a `[]`
// after the name and the `__restrict__` go too).
void Rewriter::parameter(CXCursor p) {
  const CXType t = clang_getCursorType(p);
  if (!is_pointer(t)) return;
  const std::string name = str(clang_getCursorSpelling(p));
  const std::string to = pointee(t);
  if (to.empty()) return;
  if (is_pointer(clang_getPointeeType(t)))
    return refuse(where(clang_getCursorLocation(p)),
                  "'" + name + "' is a pointer to a pointer, which warpscope cannot record: pass the arrays one by one");
  if (has_child(p, CXCursor_UnexposedExpr) || has_child(p, CXCursor_IntegerLiteral))
    return refuse(where(clang_getCursorLocation(p)), "a pointer parameter with a default value: drop the default");
  if (!name.empty() && !written_as(p, name))
    return refuse(begin_of(p), "the parameter '" + name + "' is written by a macro: write it out");
  replace(begin_of(p), end_of(p), "ws::ptr<" + to + ">" + (name.empty() ? "" : " " + name));
}

// A local: a pointer becomes ws::ptr (from its type to its name; the initialiser stays), a
// shared array its wrapper, an `auto` copy of an element a copy.
void Rewriter::variable(CXCursor v, CXCursor parent) {
  if (has_child(v, CXCursor_CUDASharedAttr)) return shared_variable(v, parent);
  const CXType t = clang_getCursorType(v);
  const Where at = where(clang_getCursorLocation(v));
  const std::string name = str(clang_getCursorSpelling(v));
  if (file_scope(v) || clang_Cursor_getStorageClass(v) == CX_SC_Static) {
    if (is_pointer(t)) refuse(at, "'" + name + "' is a pointer kept outside the kernel: pass the array as a parameter");
    return;
  }
  if (is_pointer(t)) {
    const std::string to = pointee(t);
    if (to.empty()) return;
    if (is_pointer(clang_getPointeeType(t)))
      return refuse(at, "'" + name + "' is a pointer to a pointer, which warpscope cannot record");
    if (parent.kind == CXCursor_DeclStmt && children(parent).size() > 1)
      return refuse(at, "declare one pointer per statement ('" + name + "' shares its declaration)");
    if (!written_as(v, name)) return refuse(at, "the pointer '" + name + "' is declared by a macro: write it out");
    return replace(begin_of(v), {true, at.offset + uint32_t(name.size()), at.line, at.column}, "ws::ptr<" + to + "> " + name);
  }
  auto_variable(v);
}

// `auto v = a[i];` copies the element in CUDA; with a recorded element it would keep a reference
// and load at each use. The initialiser becomes `ws::value(...)`: one load, the element's type.
// `auto& r = a[i];` and `int& r = a[i];` keep writing through: they become the element itself.
void Rewriter::auto_variable(CXCursor v) {
  const std::vector<CXCursor> kids = children(v);
  if (kids.empty()) return;
  const CXCursor init = kids.back();
  const std::string first = first_token(tu_, v);
  const bool is_auto = first == "auto" || ((first == "const" || first == "volatile") &&
                                           text_between(begin_of(v), where(clang_getCursorLocation(v))).find("auto") != std::string::npos);
  const CXTypeKind k = clang_getCursorType(v).kind;
  const bool reference = k == CXType_LValueReference || k == CXType_RValueReference;
  const bool const_ref = reference && clang_isConstQualifiedType(clang_getPointeeType(clang_getCursorType(v)));
  if (reference && !const_ref) {
    if (!is_access(init)) return;
    const Where at = where(clang_getCursorLocation(v));
    const std::string name = str(clang_getCursorSpelling(v));
    return replace(begin_of(v), {true, at.offset + uint32_t(name.size()), at.line, at.column}, "auto " + name);
  }
  if (!is_auto) return;
  if (clang_getCursorType(init).kind == CXType_Invalid) return;
  const Where b = begin_of(init), e = end_of(init);
  if (!b.in_file || !e.in_file || b.offset >= e.offset) return;
  insert(b, "ws::value(", e.offset + 1);
  insert(e, ")", 0);
}

// `__shared__ T s[N];` -> `__shared__ ws::shared_array<T, N, "s"> s;` (two dimensions:
// ws::shared_matrix), `extern __shared__ T s[];` -> `ws::dynamic_shared<T, "s"> s;`, a shared
// scalar or struct a one-element array whose every use becomes `s[0]`.
void Rewriter::shared_variable(CXCursor v, CXCursor parent) {
  const std::string name = str(clang_getCursorSpelling(v));
  const Where at = where(clang_getCursorLocation(v));
  if (!written_as(v, name)) return refuse(at, "the shared array '" + name + "' is declared by a macro: write it out");
  if (parent.kind == CXCursor_DeclStmt && children(parent).size() > 1)
    return refuse(at, "declare one shared array per statement ('" + name + "' shares its declaration)");
  // The dimensions as written, after the name: [A][B]...
  std::vector<std::string> dims;
  const Where end = end_of(v);
  size_t k = at.offset + name.size();
  while (k < end.offset) {
    const size_t open = text_.find('[', k);
    if (open == std::string::npos || open >= end.offset) break;
    int depth = 0;
    size_t close = open;
    for (; close < end.offset; ++close) {
      if (text_[close] == '[') ++depth;
      if (text_[close] == ']' && --depth == 0) break;
    }
    dims.push_back(text_.substr(open + 1, close - open - 1));
    k = close + 1;
  }
  CXType element = clang_getCursorType(v);
  while (is_array(element)) element = clang_getArrayElementType(element);
  std::string type = str(clang_getTypeSpelling(element));
  if (clang_isVolatileQualifiedType(element))
    return refuse(at, "a volatile shared array: declare it without volatile and take a `volatile T*` to it "
                      "(`volatile int* vs = " + name + ";`)");
  const bool is_extern = clang_Cursor_getStorageClass(v) == CX_SC_Extern;
  if (is_extern && file_scope(v))
    return refuse(at, "`extern __shared__` outside a kernel: declare it inside the kernel that uses it");
  const Where b = parent.kind == CXCursor_DeclStmt ? begin_of(parent) : begin_of(v);
  std::string to;
  if (is_extern) {
    to = "ws::dynamic_shared<" + type + ", \"" + name + "\"> " + name;
  } else if (dims.empty()) {
    to = "__shared__ ws::shared_array<" + type + ", 1, \"" + name + "\"> " + name;
    scalars_.insert(str(clang_getCursorUSR(v)));
  } else if (dims.size() == 1) {
    to = "__shared__ ws::shared_array<" + type + ", (" + dims[0] + "), \"" + name + "\"> " + name;
  } else if (dims.size() == 2) {
    to = "__shared__ ws::shared_matrix<" + type + ", (" + dims[0] + "), (" + dims[1] + "), \"" + name + "\"> " + name;
  } else {
    return refuse(at, "a shared array of " + std::to_string(dims.size()) +
                          " dimensions: warpscope records one or two; declare it flat and index it by hand");
  }
  wrapped_.insert(str(clang_getCursorUSR(v)));
  replace(b, end, to);
}

// `__device__ unsigned int count = 0;` -> `__device__ ws::device_variable<unsigned int, 1, "count">
// count = {{0}};` and, after its `;` on the same line, the object that hands it to the driver
// (kernel_file_support::device_variable_registration). An array keeps its size and initialiser;
// a scalar is one element, each use `count[0]`.
void Rewriter::device_variable(CXCursor v) {
  const std::string name = str(clang_getCursorSpelling(v));
  const Where at = where(clang_getCursorLocation(v));
  if (!written_as(v, name)) return refuse(at, "the __device__ variable '" + name + "' is declared by a macro: write it out");
  if (clang_Cursor_getStorageClass(v) == CX_SC_Extern)
    return refuse(at, "an `extern __device__` variable: define it in this file (warpscope records the variables it declares)");
  const CXType t = clang_getCursorType(v);
  CXType element = t;
  long long count = 1;
  if (is_array(t)) {
    element = clang_getArrayElementType(t);
    count = clang_getArraySize(t);
    if (is_array(element))
      return refuse(at, "a __device__ array of more than one dimension: declare it flat and index it by hand");
    if (count <= 0) return refuse(at, "a __device__ array without a size: write its size");
  }
  if (clang_isVolatileQualifiedType(element))
    return refuse(at, "a volatile __device__ variable: declare it without volatile and read it through a "
                      "`volatile` pointer (`volatile int* f = &" + name + ";`)");
  const Where b = begin_of(v), e = end_of(v);
  size_t semi = e.offset;
  while (semi < text_.size() && std::isspace(static_cast<unsigned char>(text_[semi]))) ++semi;
  if (semi >= text_.size() || text_[semi] != ';')
    return refuse(at, "declare one __device__ variable per statement ('" + name + "' shares its declaration)");
  // The initialiser as written: after the name and its dimension, `= x`, `= {...}` or `{...}`.
  size_t k = at.offset + name.size();
  while (k < e.offset && std::isspace(static_cast<unsigned char>(text_[k]))) ++k;
  if (k < e.offset && text_[k] == '[') {
    k = text_.find(']', k);
    k = k == std::string::npos ? e.offset : k + 1;
  }
  std::string init = k < e.offset ? text_.substr(k, e.offset - k) : "";
  init.erase(0, init.find_first_not_of(" \t\n"));
  if (!init.empty() && init[0] == '(')
    return refuse(at, "a __device__ variable initialised with `(...)`: write `= value`");
  if (!init.empty() && init[0] == '=') init.erase(0, 1);
  const std::string type = str(clang_getTypeSpelling(element));
  const bool scalar = !is_array(t);
  const std::string value = init.empty() ? "{}" : scalar ? "{{" + init + "}}" : "{" + init + "}";
  replace(b, e, "__device__ ws::device_variable<" + type + ", " + std::to_string(count) + ", \"" + name + "\"> " + name +
                    " = " + value);
  insert({true, uint32_t(semi + 1), at.line, at.column},
         " static const ws::kernel_file_support::device_variable_registration<decltype(" + name + ")> ws_device_variable_" +
             name + "{&" + name + "};");
  const std::string usr = str(clang_getCursorUSR(v));
  device_variables_.insert(usr);
  wrapped_.insert(usr);
  if (scalar) scalars_.insert(usr);
}

//-----------------------------------------------------------------------------
// [SECTION] Expressions
//-----------------------------------------------------------------------------
// Whether `e` names an element of recorded memory: a[i] or *p on a pointer, a member of one, a
// shared scalar.
bool Rewriter::is_access(CXCursor e) {
  e = bare(e);
  if (e.kind == CXCursor_ArraySubscriptExpr) return true;
  if (e.kind == CXCursor_UnaryOperator) return first_token(tu_, e) == "*";
  if (e.kind == CXCursor_MemberRefExpr) {
    const std::vector<CXCursor> k = children(e);
    return !k.empty() && is_access(k[0]);
  }
  if (e.kind == CXCursor_DeclRefExpr) return scalars_.count(str(clang_getCursorUSR(clang_getCursorReferenced(e)))) > 0;
  return false;
}

// A use of a shared scalar is element 0 of its one-element array.
void Rewriter::declaration_ref(CXCursor e) {
  const CXCursor d = clang_getCursorReferenced(e);
  const std::string usr = str(clang_getCursorUSR(d));
  if (scalars_.count(usr)) {
    if (loaded_scalars_.count(begin_of(e).offset)) return;
    return insert(end_of(e), "[0]", 0);
  }
  // clock() and clock64() in device code: the recorded ws_clock() and ws_clock64() (a kernel's
  // clock() cannot be overloaded beside libc's); printf: ws_printf, whose lines the emulator
  // prints in a GPU's order.
  if (d.kind == CXCursor_FunctionDecl && !where(clang_getCursorLocation(d)).in_file) {
    const std::string name = str(clang_getCursorSpelling(d));
    if ((name == "clock" || name == "clock64" || name == "printf") && written_as(e, name)) {
      // (from the expression's start, so that `std::printf` and `::clock` go whole)
      Where after = where(clang_getCursorLocation(e));
      after.offset += uint32_t(name.size());
      after.column += uint32_t(name.size());
      return replace(begin_of(e), after, "::ws_" + name);
    }
  }
  // A `__device__` variable of a header: global memory warpscope cannot rewrite, so not record.
  if (d.kind == CXCursor_VarDecl && !where(clang_getCursorLocation(d)).in_file && in_users_header(d) && file_scope(d) &&
      has_child(d, CXCursor_CUDADeviceAttr) && !has_child(d, CXCursor_CUDAConstantAttr) &&
      !has_child(d, CXCursor_CUDASharedAttr))
    refuse(begin_of(e), "'" + str(clang_getCursorSpelling(d)) +
                            "' is a __device__ variable declared outside this file, which warpscope cannot record: "
                            "declare it in the kernel file");
}

// `*p` -> `(p)[0]`: the access then has a site, the operand's column.
void Rewriter::unary(CXCursor e) {
  if (first_token(tu_, e) != "*") return;
  const std::vector<CXCursor> k = children(e);
  if (k.size() != 1 || !is_pointer(clang_getCursorType(k[0]))) return;
  const Where b = begin_of(e), ob = begin_of(k[0]), oe = end_of(k[0]);
  if (!b.in_file || !ob.in_file || text_[b.offset] != '*') return refuse(b, "a dereference written by a macro: write it out");
  replace(b, ob, "(", oe.offset + 1);
  insert(oe, ")[0]", 0);
}

// `reinterpret_cast<float4*>(p)`, `(float4*)p` -> `ws::ptr_cast<float4>(p)`.
void Rewriter::cast(CXCursor e) {
  const CXType to = clang_getCursorType(e);
  if (!is_pointer(to)) return;
  const std::string element = pointee(to);
  const std::vector<CXCursor> k = children(e);
  if (element.empty() || k.empty()) return;
  const CXCursor operand = k.back();
  if (!is_pointer(clang_getCursorType(operand)) && !is_array(clang_getCursorType(operand))) return;
  const Where b = begin_of(e), ob = begin_of(operand), oe = end_of(operand);
  if (!b.in_file || !ob.in_file) return refuse(b, "a pointer cast written by a macro: write it out");
  if (e.kind == CXCursor_CStyleCastExpr) {
    replace(b, ob, "ws::ptr_cast<" + element + ">(", oe.offset + 1);
    insert(oe, ")", 0);
  } else {
    replace(b, ob, "ws::ptr_cast<" + element + ">(");  // the cast's own `(` is in the replaced text
  }
}

// `a[i].x` -> `(a[i]->*&Vec3::x)`, `p->x` -> `((p)[0]->*&Vec3::x)`: the member of a recorded
// element is a recorded access of the member's width, as nvcc issues it.
void Rewriter::member(CXCursor e) {
  const std::vector<CXCursor> k = children(e);
  if (k.empty()) return;
  const CXCursor base = k[0];
  const Where name_at = where(clang_getCursorLocation(e));
  const Where be = end_of(base);
  if (!name_at.in_file || !be.in_file) return;
  const std::string op = text_between(be, name_at);
  const bool arrow = op.find("->") != std::string::npos;
  if (bare(base).kind == CXCursor_CXXThisExpr) return;
  if (arrow ? !is_pointer(clang_getCursorType(base)) : !is_access(base)) return;
  const CXCursor field = clang_getCursorReferenced(e);
  if (field.kind == CXCursor_CXXMethod)
    return refuse(name_at, "a member function called on an element in memory: copy the element first "
                           "(`auto v = a[i]; v." + str(clang_getCursorSpelling(field)) + "()`)");
  if (field.kind != CXCursor_FieldDecl) return;
  const std::string owner = str(clang_getTypeSpelling(clang_getCursorType(clang_getCursorSemanticParent(field))));
  const std::string name = str(clang_getCursorSpelling(field));
  if (is_array(clang_getCursorType(field)))
    return refuse(name_at, "an array inside a struct element ('" + name + "'): warpscope records whole members; "
                           "copy the element first");
  const Where b = begin_of(e), e_end = end_of(e);
  insert(b, arrow ? "((" : "(", e_end.offset + 1);
  replace({true, be.offset, be.line, be.column}, name_at, (arrow ? ")[0]->*&" : "->*&") + owner + "::");
  insert(e_end, ")", 0);
}

// An element of memory warpscope does not see: a pointer kept in a struct, a global array.
void Rewriter::subscript(CXCursor e) {
  const std::vector<CXCursor> k = children(e);
  if (k.empty()) return;
  const CXCursor base = bare(k[0]);
  if (base.kind == CXCursor_MemberRefExpr && !is_access(base) && bare(children(base).empty() ? base : children(base)[0]).kind != CXCursor_CXXThisExpr) {
    const CXType t = clang_getCursorType(base);
    if (is_pointer(t))
      refuse(begin_of(e), "an array reached through a pointer kept in a struct ('" + str(clang_getCursorSpelling(base)) +
                              "'): warpscope records the kernel's pointer parameters; pass the array as one");
    else if (is_array(t))
      refuse(begin_of(e), "an array inside a struct ('" + str(clang_getCursorSpelling(base)) +
                              "'): copy the element first, or pass the array as a parameter");
    return;
  }
  if (base.kind == CXCursor_DeclRefExpr) {
    const CXCursor d = clang_getCursorReferenced(base);
    if (d.kind == CXCursor_VarDecl && file_scope(d) && is_array(clang_getCursorType(d)) &&
        !has_child(d, CXCursor_CUDASharedAttr) && !device_variables_.count(str(clang_getCursorUSR(d))))
      refuse(begin_of(e), "'" + str(clang_getCursorSpelling(d)) +
                              "' is an array outside the kernel (__constant__ memory, or a header's), which warpscope does "
                              "not record: make it an array of the description and pass it to the kernel");
  }
}

// printf's arguments pass through `...`: an element of memory is loaded first (one load, as
// nvcc issues it), not passed as warpscope's reference to it.
void Rewriter::printf_call(CXCursor e) {
  if (str(clang_getCursorSpelling(e)) != "printf") return;
  for (int k = 1, n = clang_Cursor_getNumArguments(e); k < n; ++k) {
    const CXCursor a = clang_Cursor_getArgument(e, unsigned(k));
    if (!is_access(a)) continue;
    const Where b = begin_of(a), end = end_of(a);
    if (!b.in_file || !end.in_file || b.offset >= end.offset) continue;
    const CXCursor ref = bare(a);
    const bool scalar = ref.kind == CXCursor_DeclRefExpr;  // (is_access: a shared or __device__ scalar)
    if (scalar) loaded_scalars_.insert(begin_of(ref).offset);
    insert(b, "ws::value(", end.offset + 1);
    insert(end, scalar ? "[0])" : ")", 0);
  }
}

// `sizeof(tile)` of a shared array would measure warpscope's wrapper, not the array.
void Rewriter::size_of(CXCursor e) {
  if (first_token(tu_, e) != "sizeof") return;
  for (CXCursor k : children(e)) {
    const CXCursor ref = bare(k);
    if (ref.kind == CXCursor_DeclRefExpr && wrapped_.count(str(clang_getCursorUSR(clang_getCursorReferenced(ref)))))
      refuse(begin_of(e), "sizeof of the " + std::string(device_variables_.count(str(clang_getCursorUSR(clang_getCursorReferenced(ref)))) ? "__device__ variable '" : "shared array '") +
                              str(clang_getCursorSpelling(ref)) + "': write its size (elements * sizeof(element))");
  }
}

//-----------------------------------------------------------------------------
// [SECTION] The walk
//-----------------------------------------------------------------------------
// Host code that launches kernels (`add<<<grid, block>>>(a, b, c, n)` in main, as a whole program
// pasted from a code base has it) is not what warpscope runs: the launch description is. Its
// body becomes a call that says so if anything calls it, so that it compiles against the
// recorded kernels (whose parameters are no longer raw pointers) and the emulator (no runtime).
bool launches_kernels(CXTranslationUnit tu, CXCursor body) {
  CXToken* tokens = nullptr;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(body), &tokens, &n);
  bool launch = false;
  for (unsigned k = 0; k < n && !launch; ++k) launch = str(clang_getTokenSpelling(tu, tokens[k])) == "<<<";
  clang_disposeTokens(tu, tokens, n);
  return launch;
}

void Rewriter::function(CXCursor fn) {
  const bool device = is_device_function(fn);
  if (!device) {
    for (CXCursor k : children(fn))
      if (k.kind == CXCursor_CompoundStmt && launches_kernels(tu_, k)) {
        const Where b = begin_of(k), e = end_of(k);
        if (!b.in_file || !e.in_file) return refuse(where(clang_getCursorLocation(fn)), "a kernel launch written by a macro: write it out");
        return replace(b, e, "{ ::ws::kernel_file_support::host_code_not_run(\"" + str(clang_getCursorSpelling(fn)) + "\"); }");
      }
  }
  if (device) {
    const CXType result = clang_getCursorResultType(fn);
    if (is_pointer(result) && !pointee(result).empty())
      refuse(where(clang_getCursorLocation(fn)),
             "a __device__ function returning a pointer: return the index instead, or write the function inline");
  }
  for (CXCursor k : children(fn)) {
    if (k.kind == CXCursor_ParmDecl) {
      if (device) parameter(k);
    } else {
      walk(k, device);
    }
  }
}

void Rewriter::walk(CXCursor c, bool device) {
  switch (c.kind) {
    case CXCursor_FunctionDecl:
    case CXCursor_FunctionTemplate:
    case CXCursor_CXXMethod:
      if (!where(clang_getCursorLocation(c)).in_file) return;
      return function(c);
    default: break;
  }
  if (device) {
    switch (c.kind) {
      case CXCursor_DeclStmt:
        for (CXCursor v : children(c)) {
          if (v.kind == CXCursor_VarDecl) {
            variable(v, c);
            for (CXCursor k : children(v)) walk(k, true);
          } else {
            walk(v, true);
          }
        }
        return;
      case CXCursor_ParmDecl: parameter(c); break;  // a lambda's, inside a kernel
      case CXCursor_UnaryExpr: size_of(c); break;
      case CXCursor_DeclRefExpr: declaration_ref(c); break;
      case CXCursor_UnaryOperator: unary(c); break;
      case CXCursor_CStyleCastExpr:
      case CXCursor_CXXReinterpretCastExpr:
      case CXCursor_CXXStaticCastExpr:
      case CXCursor_CXXConstCastExpr: cast(c); break;
      case CXCursor_MemberRefExpr: member(c); break;
      case CXCursor_ArraySubscriptExpr: subscript(c); break;
      case CXCursor_CallExpr: printf_call(c); break;
      default: break;
    }
  } else if (c.kind == CXCursor_VarDecl && has_child(c, CXCursor_CUDASharedAttr) &&
             where(clang_getCursorLocation(c)).in_file) {
    variable(c, clang_getCursorSemanticParent(c));
  } else if (c.kind == CXCursor_VarDecl && has_child(c, CXCursor_CUDADeviceAttr) &&
             !has_child(c, CXCursor_CUDAConstantAttr) && where(clang_getCursorLocation(c)).in_file && file_scope(c)) {
    return device_variable(c);
  }
  for (CXCursor k : children(c)) walk(k, device);
}

}  // namespace

Rewritten rewrite(const std::string& text, const std::string& path) {
  Rewritten out;
  out.text = text;
  if (uses_wrapped_dialect(text)) return out;
  Parsed p;
  const std::string parsed_text = without_cuda_headers(text);
  parse(p, parsed_text, path);
  if (!p.tu) {
    out.refusals.push_back({1, 1, "Clang could not read the file as CUDA"});
    return out;
  }
  t_main_file = clang_getFile(p.tu, path.c_str());
  // What Clang cannot parse cannot be instrumented faithfully (a statement it gives up on is
  // missing from its tree): its errors are the refusals.
  for (unsigned k = 0, n = clang_getNumDiagnostics(p.tu); k < n; ++k) {
    CXDiagnostic d = clang_getDiagnostic(p.tu, k);
    const Where at = where(clang_getDiagnosticLocation(d));
    // (An error inside a system header is the parse's, not the file's: the build's compiler judges those.)
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && at.in_file)
      out.refusals.push_back({at.line, at.column, "Clang cannot parse this as CUDA: " + str(clang_getDiagnosticSpelling(d))});
    clang_disposeDiagnostic(d);
  }
  if (!out.refusals.empty()) return out;
  Rewriter r(p.tu, text);
  for (CXCursor c : children(clang_getTranslationUnitCursor(p.tu)))
    if (where(clang_getCursorLocation(c)).in_file) r.walk(c, false);
  out.refusals = std::move(r.refusals);
  std::sort(out.refusals.begin(), out.refusals.end(),
            [](const Refusal& a, const Refusal& b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); });
  if (!out.refusals.empty()) return out;
  Applied applied = apply_edits(text, path, r.edits);
  if (!applied.ok) {
    const uint32_t line = 1 + uint32_t(std::count(text.begin(), text.begin() + applied.conflict_at, '\n'));
    out.refusals.push_back({line, 1, "warpscope cannot instrument this line as written (two rewrites overlap): "
                                     "split the expression over two statements"});
    return out;
  }
  out.edits = uint32_t(r.edits.size());
  out.rewritten = true;
  out.text = std::move(applied.text);
  return out;
}

}  // namespace ws::plain_cuda
