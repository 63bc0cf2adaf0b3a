#!/usr/bin/env bash
# Renders the README's screenshot with warpscope itself (headless, no display needed):
#   ./scripts/screenshot.sh            -> assets/warpscope.png
# Run it after ./scripts/setup.sh (or ./scripts/test.sh) so build/app/warpscope exists.
set -euo pipefail
cd "$(dirname "$0")/.."
exec "./${WARPSCOPE_BUILD_DIR:-build}/app/warpscope" --headless --size 1600x900 --scale 1 \
  --screenshot assets/warpscope.png "$@"
