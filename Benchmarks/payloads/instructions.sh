#!/usr/bin/env bash
# Instructions per operation, measured with callgrind (they do not move with machine load):
# runs the benchmark with COUNT and with 0 and prints the difference divided by COUNT. Needs a
# release build and valgrind (`apt-get install -y valgrind`).
#
#   Benchmarks/payloads/instructions.sh full_sync 10          # decode a 1,000-server full_sync
#   Benchmarks/payloads/instructions.sh merge 2000 10000      # update + merge, 10,000 servers
#   Benchmarks/payloads/instructions.sh inflate 10000         # inflate one ~500-byte message
#   Benchmarks/payloads/instructions.sh deflate 10000         # deflate one ~500-byte message
#   Benchmarks/payloads/instructions.sh push 2000             # open + validate + render one push
#
# BENCH=path/to/serverbee-bench measures another build (a baseline, say).
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?mode: full_sync, update, merge, inflate, deflate or push}
count=${2:?count}
servers=${3:-1000}
bench=${BENCH:-.build/release/serverbee-bench}
case "$mode" in
  inflate | deflate)
    command=(ws-codec-count "$mode")
    unit="message"
    ;;
  push)
    command=(push-count)
    unit="open (raw APNs payload, validate, render)"
    ;;
  *)
    command=(decode-count "$mode")
    unit="decode"
    [ -f "Benchmarks/payloads/full_sync_$servers.json" ] \
      || python3 Benchmarks/payloads/gen_payloads.py --servers "$servers" >/dev/null
    ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total() {
  local extra=()
  case "${command[0]}" in
    ws-codec-count | push-count) ;;
    *) extra=(--servers "$servers") ;;
  esac
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$bench" "${command[@]}" "$1" \
    "${extra[@]}" >/dev/null 2>"$out/log.$1"
  grep -E '^(summary|totals):' "$out/cg.$1" | head -n 1 | awk '{print $2}'
}
with=$(total "$count")
without=$(total 0)
case "$mode" in
  inflate | deflate | push) what="$mode" ;;
  *) what="$mode, $servers servers" ;;
esac
echo "$what: $(( (with - without) / count )) instructions per $unit ($with - $without over $count)"
