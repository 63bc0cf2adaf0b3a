// A kernel file built and loaded in warpscope's run process (ws/isolation), so that none of its
// code runs in the process that asked: not its build's static initialisers, not its spec(), not
// the host code of its fills, expects and sizes. build() sends every file there once the run
// process takes kernel files (isolation::runs_kernel_files(): the viewer, the command line, a
// trusted lesson); what comes back is the file's catalog entry as data — its spec, its
// diagnostics, the backends it was built for — whose runs the Catalog's run hook sends there too.
//
//   isolation::enable(catalog, {});                       // kernel files go to the run process
//   Build b = build("/home/me/saxpy.cu", {});             // compiled, loaded and described there
//   install(b, catalog);                                  // its runs go there as well
//
// A build whose code crashes, loops or exits costs the run process, and the build's diagnostics
// say how: "the kernel file's code ended the run process as it was loaded ...: by signal 11".
#pragma once

#include <string>

#include "ws/kernel_file/build.h"

namespace ws::kernel_file {

// The asking side: `text` of the file at `path` (canonical) built there with `options`.
Build build_in_run_process(const std::string& path, const std::string& text, const BuildOptions& options);

// The run process's side of Kind::BuildFile: builds the file in this process, installs it into
// `catalog` (its runs come here next) and answers the Build as data.
std::string answer_build(const std::string& payload, Catalog& catalog, const std::atomic<bool>* cancel);

}  // namespace ws::kernel_file
