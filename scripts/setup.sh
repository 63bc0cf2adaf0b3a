#!/usr/bin/env bash
# Installs the Debian packages warpscope needs (only those missing), configures (Release, Ninja,
# build/) and builds. Safe to run again: a second run installs nothing and rebuilds only what
# changed. CUDA is used when /usr/local/cuda (nvcc) is there; set WARPSCOPE_CMAKE_ARGS to pass more
# options, e.g. WARPSCOPE_CMAKE_ARGS="-DWARPSCOPE_CUDA=OFF".
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${WARPSCOPE_BUILD_DIR:-build}

# Everything comes from Debian 12's own archive; nothing is downloaded or vendored otherwise.
PACKAGES=(
  cmake ninja-build g++ pkg-config ccache
  python3-glad                        # generates the GL/EGL loader at configure time
  libimgui-dev libstb-dev             # Dear ImGui 1.86 (+ GLFW/OpenGL3 backends), stb PNG writer
  libglfw3-dev libgl-dev libegl-dev   # window, OpenGL, EGL (glvnd)
  libegl-mesa0 libgl1-mesa-dri        # Mesa: EGL device platform + llvmpipe for headless/CI
  libcli11-dev                        # command line
  libclang-14-dev                     # plain CUDA kernel files: Clang parses them before they are instrumented
  libtomlplusplus-dev                 # lesson files (toml++ 3.3)
  fonts-dejavu-core fonts-jetbrains-mono
  libboost-context-dev                # the CPU emulator's fibers
  nlohmann-json3-dev                  # JSON exports
  libgtest-dev libgmock-dev libbenchmark-dev
)
# Extra packages a caller needs (test.sh adds xvfb so CI also runs the window path).
read -r -a extra <<< "${WARPSCOPE_EXTRA_PACKAGES:-}"
PACKAGES+=("${extra[@]}")

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then SUDO=(sudo); fi
  echo "setup: installing ${missing[*]}"
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Configure once; afterwards Ninja re-runs CMake by itself when a CMakeLists.txt changes.
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # shellcheck disable=SC2086  # WARPSCOPE_CMAKE_ARGS is a list of words on purpose
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release ${WARPSCOPE_CMAKE_ARGS:-}
fi
cmake --build "$BUILD_DIR"
