// `warpscope serve-runs --fd N`: warpscope's run process (ws/isolation). Not for people: the viewer
// (and `run --timeout`) start it and talk to it over the socket at fd N.
#pragma once

namespace CLI { class App; }

namespace ws::app {

void register_serve_runs_command(CLI::App& app);
// The exit status when it was chosen, else -1.
int run_serve_runs_if_selected();

}  // namespace ws::app
