#!/usr/bin/env bash
# APNs sends through one HTTP/2 connection of the relay's APNsPushProvider to the mock APNs
# (Tests/Peers/apns_peer.py on Python h2, checking every header and body as in the tests, and
# each distinct JWT in full once per connection, as APNs accepts one for up to an hour):
# sends per second with p50/p99 latency, then (INSTRUCTIONS=1, needs valgrind) instructions per
# accepted send in the relay's process, the mock excluded.
#
#   swift build -c release --product relay-bench
#   Benchmarks/relay-bench/apns.sh 5000                  # sends/s, p50, p99
#   INSTRUCTIONS=1 Benchmarks/relay-bench/apns.sh 2000   # also instructions per send
#
# APNS_BENCH_CONCURRENCY (default 50) sets the sends in flight; BENCH=path another build.
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:?count}
bench=${BENCH:-.build/release/relay-bench}
work=$(mktemp -d)
mock=""
cleanup() {
  if [ -n "$mock" ]; then kill "$mock" 2>/dev/null || true; wait "$mock" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
quiet() { "$@" >/dev/null 2>&1; }
quiet openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout "$work/ca.key" -out "$work/ca.pem" -days 2 -subj "/CN=relay-bench CA" \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
quiet openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout "$work/leaf.key" -out "$work/leaf.csr" -subj /CN=localhost
printf 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n' >"$work/leaf.ext"
quiet openssl x509 -req -in "$work/leaf.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" \
  -CAcreateserial -out "$work/leaf.pem" -days 2 -extfile "$work/leaf.ext"
quiet openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/AuthKey.p8"
quiet openssl pkey -in "$work/AuthKey.p8" -pubout -out "$work/public.pem"
python3 Tests/Peers/apns_peer.py --cert "$work/leaf.pem" --key "$work/leaf.key" \
  --public-key "$work/public.pem" --team TEAM123456 --key-id KEY1234567 \
  --max-streams 1000 >"$work/port" 2>"$work/mock.err" &
mock=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(head -n 1 "$work/port")
export APNS_BENCH_URL="https://localhost:$port" APNS_BENCH_CA_FILE="$work/ca.pem"
export APNS_BENCH_KEY_FILE="$work/AuthKey.p8"
"$bench" apns "$count"
if [ "${INSTRUCTIONS:-0}" = 1 ]; then
  total() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" "$bench" apns "$1" \
      >/dev/null 2>"$work/log.$1"
    grep -E '^(summary|totals):' "$work/cg.$1" | head -n 1 | awk '{print $2}'
  }
  with=$(total "$count")
  without=$(total 1)
  echo "relay-bench apns: $(( (with - without) / (count - 1) )) instructions per accepted send" \
    "in the relay's process ($with - $without over $((count - 1)))"
fi
