#!/usr/bin/env bash
# Configures and builds Shallot in build/ (Release unless BUILD_TYPE is set), with warnings as
# errors as the CI builds. scripts/run-editor.sh and scripts/test-all.sh both come here with
# the same settings, so whichever runs second reuses the first one's build.
# WERROR=OFF for a compiler newer than Debian 12's that warns about more.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DSHALLOT_WERROR="${WERROR:-ON}"
cmake --build build -j "${JOBS:-2}"
