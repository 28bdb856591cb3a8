#!/usr/bin/env bash
# ericw-tools' whole test suite (../shared/maps/ericw_testmaps: 207 Quake, Quake 2 and
# Half-Life levels, many odd on purpose) through shallot-cli compile: each level, and a copy
# cut off at half its length, compiles (exit 0) or is refused (exit 1) with a
# "file:line:column:" message; none crashes, hangs (TIMEOUT seconds each) or is refused
# without a place. As of this writing all 207 compile.
# Usage: ericw_testmaps_test.sh SHALLOT_CLI SHARED_MAPS_DIR
set -uo pipefail
cli="$1"
dir="$2/ericw_testmaps"
TIMEOUT=120
source "$(dirname "$0")/check_lib.sh"
if [ ! -d "$dir" ]; then echo "no $dir: skipped"; exit 0; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# compile_or_refuse NAME FILE: exit 0, or exit 1 with [PATH/]NAME:LINE:COLUMN: on stderr.
compile_or_refuse() {
  local name="$1" file="$2" status
  timeout "$TIMEOUT" "$cli" compile "$file" -o "$work/out.obsp" >"$work/out" 2>"$work/err"
  status=$?
  if [ "$status" -eq 0 ]; then compiled=$((compiled + 1)); return 0; fi
  if [ "$status" -eq 1 ] && grep -qE "(^|/)${name//./\\.}:[0-9]+:[0-9]+: " "$work/err"; then refused=$((refused + 1)); return 0; fi
  echo "  exit $status: $(head -c 300 "$work/err")"
  return 1
}

levels=0 compiled=0 refused=0
for map in "$dir"/*.map; do
  name=$(basename "$map")
  levels=$((levels + 1))
  compile_or_refuse "$name" "$map" || { echo "FAIL $name"; fail=1; }
  head -c $(( $(stat -c %s "$map") / 2 )) "$map" >"$work/$name"
  compile_or_refuse "$name" "$work/$name" || { echo "FAIL $name cut in half"; fail=1; }
  rm -f "$work/$name"
done
echo "$levels levels and their halves: $compiled compiled, $refused refused with a place"
check "207 levels found" test "$levels" -eq 207
exit $fail
