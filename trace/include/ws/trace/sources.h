// The text of kernel source files, for the site table and the source view.
//
// The build embeds every catalog kernel's source (kernels/CMakeLists.txt generates the calls to
// register_source), so the viewer shows the code even when the binary is moved away from the
// checkout; files that were not embedded are read from disk by their absolute path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ws {

void register_source(const std::string& relative_path, std::string_view text);

// "reduction/reduce.cuh" for ".../kernels/reduction/reduce.cuh": how sites name their file in a
// trace, whichever compiler gave the path. Other paths are returned unchanged.
std::string kernel_relative_path(const std::string& path);

// The whole file, or "" when it is neither embedded nor readable at `fallback_path`.
std::string source_text(const std::string& relative_path, const std::string& fallback_path = {});

// One line (1-based) without its line break, leading/trailing blanks kept; "" if out of range.
std::string source_line(const std::string& relative_path, uint32_t line,
                        const std::string& fallback_path = {});

}  // namespace ws
