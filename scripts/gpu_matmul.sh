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
echo "== crosscheck: emulator vs gpu-trace, n = 128"
for v in tiled blocktile-1d blocktile-2d vectorized; do
  "$ws" crosscheck -k matmul -v "$v" --n 128 > "$out/crosscheck_$v.txt" 2>&1
  tail -1 "$out/crosscheck_$v.txt"
done
grep -B3 -A12 "differs" "$out/crosscheck_vectorized.txt" | head -40
best=${WS_MATMUL_PROFILE:-vectorized}
echo "== ncu: matmul $best at 4096 (gpu-fast): speed of light, stall reasons"
if command -v ncu > /dev/null; then
  ncu --kernel-name regex:"matmul_(vectorized|blocktile)" --launch-count 1 --section SpeedOfLight --section WarpStateStats \
      --section Occupancy --section LaunchStats "$ws" run -k matmul -v "$best" --n 4096 --backend gpu-fast \
      > "$out/ncu_matmul.txt" 2>&1
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|Stall|Warp Cycles|issued" "$out/ncu_matmul.txt" | head -40
fi
pack_out
