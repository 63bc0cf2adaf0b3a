#!/usr/bin/env bash
# The GPU machine's check of the atomics lecture's kernels (histogram, gather, work queue, the
# atomics demos), in one call: the gpu tests (every catalog kernel on gpu-fast and gpu-trace, the
# intrinsics), the emulator/gpu-trace cross-check, Nsight Compute's atomic counts against
# warpscope's (scripts/referee.py --only atomics), `warpscope bench -k` for each kernel and input,
# and the atomics lesson. Runs what scripts/gpu_carry.sh packed:
#   device run  carry [".carry", ".gl"]  command: bash scripts/gpu_atomics.sh .carry
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
reps=${WS_REPS:-20}

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader

if [ -x "$carry/bin/test_gpu" ]; then
  echo "== gpu tests"
  "$carry/bin/test_gpu" 2>&1 | tee "$out/test_gpu.log" | grep -E "^device:|PASSED|FAILED|SKIPPED|Failure" | head -20
fi

echo "== cross-check: emulator vs gpu-trace (new kernels)"
"$ws" crosscheck > "$out/crosscheck.txt" 2>&1
grep -E "^(histogram|gather|workqueue|atomics) |compared|DIFFERENT" "$out/crosscheck.txt" | head -30

if command -v ncu > /dev/null; then
  ncu --query-metrics 2>/dev/null | grep -E "op_(atom|red)" > "$out/ncu_atomic_metric_names.txt"
  echo "== Nsight Compute vs warpscope: atomics"
  python3 scripts/referee.py --warpscope "$ws" --out "$out" --only atomics 2>&1 | tee "$out/referee_atomics.txt"
fi

bench() {  # bench NAME ARGS...
  local name=$1
  shift
  echo "== warpscope bench $*"
  "$ws" bench --reps "$reps" "$@" 2> "$out/$name.err" | tee "$out/$name.txt" | grep -vE "^$"
}
for i in uniform one-colour image sorted; do bench "histogram_$i" -k histogram --param "input=$i"; done
for i in identity neighbours blocked random; do bench "gather_$i" -k gather --param "indices=$i"; done
for w in equal skewed heavy-tail; do bench "workqueue_$w" -k workqueue --param "work=$w"; done
bench atomics -k atomics

echo "== the atomics lesson on this GPU"
"$ws" lesson lessons/atomics.toml 2>&1 | tail -3
pack_out
