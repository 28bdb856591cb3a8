#!/usr/bin/env bash
# Quake results unchanged (issue 31, docs/games.md "Quake levels unchanged"): compiles every
# shared Quake level (../shared/maps/*.map) with the shallot-cli of an older revision and
# with this build's, and compares, per level:
#   - compile --stats without its times and the keys the newer one adds (game, blocking):
#     nodes, leaves, depth, splits, portals, per-pose map tree nodes and polygons;
#   - the tree itself: `dump` of each one's .obsp, as text, byte for byte;
#   - the answers to a fixed set of queries (QUERIES classify points and QUERIES traces per
#     pose, from a seeded generator over the level's face points), line for line, and
#     when they differ, how many still differ with leaf numbers left out;
#   - compile time: the medians of RUNS compiles (--threads 1), old and new interleaved,
#     of the time --stats gives and of the process's CPU time (user + system).
# Prints a Markdown table; exits 1 when a level differs that is not in EXPECTED_CHANGES.
#
# usage: scripts/check-quake-unchanged.sh OLD_REV [NEW_CLI] [MAPS_DIR]
#   OLD_REV   a revision to compare with (9a61641: the one before the game profiles); it is
#             checked out in a temporary worktree, its shallot-cli built there (Release,
#             Ninja, under /tmp/shallot-build.lock) and the worktree removed afterwards.
#             Set OLD_CLI=path/to/shallot-cli to use an old build instead.
#   NEW_CLI   default build/app/shallot-cli;  MAPS_DIR default ../shared/maps
# env: RUNS (5), QUERIES (300), EXPECTED_CHANGES ("ericw_retrojam1": its all-skip brushes
#      block nothing since issue 31), KEEP_WORKTREE=1 keeps the worktree.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OLD_REV="${1:?usage: $0 OLD_REV [NEW_CLI] [MAPS_DIR]}"
NEW_CLI="$(realpath "${2:-$ROOT/build/app/shallot-cli}")"
MAPS="$(realpath "${3:-$ROOT/../shared/maps}")"
RUNS="${RUNS:-5}"; QUERIES="${QUERIES:-300}"
EXPECTED_CHANGES="${EXPECTED_CHANGES:-ericw_retrojam1}"
TMP="$(mktemp -d)"
WORKTREE=""
cleanup() {
  rm -rf "$TMP"
  if [ -n "$WORKTREE" ] && [ -z "${KEEP_WORKTREE:-}" ]; then git -C "$ROOT" worktree remove --force "$WORKTREE"; fi
}
trap cleanup EXIT

if [ -n "${OLD_CLI:-}" ]; then
  OLD_CLI="$(realpath "$OLD_CLI")"
else
  WORKTREE="/tmp/shallot-before-$OLD_REV"
  [ -d "$WORKTREE" ] || git -C "$ROOT" worktree add --detach "$WORKTREE" "$OLD_REV" >&2
  cmake -S "$WORKTREE" -B "$WORKTREE/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  flock /tmp/shallot-build.lock cmake --build "$WORKTREE/build" -j2 --target shallot-cli >&2
  OLD_CLI="$WORKTREE/build/app/shallot-cli"
fi

# Copies of both programs: the build tree's may be relinked by another build meanwhile.
cp "$OLD_CLI" "$TMP/old-cli"; cp "$NEW_CLI" "$TMP/new-cli"
OLD_CLI="$TMP/old-cli"; NEW_CLI="$TMP/new-cli"

# The fixed queries of a level: QUERIES classify points and QUERIES traces per pose between
# points drawn uniformly (seeded by the file name) in the box of the level's face points.
make_queries() { # make_queries MAP POSES-JSON > queries.jsonl
  python3 - "$1" "$2" "$QUERIES" <<'EOF'
import json, random, re, sys, zlib
path, poses, n = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
num = r"(-?[0-9.]+(?:[eE][-+]?[0-9]+)?)"
pts = [tuple(map(float, m)) for m in re.findall(r"\(\s*" + r"\s+".join([num] * 3) + r"\s*\)", open(path).read())]
lo = [min(p[i] for p in pts) for i in range(3)]
hi = [max(p[i] for p in pts) for i in range(3)]
rng = random.Random(zlib.crc32(path.split("/")[-1].encode()))
point = lambda: [round(rng.uniform(lo[i], hi[i]), 3) for i in range(3)]
for _ in range(n): print(json.dumps({"op": "classify", "p": point()}))
for pose in poses:
    for _ in range(n): print(json.dumps({"op": "trace", "pose": pose, "from": point(), "to": point()}))
EOF
}

# One compile: its time as --stats gives it (wall clock, ms) and the CPU time the process
# took (user + system, ms), which other work on the machine disturbs much less.
timed_compile() { # timed_compile CLI MAP >> "wall cpu" lines
  { TIMEFORMAT='%U %S'; time "$1" compile "$2" --threads 1 --stats >"$TMP/t.json" 2>/dev/null; } 2>"$TMP/t.cpu"
  echo "$(jq -r '.ms.total' "$TMP/t.json") $(awk '{print ($1 + $2) * 1000}' "$TMP/t.cpu")"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "| level | nodes old / new | leaves old / new | stats | tree (dump) | query answers | compile ms old / new | CPU ms old / new |"
echo "|---|---|---|---|---|---|---|---|"
status=0
for map in "$MAPS"/*.map; do
  name="$(basename "$map" .map)"
  "$OLD_CLI" compile "$map" --threads 1 --stats -o "$TMP/old.obsp" 2>/dev/null >"$TMP/old.json"
  "$NEW_CLI" compile "$map" --threads 1 --stats -o "$TMP/new.obsp" 2>/dev/null >"$TMP/new.json"
  old_stats="$(jq -c -S 'del(.ms, .game, .blocking)' "$TMP/old.json")"
  new_stats="$(jq -c -S 'del(.ms, .game, .blocking)' "$TMP/new.json")"
  [ "$old_stats" = "$new_stats" ] && stats=same || stats=differ
  "$OLD_CLI" dump "$TMP/old.obsp" >"$TMP/old.dump"
  "$NEW_CLI" dump "$TMP/new.obsp" >"$TMP/new.dump"
  cmp -s "$TMP/old.dump" "$TMP/new.dump" && tree=same || tree="differ ($({ diff "$TMP/old.dump" "$TMP/new.dump" || true; } | grep -c '^[<>]') lines)"
  make_queries "$map" "$(jq -c '.poses' "$TMP/old.json")" >"$TMP/q.jsonl"
  "$OLD_CLI" query "$TMP/old.obsp" <"$TMP/q.jsonl" >"$TMP/old.answers"
  "$NEW_CLI" query "$TMP/new.obsp" <"$TMP/q.jsonl" >"$TMP/new.answers"
  total=$(wc -l <"$TMP/q.jsonl")
  differing=$(paste -d '\n' "$TMP/old.answers" "$TMP/new.answers" | paste - - | awk -F'\t' '$1 != $2' | wc -l)
  [ "$(wc -l <"$TMP/old.answers")" = "$total" ] && [ "$(wc -l <"$TMP/new.answers")" = "$total" ] || differing="$differing (missing answers)"
  # Leaf numbers aside: what is solid where, and where traces stop.
  strip_leaf() { sed -E 's/"(leaf|from_leaf|to_leaf)":-?[0-9]+,?//g' "$1"; }
  answers_only=$(paste -d '\n' <(strip_leaf "$TMP/old.answers") <(strip_leaf "$TMP/new.answers") | paste - - | awk -F'\t' '$1 != $2' | wc -l)
  [ "$differing" = 0 ] && answers="$total same" || answers="$differing of $total differ ($answers_only but for leaf numbers)"
  : >"$TMP/old.ms"; : >"$TMP/new.ms"
  for _ in $(seq "$RUNS"); do # interleaved, so that a busy spell slows both
    timed_compile "$OLD_CLI" "$map" >>"$TMP/old.ms"
    timed_compile "$NEW_CLI" "$map" >>"$TMP/new.ms"
  done
  printf '| %s | %s / %s | %s / %s | %s | %s | %s | %.1f / %.1f | %.0f / %.0f |\n' "$name" \
    "$(jq .nodes "$TMP/old.json")" "$(jq .nodes "$TMP/new.json")" "$(jq .leaves "$TMP/old.json")" "$(jq .leaves "$TMP/new.json")" \
    "$stats" "$tree" "$answers" "$(cut -d' ' -f1 "$TMP/old.ms" | median)" "$(cut -d' ' -f1 "$TMP/new.ms" | median)" \
    "$(cut -d' ' -f2 "$TMP/old.ms" | median)" "$(cut -d' ' -f2 "$TMP/new.ms" | median)"
  if [ "$stats" != same ] || [ "$tree" != same ] || [ "$differing" != 0 ]; then
    case " $EXPECTED_CHANGES " in *" $name "*) ;; *) status=1 ;; esac
  fi
done
exit $status
