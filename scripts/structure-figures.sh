#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The structure figures issue 15 tracks, from pmccabe (apt-get install pmccabe):
# the largest files, the longest functions, how many functions pass 80 lines,
# and main()'s length. Run from anywhere; reads the tree it sits in.
#
#   scripts/structure-figures.sh            # the summary
#   scripts/structure-figures.sh -n 20      # 20 rows per list
set -euo pipefail
cd "$(dirname "$0")/.."
rows=10
[ "${1:-}" = "-n" ] && rows=$2
command -v pmccabe >/dev/null || { echo "structure-figures: needs pmccabe (apt-get install pmccabe)" >&2; exit 2; }
mapfile -t src < <(git ls-files 'runner/*.c' 'runner/**/*.c' 'reporters/*.c' | sort -u)
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
pmccabe "${src[@]}" 2>/dev/null > "$tmp"
echo "production C files: ${#src[@]}"
echo "functions: $(wc -l < "$tmp"), over 80 lines: $(awk '$5 > 80' "$tmp" | wc -l)," \
     "median lines: $(awk '{print $5}' "$tmp" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
echo "main(): $(awk '$7 == "main" {print $5 " lines, CC " $1}' "$tmp")"
echo; echo "largest files (lines):"
wc -l "${src[@]}" | grep -v ' total$' | sort -n -r | head -n "$rows"
echo; echo "longest functions (lines, CC, where):"
sort -k5 -n -r "$tmp" | head -n "$rows" | awk '{print "  " $5 "\t" $1 "\t" $6 " " $7}'
