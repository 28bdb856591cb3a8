#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) in build-fuzz/ with clang, ASan and UBSan, and
# runs each for SECONDS (default 60) from its seed corpus in tests/fuzz/corpus/<name>/.
# Fails on the first crash, leak, sanitizer report, timeout or broken invariant; the input
# that caused it is left as build-fuzz/findings/<name>/crash-* (or leak-*, timeout-*).
#   scripts/fuzz.sh [SECONDS] [FUZZER...]     e.g. scripts/fuzz.sh 600 map_reader_fuzzer
# Environment: FUZZ_JOBS (parallel fuzzers, default 1), JOBS (build jobs, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${1:-60}"
[ $# -gt 0 ] && shift
ALL=(map_reader_fuzzer obsp_reader_fuzzer shallot_loader_fuzzer query_line_fuzzer fgd_reader_fuzzer
     runtime_buffer_fuzzer)
if [ $# -gt 0 ]; then FUZZERS=("$@"); else FUZZERS=("${ALL[@]}"); fi

scripts/install-deps.sh
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is missing (scripts/install-deps.sh installs it)"; exit 1; }
# Line tables are all a report needs (file and line); lld links faster (see sanitize.sh).
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DSHALLOT_FUZZ=ON -DSHALLOT_BUILD_TESTS=OFF -DSHALLOT_WERROR=ON >/dev/null
cmake --build build-fuzz -j "${JOBS:-2}" --target "${FUZZERS[@]}"

export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:allocator_may_return_null=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
run() { # run NAME: fuzzes NAME for SECONDS_EACH; its log is build-fuzz/findings/NAME/log
  local name="$1" short="${1%_fuzzer}" dir="build-fuzz/findings/$1"
  mkdir -p "$dir" "build-fuzz/corpus/$short"
  local dict=(); [ -f "tests/fuzz/$short.dict" ] && dict=(-dict="tests/fuzz/$short.dict")
  # New inputs go to build-fuzz/corpus (kept between runs); the seeds in the repo are read only.
  if "build-fuzz/tests/fuzz/$name" "build-fuzz/corpus/$short" "tests/fuzz/corpus/$short" "${dict[@]}" \
       -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$dir/" >"$dir/log" 2>&1; then
    echo "fuzz: $name ok after ${SECONDS_EACH}s: $(grep -E '^#[0-9]+' "$dir/log" | tail -1)"
    grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$dir/log" | sed 's/^/  /'
  else
    echo "fuzz: $name FAILED: see $dir/log and the input in $dir/"
    tail -40 "$dir/log"
    return 1
  fi
}
status=0
if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
  pids=()
  for f in "${FUZZERS[@]}"; do run "$f" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
else
  for f in "${FUZZERS[@]}"; do run "$f" || status=1; done
fi
exit $status
