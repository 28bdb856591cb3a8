#!/usr/bin/env bash
# docs/runtime.md's usage example is the code between the [usage] marks of
# examples/walk_player/walk_player.cpp, which CI builds and runs: the example in the docs
# cannot stop compiling or working unnoticed.  usage_example_test.sh SOURCE_DIR
set -euo pipefail
root="$1"
example=$(sed -n '/^\/\/ \[usage\]$/,/^\/\/ \[usage\]$/p' "$root/examples/walk_player/walk_player.cpp" | sed '1d;$d')
docs=$(sed -n '/^<!-- usage example: examples\/walk_player\/walk_player.cpp -->$/,/^```$/p' "$root/docs/runtime.md" |
       sed '1,2d;$d')
if [ -z "$example" ] || [ "$example" != "$docs" ]; then
  echo "docs/runtime.md's usage example differs from examples/walk_player/walk_player.cpp's [usage] block:"
  diff <(echo "$docs") <(echo "$example") || true
  exit 1
fi
lines=$(echo "$example" | grep -c .)
echo "usage example: $lines lines, the same in the docs and the example"
