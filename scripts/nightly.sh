#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The nightly sweep: every shipped suite in one benchrun call, bounded by a
# time budget, its results kept per commit for `benchrun history`.
#
#   scripts/nightly.sh                      # results/ , budget 9m
#   scripts/nightly.sh DIR [OPTIONS...]     # e.g. scripts/nightly.sh /data/br --plot ...
#   BR_NIGHTLY_BUDGET=30m scripts/nightly.sh
#
# Then: build/benchrun history results/ --plot results/trend.svg
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-results}
[ $# -gt 0 ] && shift
exec "${BENCHRUN:-build/benchrun}" --results-dir "$dir" --budget "${BR_NIGHTLY_BUDGET:-9m}" \
  suites/reduction.yaml suites/bandwidth.yaml suites/transpose.yaml suites/sgemm.yaml \
  suites/gemm.yaml "$@"
