// Included by the generated translation units before a kernel header, which they then include
// inside a namespace of their own (one per backend build). Three builds of the same source live
// in one program (emulator, gpu-fast, gpu-trace), and nvcc gives even __device__ functions a host
// definition: without the namespaces, the linker would merge same-named functions of different
// builds. Everything a kernel header may #include must be included here first, so that its own
// #include lines are no-ops inside the namespace. (A header that includes something else fails
// to compile, visibly: add it here.)
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// Library headers (CUB) come before this file, for the kernels registered with CUB
// (kernels/CMakeLists.txt): they are heavy, and must precede ws/kernel.cuh.

#include "ws/kernel.cuh"
#include "ws/run/entry.h"
#include "ws/run/registration.h"
#include "kernel_helpers.h"  // generated: the kernels' host-side headers (common/checks.h, references)
