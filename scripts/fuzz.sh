#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzz the suite loader, the plan and the expression evaluator with libFuzzer
# (fuzz/fuzz_suite.c) for SECONDS (default 60). Installs clang and its
# libFuzzer runtime with apt-get when missing, builds build-fuzz/ with clang,
# seeds a corpus from suites/*.yaml and tests/fixtures/**/*.yaml (and the
# bytes/flops/where expressions in them) and fuzz/seeds/*.yaml (the shapes of
# defects found by other means: value counts that overflow int64, in zip
# groups too; names with C1 and bidi controls), fuzzes, prints the final stats and
# exits non-zero when a crash, leak, timeout or out-of-memory was found (the
# input is saved under build-fuzz/fuzz-artifacts/).
#
#   scripts/fuzz.sh                 # 60 s
#   scripts/fuzz.sh 600             # 10 min
#   BR_FUZZ_ARGS="-jobs=4" scripts/fuzz.sh 60   # extra libFuzzer options
#   build-fuzz/fuzz/fuzz_suite build-fuzz/fuzz-artifacts/crash-...   # replay
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
build=${BR_FUZZ_BUILD_DIR:-build-fuzz}
export DEBIAN_FRONTEND=noninteractive

have() { command -v "$1" >/dev/null 2>&1; }
pc() { have pkg-config && pkg-config --exists "$1"; }
# clang can link a fuzzer only with the libFuzzer runtime (libclang-rt-dev).
fuzzer_links() {
  have clang && echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
    clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1
}
missing=()
fuzzer_links || missing+=(clang libclang-rt-dev)
have cmake || missing+=(cmake)
have make || missing+=(make)
have pkg-config || missing+=(pkg-config)
pc yaml-0.1 || missing+=(libyaml-dev)
pc libgit2 || missing+=(libgit2-dev)
pc jansson || missing+=(libjansson-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "fuzz: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if have sudo; then sudo="sudo"; else
      echo "fuzz: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
    fi
  fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fuzzer_links || { echo "fuzz: clang -fsanitize=fuzzer still does not link" >&2; exit 1; }
fi

CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBR_FUZZ=ON \
  -DBR_WITH_CUDA=OFF -DBR_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target fuzz_suite -j "$(nproc)"

# Seeds, gathered afresh each run; corpus/ keeps what earlier runs found.
work=$build/fuzz-work
rm -rf "$work/seeds" "$work/tmp"
mkdir -p "$work/seeds" "$work/corpus" "$work/tmp" "$build/fuzz-artifacts"
while IFS= read -r -d '' f; do
  name=$(echo "${f%.yaml}" | tr / _)
  cp "$f" "$work/seeds/$name.yaml"
  # Each one-line bytes/flops/where value, as an expression input ("#expr\n" marker).
  sed -n 's/^ *\(bytes\|flops\|where\): *"\{0,1\}\([^"{[]*\)"\{0,1\} *$/\2/p' "$f" | cat -n |
    while read -r n e; do printf '#expr\n%s' "$e" >"$work/seeds/expr_${name}_$n"; done
done < <(find suites tests/fixtures fuzz/seeds -name '*.yaml' -print0)
n=0
for e in '2^20 * n / (m + 1) % 7' 'n > 0 && m <= 3 || !k' '-9223372036854775807 - 1' \
  '(bs - 1) ^ 2 ^ 3 != k' 'k == 0 || n / k > 1'; do
  n=$((n + 1)); printf '#expr\n%s' "$e" >"$work/seeds/expr_extra_$n"
done
# A dictionary: the suite format's keys and words, the expression operators.
words=("name: " "description: " "source: " "kernels: " "params: " "where: " "defines: "
  "link: " "metric: " "bytes: " "flops: " "memory: " "cache: " "peak: " "warmup: " "budget: "
  "watchdog: " "measure: " "regression: " "min_samples: " "min_time: " "max_noise: "
  "timeout: " "max_samples: " "throttle: " "hold: " "mode: " "headline: " "threshold: "
  "alpha: " "{pow2: [" "{from: " "to: " "step: " "{zip: {" "GB/s" "GFLOP/s" "TFLOP/s" "TOP/s"
  "none" "flush" "warm" "flush-memset" "measured" "theoretical" "cold" "batch" "both" "ms"
  "us" "ns" "min" "%" "dummy.c" "dummy.cu" "#expr\x0a" "&&" "||" "<=" ">=" "==" "!=" "^" "2^"
  "-9223372036854775808" "9223372036854775807" "18446744073709551615" "62" "step: 1"
  "\\\\u009B" "\\\\u0085" "\\\\u202E" "\\\\u2066" "\\\\u200F")
printf '"%s"\n' "${words[@]}" >"$work/suite.dict"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
log=$work/fuzz.log
set +e
# shellcheck disable=SC2086
TMPDIR=$(cd "$work/tmp" && pwd) "$build/fuzz/fuzz_suite" "$work/corpus" "$work/seeds" \
  -dict="$work/suite.dict" -max_total_time="$secs" -max_len=4096 -timeout=25 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/" \
  ${BR_FUZZ_ARGS:-} >"$log" 2>&1
rc=$?
set -e
rm -rf "$work/tmp"
grep -aE '^#[0-9]+[[:space:]]+(DONE|INITED)|^stat::|^Done ' "$log" | tail -n 8
if [ $rc -ne 0 ]; then
  tail -n 60 "$log" >&2
  echo "fuzz: libFuzzer found a problem (exit $rc); inputs in $build/fuzz-artifacts/, log $log" >&2
  exit 1
fi
echo "fuzz: no crash, leak or timeout in ${secs}s (log $log)"
