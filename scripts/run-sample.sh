#!/usr/bin/env bash
# Installs, builds, and compiles a sample map, printing its statistics.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
./build/app/shallot-cli compile "${1:-maps/figure1_rooms.map}" -o build/sample.obsp --stats
./build/app/shallot-cli info build/sample.obsp
