// Which backend runs kernels: the CUDA device's name when the build has CUDA and a device is
// present, else "CPU emulator". Never fails: no driver or no device simply means the emulator.
#pragma once

#include <string>

namespace ws::app {

std::string probe_backend();

}  // namespace ws::app
