#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# devices.sh - does --devices pay off (issue 29, items 3 and 4)? For a
# session with two or more GPUs (nvidia-h100-x2 or larger), from the
# repository root with build/benchrun built with CUDA. About 5 minutes on
# two H100s (the nightly's one-GPU side is most of it). Logs, JSON and the
# summary under "$OUT/devices/"; the summary is printed last.
#
#  0. The compile cache warmed, untimed (benchrun check of every suite), so
#     that neither side pays for nvcc.
#  1. The 58-case plan (suites/reduction.yaml + suites/bandwidth.yaml) and
#     the nightly (scripts/nightly.sh: its suites and budget), each three
#     times on one GPU (no --devices) and with --devices all, alternating
#     (one, all, one, all, ...), each timed the same way: the wall time of
#     the whole command, every run writing its results (--json, and the
#     nightly's --results-dir). The runs of a configuration share one
#     results directory, so from the second run on --devices orders its
#     cases longest first by the measured times of the run before.
#  2. Per run: the wall-time ratio all/one (issue: <= 0.55 for the plan and
#     <= 0.5 for the nightly on two GPUs; 0.3 on four), the cases lost (not
#     ok with --devices, ok in a one-GPU run: target 0), where the host
#     cases ran (beside the GPU cases or after them, from benchrun's plan
#     line), and the medians: each case's |all/one - 1| against the A/A
#     |one2/one1 - 1| of the same case (two one-GPU runs), counting the
#     cases beyond it (and beyond max(A/A, 1%)), GPU and host cases apart.
#     Those one-GPU runs are on device 0, but a --devices run measures
#     half its cases on other GPUs, whose medians may differ from device
#     0's by more than device 0's A/A. So each other device also gets two
#     one-GPU runs of the plan and of the nightly (CUDA_VISIBLE_DEVICES=N,
#     untimed for the ratio), and each GPU case is also compared with the
#     one-GPU runs of the device it ran on, against that device's A/A, and
#     against max(A/A, 1%, one tick of its clock) (a kernel of 3 us read on
#     a 32 ns tick moves by 1% with one tick).
# Every run prints --timing-report (phases; lanes and busy time with
# --devices) into its log; per run the summary gives the --devices run's
# `devices` row (the devices counted, described and their sessions opened:
# since issue 34 about two CUDA initialisations one after another however
# many devices, was ~1.1 s unaccounted on two H200s) and its `unaccounted`
# row, beside the one-GPU run's `unaccounted`, and per device the median
# checked run and verification of its GPU cases (a lane that pays more per
# case than the others shows there: worker/process.h's one malloc arena).
# RUNS=N changes the three runs; PLAN_ONLY=1 skips the nightly; OWN_AA=0
# skips each other device's own A/A (1b: four one-GPU runs per device).
# (Test-only, without a GPU: NGPU=2 PLAN="..." PLAN_ONLY=1 with
# BENCHRUN_FAKE_DEVICES=2 runs the plan part on host suites.)
set -u
OUT=${OUT:-/tmp/devices-out}
mkdir -p "$OUT/devices"
D="$(cd "$OUT/devices" && pwd)"
B=build/benchrun
export BENCHRUN=$B # scripts/nightly.sh's benchrun
PLAN=${PLAN:-suites/reduction.yaml suites/bandwidth.yaml}
RUNS=${RUNS:-3}
[ -x "$B" ] || { echo "devices.sh: $B is not built"; exit 1; }
ngpu=${NGPU:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')}
nvidia-smi -L >"$D/gpus.txt" 2>&1
nproc >"$D/cpus.txt"
# The nightly's suites, as scripts/nightly.sh names them.
NIGHTLY=$(grep -o 'suites/[a-z_0-9]*\.yaml' scripts/nightly.sh | tr '\n' ' ')
[ "${PLAN_ONLY:-0}" = 1 ] && NIGHTLY=
if [ "$ngpu" -lt 2 ]; then
    echo "devices.sh: $ngpu GPU(s): --devices needs two or more" | tee "$D/summary.txt"
    exit 1
fi
now() { date +%s.%N; }

# 0. The compile cache, untimed.
t=$(now)
"$B" check $PLAN $NIGHTLY >"$D/check.txt" 2>&1
echo "warm-up: benchrun check of $NIGHTLY: exit $? in $(python3 -c "import sys; print('%.0f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t" "$(now)") s" \
    >"$D/warmup.txt"

# 1. timed NAME ARGS...: run ARGS, its wall time into $D/NAME.time, its
#    exit status into $D/NAME.rc, stdout and stderr into $D/NAME.txt.
timed() {
    local name=$1
    shift
    local t0 t1
    t0=$(now)
    "$@" >"$D/$name.txt" 2>&1
    echo $? >"$D/$name.rc"
    t1=$(now)
    python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$t0" "$t1" \
        >"$D/$name.time"
    echo "  $name: $(cut -c1-6 "$D/$name.time") s, exit $(cat "$D/$name.rc")"
}
echo "runs:"
for k in $(seq 1 "$RUNS"); do
    timed "plan-one-$k" "$B" --timing-report --results-dir "$D/plan-results" \
        --json "$D/plan-one-$k.json" $PLAN
    timed "plan-all-$k" "$B" --devices all --timing-report --results-dir "$D/plan-results" \
        --json "$D/plan-all-$k.json" $PLAN
done
if [ "${PLAN_ONLY:-0}" != 1 ]; then
    for k in $(seq 1 "$RUNS"); do
        timed "nightly-one-$k" scripts/nightly.sh "$D/nightly-results" \
            --timing-report --json "$D/nightly-one-$k.json"
        timed "nightly-all-$k" scripts/nightly.sh "$D/nightly-results" \
            --devices all --timing-report --json "$D/nightly-all-$k.json"
    done
fi

# 1b. Every other device's own A/A: two one-GPU runs each of the plan and
#     of the nightly, bound to that device (results apart, so that the
#     --devices runs' order above is not changed).
for dev in $(seq 1 $((ngpu - 1))); do
    [ "${OWN_AA:-1}" = 1 ] || break
    for k in 1 2; do
        timed "plan-dev$dev-$k" env CUDA_VISIBLE_DEVICES=$dev "$B" --timing-report \
            --results-dir "$D/dev-results" --json "$D/plan-dev$dev-$k.json" $PLAN
        [ "${PLAN_ONLY:-0}" = 1 ] && continue
        timed "nightly-dev$dev-$k" env CUDA_VISIBLE_DEVICES=$dev scripts/nightly.sh \
            "$D/dev-results" --timing-report --json "$D/nightly-dev$dev-$k.json"
    done
done

# 2. The summary.
PLAN="$PLAN" python3 - "$D" "$RUNS" "$ngpu" <<'PY' | tee "$D/summary.txt"
import json, os, re, statistics, sys
d, runs, ngpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
target = {"plan": 0.55 if ngpu == 2 else 0.3 if ngpu >= 4 else None,
          "nightly": 0.5 if ngpu == 2 else 0.3 if ngpu >= 4 else None}

def load(name):
    """{key: (status, median ns or None, backend, device index or None, tick ns or None)}
    of a results file, or None."""
    try:
        doc = json.load(open(os.path.join(d, name + ".json")))
    except Exception:
        return None
    out = {}
    for r in doc["runs"]:
        suite = r["suite"]["name"] if isinstance(r.get("suite"), dict) else str(r.get("suite"))
        for c in r["cases"]:
            key = "%s %s %s" % (suite, c["kernel"],
                                " ".join("%s=%s" % kv for kv in sorted(c["params"].items())))
            t = c.get("cold") or c.get("batch")
            dev = c.get("device")
            out[key] = (c["status"], t.get("median") if t else None, c.get("backend", "gpu"),
                        dev.get("index") if isinstance(dev, dict) else None,
                        t.get("tick_ns") if t else None)
    return out

def lanes_overhead(name):
    """Per device of a --devices run: the median checked run and verification of its
    GPU cases, ms (a lane slower than the others at these shows a per-case cost)."""
    try:
        doc = json.load(open(os.path.join(d, name + ".json")))
    except Exception:
        return "?"
    per = {}
    for r in doc["runs"]:
        for c in r["cases"]:
            w, dev = c.get("wall"), c.get("device")
            if c.get("backend") != "gpu" or not w or not isinstance(dev, dict):
                continue
            per.setdefault(dev["index"], []).append((w["first_run_ns"] / 1e6, w["verify_ns"] / 1e6))
    return "; ".join("device %s: checked run %.2f ms, verify %.2f ms (%d cases)" % (
        k, statistics.median(x[0] for x in v), statistics.median(x[1] for x in v), len(v))
        for k, v in sorted(per.items())) or "?"

def seconds(name):
    try:
        return float(open(os.path.join(d, name + ".time")).read())
    except Exception:
        return None

def host_line(name):
    """Where the host cases ran, from benchrun's plan line."""
    try:
        text = open(os.path.join(d, name + ".txt")).read()
    except Exception:
        return "?"
    m = re.search(r"; (\d+ host case\(s\) beside them[^;\n]*|then \d+ host case\(s\)[^\n]*)", text)
    return m.group(1) if m else "no host case"

def report_row(name, row):
    """Seconds of a --timing-report row ("devices", "unaccounted") in a run's log, or None
    (the nightly's log has one report per nightly step: their sum)."""
    try:
        text = open(os.path.join(d, name + ".txt")).read()
    except Exception:
        return None
    got = [float(x) for x in re.findall(r"^  %-12s +([0-9.]+) " % re.escape(row), text, re.M)]
    return sum(got) if got else None

def secs(v):
    return "%.3f s" % v if v is not None else "?"

print("GPUs: %d; CPUs: %s" % (ngpu, open(os.path.join(d, "cpus.txt")).read().strip()))
print(open(os.path.join(d, "warmup.txt")).read().strip())
for cfg in ("plan", "nightly"):
    ones = [load("%s-one-%d" % (cfg, k)) for k in range(1, runs + 1)]
    alls = [load("%s-all-%d" % (cfg, k)) for k in range(1, runs + 1)]
    if all(o is None for o in ones):
        continue
    ok_one = set()
    for o in ones:
        ok_one |= {k for k, v in (o or {}).items() if v[0] == "ok"}
    # The A/A spread of each case: two one-GPU runs.
    aa = {}
    if runs >= 2 and ones[0] and ones[1]:
        for k in ok_one:
            a, b = ones[0].get(k), ones[1].get(k)
            if a and b and a[1] and b[1]:
                aa[k] = abs(b[1] / a[1] - 1)
    # Each other device's one-GPU runs and A/A (1b); device 0's are `ones`.
    own = {}
    for dv in range(1, ngpu):
        r1, r2 = load("%s-dev%d-1" % (cfg, dv)), load("%s-dev%d-2" % (cfg, dv))
        if r1 and r2:
            own[dv] = (r1, {key: abs(r2[key][1] / v[1] - 1) for key, v in r1.items()
                            if v[1] and key in r2 and r2[key][1]})
    print("%s (%s, %d case(s)):" % (cfg, os.environ.get("PLAN") if cfg == "plan"
                                    else "scripts/nightly.sh", len(ones[0] or {})))
    ratios = []
    for k in range(runs):
        t1, t2 = seconds("%s-one-%d" % (cfg, k + 1)), seconds("%s-all-%d" % (cfg, k + 1))
        one, al = ones[k] or {}, alls[k] or {}
        n_ok1 = sum(v[0] == "ok" for v in one.values())
        n_ok2 = sum(v[0] == "ok" for v in al.values())
        lost = sorted(key for key in ok_one if key not in al or al[key][0] != "ok")
        ratio = t2 / t1 if t1 and t2 else None
        if ratio:
            ratios.append(ratio)
        beyond = {"gpu": [0, 0, 0], "host": [0, 0, 0]}  # cases, beyond A/A, beyond max(A/A, 1%)
        for key, e in aa.items():
            a, b = one.get(key), al.get(key)
            if not (a and b and a[1] and b[1] and b[0] == "ok"):
                continue
            dev = abs(b[1] / a[1] - 1)
            s = beyond["host" if a[2] == "host" else "gpu"]
            s[0] += 1
            s[1] += dev > e
            s[2] += dev > max(e, 0.01)
        print("  run %d: one GPU %.1f s (%d/%d ok), --devices all %.1f s (%d/%d ok), ratio %s; "
              "lost %d" % (k + 1, t1 or 0, n_ok1, len(one), t2 or 0, n_ok2, len(al),
                           "%.2f" % ratio if ratio else "?", len(lost)))
        for key in lost[:5]:
            print("    lost: %s: %s" % (key, al.get(key, ("missing",))[0]))
        print("    host cases: %s" % host_line("%s-all-%d" % (cfg, k + 1)))
        print("    timing report: --devices all: devices %s, unaccounted %s; one GPU: "
              "unaccounted %s" % (secs(report_row("%s-all-%d" % (cfg, k + 1), "devices")),
                                  secs(report_row("%s-all-%d" % (cfg, k + 1), "unaccounted")),
                                  secs(report_row("%s-one-%d" % (cfg, k + 1), "unaccounted"))))
        print("    per device, medians: %s" % lanes_overhead("%s-all-%d" % (cfg, k + 1)))
        # Against the one-GPU runs of the device each GPU case ran on.
        mine = [0, 0, 0, 0]  # cases, beyond A/A, max(A/A, 1%), max(A/A, 1%, a tick)
        for key, b in al.items():
            dv = b[3]
            ref, spread = (one, aa) if dv == 0 else own.get(dv, ({}, {}))
            a, e = ref.get(key), spread.get(key)
            if b[2] != "gpu" or b[0] != "ok" or not b[1] or not a or not a[1] or e is None:
                continue
            dev = abs(b[1] / a[1] - 1)
            tick = (b[4] or 0) / a[1]
            mine[0] += 1
            mine[1] += dev > e
            mine[2] += dev > max(e, 0.01)
            mine[3] += dev > max(e, 0.01, tick)
        if own:
            print("    GPU medians against the one-GPU runs of their own device: %d of %d "
                  "beyond its A/A, %d beyond max(A/A,1%%), %d beyond max(A/A,1%%,one tick)"
                  % (mine[1], mine[0], mine[2], mine[3]))
        print("    medians |all/one-1| beyond the A/A |one2/one1-1|: GPU %d of %d (%d beyond "
              "max(A/A,1%%)), host %d of %d (%d)" % (beyond["gpu"][1], beyond["gpu"][0],
                                                     beyond["gpu"][2], beyond["host"][1],
                                                     beyond["host"][0], beyond["host"][2]))
    if ratios:
        t = target[cfg]
        print("  ratio all/one: %s, median %.2f%s" % (
            " ".join("%.2f" % r for r in ratios), statistics.median(ratios),
            " (target <= %.2f: %s)" % (t, "met" if max(ratios) <= t else "NOT met") if t else ""))
PY
