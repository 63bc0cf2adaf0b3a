// A `__device__` variable of a plain CUDA file, as the driver hands it to a backend before the
// run's first launch (Backend::adopt). The file's
//
//   __device__ unsigned int count = 0;
//
// is compiled, on the emulator and gpu-trace, as a `ws::device_variable<unsigned int, 1, "count">`
// (each backend's kernel API): its elements, then the allocation id its accesses are recorded
// under. The backend names those elements in the run's allocation table (as `count`, one element),
// writes the id into the variable, and sets the elements to their first value, so a second run
// in the same process starts where a freshly loaded program would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ws {

struct DeviceVariable {
  const char* name = "";
  std::string_view type;     // of one element, as the allocation table names it
  uint32_t elem_size = 0;
  uint64_t count = 0;        // elements (1 for a scalar)
  const void* symbol = nullptr;  // the variable: the emulator's storage, the GPU's host shadow
  std::size_t value_offset = 0;  // where its elements start in it
  std::size_t alloc_offset = 0;  // where its uint32_t allocation id is
  bool writable = true;          // false for a `const` one: loads need not wait for a warp's turn
  // The elements as the program was loaded: taken at registration on the emulator, on the GPU
  // at the first run (the device is not set up while a library's initialisers run).
  std::vector<std::byte> initial;
};

}  // namespace ws
