#!/usr/bin/env bash
# The GPU machine's timing run, in one call: `warpscope bench` (the lecture's reduction table beside
# CUB and the measured ceilings, n = 2^28 and 2^24), its JSON, and headless pictures of the Timing
# panel. Runs what scripts/gpu_carry.sh packed:
#   device run  carry [".carry", ".gl"]  command: bash scripts/gpu_bench.sh .carry
# Results also go to $OUT (or /tmp/warpscope-gpu).
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader

if [ "${WS_VIEWS_ONLY:-0}" = 1 ]; then
  echo "== the Timing panel's Live and Sweep tabs, headless (reduce 9, n = 2^24)"
  "$ws" --headless --view timing-live --kernel reduce --variant 9 --size 1400x900 --screenshot "$out/timing_live.png" 2>&1 | tail -2
  "$ws" --headless --view timing-sweep --kernel reduce --variant 9 --size 1400x900 --screenshot "$out/timing_sweep.png" 2>&1 | tail -2
  if [ -x "$carry/bin/bench_views" ]; then
    echo "== frame cost of the large views (our shaders, NVIDIA EGL)"
    "$carry/bin/bench_views"
  fi
  exit 0
fi

echo "== warpscope bench --json (n = 2^24, for the record)"
"$ws" bench --json --n 16777216 > "$out/bench_2_24.json" 2> "$out/bench_2_24.err"; echo "exit $?"

echo "== warpscope bench (n = 2^28 and 2^24)"
"$ws" bench 2> "$out/bench.err" | tee "$out/bench.txt"; echo "exit ${PIPESTATUS[0]}"

echo "== the Timing panel, headless (n = 2^24)"
"$ws" --headless --view timing --n 16777216 --size 1400x900 --screenshot "$out/timing_view.png" 2>&1 | tail -2
"$ws" --headless --view timing --n 16777216 --size 1400x900 --presentation --screenshot "$out/timing_view_pres.png" 2>&1 | tail -2

if [ "${WS_GPU_TESTS:-0}" = 1 ]; then
  echo "== gpu tests and the emulator cross-check"
  "$carry/bin/test_gpu" 2>&1 | tee "$out/test_gpu.log" | grep -E "^device:|PASSED|FAILED|SKIPPED|Failure" | head -20
  "$ws" crosscheck > "$out/crosscheck.txt" 2>&1; echo "crosscheck exit $?"
  grep -E "compared|differ" "$out/crosscheck.txt" | tail -5
fi
pack_out
