#!/usr/bin/env bash
# A short check of the GPU paths after a change that touches them all (a restructuring, the wire,
# the streams recorder), in one device call of a few minutes: the catalog's GPU tests, a streams
# recording, three kernel files built by nvcc and run on both GPU backends beside the emulator,
# and printf's order on gpu-fast beside the emulator's. Runs what scripts/gpu_carry.sh packed:
#   WS_CARRY_BINS="app/warpscope tests/backends/gpu/test_gpu" scripts/gpu_carry.sh build
#   device run  carry [".carry"]  command: bash scripts/gpu_smoke.sh .carry
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
export XDG_CACHE_HOME=/tmp/warpscope-cache

echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

echo "== test_gpu"
timeout 400 "$carry/bin/test_gpu" > "$out/test_gpu.log" 2>&1
echo "exit $?"
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED  \]|tests ran" "$out/test_gpu.log" | head -20

echo "== warpscope streams (CUPTI recording of the copy/kernel overlap)"
timeout 60 "$ws" streams > "$out/streams.txt" 2>&1
echo "exit $?"
head -12 "$out/streams.txt"

echo "== kernel files: emulator, gpu-fast, gpu-trace (first build s)"
for f in ${WS_FILES:-tests/kernel_file/plain/real_param.cu tests/kernel_file/plain/seed_csrmul.cu examples/saxpy.cu}; do
  t0=$(date +%s.%N)
  fast=$(timeout 120 "$ws" run --file "$f" --backend gpu-fast 2> "$out/$(basename "$f")_fast.err" | tail -1)
  t1=$(date +%s.%N)
  trace=$(timeout 120 "$ws" run --file "$f" --backend gpu-trace 2> "$out/$(basename "$f")_trace.err" | tail -1)
  emu=$(timeout 60 "$ws" run --file "$f" 2>&1 | tail -1)
  printf "%s\n  emu:       %s\n  gpu-fast:  %s (%.1f s)\n  gpu-trace: %s\n" "$f" "$emu" "$fast" \
    "$(python3 -c "print($t1 - $t0)")" "$trace"
done

echo "== printf: a warp's lines in lane order (gpu-fast, then the emulator: the same text?)"
cat > "$out/printf_order.cu" <<'EOF'
#include <cstdio>
/* warpscope
kernel = "k"
n = 128
block = 64
args = ["a"]
[arrays.a]
type = "int"
size = "n"
fill = "iota"
*/
__global__ void k(const int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  printf("first %d %d\n", i, a[i]);
  if (threadIdx.x % 2) printf("odd %d\n", i);
}
EOF
timeout 120 "$ws" run --file "$out/printf_order.cu" --backend gpu-fast > "$out/printf_gpu.txt" 2>&1
timeout 60 "$ws" run --file "$out/printf_order.cu" > "$out/printf_emu.txt" 2>&1
# (a GPU orders warps and blocks as they ran: compare each warp's lines, in order)
for f in gpu emu; do grep -E "^(first|odd) " "$out/printf_$f.txt" > "$out/printf_${f}_lines.txt"; done
python3 - "$out/printf_gpu_lines.txt" "$out/printf_emu_lines.txt" <<'EOF'
import sys
def by_warp(path):
    warps = {}
    for line in open(path):
        i = int(line.split()[1])
        warps.setdefault(i // 32, []).append(line)
    return warps
g, e = by_warp(sys.argv[1]), by_warp(sys.argv[2])
same = sum(1 for w in g if g[w] == e.get(w))
print(f"warps whose lines match in order: {same} of {len(g)} (gpu-fast) / {len(e)} (emulator)")
for w in sorted(g):
    if g[w] != e.get(w):
        print(f"warp {w}: gpu {g[w][:3]} ... emu {(e.get(w) or [])[:3]} ...")
        break
EOF
pack_out
