#!/usr/bin/env bash
# Command 2: set up (packages, configure, build) and run the whole test suite. Needs no GPU and no
# display (headless tests render on Mesa's llvmpipe). Ends with ctest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."
# xvfb: a virtual X server, so the GLFW window path is tested too (no real display needed).
WARPSCOPE_EXTRA_PACKAGES="xvfb xauth ${WARPSCOPE_EXTRA_PACKAGES:-}" ./scripts/setup.sh
cd "${WARPSCOPE_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)"
