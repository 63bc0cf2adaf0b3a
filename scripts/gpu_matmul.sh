#!/usr/bin/env bash
# The matrix multiply ladder on the GPU machine, in one call: every matmul variant timed beside
# cuBLAS SGEMM (`warpscope bench -k matmul`, 4096^2 and 2048^2), the emulator and gpu-trace compared
# on the new variants, and Nsight Compute's stall reasons for the best hand-written one. Runs what
# scripts/gpu_carry.sh packed (WS_CARRY_BINS="app/warpscope" is enough):
#   device run  carry [".carry"]  command: bash scripts/gpu_matmul.sh .carry
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
for n in 4096 2048; do
  echo "== warpscope bench -k matmul --n $n --block 16"
  "$ws" bench -k matmul --n "$n" --block 16 --reps 20 2>&1 | tail -14
done
# The Timing panel's table where there is no GPU (assets/timing/matmul_<card>.json).
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z_' | sed 's/nvidia_//')
"$ws" bench -k matmul --save "${OUT:-$out}/matmul_${card}.json" > "$out/record.txt" 2>&1; echo "recorded: exit $?"
echo "== crosscheck: emulator vs gpu-trace, n = 128"
for v in tiled blocktile-1d blocktile-2d vectorized double-buffer warp-tiled two-blocks; do
  "$ws" crosscheck -k matmul -v "$v" --n 128 > "$out/crosscheck_$v.txt" 2>&1
  tail -1 "$out/crosscheck_$v.txt"
done
grep -B3 -A12 "differs" "$out/crosscheck_vectorized.txt" | head -40
best=${WS_MATMUL_PROFILE:-two-blocks}
echo "== ncu: matmul $best at 4096 (gpu-fast): speed of light, stall reasons"
stalls=smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio
if command -v ncu > /dev/null; then
  for v in "$best" cublas; do
    echo "-- $v"
    ncu --launch-skip 0 --launch-count 1 --kernel-name regex:"matmul_|gemm|Kernel" --section SpeedOfLight --section Occupancy \
        --section LaunchStats --metrics "$stalls" "$ws" run -k matmul -v "$v" --n 4096 --backend gpu-fast > "$out/ncu_$v.txt" 2>&1
    grep -E "^  [a-zA-Z_]|Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|stalled" \
      "$out/ncu_$v.txt" | head -24
  done
fi
pack_out
