#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# all.sh - the GPU figures of issues 27 and 29 in one call of the device
# tool, on a machine of two or more GPUs (nvidia-h100-x2), from the
# repository root. Each step is started only while LIMIT_S (default 540)
# seconds have not run out, in this order, most wanted first:
#
#   build     benchrun and the GPU tests, with CUDA (Release)
#   warm      benchrun check of every suite: the compile cache, untimed
#   speed     scripts/gpu/speed.sh without its nightly: the reduction suite
#             three times (target <= 8 s each), the A/A of the last two, the
#             spin fixture (within 0.5% at 10 us and above)
#   devices   scripts/gpu/devices.sh: the 58-case plan and the nightly, three
#             times each on one GPU (target <= 20 s, 116 of 116 ok) and with
#             --devices all (targets 0.55x and 0.5x, 0 cases lost)
#   gputests  ctest -L gpu: the device-side verification and its planted
#             faults among them
#   readme    the README's command against a baseline saved three times
#             afresh on this GPU (the file comes back in $OUT; FRESH=0: the
#             committed one): ten runs, how many exit 3 (target: none)
#   gate      scripts/gpu/gate.sh in the time left (BUDGET_S shrinks its
#             A/A runs)
#
# STEPS (default: all of them) names the steps to run, e.g. STEPS="readme
# gate" on a warm machine whose build/ is already there. Each step's
# summary is printed last; every log is in $OUT/all.tgz.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/all-out}
LIMIT_S=${LIMIT_S:-540}
export OUT
mkdir -p "$OUT/logs"
S="$OUT/summary.txt"
: >"$S"
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }

# step NAME NEED_S CMD...: run CMD (output to logs/NAME.log) when NEED_S
# seconds are left, else say it was skipped.
step() {
    local name=$1 need=$2 rc
    shift 2
    case " ${STEPS:-build warm speed devices gputests readme gate} " in
    *" $name "*) ;;
    *) return 0 ;;
    esac
    if [ $((LIMIT_S - $(elapsed))) -lt "$need" ]; then
        echo "== $name: not run ($((LIMIT_S - $(elapsed))) s left, it needs about $need)" | tee -a "$S"
        return 1
    fi
    echo "== $name (from $(elapsed) s)" | tee -a "$S"
    "$@" >"$OUT/logs/$name.log" 2>&1
    rc=$?
    echo "   $name: exit $rc at $(elapsed) s" | tee -a "$S"
    return $rc
}

build() {
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBR_BUILD_TESTS=ON &&
        cmake --build build -j "$(nproc)" --target benchrun test_gpu_escape test_gpu_faults \
            test_gpu_reduction test_gpu_timing test_gpu_sgemm test_gpu_gemm test_gpu_verify test_gpu_devices
}

warm() {
    build/benchrun check suites/*.yaml scripts/gpu/gate/copy.yaml
}

gputests() {
    ctest --test-dir build -L gpu -j 6 --output-on-failure --timeout 240
}

# The README's command against a baseline saved three times now: the
# committed file for this GPU is replaced by the fresh one (in $OUT).
readme() {
    local dev rc t0 n3=0
    for i in 1 2 3; do
        [ "${FRESH:-1}" = 1 ] || break
        build/benchrun --save-baseline suites/reduction.yaml >"$OUT/logs/readme-save$i.txt" 2>&1 ||
            echo "save $i: exit $?"
    done
    for i in $(seq 1 10); do
        t0=$(date +%s.%N)
        build/benchrun suites/reduction.yaml --json "$OUT/logs/readme-run$i.json" \
            >"$OUT/logs/readme-run$i.txt" 2>&1
        rc=$?
        [ $rc -eq 3 ] && n3=$((n3 + 1))
        echo "README run $i: exit $rc, $(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$(date +%s.%N)") s; $(grep -m1 '^vs baseline' "$OUT/logs/readme-run$i.txt")"
    done
    echo "README runs exiting 3: $n3 of 10"
    dev="baselines/reduction/$(gpu_file).json"
    cp "$dev" "$OUT/" && echo "baseline: $dev (copied to \$OUT)"
}

# This GPU's baseline file name (docs/baselines.md: the device name,
# spaces as '-').
gpu_file() {
    nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '-'
}

# The baseline saves of the README step start from nothing on this GPU.
fresh_baseline() {
    rm -f "baselines/reduction/$(gpu_file).json"
}

step build 120 build || { tail -30 "$OUT/logs/build.log"; exit 1; }
step warm 60 warm
step speed 60 env SKIP_NIGHTLY=${SKIP_NIGHTLY:-1} scripts/gpu/speed.sh
step devices 200 scripts/gpu/devices.sh
step gputests 90 gputests
# FRESH=0: the README runs compare with the committed baseline instead.
case " ${STEPS:-readme} " in *" readme "*) [ "${FRESH:-1}" = 1 ] && fresh_baseline ;; esac
step readme 120 readme
left=$((LIMIT_S - $(elapsed)))
[ "$left" -gt 120 ] && step gate 120 env BUDGET_S=$((left - 100)) AA=10 scripts/gpu/gate.sh

echo
for f in speed/summary.txt devices/summary.txt; do
    [ -f "$OUT/$f" ] && { echo "--- $f"; cat "$OUT/$f"; }
done
grep -E "tests passed|Failed|Passed|Skipped" "$OUT/logs/gputests.log" 2>/dev/null | tail -12
grep -E "^README|^baseline" "$OUT/logs/readme.log" 2>/dev/null
[ -f "$OUT/gate/summary.txt" ] && { echo "--- gate"; cat "$OUT/gate/summary.txt"; }
echo "--- steps"
cat "$S"
tar czf "$OUT/all.tgz" -C "$OUT" logs speed devices gate 2>/dev/null
rm -rf "$OUT/logs" "$OUT/speed" "$OUT/devices" "$OUT/gate"
