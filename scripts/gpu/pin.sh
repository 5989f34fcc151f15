#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/gpu/pin.sh - host timing on the GPU machine's shared CPU (issue 16,
# item 1): reduce_cpu with its worker unpinned (--cpu off) and pinned (the
# default), 5 A/A runs each against a baseline saved once per configuration,
# interleaved (off, pinned, off, ...) so that the machine's drift hits both
# alike. Run from the repository root after benchrun was built into build/.
# Writes every table and results file to $OUT/pin/ and prints, per
# configuration: the exit status and number of `slower` cases of each run,
# and per size and mode the mean within-run noise, the spread of the five
# run medians (max/min - 1) and the samples discarded as disturbed.
set -uo pipefail
OUT=${OUT:-/tmp}
D="$OUT/pin"
mkdir -p "$D"
B=build/benchrun
args=(suites/reduction.yaml -k reduce_cpu -q)
for tag in off pinned; do
  extra=(); [ "$tag" = off ] && extra=(--cpu off)
  "$B" "${args[@]}" "${extra[@]}" --baseline "$D/$tag-base.json" --save-baseline \
    --json "$D/$tag-0.json" > "$D/$tag-0.txt" 2>&1
done
for i in 1 2 3 4 5; do
  for tag in off pinned; do
    extra=(); [ "$tag" = off ] && extra=(--cpu off)
    "$B" "${args[@]}" "${extra[@]}" --baseline "$D/$tag-base.json" \
      --json "$D/$tag-$i.json" > "$D/$tag-$i.txt" 2>&1
    echo "$tag run $i exit $?" >> "$D/exits.txt"
  done
done
python3 - "$D" <<'PY' | tee "$D/summary.txt"
import json, sys, statistics as st
d = sys.argv[1]
exits = open(f"{d}/exits.txt").read().split("\n")
for tag in ("off", "pinned"):
    runs = [json.load(open(f"{d}/{tag}-{i}.json"))["runs"][0] for i in range(1, 6)]
    host = runs[0]["host"]
    print(f"== {tag}: worker CPU {host.get('cpu')}, governor {host.get('governor')}, "
          f"freq_scaling {host.get('freq_scaling')}, turbo {host.get('turbo')}")
    print("   " + "; ".join(e for e in exits if e.startswith(tag)))
    print("   slower per run:", [r.get("comparison", {}).get("counts", {}).get("slower", 0) for r in runs])
    per = {}
    for r in runs:
        for c in r["cases"]:
            for m in ("cold", "batch"):
                t = c.get(m)
                if t and t.get("median") is not None:
                    per.setdefault((c["params"]["n"], m), []).append(t)
    print(f"   {'n':>6} {'mode':5} {'median us':>10} {'noise %':>8} {'run spread %':>12} {'disturbed/kept':>15}")
    for (n, m), ts in sorted(per.items()):
        meds = [t["median"] for t in ts]
        dist = sum(t.get("n_switched", 0) + t.get("n_slow", 0) for t in ts)
        print(f"   2^{n.bit_length()-1:<4} {m:5} {st.median(meds)/1e3:10.1f} "
              f"{100*st.mean(t['noise'] for t in ts):8.2f} {100*(max(meds)/min(meds)-1):12.2f} "
              f"{dist:>7}/{sum(t['n'] for t in ts)}")
PY
