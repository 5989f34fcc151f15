#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gate.sh - the regression gate on the GPU machine (issue 16, item 2): save the
# reduction baseline three times at one commit, then A/A runs of unchanged
# code; count `slower` per run under the new rule (drift.h) and under the
# previous one (U test p < alpha, change > threshold, beyond twice the range
# of the run medians) on the same data. Run from the repository root after
# build/benchrun is built with CUDA. Logs and JSON under "$OUT/gate/"; a
# short summary last. RUNS A/A runs (default 10); stops adding runs past
# BUDGET_S seconds (default 210) so it stays under 4 minutes.
set -u
OUT=${OUT:-/tmp/gate-out}
D="$OUT/gate"
RUNS=${RUNS:-10}
BUDGET_S=${BUDGET_S:-210}
SUITE=${SUITE:-suites/reduction.yaml}
B=build/benchrun
mkdir -p "$D/baselines"
start=$(date +%s)
[ -x "$B" ] || { echo "gate.sh: $B is not built"; exit 1; }

for i in 1 2 3; do
    "$B" --baseline-dir "$D/baselines" --save-baseline --json "$D/save$i.json" "$SUITE" \
        >"$D/save$i.txt" 2>&1
    echo "save $i: exit $?" >>"$D/log.txt"
done
base=$(ls "$D"/baselines/*/*.json | head -1)

# Saves at one clean commit accumulate run medians; a copy of the tree
# without .git (or a dirty one) does not: then put the three saves' medians
# into the baseline as three saves at one commit would.
python3 - "$base" "$D/save1.json" "$D/save2.json" "$D/save3.json" <<'PY' >>"$D/log.txt"
import json, sys
base = json.load(open(sys.argv[1]))
saves = [json.load(open(p)) for p in sys.argv[2:]]
def key(run, c): return (run["kernels"][c["kernel"]]["name"] if isinstance(c["kernel"], int) else c["kernel"], json.dumps(c["params"], sort_keys=True))
meds = {}
for s in saves:
    r = s["runs"][0]
    for c in r["cases"]:
        for mode in ("cold", "batch"):
            t = c.get(mode)
            if t and t.get("median"):
                meds.setdefault((key(r, c), mode), []).append(t["median"])
r = base["runs"][0]
filled = 0
for c in r["cases"]:
    for mode in ("cold", "batch"):
        t = c.get(mode)
        if t and len(t.get("run_medians") or []) < 3 and len(meds.get((key(r, c), mode), [])) == 3:
            t["run_medians"] = meds[(key(r, c), mode)]
            filled += 1
json.dump(base, open(sys.argv[1], "w"), indent=1)
print("run medians filled in from the three saves for %d timings" % filled)
PY

n=0
for i in $(seq 1 "$RUNS"); do
    [ $(( $(date +%s) - start )) -gt "$BUDGET_S" ] && break
    "$B" --baseline "$base" --json "$D/aa$i.json" "$SUITE" >"$D/aa$i.txt" 2>&1
    echo "A/A $i: exit $?" >>"$D/log.txt"
    n=$i
done

python3 - "$base" "$n" "$D" <<'PY' | tee "$D/summary.txt"
import json, sys
base = json.load(open(sys.argv[1]))["runs"][0]
n, d = int(sys.argv[2]), sys.argv[3]
def fp(v):
    return "2^%d" % (v.bit_length() - 1) if v >= 1024 and v & (v - 1) == 0 else str(v)
def label(run, c):
    return c["kernel"], " ".join("%s=%s" % (p, fp(c["params"][p])) for p in run["params"])
bcase = {label(base, c): c for c in base["cases"]}
print("A/A runs against %s: per run, slower by the new gate / by the previous rule" % sys.argv[1])
tot_new = tot_old = 0
for i in range(1, n + 1):
    try:
        run = json.load(open("%s/aa%d.json" % (d, i)))["runs"][0]
    except Exception as e:
        print("run %d: no results (%s)" % (i, e)); continue
    cmp = run.get("comparison") or {}
    mode, thr, alpha = cmp.get("clock", "cold"), cmp.get("threshold", 0.02), cmp.get("alpha", 0.01)
    new, old, which, mdes = cmp.get("counts", {}).get("slower", 0), 0, [], []
    for e in cmp.get("cases", []):
        if e["status"] == "slower":
            which.append("%s %s %+.1f%%" % (e["kernel"], e["params"], 100 * e["change"]))
        if e.get("mde") is not None:
            mdes.append(e["mde"])
        bt = (bcase.get((e["kernel"], e["params"])) or {}).get(mode) or {}
        if not bt.get("median") or e.get("median") is None or e.get("p_value") is None:
            continue
        # The previous rule: change against the baseline's own median, the U
        # test, and not within twice the range of the run medians.
        ch = e["median"] / bt["median"] - 1
        rm = bt.get("run_medians") or []
        spread = max(rm) / min(rm) - 1 if len(rm) >= 2 else None
        if e["p_value"] < alpha and ch > thr and not (spread is not None and abs(ch) <= 2 * spread):
            old += 1
    tot_new += new
    tot_old += old
    mdes.sort()
    med = mdes[len(mdes) // 2] if mdes else float("nan")
    print("run %2d: slower new %d, previous rule %d; median MDE %.1f%%  %s"
          % (i, new, old, 100 * med, "; ".join(which)))
print("total slower over %d A/A runs: new gate %d, previous rule %d" % (n, tot_new, tot_old))
PY
echo "gate.sh: $(( $(date +%s) - start )) s; logs in $D"
