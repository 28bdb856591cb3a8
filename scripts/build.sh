#!/usr/bin/env bash
# Configures and builds Shallot in build/ (Release unless BUILD_TYPE is set).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DSHALLOT_WERROR="${WERROR:-OFF}"
cmake --build build -j "${JOBS:-2}"
