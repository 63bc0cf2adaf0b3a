#!/usr/bin/env bash
# The GPU machine's check of warpscope's run process (ws/isolation): a kernel that never ends and
# a sticky fault (illegal address) each cost the run process, never the program that sent the
# run; the next GPU run passes. Runs what scripts/gpu_carry.sh packed:
#   WS_CARRY_BINS="app/warpscope tests/isolation/test_isolation" scripts/gpu_carry.sh build
#   device run  carry [".carry", ".gl"]  command: bash scripts/gpu_isolation.sh .carry
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
export XDG_CACHE_HOME=/tmp/warpscope-cache
export WARPSCOPE_TEST_EXE="$ws" WARPSCOPE_TEST_FILES="$PWD/tests/isolation"

echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

echo "== test_isolation (CPU tests, then the GPU ones: a hang, a sticky fault, a kept replay)"
"$carry/bin/test_isolation" 2>&1 | tee "$out/test_isolation.txt" | grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) " 

echo "== command line: a kernel that never ends on gpu-fast, --timeout 10, then reduce on gpu-fast"
"$ws" run --file tests/isolation/gpu_loop.cu --backend gpu-fast > /dev/null 2>&1  # (builds it: nvcc)
t0=$(date +%s.%N)
"$ws" run --file tests/isolation/gpu_loop.cu --backend gpu-fast --param loop=1 --timeout 10 2>&1 | tail -2
echo "exit ${PIPESTATUS[0]}, $(python3 -c "print(round($(date +%s.%N) - $t0, 1))") s"
"$ws" run -k reduce --backend gpu-fast 2>&1 | tail -1
echo "== command line: an illegal address on gpu-fast, --timeout 60"
"$ws" run --file tests/isolation/gpu_fault.cu --backend gpu-fast --param fault=1 --timeout 60 2>&1 | tail -3
"$ws" run -k reduce --backend gpu-trace 2>&1 | tail -1

echo "== the viewer (headless): a faulting kernel file on gpu-trace, then the picture says why"
"$ws" open tests/isolation/gpu_fault.cu --headless --backend gpu-trace --param fault=1 --presentation \
  --size 1280x720 --screenshot "$out/viewer_gpu_fault.png" 2>&1 | tail -2
"$ws" --headless --kernel reduce --variant 3 --backend gpu-trace --presentation --size 1920x1080 \
  --screenshot "$out/viewer_gpu_trace.png" 2>&1 | tail -1
pack_out
