#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# devices_repeat.sh - issues 28 and 29: a --devices run loses no case. The
# compile cache warmed first (benchrun check, untimed), then three runs of
# `benchrun --devices all suites/reduction.yaml suites/bandwidth.yaml` on a
# host with two or more GPUs (nvidia-h100-x2 or larger), from the
# repository root with build/benchrun built with CUDA. Per run: its exit
# status, its wall time, its summary line, where the host cases ran (beside
# the GPU cases on their own CPU, or after them) and every case that did not
# end ok (suite, kernel, params, stage, message). Issue 28: before the fix
# each run lost its first host case ("crashed: the worker process was killed
# by signal 9 (SIGKILL) (teardown)": the worker died with the thread that
# forked it, PR_SET_PDEATHSIG). Logs and JSON under "$OUT/devices-repeat/".
# About 1.5 minutes on two H100s. scripts/gpu/devices.sh times it against
# one GPU.
set -u
OUT=${OUT:-/tmp/devices-repeat-out}
D="$OUT/devices-repeat"
B=build/benchrun
SUITES="suites/reduction.yaml suites/bandwidth.yaml"
mkdir -p "$D"
[ -x "$B" ] || { echo "devices_repeat.sh: $B is not built"; exit 1; }
echo "GPUs: $(nvidia-smi -L 2>/dev/null | grep -c '^GPU '), CPUs: $(nproc)" | tee "$D/summary.txt"
"$B" check $SUITES >"$D/check.txt" 2>&1 || echo "benchrun check: exit $? (see $D/check.txt)"
for k in 1 2 3; do
    t0=$(date +%s.%N)
    "$B" --devices all --json "$D/run$k.json" $SUITES >"$D/run$k.txt" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    echo "run $k: exit $rc, $(python3 -c "import sys; print('%.1f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1") s; $(grep -E '^benchrun: [0-9]+ case\(s\):' "$D/run$k.txt")"
    grep -oE '; ([0-9]+ host case\(s\) beside them|then [0-9]+ host case\(s\)).*' "$D/run$k.txt" | sed 's/^; /  host cases: /'
    python3 - "$D/run$k.json" <<'PY'
import json, sys
try:
    runs = json.load(open(sys.argv[1]))["runs"]
except Exception as e:
    print("  no results: %s" % e)
    sys.exit(0)
for r in runs:
    for c in r["cases"]:
        if c["status"] != "ok":
            params = " ".join("%s=%s" % kv for kv in c["params"].items())
            print("  %s %s %s: %s (%s): %s" % (r["suite"]["name"], c["kernel"], params,
                                            c["status"], c["stage"], c["message"]))
PY
done | tee -a "$D/summary.txt"
