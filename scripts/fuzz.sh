#!/usr/bin/env bash
# Fuzzes the trace loader and everything that reads a trace (tests/fuzz/fuzz_trace.cpp) with
# clang's libFuzzer, AddressSanitizer and UBSan, for a while (default 300 seconds, or as given),
# starting from the corpus in tests/fuzz/corpus/trace. Prints libFuzzer's executions and the
# crashes found; a crash's input is kept in build-fuzz/crashes/: add it to the corpus (it then
# runs in every build's ctest as a regression input) once its cause is fixed.
#
#   ./scripts/fuzz.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
if ! command -v clang++ > /dev/null; then
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then SUDO=(sudo); fi
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang
fi
dir=${WARPSCOPE_FUZZ_DIR:-build-fuzz}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g -O1"
cmake -S . -B "$dir" -G Ninja -DWARPSCOPE_CUDA=OFF -DWS_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang "-DCMAKE_CXX_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" > /dev/null
ninja -C "$dir" fuzz_trace
mkdir -p "$dir/corpus" "$dir/crashes"
cp -n tests/fuzz/corpus/trace/* "$dir/corpus/" 2> /dev/null || true
# (Leaks off: the analysis keeps nothing between inputs, and libFuzzer's own leak check is slow.)
ASAN_OPTIONS=detect_leaks=0 "$dir/tests/fuzz/fuzz_trace" "$dir/corpus" -max_total_time="$seconds" -rss_limit_mb=2048 \
  -timeout=10 -artifact_prefix="$dir/crashes/" -print_final_stats=1 2>&1 | tail -25
echo "fuzz: crashes kept: $(find "$dir/crashes" -type f | wc -l) (in $dir/crashes)"
