#!/usr/bin/env bash
# Records the streams lesson on the GPU machine (CUPTI: copies and kernels per stream, host calls
# on the same clock) and writes the recording that ships in assets/ (labelled inside with the
# card, the date and the command), its Perfetto export, and pictures of the stream timeline view.
# Runs what scripts/gpu_carry.sh packed:
#   device run  carry [".carry", ".gl"]  command: bash scripts/gpu_streams.sh .carry
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
# CUPTI ships with the toolkit, in lib64 or extras/CUPTI/lib64.
for d in /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$d"
done

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader

echo "== warpscope streams (the shipped recording)"
"$ws" streams --n 16777216 --chunks 8 --streams 2,4 -o "$out/streams_h100.json" --perfetto "$out/streams_h100.perfetto.json" 2>&1
echo "== bad plans are refused before anything runs"
"$ws" streams --n 1000 --chunks 3 2>&1 | tail -1
"$ws" streams --streams 0 2>&1 | tail -1
"$ws" streams --n 4294967297 2>&1 | tail -1
echo "== the view, headless"
"$ws" --headless --view stream-timeline --size 1920x1080 --screenshot "$out/streams_view.png" 2>&1 | tail -1
WARPSCOPE_ASSETS="$out" "$ws" --headless --view stream-timeline --view-option source=record --size 1920x1080 \
  --screenshot "$out/streams_view_recorded.png" 2>&1 | tail -1
pack_out
cp "$out/streams_h100.json" "$OUT/" 2>/dev/null || true
