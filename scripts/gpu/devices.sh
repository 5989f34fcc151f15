#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# devices.sh - --devices on a host with several GPUs (issue 21), for a
# session that has one (nvidia-h200-x2 or larger). Run from the repository
# root after build/benchrun is built with CUDA. Logs and JSON under
# "$OUT/devices/"; a short summary last. About 3-4 minutes on two H200s.
#
#  1. Plan time: suites/reduction.yaml + suites/bandwidth.yaml (58 cases)
#     measured on one GPU (the ordinary path, no --devices), then with
#     --devices all (longest first by the one-GPU run's times,
#     --shard-times); the wall-time ratio (issue: <= 0.6 for two GPUs, 0.3
#     for four), every case verified, and the medians of the two runs
#     compared (benchrun compare: "same" expected within the spread).
#  2. Isolation: one case (bandwidth stream_triad n=2^27, DRAM-bound, and
#     reduction reduce_vec n=2^24) measured on device 0 twice with the
#     other GPUs idle (the A/A spread), then while devices 1.. run the rest
#     of the plan; the busy/idle change of each median against the A/A one.
#  3. The case of each device of the run: which device measured what.
# FULL=1 also times scripts/nightly.sh (budget raised to 60m so it does not
# bind) on one GPU and with --devices all: far over 4 minutes.
set -u
OUT=${OUT:-/tmp/devices-out}
D="$OUT/devices"
B=build/benchrun
SUITES="suites/reduction.yaml suites/bandwidth.yaml"
mkdir -p "$D"
[ -x "$B" ] || { echo "devices.sh: $B is not built"; exit 1; }
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
nvidia-smi -L >"$D/gpus.txt" 2>&1
echo "GPUs: $ngpu" | tee "$D/summary.txt"
now() { date +%s.%N; }

# 1. One GPU, then all.
t0=$(now)
"$B" --json "$D/one.json" $SUITES >"$D/one.txt" 2>&1
one_rc=$?
t1=$(now)
if [ "$ngpu" -lt 2 ]; then
    echo "devices.sh: $ngpu GPU(s): --devices needs two or more; only a one-device smoke run" \
        | tee -a "$D/summary.txt"
    "$B" --devices 0 -k reduce_vec $SUITES --json "$D/smoke.json" >"$D/smoke.txt" 2>&1
    echo "smoke --devices 0: exit $?" | tee -a "$D/summary.txt"
    exit 0
fi
"$B" --devices all --shard-times "$D/one.json" --json "$D/all.json" $SUITES >"$D/all.txt" 2>&1
all_rc=$?
t2=$(now)
"$B" compare "$D/one.json" "$D/all.json" >"$D/compare.txt" 2>&1
echo "compare one vs all: exit $?" >>"$D/summary.txt"

# 2. Isolation: idle twice, then busy.
iso() { # $1 output name; the two cases on device 0
    "$B" --devices 0 -k stream_triad -p n=2^27 suites/bandwidth.yaml --json "$D/$1-bw.json" \
        >"$D/$1-bw.txt" 2>&1
    "$B" --devices 0 -k reduce_vec -p n=2^24 suites/reduction.yaml --json "$D/$1-red.json" \
        >"$D/$1-red.txt" 2>&1
}
iso idle1
iso idle2
rest=$(seq -s, 1 $((ngpu - 1)))
"$B" --devices "$rest" $SUITES --json "$D/load.json" >"$D/load.txt" 2>&1 &
load=$!
sleep 5 # the other GPUs busy (their peak and first cases) before the case starts
iso busy
kill "$load" 2>/dev/null
wait "$load" 2>/dev/null

python3 - "$D" "$one_rc" "$all_rc" "$t0" "$t1" "$t2" <<'PY' | tee -a "$D/summary.txt"
import json, sys, os
d, one_rc, all_rc = sys.argv[1], sys.argv[2], sys.argv[3]
t0, t1, t2 = map(float, sys.argv[4:7])
def cases(p):
    out = []
    for r in json.load(open(p))["runs"]:
        for c in r["cases"]:
            out.append((r["suite"]["name"] if isinstance(r.get("suite"), dict) else r.get("suite", {}), c))
    return out
def median(c):
    t = c.get("cold") or c.get("batch")
    return t["median"] if t else None
one, both = cases(os.path.join(d, "one.json")), cases(os.path.join(d, "all.json"))
ok1 = sum(c["status"] == "ok" for _, c in one)
ok2 = sum(c["status"] == "ok" for _, c in both)
per = {}
for _, c in both:
    dev = (c.get("device") or {}).get("index")
    per[dev] = per.get(dev, 0) + 1
print("one GPU: %.1f s, exit %s, %d/%d ok" % (t1 - t0, one_rc, ok1, len(one)))
print("--devices all: %.1f s, exit %s, %d/%d ok, cases per device %s" % (t2 - t1, all_rc, ok2, len(both), per))
print("wall ratio all/one: %.2f (issue: <= 0.6 for two GPUs, 0.3 for four)" % ((t2 - t1) / (t1 - t0)))
for name in ("bw", "red"):
    m = {}
    for run in ("idle1", "idle2", "busy"):
        try:
            m[run] = median(cases(os.path.join(d, "%s-%s.json" % (run, name)))[0][1])
        except Exception as e:
            m[run] = None
    if None in m.values():
        print("isolation %s: a run failed: %s" % (name, m))
        continue
    aa = abs(m["idle2"] / m["idle1"] - 1)
    busy = m["busy"] / ((m["idle1"] + m["idle2"]) / 2) - 1
    print("isolation %s: idle %.4g / %.4g ns (A/A %.2f%%), busy %.4g ns (%+.2f%%)%s" % (
        name, m["idle1"], m["idle2"], 100 * aa, m["busy"], 100 * busy,
        "" if abs(busy) <= max(aa, 0.01) else "  <-- beyond the A/A spread"))
PY
tail -3 "$D/compare.txt" | tee -a "$D/summary.txt"

if [ "${FULL:-0}" = 1 ]; then
    t3=$(now)
    BR_NIGHTLY_BUDGET=60m scripts/nightly.sh "$D/nightly-one" >"$D/nightly-one.txt" 2>&1
    t4=$(now)
    BR_NIGHTLY_BUDGET=60m scripts/nightly.sh "$D/nightly-all" --devices all >"$D/nightly-all.txt" 2>&1
    t5=$(now)
    python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); print('nightly: one GPU %.0f s, --devices all %.0f s, ratio %.2f' % (b-a, c-b, (c-b)/(b-a)))" \
        "$t3" "$t4" "$t5" | tee -a "$D/summary.txt"
fi
