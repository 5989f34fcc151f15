#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Submit the nightly sweep to Slurm: a job array of N shards (nightly.sbatch,
# one GPU per task) and, depending on it (afterany), the job that merges the
# parts into one results file in the results directory (merge.sbatch).
#
#   scripts/slurm/submit.sh                     # 4 shards of the nightly's suites into results/
#   scripts/slurm/submit.sh -n 8 --results-dir /data/br -- suites/sgemm.yaml --mode cold
#   scripts/slurm/submit.sh --sbatch-arg=--partition=gpu --sbatch-arg=--account=perf
#
# options:
#   -n, --shards N        shards (array tasks), default $BR_SHARDS or 4
#   --results-dir DIR     where the merged file goes (default results/); the
#                         parts and logs go to DIR/shards/<array job id>/ and DIR/shards/logs/
#   --times FILE          balance the shards by the measured times in FILE
#                         (default: the newest *.json in the results dir, if any)
#   --no-times            balance by count
#   --sbatch-arg ARG      an sbatch option for both jobs (repeatable), e.g. --partition=gpu
#   --no-gpu              submit the shards without --gres (host-kernel suites; CI)
#   --hold                submit the shards held (release: scontrol release JOBID)
#   -- ARGS...            suites and benchrun options for every shard (default: the
#                         nightly's suites, as scripts/nightly.sh runs them)
#
# Environment: BENCHRUN (default build/benchrun of this checkout),
# BR_NIGHTLY_BUDGET (each shard's --budget, default 9m).
# Prints array=JOBID, merge=JOBID and parts=DIR on standard output.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

shards=${BR_SHARDS:-4}
results=results
times=auto
gpu=1
hold=()
sbatch_args=()
while [ $# -gt 0 ]; do
  case $1 in
  -n | --shards) shards=$2; shift 2 ;;
  --shards=*) shards=${1#*=}; shift ;;
  --results-dir) results=$2; shift 2 ;;
  --results-dir=*) results=${1#*=}; shift ;;
  --times) times=$2; shift 2 ;;
  --times=*) times=${1#*=}; shift ;;
  --no-times) times=none; shift ;;
  --sbatch-arg) sbatch_args+=("$2"); shift 2 ;;
  --sbatch-arg=*) sbatch_args+=("${1#*=}"); shift ;;
  --no-gpu) gpu=0; shift ;;
  --hold) hold=(--hold); shift ;;
  --) shift; break ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "submit.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if ! [[ $shards =~ ^[0-9]+$ ]] || [ "$shards" -lt 1 ]; then
  echo "submit.sh: --shards expects a number >= 1, got '$shards'" >&2
  exit 2
fi
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found (is this a Slurm login node?)" >&2; exit 2; }

[ $# -gt 0 ] || set -- suites/reduction.yaml suites/bandwidth.yaml suites/transpose.yaml suites/sgemm.yaml suites/gemm.yaml
mkdir -p "$results/shards/logs"
results=$(cd "$results" && pwd)
logs=$results/shards/logs

# The costs: one file for every shard, chosen once here.
shard_args=()
if [ "$times" = auto ]; then
  newest=$(find "$results" -maxdepth 1 -name '*.json' -printf '%T@ %p\n' | sort -rn | head -1 | cut -d' ' -f2-)
  [ -n "$newest" ] && shard_args=(--shard-times "$newest")
elif [ "$times" != none ]; then
  shard_args=(--shard-times "$(cd "$(dirname "$times")" && pwd)/$(basename "$times")")
fi

script=$here/nightly.sbatch
if [ "$gpu" -eq 0 ]; then
  script=$(mktemp "$logs/nightly-nogpu.XXXXXX")
  sed '/^#SBATCH --gres/d' "$here/nightly.sbatch" >"$script"
fi

export BR_REPO=$repo BR_RESULTS_DIR=$results BENCHRUN=${BENCHRUN:-$repo/build/benchrun}
array=$(sbatch --parsable --array="1-$shards" "${hold[@]}" --output="$logs/%x-%A_%a.out" \
  "${sbatch_args[@]}" --export=ALL "$script" "${shard_args[@]}" "$@")
array=${array%%;*}
[ "$gpu" -eq 0 ] && rm -f "$script" # sbatch keeps its own copy
merge=$(sbatch --parsable --dependency="afterany:$array" --output="$logs/%x-%j.out" \
  "${sbatch_args[@]}" --export="ALL,BR_ARRAY_JOB=$array,BR_SHARDS=$shards" "$here/merge.sbatch")
merge=${merge%%;*}
echo "submit.sh: shards: job array $array (1-$shards); merge: job $merge (after the shards)" >&2
echo "array=$array"
echo "merge=$merge"
echo "parts=$results/shards/$array"
