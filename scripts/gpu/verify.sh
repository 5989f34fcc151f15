#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# GPU: where verification goes in the nightly's suites (issue 29, "verify on
# the GPU"). Run from anywhere after benchrun is built with CUDA into build/.
# Logs and JSON in $OUT/verify/.
#
#   scripts/gpu/verify.sh                         # the nightly's five suites
#   scripts/gpu/verify.sh suites/sgemm.yaml ...   # these suites
#   scripts/gpu/verify.sh --before main           # also the kernels and suites of
#                                                 # git ref main, same benchrun: before/after
#   scripts/gpu/verify.sh --before DIR            # or of a folder holding kernels/ and suites/
#
# Per suite: one run with --json and --timing-report (compile cache warmed
# first, by `benchrun check`, not timed), then its wall time, the cases ok
# and failed, and the seconds of the case phases setup and verify summed over
# the cases (the JSON's wall.setup_ns and wall.verify_ns: the same numbers as
# the timing report's rows), verify as % of the wall time. With --before REF,
# the kernels/ and suites/ of REF (git archive) are measured the same way
# first, with the same benchrun, so the runner is the same on both sides.
# Prints a summary last.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out="${OUT:-/tmp}/verify"
mkdir -p "$out"
br=${BENCHRUN:-build/benchrun}
case "$br" in /*) ;; *) br="$root/$br" ;; esac
before=
if [ "${1:-}" = "--before" ]; then
    before=${2:?--before needs a git ref}
    shift 2
fi
suites=("$@")
[ ${#suites[@]} -gt 0 ] ||
    suites=(suites/reduction.yaml suites/bandwidth.yaml suites/transpose.yaml suites/sgemm.yaml
        suites/gemm.yaml)
summary="$out/summary.txt"
: > "$summary"

# measure LABEL DIR: run each suite (a path relative to DIR) from DIR.
measure() {
    local label=$1 dir=$2 s name log t0 t1 rc
    (cd "$dir" && "$br" check "${suites[@]}" > "$out/$label-warm.log" 2>&1) ||
        echo "warning: $label: benchrun check failed (see $out/$label-warm.log)" | tee -a "$summary"
    for s in "${suites[@]}"; do
        name=$(basename "$s" .yaml)
        log="$out/$label-$name.log"
        t0=$(date +%s.%N)
        (cd "$dir" && "$br" "$s" --no-compare --timing-report --json "$out/$label-$name.json") \
            > "$log" 2>&1
        rc=$?
        t1=$(date +%s.%N)
        python3 - "$label" "$name" "$out/$label-$name.json" "$t0" "$t1" "$rc" <<'PY' |
import json, sys
label, name, path, t0, t1, rc = sys.argv[1:]
wall = float(t1) - float(t0)
try:
    runs = json.load(open(path))["runs"]
except Exception as e:
    print(f"{label:8s} {name:10s} no JSON ({e}); exit {rc}")
    sys.exit(0)
cases = [c for r in runs for c in r["cases"]]
ok = sum(c["status"] == "ok" for c in cases)
failed = [c for c in cases if c["status"] == "failed"]
phase = lambda k: sum((c.get("wall") or {}).get(k) or 0 for c in cases) / 1e9
setup, verify = phase("setup_ns"), phase("verify_ns")
print(f"{label:8s} {name:10s} {ok:3d}/{len(cases):<3d} ok  wall {wall:7.2f} s  "
      f"setup {setup:6.2f} s  verify {verify:6.2f} s ({100 * verify / wall:4.1f}% of wall)  "
      f"exit {rc}")
for c in failed:
    print(f"   failed: {c['kernel']} {c['params']}: {c.get('stage')}: {c.get('message')}")
PY
            tee -a "$summary"
    done
}

if [ -n "$before" ]; then
    tree="$out/before-tree"
    rm -rf "$tree"
    mkdir -p "$tree"
    if [ -d "$before/kernels" ] && [ -d "$before/suites" ]; then
        cp -r "$before/kernels" "$before/suites" "$tree"/ && measure before "$tree"
    elif git archive "$before" kernels suites | tar -x -C "$tree"; then
        measure before "$tree"
    else
        echo "before: git archive of '$before' failed: no before figures" | tee -a "$summary"
    fi
fi
measure after "$root"

echo
echo "=== verify summary ($out) ==="
cat "$summary"
