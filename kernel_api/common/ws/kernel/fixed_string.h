// A string literal usable as a template argument: `ws::shared_array<int, 256, "sdata">`.
// The allocation's name travels in the type, so a __shared__ array needs no constructor (CUDA
// forbids dynamic initialization of __shared__ variables) and still says `sdata[17]` in a trace.
#pragma once

#include <cstddef>

namespace ws {

template <std::size_t N>
struct fixed_string {
  char chars[N]{};
  constexpr fixed_string(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) chars[i] = s[i];
  }
  constexpr const char* c_str() const { return chars; }
};

}  // namespace ws
