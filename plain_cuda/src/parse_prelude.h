// What Clang is given before a plain CUDA file so that it parses it as nvcc would, without a
// CUDA installation: the qualifiers as Clang's CUDA attributes, the built-in variables, dim3 and
// the vector types, and the device functions a kernel calls (declared, never compiled).
#pragma once

#include <string>

namespace ws::plain_cuda {

const std::string& parse_prelude();

}  // namespace ws::plain_cuda
