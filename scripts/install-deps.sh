#!/usr/bin/env bash
# Installs the Debian 12 packages Shallot builds and tests with.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(build-essential cmake ninja-build pkg-config libeigen3-dev qt6-base-dev libqt6opengl6-dev libgl-dev
          libquazip1-qt6-dev libassimp-dev libqhull-dev xvfb xauth libgl1-mesa-dri
          libgtest-dev libgmock-dev libbenchmark-dev libgoogle-perftools-dev
          clang libclang-rt-14-dev time  # clang and libFuzzer: scripts/fuzz.sh; time: tests/cli
          lld                            # the linker of the sanitizer and fuzzer builds
          dpkg-dev file                  # cpack -G DEB's dependency scan (scripts/check-install.sh)
          pybind11-dev python3-dev python3-numpy   # the Python module and its tests (docs/runtime.md)
          librecast-dev)                 # the navigation comparison benchmark (tests/bench/nav_vs_recast.cpp)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
