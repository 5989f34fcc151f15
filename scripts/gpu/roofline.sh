#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# GPU measurements of issue 18, items 3-5 (roofline, energy, flag S), run
# from the repository root after benchrun is built with CUDA into build/.
# Writes everything to "$OUT/roofline/" and prints a short summary last.
#   1. the roofline of suites/sgemm.yaml plus suites/bandwidth.yaml (the
#      latter with `peak: measured`, so the measured ceiling is drawn too):
#      roofline.svg (+ roofline.png when rsvg-convert exists), the JSON, CSV
#      and table;
#   2. energy of stream_triad at n=2^27 and sgemm_cublas at 4096^3, three
#      runs each: W and J per execution;
#   3. the flag S fixture (tests/fixtures/escape): event and kernel times
#      side by side, and the GPU test that asserts it;
#   4. no false S: the reduction suite in batch mode (CUDA graphs) must
#      count no operation off the case's stream.
# At most about 4 minutes (budgets 120 s and 30 s, six energy runs of ~7 s).
set -u
OUT=${OUT:-/tmp/out}
D="$OUT/roofline"
mkdir -p "$D"
BR=build/benchrun
CACHE="--cache-dir=$D/cache"
summary=()

# 1. Roofline ----------------------------------------------------------------
measured=suites/.roofline-bandwidth-measured.yaml
trap 'rm -f "$measured"' EXIT
sed 's/^metric: GB\/s$/metric: GB\/s\npeak: measured/' suites/bandwidth.yaml >"$measured"
timeout 150 "$BR" "$CACHE" --no-compare --budget 120s suites/sgemm.yaml "$measured" \
    --ascii --roofline "$D/roofline.svg" --json "$D/roofline.json" --csv "$D/roofline.csv" \
    >"$D/roofline_table.txt" 2>"$D/roofline_stderr.txt"
summary+=("roofline run: exit $? ($D/roofline_table.txt)")
if [ -s "$D/roofline.svg" ] && command -v rsvg-convert >/dev/null; then
    rsvg-convert -b white -o "$D/roofline.png" "$D/roofline.svg" && summary+=("roofline.png drawn")
fi
[ -s "$D/roofline.svg" ] && summary+=("roofline.svg: $(wc -c <"$D/roofline.svg") bytes") ||
    summary+=("roofline.svg MISSING: $(tail -2 "$D/roofline_stderr.txt")")

# 2. Energy ------------------------------------------------------------------
for i in 1 2 3; do
    timeout 60 "$BR" "$CACHE" --no-compare --energy suites/bandwidth.yaml -k stream_triad \
        -p n=2^27 --json "$D/energy_triad_$i.json" >"$D/energy_triad_$i.txt" 2>&1
    timeout 60 "$BR" "$CACHE" --no-compare --energy suites/sgemm.yaml -k sgemm_cublas \
        -p m=4096 -p k=4096 --json "$D/energy_sgemm_$i.json" >"$D/energy_sgemm_$i.txt" 2>&1
done
energy=$(python3 - "$D" <<'PY'
import glob, json, sys
d = sys.argv[1]
for name in ("triad", "sgemm"):
    rows = []
    for p in sorted(glob.glob(f"{d}/energy_{name}_*.json")):
        try:
            c = json.load(open(p))["runs"][0]["cases"][0]
        except Exception as e:
            rows.append(f"{p}: unreadable ({e})")
            continue
        e = c.get("energy")
        if not e:
            rows.append(f"{p}: no energy ({c.get('status')}: {c.get('message')})")
            continue
        rows.append((e["j_per_exec"], e["watts"], e["spread"], c.get("gbps"), c.get("gflops"),
                     e.get("gb_per_j"), e.get("gflop_per_j"), e["window_ns"] / 1e6))
    ok = [r for r in rows if isinstance(r, tuple)]
    for r in rows:
        if isinstance(r, tuple):
            print(f"energy {name}: {r[0]:.6g} J/exec, {r[1]:.1f} W, window spread {100*r[2]:.2f}%, "
                  f"{r[7]:.0f} ms windows, GB/J {r[5]}, GFLOP/J {r[6]}")
        else:
            print(f"energy {name}: {r}")
    if len(ok) >= 2:
        j = [r[0] for r in ok]; w = [r[1] for r in ok]
        print(f"energy {name}: over {len(ok)} runs J/exec varies {100*(max(j)-min(j))/min(j):.2f}%, "
              f"W {100*(max(w)-min(w))/min(w):.2f}%")
PY
)
echo "$energy" >"$D/energy_summary.txt"

# 3. Flag S --------------------------------------------------------------------
timeout 60 "$BR" "$CACHE" --no-compare --ascii tests/fixtures/escape/escape.yaml \
    --json "$D/escape.json" >"$D/escape_table.txt" 2>"$D/escape_stderr.txt"
summary+=("escape fixture: exit $?")
escape=$(python3 - "$D/escape.json" <<'PY'
import json, sys
try:
    cases = json.load(open(sys.argv[1]))["runs"][0]["cases"]
except Exception as e:
    print(f"escape: no results ({e})"); sys.exit()
for c in cases:
    t = c.get("cold") or {}
    print(f"escape {c['kernel']}: status {c['status']}, event {t.get('event_median_ns', 0)/1e3:.1f} us, "
          f"kernel {(t.get('kernel_median_ns') or 0)/1e3:.1f} us, other-stream ops "
          f"{t.get('other_stream_ops')}, other-context ops {t.get('other_context_ops')}, "
          f"first {t.get('escaped_op')}")
PY
)
if [ -x build/test_gpu_escape ]; then
    timeout 120 build/test_gpu_escape >"$D/test_gpu_escape.txt" 2>&1
    summary+=("test_gpu_escape: exit $? ($(tail -1 "$D/test_gpu_escape.txt"))")
fi

# 4. No false S under CUDA graphs ---------------------------------------------------
timeout 60 "$BR" "$CACHE" --no-compare --mode batch --budget 30s -p "n=[2^16,2^20,2^24]" suites/reduction.yaml \
    --json "$D/reduction_batch.json" >"$D/reduction_batch.txt" 2>&1
falses=$(python3 - "$D/reduction_batch.json" <<'PY'
import json, sys
try:
    runs = json.load(open(sys.argv[1]))["runs"]
except Exception as e:
    print(f"unreadable ({e})"); sys.exit()
n = bad = 0
for c in runs[0]["cases"]:
    t = c.get("batch") or {}
    if t.get("other_stream_ops") is None:
        continue
    n += 1
    if t["other_stream_ops"] or t["other_context_ops"]:
        bad += 1
        print(f"FALSE S: {c['kernel']} {c['params']}: {t['other_stream_ops']} / "
              f"{t['other_context_ops']} ({t.get('escaped_op')}), graph {t.get('graph')}")
print(f"{n} batch timings checked, {bad} flagged S")
PY
)

echo "=== roofline.sh summary ==="
printf '%s\n' "${summary[@]}"
grep -E "^\| (sgemm_cublas|stream_triad)" "$D/roofline_table.txt" | head -8
echo "$energy"
echo "$escape"
echo "reduction batch (graphs): $falses"
