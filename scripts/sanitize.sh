#!/usr/bin/env bash
# Sanitizer runs (docs/bad-input.md):
#  1. build-asan/: AddressSanitizer + UndefinedBehaviorSanitizer (first report aborts), the
#     CTest suite, GUI tests included (under xvfb-run, as in scripts/test-all.sh), less the
#     heaviest property tests (tests/sanitizers/asan_skip.txt; ASAN_ALL=1 runs them too).
#  2. build-tsan/: ThreadSanitizer, the background-compile GUI tests (tests/app/editor_gui_test)
#     and the core tests that compile on several threads (the pooled tree build, portals)
#     or query one runtime Tree from several (docs/runtime.md).
#   scripts/sanitize.sh [asan|tsan]...   (default: both)
# Environment: JOBS (build and test jobs, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
STAGES=("$@")
[ ${#STAGES[@]} -gt 0 ] || STAGES=(asan tsan)
scripts/install-deps.sh
ROOT="$PWD"
# The heaviest property tests do a quarter of their repetitions here (tests/core/test_scale.h);
# the README's test command runs them all.
export SHALLOT_TEST_SCALE=0.25
# Line tables only (-g1: sanitizer reports still name file and line) and lld: these builds
# are compiled from scratch on every CI run, and full debug info made them a third slower
# to compile and the ~40 test programs several times slower to link.
FAST_DEBUG_BUILD=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld
                  -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_MODULE_LINKER_FLAGS=-fuse-ld=lld)

for stage in "${STAGES[@]}"; do
  case "$stage" in
  asan)
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${FAST_DEBUG_BUILD[@]}" \
          -DSHALLOT_SANITIZE=address -DSHALLOT_WERROR=ON >/dev/null
    cmake --build build-asan -j "${JOBS:-2}"
    # Leaks are checked at exit (LeakSanitizer). The GL driver stays mapped until then (see
    # tests/sanitizers/no_dlclose.c); lsan.supp lists the system libraries' own leaks.
    cc -shared -fPIC -O2 -o build-asan/no_dlclose.so tests/sanitizers/no_dlclose.c
    # The heaviest property tests are left out (tests/sanitizers/asan_skip.txt says why and
    # how long each took); ASAN_ALL=1 runs them too.
    skip=()
    if [ -z "${ASAN_ALL:-}" ]; then
      skip=(-E "^($(grep -v '^#' tests/sanitizers/asan_skip.txt | cut -d' ' -f1 | sed 's/\./\\./g' | paste -sd'|'))\$")
    fi
    asan_ctest() {
      LD_PRELOAD="$ROOT/build-asan/no_dlclose.so" \
      ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:verify_asan_link_order=0" \
      UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
      LSAN_OPTIONS="suppressions=$ROOT/tests/sanitizers/lsan.supp:print_suppressions=0" \
      QTEST_DISABLE_STACKTRACE=1 \
        ctest --test-dir build-asan --output-on-failure -j "${JOBS:-2}" --timeout 1800 "${skip[@]}" "$@"
    }
    # LeakSanitizer's own stop-the-world at exit sometimes crashes ("Tracer caught signal
    # 11", google/sanitizers#1353): not a leak and not our code. Only when the failed run
    # printed that signature are the failed tests run once more; any other failure stands.
    if ! asan_ctest; then
      grep -q "Tracer caught signal" build-asan/Testing/Temporary/LastTest.log || exit 1
      echo "sanitize.sh: LeakSanitizer's tracer crashed; running the failed tests once more"
      asan_ctest --rerun-failed
    fi
    ;;
  tsan)
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${FAST_DEBUG_BUILD[@]}" \
          -DSHALLOT_SANITIZE=thread -DSHALLOT_WERROR=ON >/dev/null
    cmake --build build-tsan -j "${JOBS:-2}" --target editor_gui_test shallot_thread_tests
    # Qt and Mesa from Debian are not instrumented: see tests/sanitizers/tsan.supp for why
    # ignore_noninstrumented_modules is set. die_after_fork=0: QProcess children exec at once.
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:die_after_fork=0:suppressions=$ROOT/tests/sanitizers/tsan.supp" \
    QTEST_DISABLE_STACKTRACE=1 \
      ctest --test-dir build-tsan --output-on-failure -R '^editor_gui_test$' --timeout 1800
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" \
      build-tsan/tests/shallot_thread_tests \
      --gtest_filter='OnionTree.DenseOverlappingWorldMatchesBruteForce:OnionTree.CompileIsDeterministicAcrossThreadCounts:OnionTree.PooledBuildPassesOnAnErrorFromAnyThread:IncrementalCompile.SeveralBrushesMovedTogetherAndUndone:Runtime.ConcurrentQueriesAgreeWithOneThread:Runtime.BatchesAnswerAsOneByOne:PotentiallyVisibleSet.IdE1m7FullFlow'
    ;;
  *) echo "sanitize.sh: unknown stage '$stage' (asan or tsan)"; exit 2 ;;
  esac
done
