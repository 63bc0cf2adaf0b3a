#!/usr/bin/env bash
# The GPU machine's timing of every catalog kernel, in one call: `warpscope bench -k` for each
# kernel at its timing launch (vs the measured copy / read stream, the FP32 peak, CUB, cuBLAS),
# seed 000's block-shape experiment, the matrix lesson's numbers, Live against bench
# (bench_timing), and headless pictures of the Timing panel for a matrix kernel. Runs what
# scripts/gpu_carry.sh packed:
#   device run  carry [".carry", ".gl"]  command: bash scripts/gpu_timing.sh .carry
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
reps=${WS_REPS:-20}

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader

bench() {  # bench NAME ARGS...: the table to stdout and $out/NAME.txt, the progress to $out/NAME.err
  local name=$1
  shift
  echo "== warpscope bench $*"
  "$ws" bench --reps "$reps" "$@" 2> "$out/$name.err" | tee "$out/$name.txt"
  echo "exit ${PIPESTATUS[0]}"
}
bench transpose -k transpose --n 8192
bench matadd -k matadd -v row -v col --n 8192
bench matadd_shapes -k matadd -v row --block 16,16 --block 128,2 --block 32,8 --block 8,32 --block 256,1 --block 1,256
bench matmul -k matmul --n 4096
bench shortcut -k shortcut --n 4000
bench reduce_k -k reduce
for k in dot single_pass atomics coalesce spmv divergence scale bank race; do bench "$k" -k "$k"; done
bench json_transpose -k transpose --json

if [ -x "$carry/bin/bench_timing" ]; then
  echo "== Live (1 warm-up, 10 replays, median of 5 points) against bench (3 + 30) for every kernel"
  "$carry/bin/bench_timing" 2>&1 | tee "$out/bench_timing.txt"
fi

echo "== the Timing panel, headless"
"$ws" --headless --view timing --kernel transpose --variant padded --block 32,32 --size 1600x900 --screenshot "$out/timing_transpose.png" 2>&1 | tail -2
"$ws" --headless --view timing-sweep --kernel matadd --variant row --size 1600x900 --screenshot "$out/timing_matadd_shapes.png" 2>&1 | tail -2
"$ws" --headless --view timing --kernel matmul --variant tiled --size 1600x900 --presentation --screenshot "$out/timing_matmul_pres.png" 2>&1 | tail -2
"$ws" --headless --view timing-live --kernel transpose --variant naive --size 1280x720 --screenshot "$out/timing_live_720.png" 2>&1 | tail -2
pack_out
