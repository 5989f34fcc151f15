#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Open the site `benchrun publish` writes in Debian's chromium, headless,
# driven by Playwright (tests/e2e/test_publish.c, in_a_real_browser;
# tests/fixtures/site/browse.js): install playwright-core with npm into a
# scratch folder (never into the tree; it downloads no browser) and run that
# test with it on NODE_PATH. Run after the build, from the repository root:
#   scripts/ci/site.sh [BUILD_DIR]   (default build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
if ! command -v npm >/dev/null 2>&1; then
  echo "site: npm is not installed: the browser test is skipped" >&2
  exit 0
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo "site: chromium is not installed (apt-get install chromium): the browser test is skipped" >&2
  exit 0
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if ! (cd "$scratch" && npm install --silent --no-audit --no-fund playwright-core >/dev/null); then
  echo "site: npm install playwright-core failed: the browser test is skipped" >&2
  exit 0
fi
NODE_PATH="$scratch/node_modules" "$build/test_publish" --verbose --filter '*in_a_real_browser*'
