#!/usr/bin/env bash
# Installs, builds, and opens the editor on a sample map (under Xvfb when there is no display).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
MAP="${1:-maps/figure1_rooms.map}"
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  echo "No display: rendering a screenshot to build/editor.png instead"
  xvfb-run -a -s "-screen 0 1600x1000x24" ./build/app/shallot --screenshot build/editor.png "$MAP"
else
  ./build/app/shallot "$MAP"
fi
