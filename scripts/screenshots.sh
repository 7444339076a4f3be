#!/usr/bin/env bash
# The README's pictures: `serverbee server` and `serverbee insights` drawn as SVG by the same
# code that draws them on a terminal, against a serverbee-simulator with a week of made-up
# history, on 127.0.0.1. The simulator ends with the script, failure or not.
# Needs `swift build` first.
#
#   scripts/screenshots.sh [WIDTH]     (default 120 columns)
set -euo pipefail
cd "$(dirname "$0")/.."
width=${1:-120}
bin=.build/debug
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$bin/serverbee-simulator" --port 0 --data "$work/data" --admin admin:secret --servers 4 \
  --history 7 >"$work/simulator.json" 2>"$work/simulator.log" &
pid=$!
for _ in $(seq 100); do [ -s "$work/simulator.json" ] && break; sleep 0.1; done
url=$(sed -E 's/.*"url":"([^"]+)".*/\1/' "$work/simulator.json")
export SERVERBEE_HOME="$work/home"
sb() { "$bin/serverbee" "$@"; }
sb login --server "$url" --username admin --password secret >/dev/null
sb servers edit server-1 --name web-fra-1 --price 12 --currency EUR --billing-cycle monthly \
  --traffic-limit 1099511627776 --traffic-limit-type sum --country de >/dev/null
sb servers edit server-2 --name db-primary --price 30 --billing-cycle monthly >/dev/null
sb server web-fra-1 --range 24h --svg --width "$width" >Documentation/Images/server-screen.svg
sb insights --svg --width "$width" >Documentation/Images/insights.svg
echo "wrote Documentation/Images/server-screen.svg and insights.svg ($width columns)"
