#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Set up benchrun on Debian 12 / Ubuntu 24.04: install (with apt-get) only what
# pkg-config and CMake cannot already find, then configure and build into
# build/. Safe to run again: a second run installs nothing and rebuilds only
# what changed.
#
#   scripts/setup.sh                 # benchrun alone (Release), in build/
#   scripts/setup.sh --tests         # and everything else: the tests (Criterion,
#                                    # for ctest), the man pages, the completion
#   BR_CMAKE_ARGS="-DBR_WERROR=ON" scripts/setup.sh --tests
#   BR_BUILD_DIR=build-x scripts/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tests=0
for arg in "$@"; do
  case "$arg" in
    --tests) tests=1 ;;
    -h|--help) sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown argument '$arg' (expected --tests)" >&2; exit 2 ;;
  esac
done

missing=()
have() { command -v "$1" >/dev/null 2>&1; }
have cc || missing+=(gcc libc6-dev)
have make || missing+=(make)
have cmake || missing+=(cmake)
have pkg-config || missing+=(pkg-config)
pc() { have pkg-config && pkg-config --exists "$1"; }
pc yaml-0.1 || missing+=(libyaml-dev)
pc libgit2 || missing+=(libgit2-dev)
pc jansson || missing+=(libjansson-dev)
pc sqlite3 || missing+=(libsqlite3-dev)
# Criterion only for the tests.
if [ "$tests" -eq 1 ]; then pc criterion || missing+=(libcriterion-dev); fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if have sudo; then sudo="sudo"; else
      echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The CUDA Toolkit is usually not on PATH (/usr/local/cuda/bin); point CMake at
# it. Without one, benchrun is built for host kernels only.
if [ -z "${CUDACXX:-}" ] && ! have nvcc && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi

build=${BR_BUILD_DIR:-build}
# Without --tests: the tests are configured when Criterion is there (so a
# build tree set up with --tests keeps them), never built; only benchrun is.
tests_arg=()
if [ "$tests" -eq 1 ]; then tests_arg=(-DBR_BUILD_TESTS=ON)
elif ! pc criterion; then tests_arg=(-DBR_BUILD_TESTS=OFF); fi

# One line per phase, as apt or cargo print; cmake's and make's output goes to
# a log, named (with its last lines) when a phase fails.
mkdir -p "$build"
log="$build/setup.log"
: >"$log"
phase() {
  local what=$1 t0=$SECONDS
  shift
  printf 'setup: %s ...' "$what" >&2
  if "$@" >>"$log" 2>&1; then
    printf ' done in %d s\n' $((SECONDS - t0)) >&2
  else
    printf ' failed (%d s); the whole output is in %s, its end:\n' $((SECONDS - t0)) "$log" >&2
    tail -n 25 "$log" >&2
    exit 1
  fi
}
# shellcheck disable=SC2086
phase "configure ($build)" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "${tests_arg[@]}" ${BR_CMAKE_ARGS:-}
if [ "$tests" -eq 1 ]; then
  n_tests=$(find tests -name 'test_*.c' | wc -l)
  phase "build benchrun, its $n_tests tests, man pages and completion ($(nproc) jobs)" \
    cmake --build "$build" -j "$(nproc)"
else
  phase "build benchrun ($(nproc) jobs)" cmake --build "$build" -j "$(nproc)" --target benchrun
fi
echo "setup: done: $build/benchrun" >&2
