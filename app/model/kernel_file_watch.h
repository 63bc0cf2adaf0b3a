// The kernel file the viewer has open (File > Open kernel file, `warpscope open FILE.cu`): built
// in the background, watched for saves, put into the catalog when a build succeeds, and run.
//
// Saving the file in any editor rebuilds it (the change is seen within a third of a second); a
// save during a build stops that build and starts another. A failed build leaves the last good
// one loaded and running; its errors are kept for the Kernel file panel. With a CUDA device the
// emulator's build comes first (seconds), the GPU's two builds after it (tens of seconds); with
// nvcc and no device, nvcc checks the file after the emulator's build (what only nvcc refuses,
// e.g. a __device__ function called from host code, is then said as a warning).
//
//   KernelFileWatch& w = kernel_file_watch();
//   w.open("examples/saxpy.cu");
//   ... each frame: w.poll(session());
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ws/kernel_file/build.h"

namespace ws::app {

class Session;

class KernelFileWatch {
 public:
  ~KernelFileWatch();  // stops a build that is going

  // Opens `path` (replacing the open file) and starts its build. With `description_from` (the
  // text of an exercise's starting file), the file is built under that file's launch description
  // instead of its own, as `warpscope check` grades it.
  void open(const std::string& path, std::string description_from = {});
  void close();
  void rebuild();
  // UI thread, once per frame: notices a save, takes a finished build in, reruns the kernel.
  void poll(Session& s);
  // Blocks until no build is going, then polls (headless pictures, tests). False on time-out.
  bool wait(Session& s, std::chrono::milliseconds timeout = std::chrono::seconds(120));

  bool is_open() const { return !path_.empty(); }
  const std::string& path() const { return path_; }
  bool building() const { return worker_ != nullptr; }
  // The last finished build: its diagnostics, text and summary (empty before the first).
  const kernel_file::Build& last() const { return last_; }
  // The catalog name of the last good build ("" before one).
  const std::string& kernel() const { return kernel_; }
  std::string status() const;  // one line for the panel and the status bar
  bool failed() const { return last_failed_; }
  uint64_t builds() const { return builds_; }
  bool gpu_built() const { return gpu_built_; }

  // A line the user picked in the panel: the source view scrolls to it once per serial.
  struct Focus {
    std::string file;
    uint32_t line = 0;
    uint64_t serial = 0;
  } focus;
  void focus_line(const std::string& file, uint32_t line) { focus = {file, line, focus.serial + 1}; }

 private:
  struct Worker {
    std::atomic<bool> cancel{false}, done{false};
    kernel_file::Build result;
    bool gpu = false;
    bool check = false;  // nvcc's check where there is no GPU (BuildOptions::gpu_check)
    std::thread thread;
  };
  void start(bool gpu, bool check = false);
  void stop_worker();
  bool file_changed();

  std::string path_;
  std::string description_from_;
  std::unique_ptr<Worker> worker_;
  kernel_file::Build last_;
  bool last_failed_ = false;
  std::string kernel_;
  uint64_t builds_ = 0;
  bool gpu_built_ = false;
  bool gpu_wanted_ = false;  // the emulator's build is in: the GPU's comes next
  bool check_wanted_ = false;  // ... or, with nvcc and no GPU, nvcc's check
  std::filesystem::file_time_type mtime_{};
  uintmax_t size_ = 0;
  std::chrono::steady_clock::time_point last_check_{};
  bool rerun_ = false;
};

KernelFileWatch& kernel_file_watch();
// Stops the watch's build if one is going; the program calls it before main() returns.
void stop_kernel_file_watch();

}  // namespace ws::app
