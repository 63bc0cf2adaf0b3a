#!/usr/bin/env bash
# Command 1: set up (packages, configure, build) and launch the viewer. Arguments go to warpscope,
# e.g. ./scripts/run.sh --scale 1.5. Without a display, warpscope says so in one line and shows
# the headless command instead.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec "./${WARPSCOPE_BUILD_DIR:-build}/app/warpscope" "$@"
