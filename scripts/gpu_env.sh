# Sourced by the GPU machine's scripts (gpu_check.sh, gpu_bench.sh) after `cd` to the repository:
# sets carry/out from $1 and $OUT, points the viewer at the carried fonts and libraries, unpacks the
# carried glvnd packages (.gl/) and names NVIDIA's EGL vendor file when the machine has it.
carry=${1:-.carry}
# Everything is written to $out; pack_out (at the end) returns it in few files: the device tool
# brings back at most 8 files from $OUT (logs in one archive, the pictures beside it).
out=/tmp/warpscope-gpu
mkdir -p "$out"
pack_out() {
  [ -n "${OUT:-}" ] || return 0
  tar czf "$OUT/gpu_logs.tgz" -C "$out" --exclude='*.png' .
  find "$out" -maxdepth 1 -name '*.png' | head -6 | xargs -r cp -t "$OUT"
}
[ -f "$carry/fonts/DejaVuSans.ttf" ] && export WARPSCOPE_UI_FONT="$PWD/$carry/fonts/DejaVuSans.ttf"
[ -f "$carry/fonts/JetBrainsMono-Regular.ttf" ] && export WARPSCOPE_MONO_FONT="$PWD/$carry/fonts/JetBrainsMono-Regular.ttf"
# What gpu_carry.sh compressed (binaries, libclang, libLLVM, Clang's resource headers beside
# libclang, where it looks for them): unpacked once, with Python (the machine may lack xz).
if [ -f "$carry/lib/clang-resource.tar.xz" ]; then
  mkdir -p "$carry/lib/clang" && tar xJf "$carry/lib/clang-resource.tar.xz" -C "$carry/lib/clang" && rm "$carry/lib/clang-resource.tar.xz"
fi
for f in "$carry"/bin/*.xz "$carry"/lib/*.xz; do
  [ -f "$f" ] && python3 -c "import lzma,sys; open(sys.argv[1][:-3],'wb').write(lzma.open(sys.argv[1]).read())" "$f" &&
    chmod +x "${f%.xz}" && rm "$f"
done
export LD_LIBRARY_PATH="$PWD/$carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# cuBLAS (matmul's reference) is opened at run time from the machine's CUDA toolkit, not carried.
[ -d /usr/local/cuda/lib64 ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:/usr/local/cuda/lib64"
if [ -d .gl ] && ls .gl/*.deb > /dev/null 2>&1; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
true
