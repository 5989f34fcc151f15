#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# devices_repeat.sh - issue 28: a --devices run loses no case. Three runs of
# `benchrun --devices all suites/reduction.yaml suites/bandwidth.yaml` on a
# host with two or more GPUs (nvidia-h200-x2 or larger), from the repository
# root with build/benchrun built with CUDA. Per run: its exit status, its
# summary line and every case that did not end ok (suite, kernel, params,
# stage, message). Before the fix each run lost its first host case
# (reduce_cpu at 2^28 or 2^24): "crashed: the worker process was killed by
# signal 9 (SIGKILL) (teardown)": the first device's worker, started by the
# device's thread, died with that thread (PR_SET_PDEATHSIG) before the main
# thread sent it the host cases. Logs and JSON under "$OUT/devices-repeat/".
# About 3 minutes on two H200s.
set -u
OUT=${OUT:-/tmp/devices-repeat-out}
D="$OUT/devices-repeat"
B=build/benchrun
SUITES="suites/reduction.yaml suites/bandwidth.yaml"
mkdir -p "$D"
[ -x "$B" ] || { echo "devices_repeat.sh: $B is not built"; exit 1; }
echo "GPUs: $(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')" | tee "$D/summary.txt"
for k in 1 2 3; do
    "$B" --devices all --json "$D/run$k.json" $SUITES >"$D/run$k.txt" 2>&1
    rc=$?
    echo "run $k: exit $rc; $(grep -E '^benchrun: [0-9]+ case\(s\):' "$D/run$k.txt")"
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
