#!/usr/bin/env bash
# The editor soak (docs/bad-input.md, "Editor sessions"): a seeded random editing session on
# the real editor under Xvfb for MINUTES (default 30), then the checks of
# tests/app/editor_soak_gui_test.cpp (memory bound, headless replay, fresh compile).
#   scripts/soak.sh [MINUTES] [SEED]
# The edit script, the saves and the memory samples are kept in $SOAK_DIR (default
# build/soak-SEED). BUILD_DIR (default build) and JOBS (default 2) choose the build.
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES="${1:-30}"
SEED="${2:-1}"
BUILD_DIR="${BUILD_DIR:-build}"
SOAK_DIR="${SOAK_DIR:-$BUILD_DIR/soak-$SEED}"
scripts/install-deps.sh
# Configured as scripts/build.sh does, so that the soak and the README's commands share build/.
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DSHALLOT_WERROR="${WERROR:-ON}"
cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target editor_soak_gui_test
mkdir -p "$SOAK_DIR"
echo "Soak: $MINUTES minutes, seed $SEED; script, saves and rss.csv in $SOAK_DIR"
# QtTest stops a test function after 5 minutes unless told otherwise: allow the run plus
# 15 minutes for the replay and the final compile.
QTEST_FUNCTION_TIMEOUT=$(((MINUTES * 60 + 900) * 1000)) \
SHALLOT_SOAK_SECONDS=$((MINUTES * 60)) SHALLOT_SOAK_SEED="$SEED" SHALLOT_SOAK_DIR="$SOAK_DIR" \
  xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD_DIR/tests/editor_soak_gui_test"
