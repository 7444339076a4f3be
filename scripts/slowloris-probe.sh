#!/usr/bin/env bash
# Slowloris probe for serverbee-simulator (or serverbee-relay): 1,024 connections send a request
# head one byte a second and reconnect when dropped, while a well-behaved client measures how
# long GET /healthz takes to be answered. Run by hand, not in CI; prints figures, asserts nothing.
#
#   scripts/slowloris-probe.sh [--release] [--relay] [--connections N] [--seconds N]
#                              [--interval S] [--give-up S]
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=debug
product=serverbee-simulator
args=()
for arg in "$@"; do
  case "$arg" in
    --release) configuration=release ;;
    --relay) product=serverbee-relay ;;
    *) args+=("$arg") ;;
  esac
done
swift build -c "$configuration" --product "$product" >/dev/null
binary=.build/$configuration/$product
work=$(mktemp -d)
if [ "$product" = serverbee-simulator ]; then
  "$binary" --port 0 --data "$work/data" --admin probe:probe-password --servers 1 \
    --metrics-interval 0 >"$work/line" 2>"$work/log" &
else
  "$binary" --port 0 >"$work/line" 2>"$work/log" &
fi
pid=$!
trap 'kill -INT $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do [ -s "$work/line" ] && break; sleep 0.1; done
url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$work/line")
echo "$product ($configuration) at $url"
python3 scripts/slowloris_probe.py "$url" "${args[@]}"
