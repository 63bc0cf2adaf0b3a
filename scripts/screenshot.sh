#!/usr/bin/env bash
# Renders the README's screenshot with warpscope itself (headless, no display needed):
#   ./scripts/screenshot.sh            -> assets/warpscope.png
# The picture: the reduction lab on variant 2 (interleaved addressing, bank conflicts), warp 0's
# load at s = 2 selected, so the access map shows the 4-way conflict and the bank heatmap its
# pattern. Run it after ./scripts/setup.sh (or ./scripts/test.sh) so build/app/warpscope exists.
set -euo pipefail
cd "$(dirname "$0")/.."
exec "./${WARPSCOPE_BUILD_DIR:-build}/app/warpscope" --headless --size 1600x900 --scale 1 \
  --variant 2 --select block=0,warp=0,step=7 --screenshot assets/warpscope.png "$@"
