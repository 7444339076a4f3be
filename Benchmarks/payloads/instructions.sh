#!/usr/bin/env bash
# Instructions per decode, measured with callgrind (they do not move with machine load):
# runs `serverbee-bench decode-count MODE COUNT` and `... MODE 0` and prints the difference
# divided by COUNT. Needs a release build and valgrind (`apt-get install -y valgrind`).
#
#   Benchmarks/payloads/instructions.sh full_sync 10          # 1,000-server full_sync
#   Benchmarks/payloads/instructions.sh merge 2000 10000      # update + merge, 10,000 servers
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?mode: full_sync, update or merge}
count=${2:?count}
servers=${3:-1000}
bench=.build/release/serverbee-bench
[ -f "Benchmarks/payloads/full_sync_$servers.json" ] \
  || python3 Benchmarks/payloads/gen_payloads.py --servers "$servers" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
total() {
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$bench" decode-count "$mode" "$1" \
    --servers "$servers" >/dev/null 2>"$out/log.$1"
  grep -E '^(summary|totals):' "$out/cg.$1" | head -n 1 | awk '{print $2}'
}
with=$(total "$count")
without=$(total 0)
echo "$mode, $servers servers: $(( (with - without) / count )) instructions per decode" \
  "($with - $without over $count)"
