#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/gpu/bisect.sh - what `benchrun bisect` does on a GPU machine, against
# the same search done by hand with `git bisect run`. Run from the repository
# root after benchrun was built with CUDA into build/; logs go to
# $OUT/bisect/, a summary is printed last. About 2-4 minutes on an H100
# (BISECT_RUNS=N: N searches with benchrun bisect, default 2).
#
#  A scratch git repository of its own (under a temporary directory) holds a
#  bandwidth-bound copy kernel (copy.cu: out = in over n = 2^25 float32,
#  grid-stride, float4), its suite and a README, over 24 commits:
#    commit 1       the kernel, the suite, the README
#    commit 17      3% more bytes: the kernel copies its first 3% again in the
#                   same launch (EXTRA_PCT 0 -> 3)
#    every other    an unrelated edit: a comment of copy.cu (a new module, same
#                   code) or, every third commit, the README (no module change)
#  1. `benchrun bisect HEAD~23 HEAD suite.yaml`, BISECT_RUNS times (the first
#     compiles each commit it tests, the next find them in the compile cache):
#     the commit found, the steps (commit, ratio, class, blocks), the wall time.
#  2. The same search by hand: `git bisect run step.sh`, where step.sh runs
#     `benchrun suite.yaml` twice at the commit and calls it bad when the mean
#     of the two medians is more than 1.5% (half the step) above GOOD's,
#     measured the same way first; a commit that does not build is skipped
#     (exit 125). Its own compile cache, so it compiles as the first bisect
#     does. The commit found, the steps and the wall time (threshold runs
#     included).
set -uo pipefail
OUT="${OUT:-/tmp/benchrun-out}"
LOG="$OUT/bisect"
mkdir -p "$LOG"
ROOT="$PWD"
BR="$ROOT/build/benchrun"
[ -x "$BR" ] || { echo "bisect.sh: build benchrun into build/ first" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bisect.sh: needs python3 to summarise" >&2; exit 2; }
command -v git >/dev/null || { echo "bisect.sh: needs git" >&2; exit 2; }
export NO_COLOR=1
RUNS="${BISECT_RUNS:-2}"

SCR=$(mktemp -d /tmp/benchrun-bisect-XXXXXX)
trap 'rm -rf "$SCR"' EXIT
REPO="$SCR/repo"
mkdir -p "$REPO"
cd "$REPO"
G=(git -c user.name=bisect.sh -c user.email=bisect@example.invalid)
git init -q .

# --- the repository ----------------------------------------------------------------
cat >suite.yaml <<'EOF'
# A bandwidth-bound copy: n float32 read and written once per execution,
# far beyond L2 (128 MiB per array at n = 2^25).
name: copy
source: copy.cu
kernels: [copy]
params:
  n: [33554432]
metric: GB/s
bytes: 8 * n
cache: warm
measure:
  mode: cold
EOF

# kernel REV PCT: copy.cu with a comment naming REV and EXTRA_PCT = PCT.
kernel() {
  cat >copy.cu <<EOF
/* copy.cu - out = in over n float32 (revision $1). */
#include <stdlib.h>

#include "benchrun_cuda.h"
#include "benchrun_kernel.h"

#define EXTRA_PCT $2 /* the first EXTRA_PCT% of the elements are copied again */

__global__ static void fill(float *in, int64_t n) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        in[i] = (float)(i % 1000003);
}

__device__ static void copy_range(float4 *out, const float4 *in, int64_t n4) {
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4;
         i += (int64_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

__global__ static void copy(float4 *out, const float4 *in, int64_t n4) {
    copy_range(out, in, n4);
    copy_range(out, in, n4 * EXTRA_PCT / 100);
}

typedef struct state {
    int64_t n;
    float *in, *out;
    int blocks;
} state;

static int setup(br_case *c) {
    state *s = (state *)calloc(1, sizeof *s);
    if (!s)
        return c->api->fail(c, "out of host memory");
    c->state = s;
    if (c->api->param(c, "n", &s->n) != 0)
        return -1;
    if (s->n % 4 != 0)
        return c->api->fail(c, "n must be a multiple of 4");
    s->in = (float *)c->api->alloc(c, (size_t)s->n * sizeof(float), BR_MEM_DEVICE);
    s->out = (float *)c->api->alloc(c, (size_t)s->n * sizeof(float), BR_MEM_DEVICE);
    if (!s->in || !s->out)
        return -1;
    int dev = 0, sms = 0;
    BR_CUDA_TRY(c, cudaGetDevice(&dev));
    BR_CUDA_TRY(c, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    s->blocks = 8 * sms;
    fill<<<s->blocks, 256, 0, br_cuda_stream(c)>>>(s->in, s->n);
    if (br_cuda_launched(c, "fill") != 0)
        return -1;
    BR_CUDA_TRY(c, cudaStreamSynchronize(br_cuda_stream(c)));
    return 0;
}

static int run(br_case *c) {
    state *s = (state *)c->state;
    copy<<<s->blocks, 256, 0, br_cuda_stream(c)>>>((float4 *)s->out, (const float4 *)s->in,
                                                   s->n / 4);
    return br_cuda_launched(c, "copy");
}

static int verify(br_case *c) {
    state *s = (state *)c->state;
    float *h = (float *)malloc((size_t)s->n * sizeof(float));
    if (!h)
        return c->api->fail(c, "out of host memory");
    cudaError_t err = cudaMemcpy(h, s->out, (size_t)s->n * sizeof(float), cudaMemcpyDeviceToHost);
    int rc = err == cudaSuccess ? 0 : c->api->fail(c, "copy back: %s", cudaGetErrorString(err));
    for (int64_t i = 0; i < s->n && rc == 0; i++)
        if (h[i] != (float)(i % 1000003))
            rc = c->api->fail(c, "out[%lld] is %g", (long long)i, h[i]);
    free(h);
    return rc;
}

static void teardown(br_case *c) {
    free(c->state);
    c->state = NULL;
}

static const br_kernel kernels[] = {{"copy", setup, run, verify, teardown}};
BR_MODULE(kernels);
EOF
}

PCT=0
echo "# copy" >README.md
kernel 1 $PCT
"${G[@]}" add -A && "${G[@]}" commit -qm "commit 1: copy kernel, suite, README"
for i in $(seq 2 24); do
  if [ "$i" -eq 17 ]; then
    PCT=3
    kernel "$i" $PCT
    msg="commit $i: copy the first 3% again (3% more bytes)"
  elif [ $((i % 3)) -eq 0 ]; then
    echo "note $i" >>README.md
    msg="commit $i: README note"
  else
    kernel "$i" $PCT
    msg="commit $i: reword a comment"
  fi
  "${G[@]}" commit -qam "$msg"
done
SHA17=$(git rev-parse HEAD~7)
echo "bisect.sh: 24 commits; commit 17 is $SHA17" >&2

# wall TAG CMD...: CMD's stdout/stderr into $LOG/TAG.{txt,err}; its exit status
# and wall time (s) into $LOG/TAG.status.
wall() {
  local tag=$1; shift
  local t0 t1 rc
  t0=$(date +%s.%N)
  "$@" >"$LOG/$tag.txt" 2>"$LOG/$tag.err"
  rc=$?
  t1=$(date +%s.%N)
  printf '%s %s\n' "$rc" "$(python3 -c "print(f'{$t1 - $t0:.1f}')")" >"$LOG/$tag.status"
  echo "bisect.sh: $tag: exit $rc, $(cut -d' ' -f2 "$LOG/$tag.status") s" >&2
}

# --- 1. benchrun bisect ---------------------------------------------------------------
for r in $(seq 1 "$RUNS"); do
  wall "bisect$r" timeout 240 "$BR" bisect --cache-dir "$SCR/cache-bisect" HEAD~23 HEAD \
    suite.yaml --json "$LOG/bisect$r.json"
done

# --- 2. by hand: git bisect run around two plain runs per step ----------------------------
cat >"$SCR/median.py" <<'EOF'
import json, sys
m = [json.load(open(p))["runs"][0]["cases"][0]["cold"]["median"] for p in sys.argv[1:]]
print(sum(m) / len(m))
EOF
cat >"$SCR/step.sh" <<EOF
#!/usr/bin/env bash
# One step of the hand-made search: two plain runs, the mean of the medians
# against the threshold; 125 (skip) when a run fails.
for k in 1 2; do
  "$BR" -q --no-compare --cache-dir "$SCR/cache-manual" --json "$SCR/step\$k.json" suite.yaml \
    >/dev/null 2>>"$LOG/manual-runs.err" || exit 125
done
t=\$(python3 "$SCR/median.py" "$SCR/step1.json" "$SCR/step2.json") || exit 125
echo "\$(git rev-parse --short HEAD) \$t" >>"$LOG/manual-steps.txt"
python3 -c "import sys; sys.exit(1 if \$t > \$(cat "$SCR/threshold") else 0)"
EOF
chmod +x "$SCR/step.sh"
manual() {
  git checkout -q HEAD~23 || return 1
  for k in 1 2; do
    "$BR" -q --no-compare --cache-dir "$SCR/cache-manual" --json "$SCR/good$k.json" suite.yaml \
      >/dev/null || return 1
  done
  local good
  good=$(python3 "$SCR/median.py" "$SCR/good1.json" "$SCR/good2.json") || return 1
  python3 -c "print(1.015 * $good)" >"$SCR/threshold" || return 1
  git checkout -q - || return 1
  git bisect start HEAD HEAD~23 >/dev/null || return 1
  timeout 240 git bisect run "$SCR/step.sh"
  local rc=$?
  git bisect log >"$LOG/manual-bisect-log.txt"
  git bisect reset >/dev/null 2>&1
  return $rc
}
: >"$LOG/manual-steps.txt"
wall manual manual
cd "$ROOT"

# --- summary ---------------------------------------------------------------------
python3 - "$LOG" "$RUNS" "$SHA17" <<'EOF'
import json, os, re, sys
log, runs, sha17 = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def status(tag):
    rc, t = open(os.path.join(log, tag + ".status")).read().split()
    return int(rc), float(t)
def fmt(x):
    if not x or x.get("ratio") is None:
        return "-"
    lo, hi = x.get("low"), x.get("high")
    return f"{x['ratio']:.4f}x" + (f" [{lo:.4f}, {hi:.4f}]" if lo is not None else "")
print("== benchrun bisect: summary ==")
print(f"commit 17 (3% more bytes) is {sha17[:10]}")
for r in range(1, runs + 1):
    rc, t = status(f"bisect{r}")
    path = os.path.join(log, f"bisect{r}.json")
    print(f"\nbenchrun bisect, run {r}: exit {rc}, wall {t:.1f} s")
    if not os.path.exists(path):
        print(f"  no JSON (see bisect{r}.err)")
        continue
    d = json.load(open(path))
    fb = d.get("first_bad") or {}
    found = fb.get("sha", "")
    right = "RIGHT" if found == sha17 else "WRONG"
    print(f"  result: {d['result']}; first bad {found[:10]} \"{fb.get('subject', '')}\" "
          f"({right}); its step {fmt(d.get('step'))}")
    measured = sum(1 for s in d["steps"] if s["blocks"] > 0)
    print(f"  steps: {len(d['steps'])} ({measured} measured), "
          f"{sum(s['blocks'] for s in d['steps'])} blocks of each build in all")
    for s in d["steps"]:
        c = s["mid"] or s["bad"]
        ratio = fmt(s["span"]) if s["mid"] is None else fmt(s.get("to_good"))
        print(f"    {s['step']:>2} {c['short']} {c['subject'][:44]:<44} {ratio:<30} "
              f"{s['class']:<10} {s['blocks']:>3} blocks {s['wall_s']:5.1f} s")
    built = [0, 0]
    for line in open(os.path.join(log, f"bisect{r}.err")):
        m = re.search(r"kernel modules: (\d+) compiled, (\d+) from cache", line)
        if m:
            built[0] += int(m.group(1))
            built[1] += int(m.group(2))
    print(f"  kernel modules: {built[0]} compiled, {built[1]} from the compile cache")
rc, t = status("manual")
steps = [l.split() for l in open(os.path.join(log, "manual-steps.txt")) if l.strip()]
found = ""
for line in open(os.path.join(log, "manual.txt")):
    m = re.match(r"^([0-9a-f]{40}) is the first bad commit", line)
    if m:
        found = m.group(1)
right = "RIGHT" if found == sha17 else ("WRONG" if found else "none")
print(f"\nby hand (git bisect run, two plain runs per step, bad above 1.015 x GOOD's "
      f"median): exit {rc}, wall {t:.1f} s (the two runs at GOOD for the threshold included)")
print(f"  first bad {found[:10] or '-'} ({right}); {len(steps)} steps")
for short, med in steps:
    print(f"    {short} mean median {float(med) / 1e3:.2f} us")
EOF
