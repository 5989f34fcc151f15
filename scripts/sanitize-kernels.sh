#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run every shipped GPU kernel under NVIDIA compute-sanitizer at small sizes
# (sizes that are not multiples of a block included): memcheck, racecheck and
# initcheck by default, or the tools named as arguments. Each suite is run
# once per tool, through benchrun itself, so the runner's own kernels (the L2
# flush, the launch hold) are checked too. Needs a GPU and compute-sanitizer
# (CUDA Toolkit); runs every suite under every tool and exits 1 when a tool
# reported an error or a case failed, 2 when it cannot run.
#
#   scripts/sanitize-kernels.sh                    # all three tools
#   scripts/sanitize-kernels.sh memcheck           # one
#   BR_BUILD_DIR=build-x scripts/sanitize-kernels.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck initcheck)
build=${BR_BUILD_DIR:-build}
bin="$build/benchrun"
cs=$(command -v compute-sanitizer || true)
[ -n "$cs" ] || [ ! -x /usr/local/cuda/bin/compute-sanitizer ] || cs=/usr/local/cuda/bin/compute-sanitizer
if [ -z "$cs" ]; then
  echo "sanitize-kernels: compute-sanitizer not found (it comes with the CUDA Toolkit)" >&2
  exit 2
fi
if [ ! -x "$bin" ]; then
  echo "sanitize-kernels: $bin not found: run scripts/setup.sh first" >&2
  exit 2
fi
log_dir=${BR_SANITIZE_LOGS:-$build/sanitize}
mkdir -p "$log_dir"

# Suite and the -p settings that make it small. Zipped params (sgemm,
# transpose) select their smallest entries, and transpose's 1000 x 3000
# is not a multiple of a tile.
runs=(
  "suites/reduction.yaml -p n=[1000,65536]"
  "suites/bandwidth.yaml -p n=[1000,65536]"
  "suites/stream_variants.yaml -p n=[1000,65536]"
  "suites/transpose.yaml -p m=[1024,1000]"
  "suites/sgemm.yaml -p m=[256,512]"
)
# One warmup-free sample or two per case: the tools slow kernels down 10-100x.
measure=(--warmup 0ms --min-samples 1 --max-samples 2 --min-time 0ms --timeout 10s --watchdog 10min --no-hold
         --clock events --no-cupti --no-compare -q)

# The tools must see the kernels of benchrun's worker processes (forked,
# not exec'ed): a kernel that writes out of bounds must be caught first.
canary="$log_dir/canary-memcheck.log"
"$cs" --tool memcheck --target-processes all --print-limit 5 "$bin" \
  tests/fixtures/faults/faults.yaml -k gpu_oob -p n=1024 "${measure[@]}" >"$canary" 2>&1 || true
if ! grep -q "Invalid __global__ write" "$canary"; then
  echo "sanitize-kernels: memcheck did not catch tests/fixtures/faults gpu_oob (see $canary):" \
    "it does not see the kernels benchrun runs" >&2
  exit 2
fi
echo "sanitize-kernels: canary: memcheck catches an out-of-bounds write in a worker process"

status=0
for tool in "${tools[@]}"; do
  for run in "${runs[@]}"; do
    # shellcheck disable=SC2086
    set -- $run
    suite=$1
    shift
    log="$log_dir/$(basename "$suite" .yaml)-$tool.log"
    rc=0
    "$cs" --tool "$tool" --target-processes all --print-limit 20 \
      "$bin" "$suite" "$@" "${measure[@]}" --ascii >"$log" 2>&1 || rc=$?
    # memcheck and initcheck end with "ERROR SUMMARY: N errors", racecheck
    # with "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
    summary_re="(ERROR SUMMARY: [0-9]+ error|RACECHECK SUMMARY: [0-9]+ hazard)"
    errors=$(grep -E "$summary_re" "$log" |
      grep -Ev "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" || true)
    summaries=$(grep -Ec "$summary_re" "$log" || true)
    if [ "$rc" -ne 0 ] || [ -n "$errors" ] || [ "$summaries" -eq 0 ]; then
      echo "sanitize-kernels: $tool $suite: FAILED (benchrun exit status $rc; see $log)"
      grep -E "=========|FAILED" "$log" | head -20 || true
      status=1
    else
      echo "sanitize-kernels: $tool $suite: 0 errors ($(grep -Eo "$summary_re.*" "$log" | head -1))"
    fi
  done
done
exit $status
