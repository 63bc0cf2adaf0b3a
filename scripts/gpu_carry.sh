#!/usr/bin/env bash
# Packs what the GPU machine needs into .carry/ (ignored by git): the CUDA build's binaries and
# the shared libraries it lacks (it has no package registry). Then, with the device tool:
#   carry: [".carry", ".gl"]   command: bash scripts/gpu_check.sh .carry
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-cuda}
rm -rf .carry && mkdir -p .carry/bin .carry/lib
# (Not bench_emu: with the CUDA kernels in it, it would push the call past the 64 MiB a device call
# carries; for the emulator's throughput on that machine, carry a build made with
# -DWARPSCOPE_CUDA=OFF, 2 MB. Nor bench_lesson: 21 MB more; it runs here, on llvmpipe.) Stripped: symbols are a few MB of each binary.
# test_gpu and bench_timing hold the whole catalog (20 MB each): WS_CARRY_BINS picks what one call
# needs, e.g. WS_CARRY_BINS="app/warpscope bench/bench_timing" for scripts/gpu_timing.sh.
bins=${WS_CARRY_BINS:-app/warpscope tests/backends/gpu/test_gpu bench/bench_gpu_overhead bench/bench_gpu_trace bench/bench_gpu_trace_floor bench/bench_views}
for b in $bins; do
  [ -x "$build/$b" ] && cp "$build/$b" .carry/bin/ && strip "$PWD/.carry/bin/$(basename "$b")"
done
# Shared libraries outside glibc/libstdc++ that the binaries use.
for bin in .carry/bin/*; do
  ldd "$bin" | awk '/=> \// {print $3}'
done | sort -u | grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt|ld-linux)[.-]' |
  while read -r lib; do cp -L "$lib" .carry/lib/; done
# libclang and what it pulls in (libLLVM, ICU's data, z3: plain CUDA kernel files) are 190 MB, and
# the binaries 20-30 MB each: every file over 1 MB travels xz-compressed (about a quarter) and
# gpu_env.sh unpacks it; with libclang go the Clang resource headers its parse uses (a tar.xz).
if ls .carry/lib/libclang* > /dev/null 2>&1; then
  res=$(ls -d /usr/lib/llvm-14/lib/clang/*/ | head -1)
  tar cJf .carry/lib/clang-resource.tar.xz -C "$(dirname "$res")" "$(basename "$res")/include"
fi
find .carry/bin .carry/lib -maxdepth 1 -type f -size +1M ! -name '*.xz' -exec xz -T2 -6 {} \;
# The fonts the viewer found at configure time (the GPU machine has no font packages).
mkdir -p .carry/fonts
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf .carry/fonts/ 2>/dev/null || true
du -sh .carry
