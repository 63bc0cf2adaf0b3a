#include "model/device_probe.h"

#include "ws/timing/timing.h"

namespace ws::app {

// (timing::device() asks warpscope's run process when it is in use, so the viewer's own process
// never touches CUDA; without a driver or a device it simply says none.)
std::string probe_backend() {
  const timing::Device& d = timing::device();
  return d.present ? d.name + " (CUDA)" : "CPU emulator";
}

bool cuda_device_present() { return timing::device().present; }

}  // namespace ws::app
