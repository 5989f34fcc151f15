#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# GPU measurements for issue 17 (helper "speed"), run from the repository
# root after benchrun is built with CUDA into build/. Logs in $OUT/speed/.
#
#   1. warms the compile cache (benchrun check of the nightly's suites: not timed);
#   2. three runs of the reduction suite with --timing-report and --json:
#      wall time of each (target: <= 8 s) and the first run's report;
#      where its host cases ran (beside the GPU cases or after), and one
#      run with --host-lane after (every case one after another) to compare;
#   3. the last two of them are back to back: every GPU case at n >= 2^22
#      must agree within 1% (max |ratio - 1| of the cold medians);
#      no case may fail (the GPU input generator is checked against the
#      host's value by value for n <= 2^16: a mismatch fails the case);
#   4. scripts/nightly.sh wall time (target: <= 20 s; SKIP_NIGHTLY=1 leaves
#      it to devices.sh, whose one-GPU runs time it three times);
#   5. the spin fixture (tests/fixtures/e2e/spin.cu) at 0, 10, 100, 1000 us,
#      mode both: kernel-clock median less the empty kernel's, against the
#      spin's length (target: within 0.5%).
# Prints a summary last.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp}/speed"
mkdir -p "$out"
br=${BENCHRUN:-build/benchrun}
summary="$out/summary.txt"
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }

secs() { # run "$@" with stdout and stderr to $log; echo "SECONDS EXIT-STATUS"
    local t0 t1 rc
    t0=$(date +%s.%N)
    "$@" > "$log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    python3 -c "print(f'{$t1 - $t0:.2f} $rc')"
}

log="$out/warm-cache.log"
"$br" check suites/reduction.yaml suites/bandwidth.yaml suites/transpose.yaml \
    suites/sgemm.yaml suites/gemm.yaml > "$log" 2>&1 ||
    say "warning: benchrun check failed (see $log)"

for i in 1 2 3; do
    log="$out/reduction-$i.log"
    read -r s rc < <(secs "$br" suites/reduction.yaml --no-compare --timing-report \
        --json "$out/reduction-$i.json")
    say "reduction run $i: ${s} s wall (exit $rc; target <= 8 s)"
done
# Where the host cases (reduce_cpu) ran: the one note a run with them beside
# the GPU cases prints; without it they ran one after another (--host-lane).
if line=$(grep -m1 -o 'host case(s) beside the GPU cases.*' "$out/reduction-1.log"); then
    say "host cases: beside the GPU cases ($line)"
else
    say "host cases: after, one case at a time (no host lane beside the GPU cases)"
fi
log="$out/reduction-after.log"
read -r s rc < <(secs "$br" suites/reduction.yaml --no-compare --host-lane after \
    --json "$out/reduction-after.json")
say "reduction run with --host-lane after (one case at a time, as before): ${s} s wall (exit $rc)"
sed -n '/^timing report/,$p' "$out/reduction-1.log" | tee -a "$summary"

python3 - "$out/reduction-2.json" "$out/reduction-3.json" <<'PY' | tee -a "$summary"
import json, sys
def cases(p):
    run = json.load(open(p))["runs"][0]
    for c in run["cases"]:
        yield (c["kernel"], c["params"].get("n")), c, run
a = {k: c for k, c, _ in cases(sys.argv[1])}
b = {k: c for k, c, _ in cases(sys.argv[2])}
failed = [f"{k[0]} n={k[1]}: {c.get('stage')}: {c.get('message')}"
          for d in (a, b) for k, c in d.items() if c["status"] == "failed"]
worst, where, n_cmp = 0.0, None, 0
for k, c in a.items():
    if c.get("backend") != "gpu" or k[1] is None or k[1] < 2**22:
        continue
    d = b.get(k)
    if not d or not c.get("cold") or not d.get("cold"):
        print(f"A/A: {k[0]} n={k[1]}: no cold timing in one run")
        continue
    r = d["cold"]["median"] / c["cold"]["median"]
    n_cmp += 1
    if abs(r - 1) > worst:
        worst, where = abs(r - 1), k
print(f"A/A (runs 2 and 3, {n_cmp} GPU cases at n >= 2^22): max |ratio - 1| = "
      f"{100 * worst:.3f}% at {where} (target <= 1%) -> {'OK' if worst <= 0.01 else 'FAIL'}")
stops = {}
for k, c in b.items():
    for m in ("cold", "batch"):
        t = c.get(m)
        if t:
            stops[t["stop_reason"]] = stops.get(t["stop_reason"], 0) + 1
print("stop reasons (run 3):", stops)
print("failed cases:", len(failed))
for f in failed:
    print("  ", f)
PY

if [ "${SKIP_NIGHTLY:-0}" != 1 ]; then
    log="$out/nightly.log"
    read -r s rc < <(BENCHRUN="$br" secs scripts/nightly.sh "$out/nightly-results" --timing-report)
    say "scripts/nightly.sh: ${s} s wall (exit $rc; target <= 20 s)"
    sed -n '/^timing report/,/^slowest/p' "$log" | tee -a "$summary"
fi

spin="$out/spin.yaml"
cat > "$spin" <<YAML
name: spin
source: [$PWD/tests/fixtures/e2e/spin.cu]
kernels: [spin]
params:
  us: [0, 10, 100, 1000]
measure: {mode: both}
YAML
log="$out/spin.log"
read -r s rc < <(secs "$br" "$spin" --no-compare --json "$out/spin.json")
say "spin fixture: ${s} s wall (exit $rc)"
python3 - "$out/spin.json" <<'PY' | tee -a "$summary"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
by = {c["params"]["us"]: c for c in run["cases"]}
zero = by[0]
for us in (10, 100, 1000):
    c = by[us]
    for m in ("cold", "batch"):
        t, z = c.get(m), zero.get(m)
        if not t or not z:
            print(f"spin {us} us {m}: not measured ({c.get('status')}: {c.get('message')})")
            continue
        got = (t["median"] - z["median"]) / 1e3
        err = got / us - 1
        print(f"spin {us:4d} us {m:5s}: {got:10.3f} us ({t['clock']} clock, n={t['n']}, "
              f"stop {t['stop_reason']}) error {100 * err:+.3f}% -> "
              f"{'OK' if abs(err) <= 0.005 else 'FAIL'}")
PY
echo
echo "=== speed summary ($out) ==="
cat "$summary"
