#!/usr/bin/env bash
# The first command on a fresh machine: installs what is missing (Debian packages), builds the
# `serverbee` command line and runs its demo against an embedded simulator (no network needed).
#
#   scripts/demo.sh                   # 20 seconds of live metrics
#   scripts/demo.sh --duration 5      # any `serverbee demo` option
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
echo "== building serverbee (first build takes a few minutes)"
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
if ! swift build --product serverbee >"$build_log" 2>&1; then
  cat "$build_log" >&2
  echo "demo: the build failed" >&2
  exit 1
fi
exec "$(swift build --show-bin-path)/serverbee" demo "$@"
