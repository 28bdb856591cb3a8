#!/usr/bin/env bash
# shallot-cli and other games' levels (issue #31): --game, --pose NAME=BOX:CONTENTS and the
# game and blocking sets in compile --stats, on the sample maps with known answers.
set -uo pipefail
CLI="$1"; MAPS="$2"; TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
source "$(dirname "$0")/check_lib.sh"

stats=$("$CLI" compile "$MAPS/q2_clip_room.map" -o "$TMP/q2.obsp" --stats)
check "a Quake 2 level is detected" contains "$stats" '"game":"quake2"'
check "its poses are Quake 2's" contains "$stats" '"poses":\["point","player","crouch","monster"\]'
check "stats name each pose's blocking set" contains "$stats" \
  '"blocking":{"crouch":"solid+window+playerclip","monster":"solid+window+monsterclip","player":"solid+window+playerclip","point":"solid+window"}'

# Known answers: inside the player clip wall (x 168) and the monster clip wall (x 344).
answers=$(printf '%s\n' '{"op":"classify","p":[168,256,100]}' '{"op":"classify","p":[344,256,100]}' \
  '{"op":"trace","pose":"monster","from":[64,256,40],"to":[496,256,40]}' | "$CLI" query "$TMP/q2.obsp")
check "player clip: player and crouch solid, monster and point not" contains "$(sed -n 1p <<<"$answers")" \
  '"solid":{"crouch":true,"monster":false,"player":true,"point":false}'
check "monster clip: only the monster" contains "$(sed -n 2p <<<"$answers")" \
  '"solid":{"crouch":false,"monster":true,"player":false,"point":false}'
check "a monster's trace stops 16 before the monster clip" contains "$(sed -n 3p <<<"$answers")" '"point":\[320,256,40\]'

walker=$("$CLI" compile "$MAPS/q2_clip_room.map" --pose 'walker=-16,-16,-24,16,16,32:solid+monsterclip' \
  --pose 'shot=0,0,0,0,0,0' --stats)
check "--pose takes a blocking set" contains "$walker" '"blocking":{"shot":"solid+window","walker":"solid+monsterclip"}'

quake=$("$CLI" compile "$MAPS/q2_clip_room.map" --game quake --stats)
check "--game quake reads it as Quake" contains "$quake" '"poses":\["point","player","large"\]'
check "--game quake names the game" contains "$quake" '"game":"quake"'

hl=$(printf '%s\n' '{"op":"classify","p":[168,256,100]}' | "$CLI" query "$MAPS/hl_clip_room.map" 2>/dev/null)
check "Half-Life CLIP blocks the hulls, not the point" contains "$hl" \
  '"solid":{"head":true,"human":true,"large":true,"point":false}'

q3err=$("$CLI" compile "$MAPS/q3_patch_room.map" --stats 2>&1 >"$TMP/q3.json"); code=$?
check "a Quake 3 level with a patch compiles" test "$code" = 0
check "it is detected as Quake 3" contains "$(cat "$TMP/q3.json")" '"game":"quake3"'
check "its patch is left out of collision with one warning" test "$(grep -c 'warning' <<<"$q3err")" = 1
check "the warning names the patch" contains "$q3err" '1 patches (patchDef) kept and written back, but left out of collision'

check "quake1 levels say quake" contains "$("$CLI" compile "$MAPS/low_tunnel.map" --stats)" '"game":"quake"'

err=$("$CLI" compile "$MAPS/q2_clip_room.map" --game doom 2>&1); code=$?
check "an unknown game is a usage error" test "$code" = 2
check "it names the games" contains "$err" 'quake, quake2, halflife or quake3'
err=$("$CLI" compile "$MAPS/q2_clip_room.map" --pose 'w=-1,-1,-1,1,1,1:solid+glass' 2>&1); code=$?
check "an unknown contents name is a usage error" test "$code" = 2
check "it lists the contents" contains "$err" "pose 'w': the blocking set after ':' must be contents joined by '+'"
exit $fail
