#!/usr/bin/env bash
# AddressSanitizer + UBSan over the CPU stages' tests (emulator, kernels, trace, analysis, rules,
# run, util, timing, the run process with a real warpscope): an emulator-only build in build-asan/ (or $WARPSCOPE_ASAN_DIR), the tests
# labelled cpu run under the sanitizers, the first error fails. The emulator tells ASan about
# every fiber switch, so its stack checks work inside kernels too. CI runs it after test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${WARPSCOPE_ASAN_DIR:-build-asan}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$dir" -G Ninja -DWARPSCOPE_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" > /dev/null
targets=(test_util test_trace test_run test_rules test_emu test_fiber_switch test_loop_spans test_issue_policy
         test_kernels test_analysis test_timing replay_trace replay_stream_timeline test_kernel_file
         replay_kernel_description test_isolation replay_lesson)
ninja -C "$dir" "${targets[@]}"
cd "$dir"
# (Leaks: the emulator keeps its fiber stacks and tables for the process's life, on purpose.)
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest -L cpu --output-on-failure -j "$(nproc)"
