#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests.sh - the README's test command in full on a GPU machine (issue 44),
# from the repository root: scripts/setup.sh --tests, then ctest over every
# test (every label, not only gpu), serially and with -j JOBS, PASSES times
# each, alternating (-j first: it is the shorter). Each pass prints one line:
# the tests passed, failed and skipped (as ctest counts them; beside them the
# Criterion tests skipped inside test programs that passed) and its wall
# time, then the names of the tests that failed. The summary is printed last
# and kept in $OUT/summary.txt; every log is in $OUT/tests.tgz. Exits 1 when
# the build or a pass failed.
#
#   PASSES=3     passes of each kind (serial and parallel)
#   JOBS=16      ctest -j for the parallel passes (the H200 machine's cores)
#   LIMIT_S=540  a pass starts only while the time it is expected to take is
#                left (the last pass of its kind, or SERIAL_S / PARALLEL_S
#                before the first); the device tool stops a command at 600 s
#   SERIAL_S=420 PARALLEL_S=150   those first guesses, in seconds
#   BUILD=0      no build: build/ (BR_BUILD_DIR) is already there
#   KINDS="parallel"   only one kind of pass (default "parallel serial")
#
# Three passes of each kind take longer than one call of the device tool
# allows; split them, e.g. KINDS=parallel, then KINDS=serial in a second call.
# Libraries the machine lacks (libyaml, libgit2, jansson, sqlite3, Criterion)
# come from .gpu-deps/activate.sh when that file is there (the ignored folder
# carried to the machine); scripts/setup.sh would otherwise try apt-get.
# CRITERION_VERBOSITY_LEVEL=1 is set so that each test program's log names
# the Criterion tests it skipped, and why (counted from the logs).
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck disable=SC1091
[ -f .gpu-deps/activate.sh ] && . .gpu-deps/activate.sh
OUT=${OUT:-/tmp/tests-out}
PASSES=${PASSES:-3}
JOBS=${JOBS:-16}
LIMIT_S=${LIMIT_S:-540}
KINDS=${KINDS:-parallel serial}
build=${BR_BUILD_DIR:-build}
export BR_BUILD_DIR=$build CRITERION_VERBOSITY_LEVEL=1
mkdir -p "$OUT/logs"
S="$OUT/summary.txt"
: >"$S"
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
say() { echo "$*" | tee -a "$S"; }

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
say "tests.sh: $(nproc) cores, ${gpu:-no GPU seen by nvidia-smi}; $PASSES pass(es) of each of: $KINDS (-j $JOBS)"

if [ "${BUILD:-1}" = 1 ]; then
    say "== build: scripts/setup.sh --tests (from $(elapsed) s)"
    if ! scripts/setup.sh --tests >"$OUT/logs/build.log" 2>&1; then
        tail -30 "$OUT/logs/build.log"
        say "   build failed at $(elapsed) s (log: logs/build.log)"
        tar czf "$OUT/tests.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
        exit 1
    fi
    say "   built at $(elapsed) s"
fi

# pass KIND N: one ctest run of every test (KIND serial or parallel, the
# N-th of its kind); its log in logs/KIND-N.log, its LastTest.log beside it.
# Prints its summary line and the failed tests; returns ctest's status.
pass() {
    local kind=$1 n=$2 log="$OUT/logs/$1-$2.log" t0 t1 rc total failed skipped passed crit
    last_log=""
    local args=(--test-dir "$build" --output-on-failure)
    [ "$kind" = parallel ] && args+=(-j "$JOBS")
    t0=$(date +%s%N)
    ctest "${args[@]}" >"$log" 2>&1
    rc=$?
    t1=$(date +%s%N)
    last_log="$OUT/logs/$kind-$n.LastTest.log"
    cp "$build/Testing/Temporary/LastTest.log" "$last_log" 2>/dev/null
    # "99% tests passed, 1 tests failed out of 124", or with none failed "100% tests
    # passed out of 126": skipped tests count as passed there.
    total=$(sed -n 's/.*tests passed.* out of \([0-9]*\).*/\1/p' "$log" | tail -1)
    failed=$(sed -n 's/.*, \([0-9]*\) tests failed out of .*/\1/p' "$log" | tail -1)
    [ -n "$total" ] && [ -z "$failed" ] && failed=0
    skipped=$(grep -c '\*\*\*Skipped' "$log")
    passed=$((${total:-0} - ${failed:-0} - skipped))
    crit=$(grep -c '^\[SKIP\] ' "$last_log" 2>/dev/null)
    say "$(printf '%-8s %d: %3s passed, %s failed, %s skipped of %s tests (and %s Criterion tests skipped); %s s wall; ctest exit %d' \
        "$kind" "$n" "$passed" "${failed:-?}" "$skipped" "${total:-?}" "${crit:-?}" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')" "$rc")"
    sed -n '/The following tests FAILED:/,/^Errors while running/p' "$log" | grep ' - ' |
        sed 's/^[[:space:]]*/           failed: /' | tee -a "$S"
    return $rc
}

declare -A took=([serial]=${SERIAL_S:-420} [parallel]=${PARALLEL_S:-150})
status=0
for i in $(seq 1 "$PASSES"); do
    for kind in $KINDS; do
        left=$((LIMIT_S - $(elapsed)))
        if [ "$left" -lt "${took[$kind]}" ]; then
            say "$kind $i: not run ($left s left, a $kind pass takes about ${took[$kind]} s)"
            continue
        fi
        t=$(elapsed)
        pass "$kind" "$i" || status=1
        took[$kind]=$(($(elapsed) - t))
    done
done

echo
echo "--- summary"
cat "$S"
# The Criterion tests the last pass skipped, with their reasons.
if [ -f "${last_log:-}" ]; then
    echo "--- Criterion tests skipped in $(basename "$last_log" .LastTest.log)"
    grep '^\[SKIP\] ' "$last_log" | sort
fi
tar czf "$OUT/tests.tgz" -C "$OUT" logs && rm -rf "$OUT/logs"
exit "$status"
