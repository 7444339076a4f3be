#!/usr/bin/env bash
# The test command: installs what the tests need when it is missing, builds, runs every test,
# lints the sources, checks the module layering and smoke-runs every fuzz target. `.ci/run`
# calls exactly this.
#
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh

# Runs a command, hiding per-file progress and "started" lines; fails with the command.
quiet() {
  set +e
  "$@" 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] | started\.?$| started at '
  local status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || { echo "'$*' failed (exit $status)"; exit "$status"; }
}

echo "== swift build"
quiet swift build

echo "== swift test"
# Swift Testing only (no XCTest tests exist, so its "Executed 0 tests" line is noise).
# Suites run one after another (--no-parallel): on two cores, the real-socket interop suites
# (Python peers, openssl, 256-connection load checks) starve each other of CPU when run
# together. Every test is still isolated (ephemeral ports, temp directories, fresh fakes).
quiet swift test --disable-xctest --no-parallel

echo "== swift format lint --strict"
swift format lint --strict -r Modules Tests Examples Benchmarks Package.swift
swift format lint --strict -r Fuzz/Sources Fuzz/Package.swift

echo "== docs (DocC, warnings are errors)"
scripts/docs.sh

echo "== layering"
scripts/check-layering.sh

# Every fuzz target builds (debug, ASan + coverage) and runs 1 s from its seeds: about 60 s
# to build from a cold Fuzz/.build-smoke on two quiet cores, then about 35 s of runs.
# Campaigns are `scripts/fuzz.sh` alone.
echo "== fuzz smoke"
scripts/fuzz.sh --smoke
echo "all checks passed"
