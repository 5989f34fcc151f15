#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/gpu/ab.sh - what `benchrun ab` (interleaved A/B of two commits) does
# on a GPU machine. Run from the repository root after benchrun was built with
# CUDA into build/; logs go to $OUT/ab/, a summary is printed last.
#
#  Both parts run in a scratch git repository holding a copy of kernels/ and
#  suites/ (commit "base"; its work tree is HEAD's).
#  1. A against itself, twice (AB_AA_RUNS=N: N times; 0 skips it): `benchrun ab HEAD suites/reduction.yaml` on the
#     GPU kernels (reduce_cpu left out to keep the time down). HEAD's files are
#     checked out and built apart from the work tree's, so these are two
#     builds of the same code. Per case: the ratio NEW/OLD with its 95%
#     interval and the verdict; per run: how many were slower / faster, and
#     the intervals' widths.
#  2. Planted slowdowns in a bandwidth-bound kernel: stream_copy_kernel
#     (kernels/stream.cu) then copies the first 1% (commit "p1") or 3%
#     (commit "p3", on base) of its elements a second time in the same launch:
#     1% / 3% more bytes. `benchrun ab base p1` and `benchrun ab base p3` on
#     suites/bandwidth.yaml -k stream_copy at n = 2^20 ... 2^26 doubles: the
#     ratio, its interval and whether it was caught (slower) at each size, and
#     the wall time of the 1% A/B run, every module cached, against two plain
#     runs of the same cases.
set -uo pipefail
OUT="${OUT:-/tmp/benchrun-out}"
LOG="$OUT/ab"
mkdir -p "$LOG"
ROOT="$PWD"
BR="$ROOT/build/benchrun"
[ -x "$BR" ] || { echo "ab.sh: build benchrun into build/ first" >&2; exit 2; }
command -v python3 >/dev/null || { echo "ab.sh: needs python3 to summarise" >&2; exit 2; }
export NO_COLOR=1
GPU_KERNELS=(-k reduce_naive -k reduce_smem -k reduce_warp -k reduce_vec -k reduce_cub)
SIZES='n=[2^20,2^22,2^24,2^26]'

# wall TAG CMD...: run CMD with stdout/stderr into $LOG/TAG.{txt,err}; its
# exit status and wall time (s) into $LOG/TAG.status.
wall() {
  local tag=$1; shift
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$@" >"$LOG/$tag.txt" 2>"$LOG/$tag.err"
  rc=$?
  t1=$(date +%s.%N)
  printf '%s %s\n' "$rc" "$(python3 -c "print(f'{$t1 - $t0:.1f}')")" >"$LOG/$tag.status"
  echo "ab.sh: $tag: exit $rc, $(cut -d' ' -f2 "$LOG/$tag.status") s" >&2
}

# A scratch git repository with a copy of kernels/ and suites/ (all the suites
# read), committed as "base": its work tree is HEAD's, so part 1 is a true A/A
# whatever state this checkout is in (and needs no .git here).
command -v git >/dev/null || { echo "ab.sh: needs git" >&2; exit 2; }
SCR=$(mktemp -d /tmp/benchrun-ab-XXXXXX)
trap 'rm -rf "$SCR"' EXIT
cp -r kernels suites "$SCR"/
cd "$SCR"
G=(git -c user.name=ab.sh -c user.email=ab@example.invalid)
git init -q . && "${G[@]}" add -A && "${G[@]}" commit -qm base && git tag base

# --- 1. A/A on the reduction ---------------------------------------------------
for i in $(seq 1 "${AB_AA_RUNS:-2}"); do
  wall "aa$i" "$BR" ab HEAD suites/reduction.yaml "${GPU_KERNELS[@]}" --json "$LOG/aa$i.json"
done

# --- 2. planted slowdowns ------------------------------------------------------
plant() { # plant PCT: stream_copy_kernel copies its first PCT% again
  python3 - "$1" <<'EOF'
import re, sys
pct = int(sys.argv[1])
p = "kernels/stream.cu"
s = open(p).read()
old = "    st_body<ST_COPY>(c, a, nullptr, n);\n}"
assert s.count(old) == 1, "stream_copy_kernel's body not found"
s = s.replace(old, "    st_body<ST_COPY>(c, a, nullptr, n);\n"
              f"    st_body<ST_COPY>(c, a, nullptr, n * {pct} / 100); /* planted: {pct}% more bytes */\n}}")
open(p, "w").write(s)
EOF
}
plant 1 && "${G[@]}" commit -qam "plant 1%" && git tag p1
git checkout -q base -- kernels/stream.cu && plant 3 && "${G[@]}" commit -qam "plant 3%" && git tag p3
git checkout -q base -- kernels/stream.cu && "${G[@]}" commit -qam "back to base" && git tag back
for p in p1 p3; do
  wall "plant-$p" "$BR" ab base "$p" suites/bandwidth.yaml -k stream_copy -p "$SIZES" \
    --json "$LOG/plant-$p.json"
done
# Wall times with every module in the cache: two plain runs of the same cases
# (the work tree: base's code; the first compiles it) and the 1% A/B again.
for i in 0 1 2; do
  wall "plain$i" "$BR" suites/bandwidth.yaml -k stream_copy -p "$SIZES" --no-compare
done
wall "plant-p1-again" "$BR" ab base p1 suites/bandwidth.yaml -k stream_copy -p "$SIZES" \
  --json "$LOG/plant-p1-again.json"
cd "$ROOT"

# --- summary ---------------------------------------------------------------------
python3 - "$LOG" <<'EOF'
import json, os, sys
log = sys.argv[1]
def status(tag):
    rc, t = open(os.path.join(log, tag + ".status")).read().split()
    return int(rc), float(t)
def cases(tag):
    path = os.path.join(log, tag + ".json")
    if not os.path.exists(path):
        return None
    run = json.load(open(path))["runs"][-1]
    return run["comparison"]["cases"]
def ratio(e):
    if e.get("ratio") is None:
        return "-"
    lo, hi = e.get("ratio_low"), e.get("ratio_high")
    ci = f" [{lo:.4f}, {hi:.4f}]" if lo is not None and hi is not None else ""
    return f"{e['ratio']:.4f}x{ci}"
print("== benchrun ab: summary ==")
for i in (1, 2):
    if not os.path.exists(os.path.join(log, f"aa{i}.status")):
        continue  # AB_AA_RUNS left it out
    rc, t = status(f"aa{i}")
    cs = cases(f"aa{i}")
    print(f"\nA/A run {i} (ab HEAD suites/reduction.yaml, GPU kernels): exit {rc}, {t:.0f} s")
    if cs is None:
        print("  no results (see aa%d.err)" % i)
        continue
    counts = {}
    for e in cs:
        counts[e["status"]] = counts.get(e["status"], 0) + 1
        print(f"  {e['kernel']:<14} {e['params']:<10} {ratio(e):<30} {e['status']}"
              + (f" ({e['why']})" if e.get("why") else ""))
    print("  counts: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    widths = [e["ratio_high"] / e["ratio_low"] - 1 for e in cs
              if e.get("ratio_low") and e.get("ratio_high")]
    if widths:
        widths.sort()
        print(f"  interval width (high/low - 1): median {100*widths[len(widths)//2]:.2f}%, "
              f"max {100*widths[-1]:.2f}%")
for p, pct in (("p1", 1), ("p3", 3)):
    rc, t = status(f"plant-{p}")
    cs = cases(f"plant-{p}")
    print(f"\nplanted {pct}% slowdown (ab base {p}, stream_copy): exit {rc}, wall {t:.1f} s")
    if cs is None:
        print("  no results (see plant-%s.err)" % p)
        continue
    caught = []
    for e in cs:
        print(f"  {e['params']:<10} {ratio(e):<30} {e['status']}"
              + (f" ({e['why']})" if e.get("why") else ""))
        if e["status"] == "slower":
            caught.append(e["params"])
    print(f"  caught at: {', '.join(caught) if caught else 'no size'}")
cs = cases("plant-p1-again") or []
print("\nthe 1% A/B again (every module cached): " + ", ".join(
    f"{e['params']} {ratio(e)} {e['status']}" for e in cs))
plain = [status(f"plain{i}")[1] for i in (1, 2)]
again = status("plant-p1-again")[1]
print(f"wall time, modules cached: two plain runs of the 4 cases {plain[0]:.1f} s + "
      f"{plain[1]:.1f} s = {sum(plain):.1f} s; ab base p1 (6 blocks of each side per case) "
      f"{again:.1f} s = {again / sum(plain):.1f}x the two plain runs")
print(f"  (first A/B runs, compiling: ab base p1 {status('plant-p1')[1]:.1f} s, "
      f"ab base p3 {status('plant-p3')[1]:.1f} s)")
for tag in ("plant-p1", "plant-p3", "plain0", "plain1", "plain2", "plant-p1-again"):
    for line in open(os.path.join(log, tag + ".err")):
        if "kernel modules:" in line:
            print(f"  {tag}: {line.strip()}")
EOF
