#!/usr/bin/env bash
# The GPU machine's check, in one call: the gpu-labelled tests, the zero-overhead benchmark, the
# SASS comparison, and a headless screenshot through the NVIDIA EGL driver. Prints a short table.
#
# It runs what was built on a developer machine (the GPU machine has no package registry, so it
# cannot build the viewer's dependencies): `scripts/gpu_carry.sh` packs .carry/, then
#   device run  carry [".carry", ".gl"]  command: bash scripts/gpu_check.sh .carry
# Results: /tmp/warpscope-gpu, packed into $OUT (gpu_logs.tgz and the pictures).
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"

echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader

echo "== gpu tests (gpu-fast correctness of every catalog kernel)"
"$carry/bin/test_gpu" 2>&1 | tee "$out/test_gpu.log" | grep -E "^device:|PASSED|FAILED|SKIPPED|Failure" | head -20

echo "== zero overhead: gpu-fast vs hand-written twins"
"$carry/bin/bench_gpu_overhead" 2>&1 | tee "$out/overhead.txt"
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$carry/bin/bench_gpu_overhead" > "$out/sass.txt" 2>&1
  python3 scripts/sass_compare.py sm_90 < "$out/sass.txt" | tee "$out/sass_compare.txt"
fi

if [ -x "$carry/bin/bench_gpu_trace" ]; then
  echo "== gpu-trace recording overhead"
  "$carry/bin/bench_gpu_trace" 2>&1 | tee "$out/trace_overhead.txt"
fi
if [ -x "$carry/bin/bench_gpu_trace_floor" ]; then
  echo "== floors of exact per-site counting (hand-written reduce 3)"
  "$carry/bin/bench_gpu_trace_floor" 2>&1 | tee "$out/trace_floor.txt"
fi

echo "== cross-check: emulator vs gpu-trace, every catalog kernel (blocks 0 and 1)"
"$carry/bin/warpscope" crosscheck > "$out/crosscheck.txt" 2>&1
grep -E "^[a-z_]+ +[0-9a-z-]+ +[0-9]+ |compared" "$out/crosscheck.txt"

if [ "${WS_REFEREE:-1}" = 1 ] && command -v ncu > /dev/null; then
  echo "== referees: Nsight Compute and compute-sanitizer"
  python3 scripts/referee.py --warpscope "$carry/bin/warpscope" --out "$out" > "$out/referee.txt" 2>&1
  grep -E "DIFFERS|metrics match|racecheck|barrier" "$out/referee.txt"
fi

echo "== headless screenshot through the NVIDIA EGL driver"
"$carry/bin/warpscope" --headless --size 1600x900 --kernel reduce --variant 2 --screenshot "$out/gpu_headless.png" 2>&1 | tail -3
ls -la "$out/gpu_headless.png" 2>&1 | tail -1

echo "== lessons: every shipped step holds here; the timing slide with this GPU's times"
for f in lessons/*.toml; do
  if "$carry/bin/warpscope" lesson "$f" > "$out/lesson_$(basename "$f" .toml).txt" 2>&1; then echo "ok      $f"; else echo "FAILED  $f"; fi
done
"$carry/bin/warpscope" --lesson lessons/reduction.toml --headless --step 14 --size 1920x1080 \
  --screenshot "$out/gpu_lesson_timing.png" 2>&1 | tail -1
"$carry/bin/warpscope" --lesson lessons/reduction.toml --headless --step 3 --size 1920x1080 \
  --screenshot "$out/gpu_lesson_step3.png" 2>&1 | tail -1
if [ -x "$carry/bin/bench_lesson" ]; then
  echo "== step switch (bench_lesson, reduction, 1920x1080)"
  "$carry/bin/bench_lesson" lessons/reduction.toml 2>&1 | tee "$out/bench_lesson.txt" | tail -3
fi
pack_out
