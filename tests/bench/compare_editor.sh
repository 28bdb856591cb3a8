#!/usr/bin/env bash
# Compares the editor's responsiveness of an older commit with this tree's (issue 38):
# builds OLD (a git commit of this repository) in a worktree of its own beside the
# repository (its own build directory; this tree's build/ is built by scripts/build.sh),
# then runs `shallot --bench-frames N` on MAP with each, interleaved RUNS times, under
# xvfb-run, and prints a Markdown table of the figures of every run.
#
#   tests/bench/compare_editor.sh OLD MAP [RUNS]
#
# Environment: FRAMES (60), OVERLAYS for this tree (cells,portals,union,reach,rays,walkable),
# OLD_OVERLAYS for the old one (default: the same; when the old build refuses a name it does
# not know, those before the walkable overlay, and the table says so), BENCH_DIR (where the old
# worktree and its build go: ../shallot-bench), JOBS (2). Run on a quiet machine: the runs
# share its cores.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
old="$1"
map="$(realpath "$2")"
runs="${3:-3}"
frames="${FRAMES:-60}"
overlays="${OVERLAYS:-cells,portals,union,reach,rays,walkable}"
old_overlays="${OLD_OVERLAYS:-$overlays}"
before_walkable=cells,portals,union,reach,rays # what a build older than the walkable overlay knows
repo="$(cd "$(dirname "$0")/../.." && pwd)"
bench_dir="${BENCH_DIR:-$repo/../shallot-bench}"
sha="$(git -C "$repo" rev-parse --short "$old")"
old_tree="$bench_dir/$sha"

# The old commit, built once (kept for later comparisons).
if [ ! -d "$old_tree" ]; then
    mkdir -p "$bench_dir"
    git -C "$repo" worktree add --detach "$old_tree" "$sha" >/dev/null
fi
# Its tests read ../shared like ours: point it at the same one when it sits elsewhere.
[ -e "$old_tree/../shared" ] || [ ! -d "$repo/../shared" ] || ln -s "$repo/../shared" "$bench_dir/shared"
cmake -S "$old_tree" -B "$old_tree/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSHALLOT_WERROR=OFF >/dev/null
cmake --build "$old_tree/build" -j "${JOBS:-2}" --target shallot >/dev/null
"$repo/scripts/build.sh" >/dev/null

run() { # BINARY OVERLAYS -> one JSON line
    # Fresh settings for every run: no layout, docks or legends left from another run (one
    # directory shared by all runs let each build start from the layout the other saved).
    local config
    config="$(mktemp -d)"
    XDG_CONFIG_HOME="$config" xvfb-run -a -s "-screen 0 1600x1000x24" "$1" --bench-frames "$frames" \
        --overlays "$2" "$map" 2>/dev/null | tail -n 1
    rm -rf "$config"
}
results="$(mktemp)"
for ((i = 1; i <= runs; ++i)); do
    out="$(run "$old_tree/build/app/shallot" "$old_overlays")"
    if [ -z "$out" ] && [ -z "${OLD_OVERLAYS:-}" ] && [ "$old_overlays" != "$before_walkable" ]; then
        old_overlays="$before_walkable"
        out="$(run "$old_tree/build/app/shallot" "$old_overlays")"
    fi
    echo "old $out" >>"$results"
    echo "new $(run "$repo/build/app/shallot" "$overlays")" >>"$results"
done

python3 - "$results" "$sha" "$(git -C "$repo" rev-parse --short HEAD)" "$map" "$old_overlays" "$overlays" <<'PY'
import json, sys
path, old, new, level, old_overlays, new_overlays = sys.argv[1:]
runs = {"old": [], "new": []}
for line in open(path):
    which, _, text = line.partition(" ")
    try:
        runs[which].append(json.loads(text))
    except ValueError:
        runs[which].append({})
rows = [("drag steps whose overlay was shown, of 30", "drag_overlays_shown", "{:.0f}"),
        ("drag step to overlay, median (ms)", "median_drag_step_to_overlay_ms", "{:.0f}"),
        ("edit to overlay ready, median (ms)", "median_edit_to_overlay_ms", "{:.0f}"),
        ("edit to overlay drawn, median (ms)", "median_edit_to_overlay_drawn_ms", "{:.0f}"),
        ("edit to walkable meshes and travel drawn, median (ms)", "median_edit_to_walkable_drawn_ms", "{:.0f}"),
        ("open to first overlay (ms)", "first_overlay_ms", "{:.0f}"),
        ("3D frames per second", "fps", "{:.1f}")]
print(f"{level}, runs interleaved; overlays {old}: {old_overlays}, {new}: {new_overlays}\n")
print(f"| | {old} | {new} |")
print("|---|---|---|")
for label, key, fmt in rows:
    cell = lambda rs: ", ".join(fmt.format(r[key]) if key in r else "-" for r in rs)
    print(f"| {label} | {cell(runs['old'])} | {cell(runs['new'])} |")
PY
rm -f "$results"
