// warpscope: the viewer. Everything lives in the ws_app library so tests can drive it.
#include "cli/cli.h"

int main(int argc, char** argv) { return ws::app::run_cli(argc, argv); }
