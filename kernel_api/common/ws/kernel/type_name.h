// The element type's name as a lecturer writes it ("int", "float4"), for the allocation table.
#pragma once

#include <string_view>

namespace ws {

template <class T>
constexpr std::string_view type_name() {
  // __PRETTY_FUNCTION__ is "... type_name() [with T = int; ...]" on g++ and nvcc's host pass.
  std::string_view p = __PRETTY_FUNCTION__;
  const auto begin = p.find("T = ");
  if (begin == std::string_view::npos) return "?";
  p.remove_prefix(begin + 4);
  const auto end = p.find_first_of(";]");
  return p.substr(0, end);
}

}  // namespace ws
