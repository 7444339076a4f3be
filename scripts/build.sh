#!/usr/bin/env bash
# Installs what is missing (Debian packages), then builds every module and executable.
#
#   scripts/build.sh            # debug build
#   scripts/build.sh release    # optimised build (for benchmarks)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
configuration=${1:-debug}
swift build -c "$configuration" 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] ' || true
swift build -c "$configuration" >/dev/null
echo "built ($configuration): products are in $(swift build -c "$configuration" --show-bin-path)"
