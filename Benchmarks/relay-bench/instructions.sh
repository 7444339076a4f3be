#!/usr/bin/env bash
# Instructions per accepted `POST /v1/send`, measured with callgrind (they do not move with
# machine load): runs relay-bench with COUNT sends and with 0 and prints the difference divided
# by COUNT. The difference leaves out start-up; it includes the benchmark's client (one write
# and one read of a prebuilt request per send). Needs a release build and valgrind.
#
#   swift build -c release --product relay-bench
#   Benchmarks/relay-bench/instructions.sh 2000                     # serverbee-relay's default
#   Benchmarks/relay-bench/instructions.sh 2000 --provider scripted # ScriptedPushProvider alone
#
# BENCH=path/to/relay-bench measures another build (a baseline, say).
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:?count}
shift
bench=${BENCH:-.build/release/relay-bench}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total() {
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$bench" sends "$1" "$@" \
    >/dev/null 2>"$out/log.$1"
  grep -E '^(summary|totals):' "$out/cg.$1" | head -n 1 | awk '{print $2}'
}
with=$(total "$count" "$@")
without=$(total 0 "$@")
echo "relay send${*:+ ($*)}: $(( (with - without) / count )) instructions per accepted send" \
  "($with - $without over $count)"
