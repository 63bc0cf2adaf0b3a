#!/usr/bin/env bash
# Fuzzes the trace loader and everything that reads a trace (tests/fuzz/fuzz_trace.cpp), the
# stream timeline reader (tests/fuzz/fuzz_stream_timeline.cpp) and kernel files' launch
# descriptions with their code generator (tests/fuzz/fuzz_kernel_description.cpp), with
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
ninja -C "$dir" fuzz_trace fuzz_stream_timeline fuzz_kernel_description
mkdir -p "$dir/corpus" "$dir/corpus_streams" "$dir/corpus_kernel_files" "$dir/crashes"
cp -n tests/fuzz/corpus/trace/* "$dir/corpus/" 2> /dev/null || true
cp -n tests/fuzz/corpus/streams/* "$dir/corpus_streams/" 2> /dev/null || true
cp -n tests/fuzz/corpus/kernel_files/* examples/*.cu "$dir/corpus_kernel_files/" 2> /dev/null || true
# Traces get most of the time (their reader and the analysis are the large surface); stream
# timelines and kernel descriptions a fifth each. (Leaks off: nothing is kept between inputs, and
# libFuzzer's leak check is slow.)
stream_seconds=$((seconds / 5 > 10 ? seconds / 5 : 10))
trace_seconds=$((seconds - 2 * stream_seconds > 10 ? seconds - 2 * stream_seconds : 10))
echo "== trace files ($trace_seconds s)"
ASAN_OPTIONS=detect_leaks=0 "$dir/tests/fuzz/fuzz_trace" "$dir/corpus" -max_total_time="$trace_seconds" -rss_limit_mb=2048 \
  -timeout=10 -artifact_prefix="$dir/crashes/" -print_final_stats=1 2>&1 | tail -25
echo "== stream timeline files ($stream_seconds s)"
ASAN_OPTIONS=detect_leaks=0 "$dir/tests/fuzz/fuzz_stream_timeline" "$dir/corpus_streams" -max_total_time="$stream_seconds" \
  -rss_limit_mb=2048 -timeout=10 -max_len=65536 -artifact_prefix="$dir/crashes/" -print_final_stats=1 2>&1 | tail -12
echo "== kernel file descriptions ($stream_seconds s)"
ASAN_OPTIONS=detect_leaks=0 "$dir/tests/fuzz/fuzz_kernel_description" "$dir/corpus_kernel_files" -max_total_time="$stream_seconds" \
  -rss_limit_mb=2048 -timeout=10 -max_len=65536 -artifact_prefix="$dir/crashes/" -print_final_stats=1 2>&1 | tail -12
echo "fuzz: crashes kept: $(find "$dir/crashes" -type f | wc -l) (in $dir/crashes)"
