// What the translation unit generated for a kernel file includes before the file (see
// generate.h): the headers a kernel may use, the backend of the build and the driver's helpers.
// The file itself is then included inside a namespace of its own, so its own #include lines of
// these headers are no-ops there.
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

#include "ws/kernel.cuh"
// (In place of the file's own #include <cooperative_groups.h>, except on gpu-fast: generate.cpp.)
#include "ws/kernel/cooperative_groups.h"
#include "ws/run/catalog.h"
#include "ws/run/entry.h"
#include "ws/run/registration.h"
#include "common/checks.h"
#include "ws/kernel_file/driver_support.h"
#if defined(WS_KERNEL_FILE_GPU)
#include "ws/gpu/gpu_backend.cuh"
#else
#include "ws/emu/backend.h"
#endif
