#!/usr/bin/env bash
# Regenerates Documentation/Coverage.md from the app's inventory, the route catalogue, the
# SDK's sources, the simulator's route table and the command line's command table.
#
#   scripts/coverage.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SERVERBEE_WRITE_COVERAGE=1 swift test --disable-xctest --filter CoverageTests >/dev/null 2>&1 || true
swift test --disable-xctest --filter CoverageTests 2>&1 | grep -E "✘|passed|failed" | tail -n 3
git status --short Documentation/Coverage.md
