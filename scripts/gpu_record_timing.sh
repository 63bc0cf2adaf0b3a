#!/usr/bin/env bash
# Records the timing tables that ship in assets/timing/ (what the Timing panel shows where there is
# no GPU): the lecture's reduction table at 2^22 (seed 003's size) and 2^24 beside CUB, every
# transpose against a copy, seed 000's matrix add with each block shape of 256 threads, the
# shortcut problem's V0-V2, and the matmul variants beside cuBLAS. On the GPU machine, after
# WS_CARRY_BINS="app/warpscope" scripts/gpu_carry.sh build:
#   device run  carry [".carry"]  command: bash scripts/gpu_record_timing.sh .carry
# The JSON files come back through $OUT; copy them to assets/timing/.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
dest=${OUT:-$out}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr 'A-Z ' 'a-z_' | sed 's/nvidia_//')
echo "== device: $card"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader
run() {
  local name=$1; shift
  echo "== $name: warpscope $*"
  "$ws" "$@" --save "$dest/${name}_${card}.json" > "$out/$name.txt" 2> "$out/$name.err"
  echo "exit $?"
  tail -25 "$out/$name.txt"
}
run reduce bench --n 4194304 --n 16777216
run transpose bench -k transpose
run matadd bench -k matadd -v row --block 16,16 --block 128,2 --block 32,8 --block 64,4 --block 256,1 --block 8,32
run shortcut bench -k shortcut
run matmul bench -k matmul
pack_out
