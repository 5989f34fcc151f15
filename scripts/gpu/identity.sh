#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# identity.sh BASE.tar.gz - the proof that a refactor kept behaviour on a GPU:
# builds benchrun from BASE (a `git archive --format=tar.gz` of the commit
# before the refactor) beside build/benchrun (this tree, built with CUDA),
# runs suites/reduction.yaml with each, and compares the two results
# documents apart from timing-derived fields (scripts/dev/json_same.py).
# Logs under "$OUT/identity/"; the comparison's last line is the summary.
set -u
OUT=${OUT:-/tmp/identity-out}
D="$OUT/identity"
mkdir -p "$D"
base_tar=${1:?usage: identity.sh BASE.tar.gz}
[ -x build/benchrun ] || { echo "identity.sh: build/benchrun is not built"; exit 1; }
src=$(mktemp -d)
tar -xzf "$base_tar" -C "$src"
cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DBR_BUILD_TESTS=OFF >"$D/base-cmake.txt" 2>&1 &&
  cmake --build "$src/build" -j "$(nproc)" --target benchrun >"$D/base-build.txt" 2>&1 ||
  { echo "identity.sh: the base does not build (see $D/base-build.txt)"; exit 1; }
# The same suite path for both, so suite.path and the hash agree.
(cd "$src" && ./build/benchrun suites/reduction.yaml --json "$D/before.json" -q) >"$D/before.txt" 2>&1
echo "before: exit $?"
build/benchrun suites/reduction.yaml --json "$D/after.json" -q >"$D/after.txt" 2>&1
echo "after: exit $?"
python3 scripts/dev/json_same.py "$D/before.json" "$D/after.json" | tee "$D/same.txt"
rm -rf "$src"
