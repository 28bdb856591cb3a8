#!/usr/bin/env bash
# shallot-cli query under load and hostile lines (docs/bad-input.md): a long generated stream
# (default 1,000,000 lines; CI also runs 10,000,000) answered line for line in bounded memory,
# a 100 MB line, deeply nested JSON, NUL bytes, CR line ends, a last line without a newline.
#   query_stream_test.sh CLI MAPS [LINES]
# Memory: GNU time's maximum RSS of the long stream may exceed that of a 10,000-line stream
# by at most 64 MiB (it must not grow with the number of lines).
set -uo pipefail
CLI="$1"; MAPS="$2"; LINES="${3:-1000000}"; TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
# Sanitizer builds: keep ASan's quarantine of freed memory small, so RSS measures our memory.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=8"
fail=0
check() { # check NAME CONDITION-COMMAND...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "FAIL /usr/bin/time (package time) is needed"; exit 1; }

"$CLI" compile "$MAPS/low_tunnel.map" -o "$TMP/t.obsp" >/dev/null || { echo "FAIL compile"; exit 1; }

# N query lines cycling through every op; every 1000th line is malformed on purpose.
generate() {
  awk -v n="$1" 'BEGIN {
    for (i = 0; i < n; i++) {
      x = (i * 37) % 700 - 20; y = (i * 11) % 360 - 20; z = (i * 7) % 260 - 10; k = i % 1000
      if (k == 999) print "{\"op\":\"classify\",\"p\":[" x "," y "]}"
      else if (k % 5 == 0) print "{\"op\":\"trace\",\"pose\":\"stand\",\"from\":[" x "," y "," z "],\"to\":[" y "," x "," z + 1 "]}"
      else if (k % 5 == 1) print "{\"op\":\"move\",\"pose\":\"crouch\",\"from\":[" x "," y ",30],\"delta\":[64,8,-4],\"step\":18}"
      else if (k % 5 == 2) print "{\"op\":\"reach\",\"pose\":\"crouch\",\"from\":[32,32,30],\"to\":[" x "," y "," z "]}"
      else print "{\"op\":\"classify\",\"p\":[" x "," y "," z "]}"
    }
  }'
}
# run N: streams N generated lines through the CLI; sets OUT_LINES, ERRORS, RSS_KB, SECS.
run() {
  local start end
  start=$(date +%s.%N)
  generate "$1" | "$TIME" -f '%M' -o "$TMP/rss" "$CLI" query "$TMP/t.obsp" >"$TMP/out" 2>"$TMP/err"
  end=$(date +%s.%N)
  OUT_LINES=$(wc -l <"$TMP/out")
  ERRORS=$(grep -c '"error"' "$TMP/out")
  RSS_KB=$(tail -1 "$TMP/rss")
  SECS=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
}
run 10000
BASE_KB=$RSS_KB
check "10,000 lines: one answer per line" test "$OUT_LINES" -eq 10000
check "10,000 lines: the 10 malformed ones are errors" test "$ERRORS" -eq 10
run "$LINES"
echo "     $LINES lines in ${SECS}s, max RSS ${RSS_KB} KiB (10,000 lines: ${BASE_KB} KiB)"
check "$LINES lines: one answer per line" test "$OUT_LINES" -eq "$LINES"
check "$LINES lines: exactly the malformed ones are errors" test "$ERRORS" -eq $((LINES / 1000))
check "$LINES lines: memory does not grow with the stream" test "$RSS_KB" -le $((BASE_KB + 65536))
# The first answers of the stream equal the same queries asked one by one.
head -5 "$TMP/out" >"$TMP/head"
generate 5 | while IFS= read -r q; do printf '%s\n' "$q" | "$CLI" query "$TMP/t.obsp"; done >"$TMP/single"
check "answers are in order" cmp -s "$TMP/head" "$TMP/single"

# A 100 MB line between two good ones: an error in its place, in bounded memory.
{ echo '{"op":"classify","p":[0,0,0]}'; head -c 104857600 /dev/zero | tr '\0' ' '; echo '{"op":"classify"}'
  echo '{"op":"classify","p":[1,1,1]}'; } | "$TIME" -f '%M' -o "$TMP/rss" "$CLI" query "$TMP/t.obsp" >"$TMP/out" 2>&1
check "100 MB line: three answers" test "$(wc -l <"$TMP/out")" -eq 3
check "100 MB line: its answer is the line-length error" \
  test "$(sed -n 2p "$TMP/out")" = '{"error":"query line longer than 1048576 bytes"}'
check "100 MB line: the next line is answered" grep -q '"leaf"' <(sed -n 3p "$TMP/out")
check "100 MB line: memory stays bounded" test "$(tail -1 "$TMP/rss")" -le $((BASE_KB + 65536))

# Deep nesting, NUL bytes, CR line ends, blank lines, a last line without a newline.
nested=$(head -c 100000 /dev/zero | tr '\0' '[')
out=$({ echo "$nested"; printf '{"op":"classify","p":[0,0,0]}\r\n'; printf '\0{"op":"classify","p":[0,0,0]}\n'
        printf '   \n\n'; printf '{"op":"classify","p":[0,0,1]}'; } | "$CLI" query "$TMP/t.obsp"); status=$?
check "hostile lines: one answer per non-blank line" test "$(wc -l <<<"$out")" -eq 4
check "100,000 nested brackets: a nesting error" \
  test "$(sed -n 1p <<<"$out")" = '{"error":"malformed JSON at offset 1025: too deeply nested document"}'
check "CR line end: answered" grep -q '"leaf"' <(sed -n 2p <<<"$out")
check "NUL byte: its own error line" grep -q '"error":"malformed JSON' <(sed -n 3p <<<"$out")
check "last line without a newline: answered" grep -q '"leaf"' <(sed -n 4p <<<"$out")
check "hostile lines: exit status 1" test "$status" -eq 1
exit $fail
