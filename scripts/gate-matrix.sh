#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gate-matrix.sh - the regression gate on a CPU-only machine, as a new user
# meets it (issue 38): a host module that sums n floats, m cases (m sizes),
# its baseline saved k times at one commit of a scratch git repository; then
#   - AA unchanged runs (default 3), the second half of them with another
#     process loading every CPU (started here, stopped by pid);
#   - SLOW runs (default 2) with the kernel's code changed to do twice the
#     work, and SLOW with 20% more (in the work tree, as a change under test);
#   - one run of the 2x change with --confirm never (the screen alone), for
#     the time the confirmation adds.
# Per cell: how many runs exited 3, the screen's median MDE (its JSON), and
# the wall time of a cell's runs with and without confirmation. Run from the
# repository root once build/benchrun is built (scripts/setup.sh).
#
#   M="1 2 4 8" K="1 2 3 5" AA=3 SLOW=2 OUT=/tmp/gate-matrix scripts/gate-matrix.sh
set -u
cd "$(dirname "$0")/.." || exit 1
B=$PWD/build/benchrun
[ -x "$B" ] || { echo "gate-matrix: $B is not built (scripts/setup.sh)" >&2; exit 1; }
command -v git >/dev/null || { echo "gate-matrix: needs git" >&2; exit 1; }
command -v python3 >/dev/null || { echo "gate-matrix: needs python3" >&2; exit 1; }
M=${M:-1 2 4 8}
K=${K:-1 2 3 5}
AA=${AA:-3}
SLOW=${SLOW:-2}
OUT=${OUT:-/tmp/gate-matrix}
R="$OUT/repo"
CACHE="$OUT/cache"
export NO_COLOR=1
rm -rf "$OUT"
mkdir -p "$OUT/json"
: >"$OUT/runs.tsv"

loaders=()
load_on() {
    for _ in $(seq "$(nproc)"); do
        sh -c 'while :; do :; done' &
        loaders+=($!)
    done
}
load_off() {
    [ ${#loaders[@]} -gt 0 ] && kill "${loaders[@]}" 2>/dev/null
    wait "${loaders[@]}" 2>/dev/null
    loaders=()
}
trap load_off EXIT

# The module: sum reads n * (100 + EXTRA) / 100 floats, PASSES times.
kernel() {
    cat >"$R/sum.c" <<EOF
#include <stdlib.h>
#include "benchrun_kernel.h"
#define PASSES $1
#define EXTRA $2
typedef struct st { float *x; int64_t n, m; volatile double got; } st;
static int setup(br_case *c) {
    st *s = calloc(1, sizeof *s);
    if (!s) return c->api->fail(c, "out of memory");
    c->state = s;
    if (c->api->param(c, "n", &s->n) != 0) return -1;
    s->m = s->n * (100 + EXTRA) / 100;
    s->x = c->api->alloc(c, (size_t)s->m * sizeof *s->x, BR_MEM_HOST);
    if (!s->x) return -1;
    for (int64_t i = 0; i < s->m; i++) s->x[i] = 1.0f;
    return 0;
}
static int run(br_case *c) {
    st *s = c->state; double acc = 0;
    for (int p = 0; p < PASSES; p++) {
        acc = 0;
        for (int64_t i = 0; i < s->m; i++) acc += ((volatile float *)s->x)[i];
    }
    s->got = acc; return 0;
}
static int verify(br_case *c) {
    st *s = c->state;
    return s->got == (double)s->m ? 0 : c->api->fail(c, "wrong sum");
}
static void teardown(br_case *c) { free(c->state); c->state = NULL; }
static const br_kernel kernels[] = {{"sum", setup, run, verify, teardown}};
BR_MODULE(kernels);
EOF
}

suite() {
    local sizes
    sizes=$(python3 -c "print(', '.join(str(2**(14 + i)) for i in range($1)))")
    cat >"$R/sum.yaml" <<EOF
name: gatematrix
source: sum.c
kernels: [sum]
params:
  n: [$sizes]
bytes: 4 * n
cache: warm
measure: {timeout: 1s}
EOF
}

# one CELL TAG ARGS...: a run in the repository, a row of runs.tsv.
one() {
    local cell=$1 tag=$2 t0 t1 rc
    shift 2
    t0=$(date +%s.%N)
    (cd "$R" && "$B" -q sum.yaml --cache-dir "$CACHE" --json "$OUT/json/$cell-$tag.json" "$@") \
        >"$OUT/json/$cell-$tag.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    printf '%s\t%s\t%d\t%.2f\t%s\n' "$cell" "$tag" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" \
        "$OUT/json/$cell-$tag.json" >>"$OUT/runs.tsv"
}

for m in $M; do
    for k in $K; do
        cell="m$m-k$k"
        rm -rf "$R"
        mkdir -p "$R"
        kernel 1 0
        suite "$m"
        (cd "$R" && git init -q && git add -A &&
            git -c user.email=gate@example.com -c user.name=gate commit -qm sum) || exit 1
        for i in $(seq "$k"); do
            (cd "$R" && "$B" -q sum.yaml --cache-dir "$CACHE" --save-baseline) \
                >>"$OUT/json/$cell-saves.log" 2>&1
        done
        for i in $(seq "$AA"); do
            if [ "$i" -gt $((AA / 2)) ]; then load_on; fi
            one "$cell" "aa$i$([ ${#loaders[@]} -gt 0 ] && echo -loaded)"
            load_off
        done
        kernel 2 0
        for i in $(seq "$SLOW"); do one "$cell" "2x$i"; done
        one "$cell" "2x-screen-alone" --confirm never
        kernel 1 20
        for i in $(seq "$SLOW"); do one "$cell" "20pct$i"; done
    done
done
load_off

python3 - "$OUT/runs.tsv" <<'PY' | tee "$OUT/summary.txt"
import collections, json, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
cells = collections.OrderedDict()
for cell, tag, rc, wall, path in rows:
    cells.setdefault(cell, []).append((tag, int(rc), float(wall), path))
print("cell     A/A exit 3   2x exit 3   20% exit 3   screen's median MDE   wall per run (s):"
      " confirmed | 2x screen alone   A/B confirmations (s)")
for cell, runs in cells.items():
    def count(prefix):
        sel = [r for r in runs if r[0].startswith(prefix) and "alone" not in r[0]]
        return f"{sum(r[1] == 3 for r in sel)}/{len(sel)}"
    mdes, ab = [], []
    for tag, rc, wall, path in runs:
        try:
            c = json.load(open(path))["runs"][0].get("comparison") or {}
        except (OSError, ValueError, KeyError, IndexError):
            continue
        if tag.startswith("aa"):
            mdes += [e["mde"] for e in c.get("cases", []) if e.get("mde") is not None]
        ci = c.get("confirm") or {}
        if ci.get("ran"):
            ab.append(ci["wall_ns"] / 1e9)
    walls = [r[2] for r in runs if "alone" not in r[0]]
    alone = [r[2] for r in runs if "alone" in r[0]]
    mde = f"{100 * statistics.median(mdes):.1f}%" if mdes else "-"
    print(f"{cell:8} {count('aa'):>11} {count('2x'):>11} {count('20pct'):>12} {mde:>21}"
          f"   {statistics.mean(walls):6.2f} | {alone[0] if alone else float('nan'):6.2f}"
          f"   {' '.join(f'{t:.1f}' for t in ab)}")
PY
