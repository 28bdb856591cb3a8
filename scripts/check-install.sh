#!/usr/bin/env bash
# Shallot outside its build folder (docs/install.md): `cmake --install` into a temporary
# prefix, moved elsewhere, must give a working editor and CLI; then the Debian package built
# by CPack is installed, run from /usr/bin and removed. Needs a build (scripts/build.sh) in
# BUILD_DIR (default build) and root or sudo; the package replaces any installed shallot.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="$(realpath "${BUILD_DIR:-build}")"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }
screenshot() { xvfb-run -a -s "-screen 0 1600x1000x24" "$@" >/dev/null; }

echo "--- cmake --install into a prefix, then moved"
cmake --install "$BUILD_DIR" --prefix "$TMP/staged" >/dev/null
mv "$TMP/staged" "$TMP/prefix" # found relative to the programs, not where they were installed
P="$TMP/prefix"
for program in "$P/bin/shallot" "$P/bin/shallot-cli" "$P/libexec/shallot/shallot-cli-documents"; do
  ! grep -q -e "$PWD" -e "$BUILD_DIR" "$program" || fail "$program holds a path of the source or build tree"
done
"$P/bin/shallot-cli" --help | grep -q "^  compile IN.map" || fail "shallot-cli --help"
"$P/bin/shallot-cli" compile "$P/share/shallot/maps/low_tunnel.map" -o "$TMP/t.obsp" --stats | grep -q '"nodes":' \
  || fail "shallot-cli compile"
"$P/bin/shallot-cli" convert "$P/share/shallot/maps/low_tunnel.map" "$TMP/t.shallot" >/dev/null \
  || fail "shallot-cli convert (shallot-cli-documents)"
"$P/bin/shallot-cli" query "$TMP/t.shallot" <<<'{"op":"classify","p":[320,128,25]}' | grep -q '"stand":true' \
  || fail "shallot-cli query on a .shallot"
screenshot "$P/bin/shallot" --screenshot "$TMP/prefix.png" "$P/share/shallot/maps/low_tunnel.map"
test -s "$TMP/prefix.png" || fail "shallot --screenshot"
# With no file the editor opens the installed sample (the benchmark names the file it opened).
xvfb-run -a "$P/bin/shallot" --bench-frames 1 2>/dev/null | grep -qF "\"file\":\"$P/share/shallot/maps/figure1_rooms.map\"" \
  || fail "shallot without a file did not open the installed sample"
echo "prefix: ok"

echo "--- the Debian package"
rm -f "$BUILD_DIR"/shallot_*.deb
(cd "$BUILD_DIR" && cpack -G DEB >/dev/null)
DEB="$(ls "$BUILD_DIR"/shallot_*.deb)"
dpkg-deb --field "$DEB" Package Version Architecture Depends Installed-Size
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "$DEB" >/dev/null
/usr/bin/shallot-cli --help | grep -q "^  compile IN.map" || fail "installed shallot-cli --help"
screenshot /usr/bin/shallot --screenshot "$TMP/installed.png" /usr/share/shallot/maps/low_tunnel.map
test -s "$TMP/installed.png" || fail "installed shallot --screenshot"
echo "installed: ok"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y shallot >/dev/null
left=$(dpkg-deb --fsys-tarfile "$DEB" | tar -t | sed -n 's|^\./|/|; /[^/]$/p' | while read -r f; do
  if [ -e "$f" ]; then echo "$f"; fi; done)
[ -z "$left" ] || fail "left after apt-get remove: $left"
! dpkg-query -W -f='${Status}' shallot 2>/dev/null | grep -q installed || fail "shallot still installed"
echo "removed: ok"
