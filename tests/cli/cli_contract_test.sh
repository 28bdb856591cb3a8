#!/usr/bin/env bash
# shallot-cli's public contract: commands, JSON lines, errors and exit codes.
set -uo pipefail
CLI="$1"; MAPS="$2"; TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
source "$(dirname "$0")/check_lib.sh"

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

plain=$("$CLI" compile "$MAPS/figure1_rooms.map" -o "$TMP/greedy.obsp" --stats)
look=$("$CLI" compile "$MAPS/figure1_rooms.map" -o "$TMP/lookahead.obsp" --stats --lookahead-below 64)
nodes() { grep -o '"nodes":[0-9]*' <<<"$1" | head -1 | cut -d: -f2; }
check "--lookahead-below gives a smaller tree" test "$(nodes "$look")" -lt "$(nodes "$plain")"
points=$(for x in 150 250 400 600 700; do for y in 150 300 450 700 850; do for z in 10 30 60 200; do
  printf '{"op":"classify","p":[%d,%d,%d]}\n' "$x" "$y" "$z"; done; done; done)
solidity() { "$CLI" query "$1" <<<"$points" | sed 's/"leaf":[0-9]*,//'; }
check "--lookahead-below gives the same answers" test "$(solidity "$TMP/lookahead.obsp")" = "$(solidity "$TMP/greedy.obsp")"

bench=$("$CLI" bench "$MAPS/figure1_rooms.map" --runs 1 --edits 1 --json 2>"$TMP/bench.err")
check "bench exits 0" test $? -eq 0
for key in '"map":"figure1_rooms.map"' '"classify_per_second":' '"classify_batch_per_second":' \
           '"classify_located_per_second":' '"classify_located_batch_per_second":' '"point_locator":{' \
           '"traces_per_second":{' '"incremental_edit":{' '"tree_quality":{' '"peak_memory_mb":'; do
  check "bench has $key" contains "$bench" "$key"
done
check "bench's classifications agree with one another" test ! -s "$TMP/bench.err"

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

# Portals and reachability.
check "stats has the portal count" contains "$stats" '"portals":[0-9]'
check "stats has the portal phase time" contains "$stats" '"ms":{.*"portals":'
prt=$("$CLI" portals "$TMP/t.obsp" --pose crouch)
check "portals writes PRT1" test "$(sed -n 1p <<<"$prt")" = PRT1
check "PRT1 leaf count is the tree's" contains "$("$CLI" info "$TMP/t.obsp")" "\"leaves\":$(sed -n 2p <<<"$prt")[,}]"
check "PRT1 portal count matches its lines" test "$(sed -n 3p <<<"$prt")" -eq "$(($(wc -l <<<"$prt") - 3))"
check "PRT1 lines are <points> <leaf> <leaf> (x y z)..." \
  test -z "$(sed -n '4,$p' <<<"$prt" | grep -vE '^[0-9]+ [0-9]+ [0-9]+( \([^ ]+ [^ ]+ [^ ]+\))+$')"
"$CLI" portals "$TMP/t.obsp" --pose stand --format json -o "$TMP/p.json"
check "portals -o writes JSON" contains "$(cat "$TMP/p.json")" '^{"leaves":[0-9]*,"portals":\[{"back":[0-9].*"pose":"stand"}$'
check "portals with an unknown pose exits 2" \
  bash -c "'$CLI' portals '$TMP/t.obsp' --pose nobody >/dev/null 2>&1; test \$? -eq 2"

"$CLI" compile "$MAPS/sealed_box.map" -o "$TMP/sealed.obsp"
reach=$("$CLI" reach "$TMP/sealed.obsp" --pose player --from 128,128,24)
for key in '"pose":"player"' '"start_leaf":[0-9]' '"reachable_leaves":[1-9]' '"volume":46080000}' '"leak":false' \
           '"leak_path":\[\]'; do
  check "reach in the sealed box has $key" contains "$reach" "$key"
done
"$CLI" compile "$MAPS/leaky_box.map" -o "$TMP/leaky.obsp"
reach=$("$CLI" reach "$TMP/leaky.obsp" --pose point --from 128,128,24 --pts "$TMP/leak.pts")
check "reach in the leaky box finds the leak" contains "$reach" '"leak":true,"leak_path":\[\[128,128,24\],\['
check "--pts starts at the start" test "$(head -n 1 "$TMP/leak.pts")" = "128 128 24"
check "--pts has one x y z line per path point" \
  test "$(grep -cE '^[-0-9.e+]+ [-0-9.e+]+ [-0-9.e+]+$' "$TMP/leak.pts")" -eq $(($(grep -o '\],\[' <<<"$reach" | wc -l) + 1)) -a \
  "$(wc -l <"$TMP/leak.pts")" -ge 3
check "reach from inside a wall reports start_leaf -1" \
  contains "$("$CLI" reach "$TMP/sealed.obsp" --pose point --from 256,-8,100 2>/dev/null)" '"start_leaf":-1,"volume":0'
check "reach with a bad --from exits 2" \
  bash -c "'$CLI' reach '$TMP/sealed.obsp' --pose point --from 1,2 >/dev/null 2>&1; test \$? -eq 2"

# Swept-box traces and collide-and-slide moves (low_tunnel: floor top z = 0, west wall face
# x = 0, the block over the tunnel starts at x = 256; stand is -16,-16,-24..16,16,32).
out=$(printf '%s\n' \
  '{"op":"trace","pose":"stand","from":[128,128,100],"to":[128,128,-100]}' \
  '{"op":"trace","pose":"stand","from":[128,128,100],"to":[-100,128,100]}' \
  '{"op":"trace","pose":"stand","from":[100,100,100],"to":[150,150,100]}' \
  '{"op":"trace","pose":"stand","from":[300,50,100],"to":[300,50,150]}' \
  '{"op":"trace","pose":"crouch","from":[200,128,24],"to":[450,128,24]}' \
  '{"op":"trace","box":{"mins":[-16,-16,-24],"maxs":[16,16,32]},"from":[200,128,24],"to":[450,128,24]}' \
  '{"op":"trace","box":{"mins":[-8,-8,-8],"maxs":[8,8,8]},"from":[128,128,100],"to":[128,128,-100]}' \
  '{"op":"move","pose":"stand","from":[100,128,60],"delta":[-200,50,0],"step":18}' \
  '{"op":"move","pose":"stand","from":[300,50,100],"delta":[-200,50,0]}' \
  '{"op":"reach","pose":"crouch","from":[128,128,24],"to":[500,128,24]}' \
  | "$CLI" query "$TMP/t.obsp"); status=$?
line() { sed -n "$1p" <<<"$out"; }
check "trace down hits the floor" contains "$(line 1)" '"hit":true,"normal":\[0,0,1\],"point":\[128,128,24\],"start_solid":false,"t":0.38}'
check "trace into the wall: exact t, normal against the motion" \
  contains "$(line 2)" '"hit":true,"normal":\[1,0,0\],"point":\[16,128,100\],"start_solid":false,"t":0.491228'
check "trace without a hit: t 1, point = to, normal [0,0,0]" \
  contains "$(line 3)" '"hit":false,"normal":\[0,0,0\],"point":\[150,150,100\],"start_solid":false,"t":1}'
check "trace from inside solid: start_solid, t 0, point = from" \
  contains "$(line 4)" '"hit":false,"normal":\[0,0,0\],"point":\[300,50,100\],"start_solid":true,"t":0}'
check "crouch traces through the tunnel" contains "$(line 5)" '"hit":false'
check "a pose's box traces in the tree (even from a .obsp)" \
  contains "$(line 6)" '"hit":true,"normal":\[-1,0,0\],"point":\[240,128,24\],"start_solid":false,"t":0.16}'
check "an arbitrary box on a .obsp is swept against its stored brushes (as on the .map, below)" \
  contains "$(line 7)" '"hit":true,"normal":\[0,0,1\],"point":\[128,128,8\],"start_solid":false,"t":0.46}'
check "move slides along the wall" \
  contains "$(line 8)" '"contacts":\[{"normal":\[1,0,0\],"point":\[16,149,60\],"t":0.42}\],"end":\[16.03125,178,60\]'
check "move from inside solid stays put" contains "$(line 9)" '"contacts":\[\],"end":\[300,50,100\],"start_solid":true'
check "query dispatches reach" contains "$(line 10)" '"reachable":true'
check "trace query exits 0 (every line answered)" test "$status" -eq 0

out=$(printf '%s\n' \
  '{"op":"trace","box":{"mins":[-8,-8,-8],"maxs":[8,8,8]},"from":[128,128,100],"to":[128,128,-100]}' \
  '{"op":"trace","box":{"mins":[-16,-16,-24],"maxs":[16,16,20]},"from":[200,128,24],"to":[450,128,24]}' \
  | "$CLI" query "$MAPS/low_tunnel.map" 2>/dev/null); status=$?
check "query a .map: arbitrary box hits the floor" \
  contains "$(line 1)" '"hit":true,"normal":\[0,0,1\],"point":\[128,128,8\],"start_solid":false,"t":0.46}'
check "query a .map: a box 44 tall fits the tunnel" contains "$(line 2)" '"hit":false'
check "query a .map exits 0" test "$status" -eq 0

# Round poses (docs/round_poses.md): --pose NAME=capsule:R,HEIGHT / NAME=ellipsoid:R,H on
# a .map; classify, trace and move answer them exactly under their names (low_tunnel: floor
# top z = 0, west wall face x = 0).
out=$(printf '%s\n' \
  '{"op":"classify","p":[128,128,20]}' \
  '{"op":"classify","p":[128,128,30]}' \
  '{"op":"trace","pose":"cap","from":[128,128,100],"to":[128,128,-100]}' \
  '{"op":"trace","pose":"egg","from":[128,128,100],"to":[-100,128,100]}' \
  '{"op":"move","pose":"cap","from":[128,128,100],"delta":[0,0,-200]}' \
  | "$CLI" query "$MAPS/low_tunnel.map" --pose 'cap=capsule:16,56' --pose 'egg=ellipsoid:16,28:solid' 2>/dev/null); status=$?
check "classify names the round poses: 20 above the floor their bottoms dip into it, not their inscribed boxes" \
  contains "$(line 1)" '"solid":{"cap":true,"cap~inscribed":false,"egg":true,"egg~inscribed":false}'
check "classify: 30 above the floor both round poses are clear" contains "$(line 2)" '"cap":false,.*"egg":false'
check "a capsule traced down stops with its cap on the floor" \
  contains "$(line 3)" '"hit":true,"normal":\[0,0,1\],"point":\[128,128,28\],"start_solid":false,"t":0.36}'
check "an ellipsoid traced into the wall stops 16 off it" \
  contains "$(line 4)" '"hit":true,"normal":\[1,0,0\],"point":\[16,128,100\],"start_solid":false,"t":0.491228'
check "a capsule moved into the floor stops above it" contains "$(line 5)" '"end":\[128,128,28.03125\]'
check "round pose queries exit 0" test "$status" -eq 0
"$CLI" compile "$MAPS/low_tunnel.map" -o "$TMP/round.obsp" --pose 'cap=capsule:16,56' >/dev/null 2>&1
check "compile refuses to write a round pose into a .obsp (exit 2)" test $? -eq 2
check "a capsule shorter than its diameter is refused with its reason" \
  contains "$("$CLI" query "$MAPS/low_tunnel.map" --pose 'cap=capsule:16,20' </dev/null 2>&1)" 'shorter than its diameter'
check "a NaN radius is refused" \
  contains "$("$CLI" query "$MAPS/low_tunnel.map" --pose 'egg=ellipsoid:nan,28' </dev/null 2>&1)" 'finite'
cvp=$("$CLI" bench --capsule-vs-planes "$MAPS/figure1_rooms.map" --samples 4000 --json); status=$?
check "bench --capsule-vs-planes exits 0" test "$status" -eq 0
for key in '"pose":"q3player=capsule:15,56"' '"beside":{' '"resting":{' '"refused":' '"max_depth":' \
           '"max_room":' '"superset_violations":0'; do
  check "bench --capsule-vs-planes has $key" contains "$cvp" "$key"
done
"$CLI" bench --capsule-vs-planes "$MAPS/figure1_rooms.map" --pose 'box=-16,-16,-24,16,16,32' >/dev/null 2>&1
check "bench --capsule-vs-planes refuses a box pose (exit 2)" test $? -eq 2

bad=(
  '{"op":"trace","pose":"nobody","from":[1,2,3],"to":[4,5,6]}'
  '{"op":"trace","pose":"stand","from":[1,2,3],"to":[1,2,3]}'
  '{"op":"trace","pose":"stand","from":[NaN,2,3],"to":[1,2,3]}'
  '{"op":"trace","pose":"stand","from":[1e999,2,3],"to":[1,2,3]}'
  '{"op":"trace","pose":"stand","from":[1e300,2,3],"to":[-1e300,2,3]}'
  '{"op":"trace","pose":"stand","from":"here","to":[1,2,3]}'
  '{"op":"trace","pose":"stand","to":[1,2,3]}'
  '{"op":"trace","from":[0,0,0],"to":[1,2,3]}'
  '{"op":"trace","pose":"stand","box":{"mins":[0,0,0],"maxs":[1,1,1]},"from":[0,0,0],"to":[1,2,3]}'
  '{"op":"trace","box":{"mins":[1,0,0],"maxs":[0,1,1]},"from":[0,0,0],"to":[1,2,3]}'
  '{"op":"trace","box":[1,2,3],"from":[0,0,0],"to":[1,2,3]}'
  '{"op":"move","pose":"stand","from":[0,0,0],"delta":[1,2,3],"step":-1}'
  '{"op":"move","pose":"stand","from":[0,0,0],"delta":[1,2,3],"step":"high"}'
  '{"op":"move","pose":7,"from":[0,0,0],"delta":[1,2,3]}'
  '{"op":"move","pose":"stand","from":[0,0,0]}'
  '{"op":"trace","pose":"stand","from":[0,0,0],"to":[1,2,3]'
)
out=$(printf '%s\n' "${bad[@]}" | "$CLI" query "$TMP/t.obsp"); status=$?
check "every bad trace/move query gets an answer line" test "$(wc -l <<<"$out")" -eq "${#bad[@]}"
check "every bad trace/move query gets an error line" test "$(grep -c '^{"error":"' <<<"$out")" -eq "${#bad[@]}"
check "unknown pose is named" contains "$(line 1)" '"error":"unknown pose \\"nobody\\""'
check "from == to is an error" contains "$(line 2)" '"error":"\\"from\\" and \\"to\\" must differ"'
check "bad trace queries exit 1" test "$status" -eq 1

# convert and export
"$CLI" convert "$MAPS/low_tunnel.map" "$TMP/tunnel.shallot"
check "convert .map -> .shallot" test -s "$TMP/tunnel.shallot"
"$CLI" convert "$TMP/tunnel.shallot" "$TMP/tunnel_back.map"
check "convert .shallot -> .map keeps the poses" grep -q '"_shallot_pose3" "crouch' "$TMP/tunnel_back.map"
check "the round-tripped map compiles to the same answers" contains \
  "$(printf '%s\n' '{"op":"classify","p":[320,128,25]}' | "$CLI" query "$TMP/tunnel_back.map")" '"solid":{"crouch":false,"point":false,"stand":true}'
"$CLI" export "$TMP/t.obsp" "$TMP/t.obj" --pose stand
check "export writes an OBJ with the pose's node" grep -q 'pose:stand' "$TMP/t.obj"
err=$("$CLI" convert "$TMP/missing.map" "$TMP/x.shallot" 2>&1); status=$?
check "convert of a missing file fails clearly" test "$status" -ne 0
# check: spawn problems as JSON lines (sealed_box: a room 0..512 x 0..512 x 0..256, walls 16 thick)
out=$("$CLI" check "$MAPS/sealed_box.map" 2>/dev/null); status=$?
check "check on a clean level exits 0" test "$status" -eq 0
check "check on a clean level prints nothing" test -z "$out"
{ cat "$MAPS/sealed_box.map"; printf '{\n"classname" "monster_ogre"\n"origin" "20 256 24"\n}\n'; } > "$TMP/stuck.map"
out=$("$CLI" check "$TMP/stuck.map" 2>/dev/null); status=$?
check "check finds the ogre in the wall: exit 1" test "$status" -eq 1
check "check prints one line per problem" test "$(wc -l <<<"$out")" -eq 1
for key in '"kind":"stuck"' '"entity":2' '"classname":"monster_ogre"' '"origin":\[20,256,24\]' '"pose":"large"' \
           '"box":\[-12,224,1,52,288,89\]' '"brushes":\[{"brush":[0-9]*,"entity":0,"index":[0-9]*,"line":[1-9]' \
           '"entities":\[\]' '"message":"monster_ogre (entity 2, line [0-9]*) is stuck in brush'; do
  check "the stuck line has $key" contains "$out" "$key"
done
"$CLI" convert "$TMP/stuck.map" "$TMP/stuck.shallot" 2>/dev/null
check "check on a .shallot gives the same line" test "$("$CLI" check "$TMP/stuck.shallot" 2>/dev/null)" = "$out"
printf '@PointClass size(-16 -16 -24, 16 16 40) = monster_ogre : "A thin ogre" []\n' > "$TMP/thin.fgd"
"$CLI" check "$TMP/stuck.map" --fgd "$TMP/thin.fgd" >/dev/null 2>&1
check "check --fgd: the .fgd's size wins (a thin ogre fits)" test $? -eq 0
stats=$("$CLI" check "$TMP/stuck.map" --stats 2>&1 >/dev/null)
check "check --stats prints counts and times on stderr" contains "$stats" '"ms":{.*"check":.*"problems":{.*"stuck":1'
# check: the movers' problems (docs/movers.md): a door nothing fires, a trigger naming nothing
box() { # box X0 Y0 Z0 X1 Y1 Z1: a brush in Quake's point order
  printf '{\n( %s %s %s ) ( %s %s %s ) ( %s %s %s ) T 0 0 0 1 1\n' "$1" "$2" "$6" "$1" "$5" "$6" "$4" "$2" "$6"
  printf '( %s %s %s ) ( %s %s %s ) ( %s %s %s ) T 0 0 0 1 1\n' "$1" "$2" "$3" "$4" "$2" "$3" "$1" "$5" "$3"
  printf '( %s %s %s ) ( %s %s %s ) ( %s %s %s ) T 0 0 0 1 1\n' "$4" "$2" "$3" "$4" "$2" "$6" "$4" "$5" "$3"
  printf '( %s %s %s ) ( %s %s %s ) ( %s %s %s ) T 0 0 0 1 1\n' "$1" "$2" "$3" "$1" "$5" "$3" "$1" "$2" "$6"
  printf '( %s %s %s ) ( %s %s %s ) ( %s %s %s ) T 0 0 0 1 1\n' "$1" "$5" "$3" "$4" "$5" "$3" "$1" "$5" "$6"
  printf '( %s %s %s ) ( %s %s %s ) ( %s %s %s ) T 0 0 0 1 1\n}\n' "$1" "$2" "$3" "$1" "$2" "$6" "$4" "$2" "$3"
}
{ cat "$MAPS/sealed_box.map"
  printf '{\n"classname" "func_door"\n"targetname" "nobody"\n'; box 200 100 16 264 116 144; printf '}\n'
  printf '{\n"classname" "trigger_once"\n"target" "nowhere"\n'; box 300 300 16 364 364 80; printf '}\n'; } > "$TMP/movers.map"
out=$("$CLI" check "$TMP/movers.map" 2>/dev/null); status=$?
check "check finds the movers' problems: exit 1" test "$status" -eq 1
check "check prints the door and the trigger" test "$(wc -l <<<"$out")" -eq 2
for key in '"kind":"never_opens"' '"entity":2' '"classname":"func_door"' '"origin":\[232,108,80\]' '"pose":null' \
           '"box":\[200,100,16,264,116,144\]' '"message":"func_door (entity 2, line [0-9]*) never opens: nothing fires its targetname \\"nobody\\"'; do
  check "the never_opens line has $key" contains "$(sed -n 1p <<<"$out")" "$key"
done
for key in '"kind":"missing_target"' '"entity":3' '"key":"target"' '"target":"nowhere"'; do
  check "the missing_target line has $key" contains "$(sed -n 2p <<<"$out")" "$key"
done
"$CLI" convert "$TMP/movers.map" "$TMP/movers.shallot" 2>/dev/null
check "check on a .shallot gives the same movers' lines" test "$("$CLI" check "$TMP/movers.shallot" 2>/dev/null)" = "$out"
stats=$("$CLI" check "$TMP/movers.map" --stats 2>&1 >/dev/null)
check "check --stats counts the movers' kinds" contains "$stats" '"missing_target":1,"never_opens":1'
check "check --stats times the movers' checks" contains "$stats" '"ms":{.*"movers":'
"$CLI" check "$TMP/missing.map" >/dev/null 2>&1
check "check on a missing file exits 2" test $? -eq 2
"$CLI" check "$TMP/bad.map" >/dev/null 2>&1
check "check on a malformed map exits 2" test $? -eq 2
"$CLI" check "$TMP/stuck.map" --fgd "$TMP/missing.fgd" >/dev/null 2>&1
check "check with an unreadable --fgd exits 2" test $? -eq 2
# path queries and nav under the poses' walking rules and the flags that change them
# (nav_stairs: the landing of the 24-unit stairs is out of reach with Quake's step of 18)
q='{"op":"path","pose":"player","from":[96,48,25],"to":[928,464,121]}'
check "path up the 24 stairs: none with the step of 18" contains "$("$CLI" query "$MAPS/nav_stairs.map" <<<"$q")" '"found":false'
check "query --step 24 climbs them" contains "$("$CLI" query "$MAPS/nav_stairs.map" --step 24 <<<"$q")" '"found":true'
check "a per-query step climbs them too" \
  contains "$("$CLI" query "$MAPS/nav_stairs.map" <<<'{"op":"path","pose":"player","from":[96,48,25],"to":[928,464,121],"step":24}')" '"found":true'
travel=$("$CLI" query "$MAPS/nav_stairs.map" --step 24 <<<"$q")
check "a path gives its time in seconds" contains "$travel" '"time":[0-9]'
check "a path lists its travel, walks and steps" contains "$travel" '"type":"step"'
check "a path with \"travel\": false is found too" \
  contains "$("$CLI" query "$MAPS/nav_stairs.map" <<<'{"op":"path","pose":"player","from":[96,48,25],"to":[928,464,121],"step":24,"travel":false}')" '"found":true'
SEWERS="$MAPS/../../shared/maps/id_e4m1.map"
if [ -f "$SEWERS" ]; then # a swim round the sewers' corners lists its points between from and to
  check "a swim round corners has \"via\"" contains "$("$CLI" query "$SEWERS" <<<'{"op":"path","pose":"player","from":[1152,592,-344],"to":[1384,1396,-128]}')" '"type":"swim"[^}]*"via":\[\['
fi
check "a bad \"travel\" is an error line" \
  contains "$("$CLI" query "$MAPS/nav_stairs.map" <<<'{"op":"path","pose":"player","from":[96,48,25],"to":[928,464,121],"travel":1}')" '"error"'
"$CLI" query "$MAPS/nav_stairs.map" --step -2 <<<"$q" >/dev/null 2>&1
check "query with a bad --step exits 2" test $? -eq 2
nav=$("$CLI" nav "$MAPS/nav_stairs.map" --pose player --jump 45,128 --json)
check "nav --json names its rules" contains "$nav" '"settings":{'
check "nav --json counts jump links" contains "$nav" '"jump":[0-9]'
"$CLI" check "$MAPS/nav_stairs.map" --no-walking >/dev/null 2>&1
check "check --no-walking on a clean map exits 0" test $? -eq 0
"$CLI" check "$MAPS/nav_stairs.map" --no-travel >/dev/null 2>&1
check "check --no-travel on a clean map exits 0" test $? -eq 0
"$CLI" check "$MAPS/nav_stairs.map" --travel-in-order >/dev/null 2>&1
check "check --travel-in-order on a clean map exits 0" test $? -eq 0
# check --walk POSE:FIELD changes a pose's walking rules for the run: the player on the
# landing of the 24-unit stairs drops down to the grunt at their foot, unless it may not drop.
sed 's/"origin" "128 288 24"/"origin" "928 464 120"/' "$MAPS/nav_stairs.map" > "$TMP/stairs_walk.map"
printf '{\n"classname" "monster_army"\n"origin" "96 48 24"\n}\n' >> "$TMP/stairs_walk.map"
"$CLI" check "$TMP/stairs_walk.map" >/dev/null 2>&1
check "check: the player drops down the stairs to the grunt" test $? -eq 0
walk=$("$CLI" check "$TMP/stairs_walk.map" --walk player:drop=0 2>/dev/null); status=$?
check "check --walk player:drop=0: the grunt is never met" contains "$walk" '"kind":"unreachable_walking".*drops of up to 0'
check "check --walk with a finding exits 1" test "$status" -eq 1
"$CLI" check "$TMP/stairs_walk.map" --walk nobody:drop=0 >/dev/null 2>&1
check "check --walk of an unknown pose exits 2" test $? -eq 2
"$CLI" check "$TMP/stairs_walk.map" --walk player:jump=45 >/dev/null 2>&1
check "check --walk with a bad field exits 2" test $? -eq 2
# pvs: the sight pose's potentially visible set (docs/visibility.md). figure1_rooms: two
# rooms and a corridor, 5 leaves inside, which see each other.
pvs=$("$CLI" pvs "$MAPS/figure1_rooms.map" --from 400,300,46)
check "pvs names the sight pose and the full flow" contains "$pvs" '"flow":"full".*"pose":"point"'
check "pvs counts what a leaf sees" contains "$pvs" '"from":{"leaf":[0-9]*,"solid":false,"visible":5}'
check "pvs --list lists the leaves it counts" contains "$("$CLI" pvs "$MAPS/figure1_rooms.map" --from 400,300,46 --list)" '"leaves":\[[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*\],"solid":false,"visible":5'
check "pvs --fast is the base flow" contains "$("$CLI" pvs "$MAPS/figure1_rooms.map" --fast)" '"average_visible":5,.*"flow":"base"'
"$CLI" pvs "$MAPS/figure1_rooms.map" --from 1,2 >/dev/null 2>&1
check "pvs with a bad --from exits 2" test $? -eq 2
# vis: the PVS stored in the .obsp (docs/visibility.md), and the query op "visible".
"$CLI" compile "$MAPS/figure1_rooms.map" -o "$TMP/rooms.obsp"
check "info without a stored PVS says null" contains "$("$CLI" info "$TMP/rooms.obsp")" '"pvs":null'
vis=$("$CLI" vis "$TMP/rooms.obsp" -o "$TMP/rooms_vis.obsp" --threads 2)
check "vis prints the figures and the time" \
  contains "$vis" '^{"average_visible":5,"clusters":[0-9]*,"flow":"full","largest_visible":5,"leaks":false,"leaves":[0-9]*,"ms":{.*"total":'
check "vis -o leaves its input as it was" contains "$("$CLI" info "$TMP/rooms.obsp")" '"pvs":null'
info=$("$CLI" info "$TMP/rooms_vis.obsp")
check "info shows the stored PVS" \
  contains "$info" '"pvs":{"average_visible":5,"clusters":[0-9]*,"flow":"full","largest_visible":5,"leaks":false,"ms":[0-9.e+-]*,"pose":"point"}'
check "info shows format version 6" contains "$info" '"version":6'
stats=$("$CLI" vis "$TMP/rooms.obsp" -o "$TMP/rooms_stats.obsp" --stats)
check "vis --stats adds counts and the figures in the tree's leaves" \
  contains "$stats" '"stats":{"empty_clusters":[0-9]*,"file_bytes":[0-9]*,"leaves":{"average_visible":[0-9.]*,"clusters_per_leaf":[0-9.]*,"inside":[0-9]*,"largest_visible":[0-9]*},"one_way_portals":8,"outside_clusters":[0-9]*}'
cp "$TMP/rooms.obsp" "$TMP/inplace.obsp"
"$CLI" vis "$TMP/inplace.obsp" --fast >/dev/null
check "vis without -o stores the PVS in place (--fast: the base flow)" contains "$("$CLI" info "$TMP/inplace.obsp")" '"flow":"base"'
visible=(
  '{"op":"visible","from":[400,300,46],"to":[200,300,46]}'
  '{"op":"visible","from":[400,300,46],"to":[250,700,46]}'
  '{"op":"visible","from":[400,300,46],"to":[250,450,46]}'
  '{"op":"visible","from":[400,300,46],"to":[190,300,46]}'
  '{"op":"visible","from":[400,300,46],"to":[400,300,46]}'
  '{"op":"visible","from":[400,300,46],"to":[1,2]}'
)
out=$(printf '%s\n' "${visible[@]}" | "$CLI" query "$TMP/rooms_vis.obsp"); status=$?
check "visible: a clear segment in one room" contains "$(line 1)" '^{"clear":true,"from_leaf":[0-9]*,"pvs":true,"pvs_known":true,"to_leaf":[0-9]*}$'
check "visible: round a corner, blocked but in the PVS" contains "$(line 2)" '"clear":false,.*"pvs":true,"pvs_known":true'
check "visible: a leaf outside the PVS" contains "$(line 3)" '"clear":false,.*"pvs":false,"pvs_known":true'
check "visible: an end in solid: pvs true, not known" contains "$(line 4)" '"clear":false,.*"pvs":true,"pvs_known":false'
check "visible: from == to asks whether the point is empty" contains "$(line 5)" '"clear":true,.*"pvs":true,"pvs_known":true'
check "visible: a bad point is an error line" contains "$(line 6)" '^{"error":"\\"to\\" must be'
check "visible queries exit 1 (the last line failed)" test "$status" -eq 1
check "visible on a .obsp without a PVS: not known" \
  contains "$(sed -n 3p <<<"$(printf '%s\n' "${visible[@]}" | "$CLI" query "$TMP/rooms.obsp" 2>/dev/null)")" '"pvs":true,"pvs_known":false'
check "visible on a .map computes the PVS once (the .obsp's answers)" \
  test "$(printf '%s\n' "${visible[@]:0:5}" | "$CLI" query "$MAPS/figure1_rooms.map" 2>/dev/null)" = "$(sed -n 1,5p <<<"$out")"
# Hostile input: a leaking level, no sight pose, a .obsp without brushes, a damaged PVS.
"$CLI" compile "$MAPS/leaky_box.map" -o "$TMP/leaky.obsp"
vis=$("$CLI" vis "$TMP/leaky.obsp" 2>"$TMP/vis.err"); status=$?
check "vis on a leaking level stores a PVS of everything" test "$status" -eq 0 -a -n "$(grep '"leaks":true' <<<"$vis")"
check "vis on a leaking level says so" contains "$(cat "$TMP/vis.err")" 'the level leaks'
"$CLI" compile "$MAPS/figure1_rooms.map" -o "$TMP/eyeless.obsp" --pose 'stand=-16,-16,-24,16,16,32'
err=$("$CLI" vis "$TMP/eyeless.obsp" 2>&1); status=$?
check "vis without a point pose exits 1" test "$status" -eq 1
check "vis without a point pose says so" contains "$err" 'no pose is a point at the reference point'
check "visible without a point pose is an error line" \
  contains "$("$CLI" query "$TMP/eyeless.obsp" <<<"${visible[0]}")" '"error":"the tree has no sight pose'
"$CLI" vis "$MAPS/figure1_rooms.map" >/dev/null 2>&1
check "vis of a .map is a usage error" test $? -eq 2
size=$(stat -c %s "$TMP/rooms_vis.obsp")
head -c $((size - 40)) "$TMP/rooms_vis.obsp" > "$TMP/cut.obsp"
info=$("$CLI" info "$TMP/cut.obsp" 2>"$TMP/info.err"); status=$?
check "info on a damaged PVS block still reads the tree (exit 0)" test "$status" -eq 0 -a -n "$(grep '"leaves":' <<<"$info")"
check "info names the damaged section" contains "$info" "\"pvs\":{\"error\":\"obsp: section 'visibility'"
check "a damaged PVS block is a warning on stderr" contains "$(cat "$TMP/info.err")" "warning: .*section 'visibility'"
check "query on a damaged PVS block: not known" contains "$("$CLI" query "$TMP/cut.obsp" <<<"${visible[2]}" 2>/dev/null)" '"pvs_known":false'
"$CLI" vis "$TMP/cut.obsp" -o "$TMP/mended.obsp" >/dev/null 2>&1
untimed() { "$CLI" info "$1" | sed 's/"ms":[0-9.e+-]*//'; }
check "vis mends a damaged PVS block" test "$(untimed "$TMP/mended.obsp")" = "$(untimed "$TMP/rooms_vis.obsp")"

# light: Quake's direct light (docs/lighting.md). A light 128 above the floor of the sealed
# box: (300 - 127) * 0.5 at the floor under it (the sample point lies 1 above the floor).
{ cat "$MAPS/sealed_box.map"; printf '{\n"classname" "light"\n"origin" "256 256 128"\n}\n'; } > "$TMP/lit.map"
light=$("$CLI" light "$TMP/lit.map" --stats)
check "light exits 0" test $? -eq 0
for key in '"faces":24' '"outside_faces":18' '"lightmapped_faces":6' '"luxels":[0-9]' '"lights":1' '"rays":[0-9]' \
           '"sample_tests":[0-9]' '"pose":"point"' '"threads":1' '"warnings":0' '"ms":{' '"compile":' '"light":'; do
  check "light has $key" contains "$light" "$key"
done
bounced=$("$CLI" light "$TMP/lit.map" --bounce 1 --stats)
check "light --bounce chooses receivers through the base PVS by default" contains "$bounced" '"bounce_pvs":"base"'
check "light --bounce counts the pairs the PVS left out" contains "$bounced" '"bounce_pairs_skipped_by_pvs":[0-9]'
check "light --bounce-pvs none looks at every pair" contains "$("$CLI" light "$TMP/lit.map" --bounce 1 --bounce-pvs none --stats)" \
  '"bounce_pairs_skipped_by_pvs":0'
check "light --bounce-pvs with another word is a usage error" test "$("$CLI" light "$TMP/lit.map" --bounce 1 --bounce-pvs some >/dev/null 2>&1; echo $?)" -eq 2
under='{"op":"light","p":[256,256,0],"normal":[0,0,1],"id":7}'
check "the light op reads the lightmap under the light" contains "$("$CLI" query "$TMP/lit.map" <<<"$under")" \
  '"color":\[86,86,86\],"id":7,"light":86'
check "the light op on a face of the void is an error" \
  contains "$("$CLI" query "$TMP/lit.map" <<<'{"op":"light","p":[256,256,-16],"normal":[0,0,-1]}')" '"error":"the face there faces the void'
check "the light op off every face is an error" \
  contains "$("$CLI" query "$TMP/lit.map" <<<'{"op":"light","p":[256,256,50],"normal":[0,0,1]}')" '"error":"the point is on no face"'
"$CLI" light "$TMP/lit.map" -o "$TMP/lit.obsp" >/dev/null
check "light -o stores the lightmaps" contains "$("$CLI" info "$TMP/lit.obsp")" '"lightmaps":{"faces":24,"lightmapped_faces":6,"luxels":[0-9]*,"outside_faces":18}'
check "the light op reads them from the .obsp" contains "$("$CLI" query "$TMP/lit.obsp" <<<"$under")" '"light":86'
"$CLI" vis "$TMP/lit.obsp" >/dev/null 2>&1
check "vis keeps the lightmaps" contains "$("$CLI" info "$TMP/lit.obsp")" '"lightmaps":{"faces":24'
check "light --relight times relighting after moving lights" \
  contains "$("$CLI" light "$TMP/lit.map" --relight 2)" '"relight":{"max_ms":[0-9.e+-]*,"mean_faces":[0-9.]*,"mean_ms":[0-9.e+-]*,"moves":2}'
check "light --relight-brush times relighting after moving brushes" \
  contains "$("$CLI" light "$TMP/lit.map" --relight-brush 2)" '"relight_brush":{"edits":2,"max_ms":[0-9.e+-]*,"mean_compile_ms":[0-9.e+-]*,"mean_faces":[0-9.]*,"mean_ms":[0-9.e+-]*}'
check "light --bounce reports its patches" contains "$("$CLI" light "$TMP/lit.map" --bounce 1)" '"bounce_patches":[1-9]'
check "light --coarse times a coarse pass and its refinement" contains "$("$CLI" light "$TMP/lit.map" --coarse 4)" \
  '"coarse":{"light_ms":[0-9.e+-]*,"rays":[0-9]*,"refine_ms":[0-9.e+-]*,"refined_faces":6,"stride":4}'
"$CLI" light "$TMP/lit.map" --coarse 4 -o "$TMP/lit_coarse.obsp" >/dev/null
check "light --coarse stores the full light (the refined lightmaps)" \
  contains "$("$CLI" query "$TMP/lit_coarse.obsp" <<<"$under")" '"color":\[86,86,86\],"id":7,"light":86'
check "light --coarse 0 exits 2" bash -c "'$CLI' light '$TMP/lit.map' --coarse 0 >/dev/null 2>&1; test \$? -eq 2"
"$CLI" convert "$TMP/lit.map" "$TMP/lit.shallot" >/dev/null
check "the light op lights a .shallot as its .map" contains "$("$CLI" query "$TMP/lit.shallot" <<<"$under")" '"light":86'
check "a .obsp without lightmaps answers the light op with an error" \
  contains "$("$CLI" query "$TMP/t.obsp" <<<"$under")" '"error":"no lightmaps'

# Movers (issue 40): a room split by a func_door (entity 1) that opens upwards.
box() { # box X0 Y0 Z0 X1 Y1 Z1: a brush
  printf '{\n( %s 64 0 ) ( %s 0 0 ) ( %s 0 64 ) w 0 0 0 1 1\n( %s 0 64 ) ( %s 0 0 ) ( %s 64 0 ) w 0 0 0 1 1\n' "$4" "$4" "$4" "$1" "$1" "$1"
  printf '( 0 %s 64 ) ( 0 %s 0 ) ( 64 %s 0 ) w 0 0 0 1 1\n( 64 %s 0 ) ( 0 %s 0 ) ( 0 %s 64 ) w 0 0 0 1 1\n' "$5" "$5" "$5" "$2" "$2" "$2"
  printf '( 64 0 %s ) ( 0 0 %s ) ( 0 64 %s ) w 0 0 0 1 1\n( 0 64 %s ) ( 0 0 %s ) ( 64 0 %s ) w 0 0 0 1 1\n}\n' "$6" "$6" "$6" "$3" "$3" "$3"
}
{ printf '{\n"classname" "worldspawn"\n'
  box -256 -256 -16 256 256 0; box -256 -256 256 256 256 272; box -272 -256 -16 -256 256 272
  box 256 -256 -16 272 256 272; box -272 -272 -16 272 -256 272; box -272 256 -16 272 272 272
  printf '}\n{\n"classname" "func_door"\n"angle" "-1"\n'; box -8 -256 0 8 256 160; printf '}\n'
  printf '{\n"classname" "info_player_start"\n"origin" "-128 0 24"\n}\n'; } > "$TMP/door.map"
doorin=$(printf '%s\n' '{"op":"classify","p":[0,0,64]}' '{"op":"classify","p":[0,0,64],"movers":{"1":"open"}}' \
  '{"op":"trace","pose":"player","from":[-100,0,40],"to":[100,0,40]}' \
  '{"op":"trace","pose":"player","from":[-100,0,40],"to":[100,0,40],"movers":{"1":"open"}}' \
  '{"op":"move","pose":"player","from":[-100,0,40],"delta":[200,0,0],"movers":{"1":0.1}}' \
  '{"op":"classify","p":[0,0,64],"movers":{"0":"open"}}' '{"op":"classify","p":[0,0,64],"movers":{"1":"wide"}}' \
  '{"op":"classify","p":[0,0,64],"movers":{"1":"corner 0"}}' '{"op":"classify","p":[0,0,64],"movers":{"1":1.5}}' \
  '{"op":"classify","p":[0,0,64],"movers":{"1":null}}' '{"op":"classify","p":[0,0,64],"movers":{"x":"open"}}')
doorq=$("$CLI" query "$TMP/door.map" <<<"$doorin" 2>/dev/null)
dline() { sed -n "$1p" <<<"$doorq"; }
check "movers: the closed door is solid (its spawn state)" contains "$(dline 1)" '"player":true'
check "movers: the open door is not" contains "$(dline 2)" '"player":false,"point":false'
check "movers: a trace stops at the closed door" contains "$(dline 3)" '"hit":true'
check "movers: and names it" contains "$(dline 3)" '"mover":1,'
check "movers: a trace that hits no mover names none" test -z "$(grep '"mover"' <<<"$(dline 4)")"
check "movers: a trace passes the open door" contains "$(dline 4)" '"hit":false'
check "movers: a move stops at a door opened a tenth" contains "$(dline 5)" '"contacts":\[{'
check "movers: an entity that is no mover is an error" contains "$(dline 6)" '"error":"\\"movers\\": no mover at entity \\"0\\""'
check "movers: a bad state is an error" contains "$(dline 7)" '"error":"\\"movers\\": the state of entity 1'
check "movers: a door's corner 0 is its first stop (closed)" contains "$(dline 8)" '"player":true'
check "movers: a fraction past 1 is an error" contains "$(dline 9)" '"error":"\\"movers\\": the state of entity 1'
check "movers: a null state is an error" contains "$(dline 10)" '"error":"\\"movers\\": the state of entity 1'
check "movers: an entity index that is no number is an error" contains "$(dline 11)" 'no mover at entity \\"x\\"'
# compile -o stores the movers and the entities travel reads (format version 6): the
# .obsp answers every op as the .map, its errors included.
"$CLI" compile "$TMP/door.map" -o "$TMP/door.obsp" >/dev/null 2>&1
doorpath=$(printf '%s\n' '{"op":"path","pose":"player","from":[-128,0,24],"to":[128,0,24]}' \
  '{"op":"path","pose":"player","from":[-128,0,24],"to":[128,0,24],"travel":false}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24]}')
check "movers: query on the .obsp answers as on the .map, errors included" \
  test "$("$CLI" query "$TMP/door.obsp" <<<"$doorin" 2>/dev/null)" = "$doorq"
mappath=$("$CLI" query "$TMP/door.map" <<<"$doorpath" 2>/dev/null)
check "movers: a path through the door travels it (on the .map)" contains "$mappath" '"type":"door"'
check "movers: and on the .obsp the same paths and reach" \
  test "$("$CLI" query "$TMP/door.obsp" <<<"$doorpath" 2>/dev/null)" = "$mappath"
# reach with "movers" floods the world compiled with the movers placed (a door from floor
# to ceiling here); without the field it answers for the world alone, as before.
{ printf '{\n"classname" "worldspawn"\n'
  box -256 -256 -16 256 256 0; box -256 -256 256 256 256 272; box -272 -256 -16 -256 256 272
  box 256 -256 -16 272 256 272; box -272 -272 -16 272 -256 272; box -272 256 -16 272 272 272
  printf '}\n{\n"classname" "func_door"\n"angle" "-1"\n'; box -8 -256 0 8 256 256; printf '}\n'; } > "$TMP/tall_door.map"
tallq=$(printf '%s\n' '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24]}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24],"movers":{"1":"closed"}}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24],"movers":{"1":"open"}}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24],"movers":{"1":0.05}}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24],"movers":{"1":"wide"}}' \
  | "$CLI" query "$TMP/tall_door.map" 2>/dev/null)
tline() { sed -n "$1p" <<<"$tallq"; }
check "movers: reach without the field floods the world alone" contains "$(tline 1)" '"reachable":true'
check "movers: reach with the door closed is cut off" contains "$(tline 2)" '"reachable":false'
check "movers: reach with the door open goes through" contains "$(tline 3)" '"reachable":true'
check "movers: reach under a door opened 12 units is cut off for the player" contains "$(tline 4)" '"reachable":false'
check "movers: reach with a bad state is an error" contains "$(tline 5)" '"error":"\\"movers\\": the state of entity 1'
"$CLI" compile "$TMP/tall_door.map" -o "$TMP/tall_door.obsp" >/dev/null 2>&1
check "movers: reach with movers on the .obsp (its stored brushes) answers as on the .map" \
  test "$(printf '%s\n' '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24]}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24],"movers":{"1":"closed"}}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24],"movers":{"1":"open"}}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24],"movers":{"1":0.05}}' \
  '{"op":"reach","pose":"player","from":[-128,0,24],"to":[128,0,24],"movers":{"1":"wide"}}' \
  | "$CLI" query "$TMP/tall_door.obsp" 2>/dev/null)" = "$tallq"
# Round poses and boxes other than the poses meet the movers too (each mover's brushes
# exact in its own frame).
roundq=$(printf '%s\n' '{"op":"trace","pose":"cap","from":[-100,0,40],"to":[100,0,40]}' \
  '{"op":"trace","pose":"cap","from":[-100,0,40],"to":[100,0,40],"movers":{"1":"open"}}' \
  '{"op":"classify","p":[0,0,64]}' '{"op":"move","pose":"cap","from":[-100,0,40],"delta":[200,0,0]}' \
  | "$CLI" query "$TMP/door.map" --pose point=0,0,0,0,0,0 --pose cap=capsule:16,56 2>/dev/null)
check "movers: a capsule stops at the closed door and names it" \
  contains "$(sed -n 1p <<<"$roundq")" '"hit":true,"mover":1,"normal":\[-1,0,0\],"point":\[-24,0,40\]'
check "movers: a capsule passes the open door" contains "$(sed -n 2p <<<"$roundq")" '"hit":false'
check "movers: the closed door is solid for the capsule" contains "$(sed -n 3p <<<"$roundq")" '"cap":true'
check "movers: a capsule's move stops at the door" contains "$(sed -n 4p <<<"$roundq")" '"end":\[-24.03125,0,40\]'
boxin=$(printf '%s\n' '{"op":"trace","box":{"mins":[-4,-4,-4],"maxs":[4,4,4]},"from":[-100,0,40],"to":[100,0,40]}' \
  '{"op":"trace","box":{"mins":[-4,-4,-4],"maxs":[4,4,4]},"from":[-100,0,40],"to":[100,0,40],"movers":{"1":"open"}}')
boxq=$("$CLI" query "$TMP/door.map" <<<"$boxin" 2>/dev/null)
check "movers: any box stops at the closed door and names it" \
  contains "$(sed -n 1p <<<"$boxq")" '"hit":true,"mover":1,"normal":\[-1,0,0\],"point":\[-12,0,40\]'
check "movers: any box passes the open door" contains "$(sed -n 2p <<<"$boxq")" '"hit":false'
check "movers: and on the .obsp the same boxes" test "$("$CLI" query "$TMP/door.obsp" <<<"$boxin" 2>/dev/null)" = "$boxq"
doorinfo=$("$CLI" info "$TMP/door.obsp")
check "movers: info says the file is version 6" contains "$doorinfo" '"version":6'
check "movers: info counts the stored movers" contains "$doorinfo" '"movers":{"entities":3,"game":"quake","kinds":"1 door","objects":1}'
check "movers: a .obsp without them (compiled from a .shallot) names none" \
  contains "$("$CLI" convert "$TMP/door.map" "$TMP/door.shallot" >/dev/null 2>&1
              "$CLI" compile "$TMP/door.shallot" -o "$TMP/door_shallot.obsp" >/dev/null 2>&1
              "$CLI" query "$TMP/door_shallot.obsp" <<<'{"op":"classify","p":[0,0,64],"movers":{"1":"open"}}')" \
  '"error":"\\"movers\\": no mover at entity \\"1\\" (movers need'
"$CLI" vis "$TMP/door.obsp" -o "$TMP/door_vis.obsp" >/dev/null 2>&1
check "movers: vis keeps the stored movers" \
  test "$("$CLI" query "$TMP/door_vis.obsp" <<<'{"op":"classify","p":[0,0,64],"movers":{"1":"open"}}' 2>/dev/null)" = "$(dline 2)"
sim=$("$CLI" simulate "$TMP/door.map" --agents 8 --seconds 1 --seed 3 --json 2>/dev/null); status=$?
check "simulate exits 0" test "$status" -eq 0
for key in '"agents":8' '"steps":60' '"steps_per_second":' '"objects":"1 door"' '"moves":{' '"colliding":{' \
           '"stage":"grid cell"' '"stage":"bounding spheres"' '"stage":"boxes"' '"stage":"plane/tree"'; do
  check "simulate has $key" contains "$sim" "$key"
done
untimedsim() { sed -E 's/"(mean_us|world_mean_us|cpu_seconds|wall_seconds|path_seconds|nav_seconds|steps_per_second|threads)":[0-9.e+-]*//g'; }
sim5() { "$CLI" simulate "$TMP/door.map" --agents 8 --seconds 5 --seed 3 --threads "$1" --json 2>/dev/null | untimedsim; }
sim1=$(sim5 1)
check "simulate gives the same run for the same seed on 1 and 2 threads" test "$(sim5 2)" = "$sim1"
check "simulate runs the door" test -z "$(grep '"object_moves":0,' <<<"$sim1")"
check "simulate cycles the movers unless told" contains "$sim1" '"fired":false'
# --fired: the door rests until an agent comes into its field; the same run on 1 and 2 threads.
simf() { "$CLI" simulate "$TMP/door.map" --agents 8 --seconds 5 --seed 3 --threads "$1" --fired --json 2>/dev/null | untimedsim; }
simf1=$(simf 1)
check "simulate --fired says so" contains "$simf1" '"fired":true'
check "simulate --fired counts trips and firings" contains "$simf1" '"mover_trips":'
check "simulate --fired gives the same run on 1 and 2 threads" test "$(simf 2)" = "$simf1"
"$CLI" simulate "$TMP/door.map" --agents 0 --seconds 5 --fired --json 2>/dev/null | grep -q '"object_moves":0,'
check "simulate --fired with no agents moves no door" test $? -eq 0
"$CLI" simulate "$TMP/door.map" --agents -3 >/dev/null 2>&1
check "simulate with a negative agent count is a usage error" test $? -eq 2
"$CLI" simulate "$TMP/door.map" --agents 2 --seconds 1 --pose nobody >/dev/null 2>&1
check "simulate with an unknown pose is a usage error" test $? -eq 2
exit $fail
