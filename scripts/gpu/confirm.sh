#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# confirm.sh - the regression gate's two stages on the GPU machine (issue
# 38): the screen against a saved baseline, then the A/B against the
# baseline's own commit (gate/confirm.h). Run from the repository root once
# build/benchrun is built with CUDA.
#
# The copy suite of scripts/gpu/gate/ is committed into a scratch git
# repository (the device's copy of the checkout has no .git), its baseline
# saved K times there, then the kernel's code changed in the work tree to
# copy P% more bytes (the default of BR_COPY_EXTRA in copy.cu), and one run
# judged: per size the screen's change, the stage and the A/B's ratio. Cells
# (K P): "3 3", "2 3", "1 10", and "3 0" (an A/A: nothing may be confirmed).
# Then the README's command RUNS times (default 10) against the committed
# baseline: how many exit 3 (this copy has no git, so the screen alone
# decides there, and says so). Logs and JSON under $OUT/confirm.
set -u
OUT=${OUT:-/tmp/confirm-out}
D="$OUT/confirm"
RUNS=${RUNS:-10}
CELLS=${CELLS:-"3:3 2:3 1:10 3:0"}
B=$PWD/build/benchrun
[ -x "$B" ] || { echo "confirm.sh: $B is not built" >&2; exit 1; }
command -v git >/dev/null || { echo "confirm.sh: needs git for the scratch repository" >&2; exit 1; }
rm -rf "$D"
mkdir -p "$D"
export NO_COLOR=1
CACHE=/tmp/confirm-cache
S="$D/summary.txt"
: >"$S"

# cell K P: saves, then the code copying P% more; the run's verdicts.
cell() {
    local k=$1 p=$2 R=/tmp/confirm-repo t0 t1 rc
    rm -rf "$R"
    mkdir -p "$R"
    cp scripts/gpu/gate/copy.cu scripts/gpu/gate/copy.yaml "$R/"
    (cd "$R" && git init -q && git add -A &&
        git -c user.email=gate@example.com -c user.name=gate commit -qm copy) || return 1
    for _ in $(seq "$k"); do
        (cd "$R" && "$B" -q copy.yaml --cache-dir "$CACHE" --save-baseline) >>"$D/saves.log" 2>&1
    done
    sed -i "s/double p = pct ? atof(pct) : 0.0;/double p = pct ? atof(pct) : $p.0;/" "$R/copy.cu"
    t0=$(date +%s.%N)
    (cd "$R" && "$B" copy.yaml --cache-dir "$CACHE" --json "$D/k$k-p$p.json" --timing-report) \
        >"$D/k$k-p$p.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    python3 - "$D/k$k-p$p.json" "$k" "$p" "$rc" "$t0" "$t1" >>"$S" <<'PY'
import json, sys
path, k, p, rc, t0, t1 = sys.argv[1:]
run = json.load(open(path))["runs"][0]
c = run["comparison"]
ci = c.get("confirm") or {}
print(f"saved {k}x, {p}% more bytes: exit {rc}, {float(t1) - float(t0):.1f} s "
      f"(A/B {ci.get('wall_ns', 0) / 1e9:.1f} s); flagged {ci.get('flagged')}, "
      f"confirmed {ci.get('confirmed')}; note: {ci.get('note')}")
for e in c["cases"]:
    r = e.get("ratio")
    ab = "" if r is None else f"A/B {r:.4f} [{e['ratio_low']:.4f}, {e['ratio_high']:.4f}]"
    print(f"  {e['params']:>8}: change {100 * e['change']:+6.2f}%  MDE {100 * e['mde']:5.2f}%  "
          f"{e['status']:7} {e.get('stage', '-'):13} {ab}  "
          f"spread {e['spread_from']} df {e['spread_df']}")
PY
}

for c in $CELLS; do
    cell "${c%%:*}" "${c##*:}"
done

# The README's command against the committed baseline.
n3=0
for i in $(seq "$RUNS"); do
    "$B" suites/reduction.yaml --json "$D/readme-$i.json" >"$D/readme-$i.log" 2>&1
    rc=$?
    [ "$rc" -eq 3 ] && n3=$((n3 + 1))
    echo "README run $i: exit $rc; $(grep -E '^vs baseline:|cannot confirm|confirmed by A/B' "$D/readme-$i.log" | tr '\n' ' ')" >>"$S"
done
echo "README command $RUNS times: $n3 exit 3" >>"$S"
tar -C "$OUT" -czf "$OUT/confirm.tgz" confirm
cat "$S"
