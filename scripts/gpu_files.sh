#!/usr/bin/env bash
# The GPU machine's check of kernel files (examples/*.cu, and the plain CUDA ones of
# tests/kernel_file/plain): each built by nvcc for gpu-fast and
# gpu-trace from the carried warpscope (the source tree beside it gives the headers), run and
# checked on both, cross-checked against the emulator, held against Nsight Compute
# (scripts/referee.py --only files), and the build times (bench_kernel_file --gpu). Then the
# catalog's own gpu tests. Runs what scripts/gpu_carry.sh packed:
#   WS_CARRY_BINS="app/warpscope tests/backends/gpu/test_gpu" scripts/gpu_carry.sh build
# (bench_kernel_file too where it fits the 64 MiB a call carries: it times the nvcc builds apart.)
#   device run  carry [".carry", ".gl"]  command: bash scripts/gpu_files.sh .carry
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=gpu_env.sh
source scripts/gpu_env.sh "${1:-.carry}"
ws="$carry/bin/warpscope"
export XDG_CACHE_HOME=/tmp/warpscope-cache  # the build cache: each file is compiled once per flavour

echo "== device"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

echo "== kernel files: nvcc build, run on gpu-fast and gpu-trace (verdict), emulator for comparison"
printf "%-16s %-8s %-10s %-10s %-10s %s\n" file variant emu gpu-fast gpu-trace "first build s"
files=${WS_FILES:-"examples/*.cu tests/kernel_file/plain/*.cu"}
for f in $files; do
  name=$(basename "$f")
  variants=$(sed -n '/^\[\[variants\]\]/,/^$/p' "$f" | sed -n 's/^id = "\(.*\)"/\1/p')
  extra=""
  [ "$name" = race.cu ] && extra="--param fixed=1"
  for v in ${variants:-"-"}; do
    vopt=""
    [ "$v" != "-" ] && vopt="-v $v"
    t0=$(date +%s.%N)
    fast=$("$ws" run --file "$f" $vopt $extra --backend gpu-fast 2> "$out/${name}_${v}_fast.err" | tail -1 | awk '{print $1}')
    t1=$(date +%s.%N)
    trace=$("$ws" run --file "$f" $vopt $extra --backend gpu-trace 2> "$out/${name}_${v}_trace.err" | tail -1 | awk '{print $1}')
    emu=$("$ws" run --file "$f" $vopt $extra 2>&1 | tail -1 | awk '{print $1}')
    printf "%-16s %-8s %-10s %-10s %-10s %.1f\n" "$name" "$v" "$emu" "${fast:-error}" "${trace:-error}" "$(python3 -c "print($t1 - $t0)")"
    [ -z "$fast" ] && head -5 "$out/${name}_${v}_fast.err"
  done
done

echo "== cross-check: emulator vs gpu-trace accesses, per file"
for f in $files; do
  extra=""
  [ "$(basename "$f")" = race.cu ] && extra="--param fixed=1"
  "$ws" crosscheck --file "$f" $extra 2>&1 | tee -a "$out/crosscheck_files.txt" | grep -vE "^kernel " | head -6
done

if command -v ncu > /dev/null; then
  echo "== Nsight Compute vs warpscope: kernel files"
  [[ "$files" == *examples/\** ]] && python3 scripts/referee.py --warpscope "$ws" --out "$out" --only files 2>&1 | tee "$out/referee_files.txt"
  plain=(); for f in tests/kernel_file/plain/*.cu; do plain+=(--file "$f"); done
  python3 scripts/referee.py --warpscope "$ws" --out "$out" --only files "${plain[@]}" 2>&1 | tee "$out/referee_plain.txt"
fi

if [ -x "$carry/bin/bench_kernel_file" ]; then
  echo "== what a save costs (build from scratch + emulator run; nvcc builds for the GPU)"
  "$carry/bin/bench_kernel_file" --reps 3 --gpu --dir examples 2>&1 | tee "$out/bench_kernel_file.txt"
fi

echo "== cross-check of the catalog (the CUDA runtime is now shared: nothing else may change)"
"$ws" crosscheck > "$out/crosscheck.txt" 2>&1
tail -1 "$out/crosscheck.txt"
grep -E "DIFFERENT|fault" "$out/crosscheck.txt" | head

if [ -x "$carry/bin/test_gpu" ]; then
  echo "== gpu tests (catalog)"
  "$carry/bin/test_gpu" 2>&1 | tee "$out/test_gpu.log" | grep -E "^device:|PASSED|FAILED|SKIPPED|Failure" | head -20
fi
pack_out
