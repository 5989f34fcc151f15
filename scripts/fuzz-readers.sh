#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzz the readers of what benchrun reads back with libFuzzer, each for
# SECONDS (default 15): the results JSON reader (fuzz/fuzz_results.c), the
# baseline reader (fuzz_baseline.c), the shard reader and merge
# (fuzz_shard.c) and the history index's rows (fuzz_index.c). Builds them in
# build-fuzz/ with clang (scripts/fuzz.sh installs clang and its libFuzzer
# runtime; run it first on a fresh machine), seeds each from the repository's
# files of its kind (results and baseline files of tests/fixtures and
# baselines/, fuzz/seeds/shard/, fuzz/seeds/index/), prints each target's
# final stats and exits non-zero when one found a crash, leak, timeout or
# out-of-memory (the input is saved under build-fuzz/fuzz-artifacts/).
#
#   scripts/fuzz-readers.sh                      # 15 s each
#   scripts/fuzz-readers.sh 300 fuzz_index       # one target, 5 min
#   build-fuzz/fuzz/fuzz_index build-fuzz/fuzz-artifacts/crash-...   # replay
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-15}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_results fuzz_baseline fuzz_shard fuzz_index)
build=${BR_FUZZ_BUILD_DIR:-build-fuzz}

if ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
  clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
  echo "fuzz-readers: clang -fsanitize=fuzzer does not link; scripts/fuzz.sh installs it" >&2
  exit 1
fi
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBR_FUZZ=ON \
  -DBR_WITH_CUDA=OFF -DBR_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target "${targets[@]}" -j "$(nproc)"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/fuzz-artifacts"
failed=0
for t in "${targets[@]}"; do
  work=$build/fuzz-work/$t
  rm -rf "$work/seeds" "$work/tmp"
  mkdir -p "$work/seeds" "$work/corpus" "$work/tmp"
  case $t in
    fuzz_results) find tests/fixtures -name '*.json' -size -256k -exec cp -t "$work/seeds" {} + ;;
    fuzz_baseline) find baselines tests/fixtures/golden -name '*.json' -exec cp -t "$work/seeds" {} + ;;
    fuzz_shard) cp fuzz/seeds/shard/* "$work/seeds/" ;;
    fuzz_index) cp fuzz/seeds/index/* "$work/seeds/" ;;
  esac
  log=$work/fuzz.log
  # The index target writes an SQLite file per input: in memory (/dev/shm)
  # where there is one, as fsync on a disk makes it 10 times slower.
  tmp=$(cd "$work/tmp" && pwd)
  if [ "$t" = fuzz_index ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    tmp=$(mktemp -d /dev/shm/br-fuzz-index.XXXXXX)
  fi
  set +e
  # shellcheck disable=SC2086
  TMPDIR=$tmp "$build/fuzz/$t" "$work/corpus" "$work/seeds" \
    -max_total_time="$secs" -max_len=65536 -timeout=25 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" ${BR_FUZZ_ARGS:-} >"$log" 2>&1
  rc=$?
  set -e
  rm -rf "$work/tmp"
  case $tmp in /dev/shm/br-fuzz-index.*) rm -rf "$tmp" ;; esac
  echo "$t:"
  grep -aE '^#[0-9]+[[:space:]]+(DONE|INITED)|^stat::number_of_executed_units|^Done ' "$log" | tail -n 3
  if [ $rc -ne 0 ]; then
    tail -n 60 "$log" >&2
    echo "fuzz-readers: $t found a problem (exit $rc); inputs in $build/fuzz-artifacts/, log $log" >&2
    failed=1
  fi
done
[ $failed -eq 0 ] && echo "fuzz-readers: no crash, leak or timeout in ${secs}s each (${targets[*]})"
exit $failed
