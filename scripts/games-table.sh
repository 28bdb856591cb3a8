#!/usr/bin/env bash
# The table of every shared test level in docs/games.md ("Every shared test level"): one row
# per level of ../shared/maps/games and ../shared/maps/unit, with the game shallot-cli
# detects, its poses, its static brushes by contents and the poses each contents blocks.
#   game, poses, blocking sets: `shallot-cli compile --stats`;
#   contents of each static brush: `shallot-cli convert` to a .shallot (its document.json).
# A level that is refused gets its file:line:column error instead.
#
# usage: scripts/games-table.sh [SHALLOT_CLI] [SHARED_MAPS] > table.md
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CLI="$(realpath "${1:-$ROOT/build/app/shallot-cli}")"
MAPS="$(realpath "${2:-$ROOT/../shared/maps}")"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT

echo "| level | game | poses | static brushes by contents | what blocks what |"
echo "|---|---|---|---|---|"
for map in "$MAPS"/games/*.map "$MAPS"/unit/*.map; do
  rel="${map#"$MAPS"/}"
  if ! "$CLI" compile "$map" --stats >"$TMP/stats.json" 2>"$TMP/err" ||
     ! "$CLI" convert "$map" "$TMP/level.shallot" >/dev/null 2>>"$TMP/err"; then
    printf '| `%s` | | | refused: %s | |\n' "$rel" "$(grep -m1 -v warning "$TMP/err" | sed 's/|/\\|/g')"
    continue
  fi
  python3 - "$rel" "$TMP/stats.json" "$TMP/level.shallot" <<'EOF'
import json, sys, zipfile
from collections import Counter
rel, stats, doc = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
brushes = json.loads(zipfile.ZipFile(doc).read("document.json"))["brushes"]
poses = stats["poses"]
blocking = {p: set(stats["blocking"][p].split("+")) for p in poses}
counts = Counter(b.get("contents", "solid") or "nonsolid" for b in brushes)
# Each contents (a brush's set, e.g. "water" or "solid+detail") and the poses it blocks.
groups = {}
for contents in sorted(counts):
    parts = set(contents.split("+"))
    blocked = tuple(p for p in poses if parts & blocking[p])
    groups.setdefault(blocked, []).append(contents)
def who(blocked):
    return "all poses" if len(blocked) == len(poses) else "no pose" if not blocked else ", ".join(blocked)
rules = "; ".join(f"{who(b)}: {', '.join(c)}" for b, c in sorted(groups.items(), key=lambda g: (-len(g[0]), g[0])))
if any(0 < len(b) < len(poses) for b in groups):
    rules += " (**poses differ**)"
contents = ", ".join(f"{c} {n}" for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
print(f"| `{rel}` | {stats['game']} | {', '.join(poses)} | {contents or 'none'} | {rules or '-'} |")
EOF
done
