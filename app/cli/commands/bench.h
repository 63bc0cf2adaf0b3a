// `warpscope bench` (bench.cpp).
#pragma once

namespace CLI { class App; }

namespace ws::app {

void register_bench(CLI::App& app);
// The exit code when `bench` was chosen, else -1.
int run_bench_if_selected();

}  // namespace ws::app
