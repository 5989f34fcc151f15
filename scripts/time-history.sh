#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Time `benchrun history` on results directories (made by scripts/gen-history.py):
# cold (the index built from the files), then warm (the index read), for the
# table, --changes (the first computes and caches the change points, the
# second reads them) and --last 30. Prints CPU time (user + sys) and wall time.
#   scripts/time-history.sh [BENCHRUN] DIR...
set -euo pipefail
exe=build/benchrun
if [ $# -gt 0 ] && [ -x "$1" ] && [ ! -d "$1" ]; then exe=$1; shift; fi
t() { # label, then the command: one line of CPU and wall seconds
  local label=$1 out; shift
  out=$( { TIMEFORMAT='%U %S %R'; time "$@" >/dev/null 2>/dev/null; } 2>&1 | tail -1)
  read -r u s e <<<"$out"
  printf '  %-28s cpu %7.2f s   wall %7.2f s\n' "$label" "$(echo "$u + $s" | bc)" "$e"
}
for d in "$@"; do
  n=$(find "$d" -maxdepth 1 -name '*.json' | wc -l)
  echo "$d: $n files, $(du -sh --apparent-size "$d" | cut -f1)"
  rm -f "$d"/.benchrun-index.sqlite*
  t "table, cold (index built)" "$exe" history "$d" --ascii
  t "table, warm" "$exe" history "$d" --ascii
  t "--changes, first (computed)" "$exe" history "$d" --changes --ascii
  t "--changes, warm (cached)" "$exe" history "$d" --changes --ascii
  t "--last 30, warm" "$exe" history "$d" --last 30 --ascii
  echo "  index: $(du -h "$d/.benchrun-index.sqlite" | cut -f1)"
done
