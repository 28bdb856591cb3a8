#!/usr/bin/env bash
# The runtime as game code and Python meet it (docs/runtime.md): installs the core package
# and the Python module into a temporary prefix, builds examples/walk_player against that
# prefix alone, walks id_e1m1 with it, runs the Python tests on the installed module and
# prints the Python-vs-C++ trace benchmark. Needs a finished build (scripts/test-all.sh).
#   scripts/check-runtime.sh [BUILD_DIR]      (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${1:-build}"
MAP=../shared/maps/id_e1m1.map
PYTHON=$(sed -n 's/^SHALLOT_PYTHON_EXECUTABLE:INTERNAL=//p' "$BUILD/CMakeCache.txt")
[ -n "$PYTHON" ] || { echo "check-runtime: $BUILD has no Python module (pybind11-dev missing?)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "--- install the core and python components into $tmp/prefix"
cmake --install "$BUILD" --prefix "$tmp/prefix" --component core >/dev/null
cmake --install "$BUILD" --prefix "$tmp/prefix" --component python >/dev/null
(cd "$tmp/prefix" && find . -type f | sort)

echo "--- build examples/walk_player against the installed package"
cmake -S examples/walk_player -B "$tmp/walk" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >/dev/null
cmake --build "$tmp/walk" >/dev/null
"$BUILD/app/shallot-cli" compile "$MAP" -o "$tmp/e1m1.obsp"
"$tmp/walk/walk_player" "$tmp/e1m1.obsp" 480 -352 88 100 >"$tmp/walk.txt"
head -3 "$tmp/walk.txt"; echo "..."; tail -2 "$tmp/walk.txt"
# The player took every tick and got somewhere: at least 500 units of path from the start.
awk 'BEGIN { x = 480; y = -352 }
     { path += sqrt(($2 - x)^2 + ($3 - y)^2); x = $2; y = $3; n++ }
     END { printf "walk: %d ticks, %.0f units of path\n", n, path; exit !(n == 100 && path >= 500) }' "$tmp/walk.txt"

echo "--- the Python tests on the installed module"
SHALLOT_CLI="$BUILD/app/shallot-cli" SHALLOT_MAP="$MAP" PYTHONPATH="$tmp/prefix/lib/python3/dist-packages" \
  "$PYTHON" tests/python/test_shallot.py

echo "--- batched traces: Python against C++ (100,000 segments)"
PYTHONPATH="$tmp/prefix/lib/python3/dist-packages" "$PYTHON" tests/python/bench_trace.py "$BUILD/tests/trace_rate" "$MAP"
