#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Read the CSV files of a 10,000-sample case with DuckDB's read_csv and its
# defaults (tests/e2e/test_csv_readers.c, duckdb_types_every_column): install
# DuckDB's Node API with npm into a scratch folder (never into the tree) and
# run that test with it on NODE_PATH. Run after the build, from the
# repository root:  scripts/ci/csvjson.sh [BUILD_DIR]   (default build/)
set -euo pipefail
cd "$(dirname "$0")/../.."
build="${1:-build}"
if ! command -v npm >/dev/null 2>&1; then
  echo "csvjson: npm is not installed: the DuckDB check is skipped" >&2
  exit 0
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
if ! (cd "$scratch" && npm install --silent --no-audit --no-fund @duckdb/node-api >/dev/null); then
  echo "csvjson: npm install @duckdb/node-api failed: the DuckDB check is skipped" >&2
  exit 0
fi
NODE_PATH="$scratch/node_modules" "$build/test_csv_readers" --verbose --filter '*duckdb*'
