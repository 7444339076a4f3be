#!/usr/bin/env bash
# Load check for serverbee-simulator: authenticated GET requests/s and concurrent WebSocket
# clients, with the simulator's RSS, threads and descriptors per client. Prints figures;
# asserts nothing.
#
#   scripts/simulator-load.sh [--release] [--binary PATH] [--servers N] [--metrics-interval S]
#     [--seconds N] [--clients N] [--threads N] [--processes] [--only rest|ws|sync] [--no-cache]
# --binary runs another build (a baseline) instead of building this one. --no-cache keeps no
# large answer (SERVERBEE_SIMULATOR_CACHE=off): every request reads the rows and writes its
# answer, what a cache miss costs; a full_sync is joined for each session from the servers' kept
# objects (builds before that variable ignore it). Needs python3 with the
# `websockets` package (pip install websockets).
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=debug
binary=
servers=1
interval=1
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --release) configuration=release ;;
    --binary) binary=$2; shift ;;
    --servers) servers=$2; shift ;;
    --metrics-interval) interval=$2; shift ;;
    --no-cache) export SERVERBEE_SIMULATOR_CACHE=off ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [ -z "$binary" ]; then
  swift build -c "$configuration" --product serverbee-simulator >/dev/null
  binary=.build/$configuration/serverbee-simulator
fi
work=$(mktemp -d)
"$binary" --port 0 --data "$work/data" --admin load:load-password --servers "$servers" \
  --metrics-interval "$interval" >"$work/line" 2>"$work/log" &
pid=$!
trap 'kill -INT $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 600); do [ -s "$work/line" ] && break; sleep 0.1; done
url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$work/line")
echo "simulator ($binary, $servers servers, metrics every $interval s) at $url"
rate=$(python3 -c "import sys; print($servers / $interval if $interval > 0 else 0)")
python3 scripts/simulator_load.py "$url" load load-password --pid "$pid" \
  --updates-per-second "$rate" "${args[@]}"
