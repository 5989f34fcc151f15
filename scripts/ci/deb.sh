#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI: the Debian package's round trip. Builds benchrun_<version>_<arch>.deb
# from a configured and built build directory (cpack -G DEB), installs it with
# apt-get, then, from an empty directory outside the source tree, scaffolds a
# kernel repository (`benchrun init`), runs its suites, saves a baseline, runs
# again against it, checks `pkg-config --cflags benchrun` and a module built
# by hand with it, and finally removes the package and checks that every file
# it installed is gone. Needs root (apt-get); CI runs as root.
#
#   scripts/ci/deb.sh [BUILD_DIR]      # default: build
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
export DEBIAN_FRONTEND=noninteractive
[ "$(id -u)" -eq 0 ] || { echo "deb.sh: needs root (apt-get install)" >&2; exit 1; }

step() { printf '\n== deb.sh: %s\n' "$*"; }
fail() { echo "deb.sh: FAILED: $*" >&2; exit 1; }
# expect STATUS CMD...: run CMD, fail unless it exits with STATUS.
expect() {
  local want=$1 st=0
  shift
  echo "+ $*"
  "$@" || st=$?
  [ "$st" -eq "$want" ] || fail "'$*' exited $st, expected $want"
}

work=$(mktemp -d /tmp/benchrun-deb-XXXXXX)
case "$work" in "$src"/*) fail "the work directory is inside the source tree" ;; esac
installed_by_us=0
cleanup() {
  if [ "$installed_by_us" -eq 1 ] && dpkg -s benchrun >/dev/null 2>&1; then
    apt-get remove -y -qq "${apt_opts[@]}" benchrun >/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
apt_opts=(--no-install-recommends -o DPkg::Lock::Timeout=300)

step "package"
rm -f "$build"/benchrun_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
debs=("$build"/benchrun_*.deb)
if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then fail "cpack made no single benchrun_*.deb"; fi
deb=${debs[0]}
dpkg-deb -I "$deb"
dpkg-deb -f "$deb" Depends | grep -q 'libyaml' || fail "Depends lacks libyaml"
dpkg-deb -f "$deb" Depends | grep -q 'libgit2' || fail "Depends lacks libgit2"
dpkg-deb -f "$deb" Depends | grep -q 'libjansson' || fail "Depends lacks libjansson"
dpkg-deb -f "$deb" Depends | grep -q 'libsqlite3' || fail "Depends lacks libsqlite3"
# docs/install.md gives the package's size ("about N KB", of the GPU build):
# within 25% of the package just built, when that is a GPU build too.
doc_kb=$(tr '\n' ' ' <"$src/docs/install.md" | grep -o 'The package is about [0-9]* KB' | grep -o '[0-9][0-9]*') ||
  fail "docs/install.md says no 'The package is about N KB'"
size=$(stat -c %s "$deb")
if dpkg-deb -f "$deb" Description | grep -q 'Built with the GPU backend'; then
  awk -v s="$size" -v d="$doc_kb" 'BEGIN { r = s / (d * 1000); exit !(r > 0.75 && r < 1.25) }' ||
    fail "the package is $size bytes, but docs/install.md says about $doc_kb KB"
  echo "deb.sh: the package is $size bytes; docs/install.md says about $doc_kb KB"
else
  echo "deb.sh: a build without the GPU backend ($size bytes): docs/install.md's about $doc_kb KB is the GPU build's, not checked"
fi

step "install"
if dpkg -s benchrun >/dev/null 2>&1; then apt-get remove -y -qq "${apt_opts[@]}" benchrun >/dev/null; fi
cp "$deb" "$work/"
# Without the Recommends (gnuplot-nox): Depends alone must make it work.
installed_by_us=1
(cd "$work" && apt-get install -y -qq "${apt_opts[@]}" ./"$(basename "$deb")" >/dev/null)
installed=$(dpkg -L benchrun)
[ "$(command -v benchrun)" = /usr/bin/benchrun ] || fail "benchrun is not /usr/bin/benchrun"
for f in /usr/include/benchrun/benchrun_kernel.h /usr/include/benchrun/benchrun_cuda.h \
         /usr/share/bash-completion/completions/benchrun /usr/share/pkgconfig/benchrun.pc \
         /usr/share/benchrun/suites/reduction.yaml; do
  [ -f "$f" ] || fail "$f is not installed"
done
benchrun --version

step "pkg-config, and a module built by hand"
cflags=$(pkg-config --cflags benchrun | xargs) # without pkg-config's trailing space
echo "pkg-config --cflags benchrun: $cflags"
[ "$cflags" = "-I/usr/include/benchrun" ] || fail "unexpected Cflags: $cflags"
mkdir "$work/byhand"
cat >"$work/byhand/k.c" <<'EOF'
#include "benchrun_kernel.h"
static int run(br_case *c) { (void)c; return 0; }
static int verify(br_case *c) { (void)c; return 0; }
static const br_kernel k[] = {{"nop", 0, run, verify, 0}};
BR_MODULE(k);
EOF
# shellcheck disable=SC2086 # $cflags is a list of flags
expect 0 cc -O2 -shared -fPIC $cflags "$work/byhand/k.c" -o "$work/byhand/k.so"

step "a kernel repository, from an empty directory outside the source tree"
mkdir "$work/empty"
cd "$work/empty"
[ -z "$(ls -A)" ] || fail "$PWD is not empty"
expect 0 benchrun init mykernels
expect 2 benchrun init mykernels # refuses to overwrite
cd mykernels
export XDG_CACHE_HOME="$work/cache"
expect 0 benchrun suites/*.yaml
expect 0 benchrun --save-baseline suites/*.yaml
ls -R baselines
[ -n "$(find baselines -name '*.json')" ] || fail "--save-baseline wrote no baselines/*/*.json"
# Against the baseline: the comparison is printed; a host kernel rerun on a
# shared CI machine may move by tens of percent (README, "Rerun spread"), so
# the gate only reports here.
out=$(benchrun --fail-on never suites/*.yaml 2>&1) || fail "the comparison run failed: $out"
echo "$out"
echo "$out" | grep -q '^vs baseline: ' || fail "the second run printed no comparison with the baseline"

step "remove"
cd /
apt-get remove -y -qq "${apt_opts[@]}" benchrun >/dev/null
dpkg -s benchrun >/dev/null 2>&1 && [ "$(dpkg-query -W -f='${Status}' benchrun)" != "deinstall ok config-files" ] &&
  fail "benchrun is still installed"
left=0
while IFS= read -r f; do
  if [ -f "$f" ] || [ -L "$f" ]; then echo "left behind: $f" >&2; left=1; fi
done <<<"$installed"
[ "$left" -eq 0 ] || fail "files of the package remain after apt-get remove"
hash -r
! command -v benchrun >/dev/null || fail "benchrun is still on PATH: $(command -v benchrun)"
echo "deb.sh: the package installs, runs from $work/empty/mykernels and removes cleanly"
