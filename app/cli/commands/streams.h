// `warpscope streams [--n N] [--chunks K] [--streams 2,4] [--work W] [-o FILE] [--perfetto FILE]
// [--load FILE]`: records the streams lesson on a GPU (synchronous copies from pageable and
// pinned memory, the work in chunks over several streams, a default-stream launch in the middle)
// or loads a recording, prints each scenario's end-to-end time beside the sum of its parts, and
// saves it (warpscope's JSON, Perfetto's JSON).
#pragma once

namespace CLI { class App; }

namespace ws::app {

void register_streams_command(CLI::App& app);
// The exit code when `streams` was chosen, else -1.
int run_streams_if_selected();

}  // namespace ws::app
