#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Measure what benchrun costs outside the kernels' samples, each figure as a
# ratio against an anchor measured in the same call, so that the figures
# hold on any machine: Google Benchmark (libbenchmark-dev) for the cost of a
# trivial host case, the peak memory of a run and a 100k-case listing;
# Python's json.load of the same files for compare and a cold history.
#
#   scripts/bench-overhead.sh [--year] [BENCHRUN]
#
# --year also times the year of a 1000-case nightly (365 x 1000: about 1 GB
# of generated files, minutes to make once). Generated data are kept in
# $BR_BENCH_DATA (default /tmp/benchrun-bench) for the next call. Wall times
# are the best of 3 for figures under 2 s, else one; peak RSS from
# /usr/bin/time. Needs g++, libbenchmark-dev, python3, /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
year=0 exe=build/benchrun
for a in "$@"; do
  case "$a" in
    --year) year=1 ;;
    -h|--help) sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) exe=$a ;;
  esac
done
[ -x "$exe" ] || { echo "bench-overhead: no $exe (scripts/setup.sh builds it)" >&2; exit 2; }
exe=$(realpath "$exe")
data=${BR_BENCH_DATA:-/tmp/benchrun-bench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$data"

g++ -O2 -o "$work/anchor" scripts/bench/gbench_anchor.cc -lbenchmark -lpthread
cp tests/fixtures/speed/trivial.c "$work/"
suite() { # N: a suite of N trivial host cases
  printf 'name: trivial%s\nsource: trivial.c\nkernels: [trivial]\nparams:\n  i: {from: 1, to: %s, step: 1}\nwarmup: 0ms\nmeasure:\n  min_time: 0ms\n' \
    "$1" "$1" >"$work/t$1.yaml"
  echo "$work/t$1.yaml"
}
printf 'import json, sys\nfor f in sys.argv[1:]:\n    with open(f) as h:\n        json.load(h)\n' >"$work/parse.py"
pyparse=("python3" "$work/parse.py")

# once CMD...: "WALL_S RSS_KIB CPU_S" of one run (its exit status noted)
once() {
  local t0 t1
  t0=$(date +%s%N)
  local rc=0
  /usr/bin/time -f '%M %U %S' -o "$work/time" "$@" >/dev/null 2>"$work/err" || rc=$?
  t1=$(date +%s%N)
  [ $rc -eq 0 ] || echo "bench-overhead: $1 exited $rc: $(grep -v '^Command exited' "$work/err" | tail -1)" >&2
  tail -1 "$work/time" | awk -v ns=$((t1 - t0)) '{printf "%.4f %d %.2f\n", ns / 1e9, $1, $2 + $3}'
}
# best CMD...: the best wall time of 3 (1 when over 2 s), with its run's RSS
best() {
  local r w b="" best=""
  for _ in 1 2 3; do
    r=$(once "$@"); w=${r%% *}
    if [ -z "$b" ] || awk "BEGIN{exit !($w < $b)}"; then b=$w best=$r; fi
    awk "BEGIN{exit !($w > 2)}" && break
  done
  echo "$best"
}
ratio() { awk "BEGIN{printf \"%.2f\", $1 / ($2 > 0 ? $2 : 0.0001)}"; }
line() { printf '%-44s %s\n' "$1" "$2"; }
mib() { awk "BEGIN{printf \"%.1f MiB\", $1 / 1024}"; }

echo "benchrun $("$exe" --version 2>/dev/null | head -1) at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) CPUs, $(date -u +%Y-%m-%d)"

# --- trivial host cases against Google Benchmark at min_time=0.001 ----------
cache="$work/cache"
for n in 1 100 1000; do "$exe" -q --no-compare --cache-dir "$cache" --list "$(suite $n)" >/dev/null; done
"$exe" -q --no-compare --cache-dir "$cache" "$work/t1.yaml" >/dev/null 2>&1 || true # warm the cache
declare -A B G
for n in 1 100 1000; do
  B[$n]=$(best "$exe" -q --no-compare --cache-dir "$cache" "$work/t$n.yaml")
  G[$n]=$(BENCH_CASES=$n best "$work/anchor" --benchmark_min_time=0.001)
done
w() { echo "$1" | cut -d' ' -f1; } # wall s
r() { echo "$1" | cut -d' ' -f2; } # peak RSS KiB
u() { echo "$1" | cut -d' ' -f3; } # CPU s (user + sys)
line "run of 1 trivial case" "$(w "${B[1]}") s, gbench $(w "${G[1]}") s: $(ratio "$(w "${B[1]}")" "$(w "${G[1]}")")x"
line "run of 100 trivial cases" "$(w "${B[100]}") s, gbench $(w "${G[100]}") s: $(ratio "$(w "${B[100]}")" "$(w "${G[100]}")")x"
per=$(awk "BEGIN{printf \"%.2f\", 1000 * ($(w "${B[100]}") - $(w "${B[1]}")) / 99}")
gper=$(awk "BEGIN{printf \"%.2f\", 1000 * ($(w "${G[100]}") - $(w "${G[1]}")) / 99}")
line "  a case's wall time (100 - 1 cases) / 99" "$per ms, gbench $gper ms: $(ratio "$per" "$gper")x"
line "run of 1000 trivial cases" "$(w "${B[1000]}") s, gbench $(w "${G[1000]}") s: $(ratio "$(w "${B[1000]}")" "$(w "${G[1000]}")")x"
line "  peak RSS" "$(mib "$(r "${B[1000]}")"), gbench $(mib "$(r "${G[1000]}")"): $(ratio "$(r "${B[1000]}")" "$(r "${G[1000]}")")x"
line "  peak RSS, 1 / 100 / 1000 cases" "$(mib "$(r "${B[1]}")") / $(mib "$(r "${B[100]}")") / $(mib "$(r "${B[1000]}")")"
"$exe" --list "$(suite 100000)" >/dev/null 2>&1 || true
bl=$(best "$exe" --list "$work/t100000.yaml")
gl=$(BENCH_CASES=100000 best "$work/anchor" --benchmark_list_tests)
line "--list of 100k cases" "$(w "$bl") s, gbench $(w "$gl") s: $(ratio "$(w "$bl")" "$(w "$gl")")x"

# --- compare of two runs of 10k and 20k cases against Python's parse --------
for n in 10000 20000; do
  d="$data/compare$n"
  [ -f "$d/.done" ] || { python3 scripts/gen-history.py "$d" --runs 2 --cases $n >/dev/null && touch "$d/.done"; }
  set -- "$d"/*.json
  c=$(best "$exe" compare --fail-on never "$1" "$2")
  p=$(best "${pyparse[@]}" "$1" "$2")
  kib=$(( ($(stat -c %s "$1") + $(stat -c %s "$2")) / 1024 ))
  line "compare ${n%000}k vs ${n%000}k cases" "$(w "$c") s, python $(w "$p") s: $(ratio "$(w "$c")" "$(w "$p")")x"
  line "  CPU time (user + sys)" "$(u "$c") s, python $(u "$p") s: $(ratio "$(u "$c")" "$(u "$p")")x"
  line "  peak RSS / the two files' size" "$(mib "$(r "$c")") / $(mib $kib): $(ratio "$(r "$c")" $kib)x"
done

# --- history: cold (index built from the files) and warm --changes ----------
hist() { # DIR RUNS CASES LABEL
  local d=$1
  [ -f "$d/.done" ] || { python3 scripts/gen-history.py "$d" --runs "$2" --cases "$3" >/dev/null && touch "$d/.done"; }
  rm -f "$d"/.benchrun-index.sqlite*
  local c p wc
  c=$(once "$exe" history "$d" --ascii)
  p=$(best "${pyparse[@]}" "$d"/*.json)
  line "history $4, cold" "$(w "$c") s, python $(w "$p") s: $(ratio "$(w "$c")" "$(w "$p")")x"
  line "  CPU time (user + sys)" "$(u "$c") s, python $(u "$p") s: $(ratio "$(u "$c")" "$(u "$p")")x"
  "$exe" history "$d" --changes --ascii >/dev/null 2>&1 || true
  wc=$(best "$exe" history "$d" --changes --ascii)
  line "history $4 --changes, warm" "$(w "$wc") s: $(ratio "$(w "$wc")" "$(w "$p")")x python's parse"
}
hist "$data/history400x100" 400 100 "400 x 100"
if [ "$year" -eq 1 ]; then
  hist "$data/history365x1000" 365 1000 "365 x 1000"
  pub=$(once "$exe" publish "$data/history365x1000" -o "$work/site")
  line "publish of 365 x 1000 (warm index)" "$(w "$pub") s"
fi
