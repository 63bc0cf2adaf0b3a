// Which backend runs kernels: the CUDA device's name when the build has CUDA and a device is
// present, else "CPU emulator". Never fails: no driver or no device simply means the emulator.
#pragma once

#include <string>

namespace ws::app {

std::string probe_backend();

// True when this build has CUDA and a device answers (cached after the first call).
bool cuda_device_present();

}  // namespace ws::app
