#!/usr/bin/env bash
# Load check for serverbee-simulator: authenticated GET requests/s and concurrent WebSocket
# clients at one update per second each. Prints figures; asserts nothing.
#
#   scripts/simulator-load.sh [--release] [--seconds N] [--clients N] [--threads N]
# Needs python3 with the `websockets` package (pip install websockets).
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=debug
args=()
for arg in "$@"; do
  if [ "$arg" = "--release" ]; then configuration=release; else args+=("$arg"); fi
done
swift build -c "$configuration" --product serverbee-simulator >/dev/null
binary=.build/$configuration/serverbee-simulator
work=$(mktemp -d)
"$binary" --port 0 --data "$work/data" --admin load:load-password --servers 1 \
  --metrics-interval 1 >"$work/line" 2>"$work/log" &
pid=$!
trap 'kill -INT $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do [ -s "$work/line" ] && break; sleep 0.1; done
url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$work/line")
echo "simulator ($configuration) at $url"
python3 scripts/simulator_load.py "$url" load load-password "${args[@]}"
