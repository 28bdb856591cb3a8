#!/usr/bin/env bash
# shallot-cli's public contract: commands, JSON lines, errors and exit codes.
set -uo pipefail
CLI="$1"; MAPS="$2"; TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail=0
check() { # check NAME CONDITION-COMMAND...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
contains() { grep -q -- "$2" <<<"$1"; }

stats=$("$CLI" compile "$MAPS/low_tunnel.map" -o "$TMP/t.obsp" --stats)
check "compile exits 0 and writes the tree" test -s "$TMP/t.obsp"
for key in '"brushes":9' '"poses":\["point","stand","crouch"\]' '"nodes":' '"leaves":' '"depth":' \
           '"polygons":{' '"splits":' '"bytes":' '"ms":{' '"parse":' '"expand":' '"union":' \
           '"map_trees":' '"onion":' '"solidity":'; do
  check "stats has $key" contains "$stats" "$key"
done

info=$("$CLI" info "$TMP/t.obsp")
check "info lists poses in order" contains "$info" '"name":"point".*"name":"stand".*"name":"crouch"'
check "info has node count" contains "$info" '"nodes":[0-9]'
check "info has leaf count" contains "$info" '"leaves":[0-9]'

"$CLI" compile "$MAPS/figure1_rooms.map" -o "$TMP/q.obsp" --pose 'tiny=-1,-1,-1,1,1,1' --pose 'point=0,0,0,0,0,0'
check "--pose replaces the poses" contains "$("$CLI" info "$TMP/q.obsp")" '"name":"tiny".*"name":"point"'

out=$(printf '%s\n' '{"op":"classify","p":[320,128,25]}' 'not json' '{"op":"classify","p":[1,2]}' \
      '{"op":"nope"}' '{"op":"classify","p":[128,128,100]}' | "$CLI" query "$TMP/t.obsp"); status=$?
check "query answers every line in order" test "$(wc -l <<<"$out")" -eq 5
check "classify in the tunnel: stand solid, crouch empty" \
  contains "$(sed -n 1p <<<"$out")" '"solid":{"crouch":false,"point":false,"stand":true}'
check "classify gives the leaf" contains "$(sed -n 1p <<<"$out")" '"leaf":[0-9]'
check "malformed JSON gives an error line" contains "$(sed -n 2p <<<"$out")" '"error":"malformed JSON'
check "bad point gives an error line" contains "$(sed -n 3p <<<"$out")" '"error":'
check "unknown op gives an error line" contains "$(sed -n 4p <<<"$out")" '"error":"unknown op'
check "later lines still run" contains "$(sed -n 5p <<<"$out")" '"solid":{"crouch":false,"point":false,"stand":false}'
check "query exits 1 when a line failed" test "$status" -eq 1
printf '{"op":"classify","p":[0,0,0]}\n' | "$CLI" query "$TMP/t.obsp" >/dev/null
check "query exits 0 when all lines succeed" test $? -eq 0

printf '{\n"classname" "worldspawn"\n{\n( 0 0 0 ) ( 1 0 0 ) oops\n}\n}\n' > "$TMP/bad.map"
err=$("$CLI" compile "$TMP/bad.map" 2>&1); status=$?
check "malformed map exits non-zero" test "$status" -ne 0
check "malformed map says file:line:column" contains "$err" "bad.map:4:[0-9]*:"

err=$("$CLI" info "$TMP/bad.map" 2>&1); status=$?
check "info on a non-obsp file fails clearly" contains "$err" "obsp"
check "unknown command exits 2" bash -c "'$CLI' frobnicate >/dev/null 2>&1; test \$? -eq 2"
exit $fail
