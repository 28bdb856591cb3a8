#!/usr/bin/env bash
# Installs, builds (scripts/build.sh: warnings as errors), and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "${JOBS:-2}"
