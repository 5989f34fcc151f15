#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gemm.sh - issue 39's checks on the GPU machine, from the repository root
# once build/benchrun is built with CUDA:
#   1. suites/gemm.yaml in full (datasheet peaks): every case's status and
#      verification, and per kernel at 8192^3 its TFLOP/s, % of its own
#      precision's peak and the peak used; hgemm_mma as a fraction of
#      cuBLAS FP16 (its speedup); the roofline SVG (and PNG when
#      rsvg-convert is there);
#   2. the same at 8192^3 with `peak: measured`: each precision's measured
#      peak and the % of peak against it;
#   3. gemm_cublas_fp16 declared fp32: flag P (faster than the FP32 peak);
#   4. benchrun profile of hgemm_mma at 4096^3: the Tensor pipe;
#   5. compute-sanitizer racecheck of hgemm_mma at 1 x 4096 x 4096;
#   6. the GPU-labelled tests (test_gpu_gemm, test_gpu_compute_peak, ...);
#   7. the nightly (scripts/nightly.sh) twice: the second is the warm time
#      (NIGHTLY=0 leaves it out).
# Logs under $OUT/gemm; the summary is printed last.
set -u
OUT=${OUT:-/tmp/gemm-out}
D="$OUT/gemm"
mkdir -p "$D"
B=build/benchrun
[ -x "$B" ] || { echo "gemm.sh: $B is not built" >&2; exit 1; }
CACHE="--cache-dir=$D/cache"
S="$D/summary.txt"
: >"$S"
say() { echo "$*" | tee -a "$S" >/dev/null; }
export NO_COLOR=1
BIG=(-p m=8192 -p n=8192 -p k=8192)
tmp_suites=()
trap 'rm -f "${tmp_suites[@]}"' EXIT
variant() { # variant NAME SED: a copy of gemm.yaml beside it (its source path is relative)
    local f="suites/.gemm-$1.yaml"
    sed "$2" suites/gemm.yaml >"$f"
    tmp_suites+=("$f")
    echo "$f"
}

# 1. The suite in full --------------------------------------------------------
t0=$(date +%s)
timeout 300 "$B" "$CACHE" --no-compare --ascii suites/gemm.yaml --json "$D/gemm.json" \
    --roofline "$D/roofline.svg" >"$D/gemm_table.txt" 2>"$D/gemm_err.txt"
say "1. suites/gemm.yaml: exit $? in $(($(date +%s) - t0)) s"
if [ -s "$D/roofline.svg" ] && command -v rsvg-convert >/dev/null; then
    rsvg-convert -b white -o "$D/roofline.png" "$D/roofline.svg" && say "   roofline.png drawn"
fi

# 2. Measured peaks at 8192^3 -------------------------------------------------
m=$(variant measured 's/^cache: flush$/cache: flush\npeak: measured/')
timeout 200 "$B" "$CACHE" --no-compare --ascii "$m" "${BIG[@]}" --json "$D/measured.json" \
    >"$D/measured_table.txt" 2>"$D/measured_err.txt"
say "2. peak: measured at 8192^3: exit $?"

# 3. FP16 declared FP32 -------------------------------------------------------
w=$(variant wrong 's/^  gemm_cublas_fp16: fp16-tensor$/  gemm_cublas_fp16: fp32/')
timeout 120 "$B" "$CACHE" --no-compare --ascii "$w" -k gemm_cublas_fp16 "${BIG[@]}" \
    --json "$D/wrong.json" >"$D/wrong_table.txt" 2>"$D/wrong_err.txt"
say "3. gemm_cublas_fp16 declared fp32: exit $?; the row: $(grep gemm_cublas_fp16 "$D/wrong_table.txt" | tr -s ' ' | head -1)"
grep -i "P:\|faster than" "$D/wrong_table.txt" | head -3 | sed 's/^/   /' >>"$S"

# 4. Profile ------------------------------------------------------------------
timeout 200 "$B" profile "$CACHE" suites/gemm.yaml -k hgemm_mma -p m=4096 -p n=4096 -p k=4096 \
    --ascii --json "$D/profile.json" >"$D/profile.txt" 2>&1
say "4. profile hgemm_mma 4096^3: exit $?"
grep -i "tensor\|pipe\|% of peak\|warning" "$D/profile.txt" | head -8 | sed 's/^/   /' >>"$S"

# 5. Racecheck ----------------------------------------------------------------
if command -v compute-sanitizer >/dev/null; then
    timeout 240 compute-sanitizer --tool racecheck --target-processes all "$B" "$CACHE" \
        --no-compare --no-cupti --no-hold -k hgemm_mma -p m=1 -p n=4096 -p k=4096 --min-time 0s \
        --warmup 0s suites/gemm.yaml >"$D/racecheck.txt" 2>&1
    say "5. racecheck hgemm_mma 1x4096x4096: exit $?; $(grep -c 'Race reported\|hazard' "$D/racecheck.txt") hazard lines; $(grep 'RACECHECK SUMMARY' "$D/racecheck.txt" | head -2 | tr '\n' ' ')"
else
    say "5. racecheck: no compute-sanitizer"
fi

# 6. GPU tests ----------------------------------------------------------------
t0=$(date +%s)
ctest --test-dir build -L gpu --output-on-failure -j 4 >"$D/gpu_tests.txt" 2>&1
say "6. ctest -L gpu: exit $? in $(($(date +%s) - t0)) s: $(grep 'tests passed' "$D/gpu_tests.txt")"

# 7. Nightly ------------------------------------------------------------------
for i in 1 2; do
    [ "${NIGHTLY:-1}" = 1 ] || break
    t0=$(date +%s.%N)
    BENCHRUN_CACHE_DIR="$D/nightly-cache" scripts/nightly.sh "$D/nightly" -q --cache-dir "$D/nightly-cache" \
        >"$D/nightly_$i.txt" 2>&1
    rc=$?
    say "7. nightly $i ($([ $i = 1 ] && echo cold || echo warm)): exit $rc in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s"
done

# Summary of the JSON ---------------------------------------------------------
python3 - "$D" >>"$S" <<'PY'
import json, sys, collections
d = sys.argv[1]
def load(name):
    try:
        return json.load(open(f"{d}/{name}"))
    except Exception as e:
        print(f"   {name}: unreadable ({e})")
        return None
def rows(doc):
    for r in doc["runs"]:
        kern = [k["name"] for k in r["kernels"]]
        for c in r["cases"]:
            yield r, kern[c["kernel"]] if isinstance(c["kernel"], int) else c["kernel"], c
g = load("gemm.json")
if g:
    st = collections.Counter((c["status"], c.get("verified")) for _, _, c in rows(g))
    print("   status, verified:", dict(st))
    for r, k, c in rows(g):
        if c["status"] != "ok":
            print(f"   {k} {c['params']}: {c['status']} {c.get('stage')}: {(c.get('message') or '')[:160]}")
    print("   at 8192^3 (datasheet peaks; peak at the clock the case held):")
    for r, k, c in rows(g):
        p = c["params"]
        if p.get("m") == 8192 and p.get("n") == 8192 and c["status"] == "ok":
            cp = c.get("compute_peak") or {}
            print("     %-17s %-12s %7.1f TFLOP/s  %5.1f%% of %7.1f TFLOP/s at %s MHz  speedup %.3f" % (
                k, c.get("precision", "none"), c["gflops"] / 1e3, c["pct_peak"] or float("nan"),
                (cp.get("gflops") or float("nan")) / 1e3, cp.get("clock_mhz"), c["speedup"] or float("nan")))
    pk = g["runs"][0].get("peak", {}).get("compute", {})
    print("   peak.compute:", {n: round(v["gflops"] / 1e3, 1) for n, v in pk.items()})
m = load("measured.json")
if m:
    print("   measured peaks (TFLOP/s):", {n: round(v / 1e3, 1) for n, v in m["runs"][0]["peak"].get("measured_gops", {}).items()})
    for r, k, c in rows(m):
        if c["status"] == "ok":
            print("     %-17s %7.1f TFLOP/s  %5.1f%% of its measured peak" % (k, c["gflops"] / 1e3, c["pct_peak"] or float("nan")))
        else:
            print(f"     {k}: {c['status']} {c.get('message')}")
PY
tar czf "$OUT/gemm.tgz" --exclude=gemm/cache --exclude=gemm/nightly-cache --exclude=gemm/nightly -C "$OUT" gemm 2>/dev/null
echo "--- summary"
cat "$S"
