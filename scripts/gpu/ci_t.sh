#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# GPU check of rule ci_t (issue 29, item 2; docs/measurement.md "Slow steady
# cases"), run from the repository root after benchrun is built with CUDA
# into build/. Logs in $OUT/ci_t/.
#
#   1. warms the compile cache (benchrun check: not timed);
#   2. two runs of the reduction suite back to back with --timing-report and
#      --json: the wall time of each (issue 29 target: <= 8 s);
#   3. per run, the stop reasons of every timing; per ci_t timing its
#      samples, its median and log-t interval, and the two runs' medians
#      (A/A: within 1% for n >= 2^22, as issue 17).
# Prints a summary last.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}/ci_t"
mkdir -p "$out"
br=${BENCHRUN:-build/benchrun}
suite=${SUITE:-suites/reduction.yaml}
rm -f "$out/summary.txt"
"$br" check "$suite" > "$out/check.log" 2>&1 || echo "warm-up check failed: see $out/check.log"
for i in 1 2; do
    t0=$(date +%s.%N)
    "$br" --no-compare --timing-report --json "$out/run$i.json" "$suite" > "$out/run$i.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    echo "run $i: $(python3 -c "print(f\"{$t1 - $t0:.2f}\")") s wall, exit $rc" | tee -a "$out/summary.txt"
done
python3 - "$out/run1.json" "$out/run2.json" <<'PY' | tee -a "$out/summary.txt"
import json, sys
runs = [json.load(open(p))["runs"][0] for p in sys.argv[1:]]
def timings(run):
    for c in run["cases"]:
        for mode in ("cold", "batch"):
            t = c.get(mode)
            if t:
                yield (c["kernel"], json.dumps(c["params"]), mode), t
for k, run in enumerate(runs, 1):
    stops = {}
    for _, t in timings(run):
        stops[t["stop_reason"]] = stops.get(t["stop_reason"], 0) + 1
    print(f"run {k} stops: {stops}")
second = dict(timings(runs[1]))
for key, t in timings(runs[0]):
    u = second.get(key)
    if t["stop_reason"] != "ci_t" and not (u and u["stop_reason"] == "ci_t"):
        continue
    ratio = u["median"] / t["median"] if u else float("nan")
    print(f"{key[0]} {key[1]} {key[2]}: run 1 {t['stop_reason']} n={t['n']} median "
          f"{t['median'] / 1e6:.3f} ms [{(t['ci_low'] or 0) / 1e6:.3f}, "
          f"{(t['ci_high'] or 0) / 1e6:.3f}] ({t.get('ci_method')}); run 2 "
          f"{u['stop_reason'] if u else '-'} n={u['n'] if u else '-'}; ratio {ratio:.4f}")
PY
echo "timing report of run 2:"; grep -A40 "^timing report" "$out/run2.log" | tee -a "$out/summary.txt"
