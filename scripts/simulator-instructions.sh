#!/usr/bin/env bash
# Instructions per simulator request, measured with callgrind (they do not move with machine
# load): runs serverbee-simulator under valgrind twice on the same seeded data directory, once
# answering COUNT requests and once none (the same start, login and stop), and prints the
# difference divided by COUNT. Needs valgrind and python3 with `websockets`.
#
#   scripts/simulator-instructions.sh servers 20 [SERVERS]   # authenticated GET /api/servers
#   scripts/simulator-instructions.sh full_sync 20 [SERVERS] # WebSocket connect up to full_sync
#
# SIMULATOR=path/to/serverbee-simulator measures another build (a baseline, say).
# SERVERBEE_SIMULATOR_CACHE=off measures misses: the simulator then keeps no rows, list body or
# full_sync frame, so every request reads and writes (builds before that variable ignore it);
# a full_sync is then joined from the servers' kept objects, which are not a cache of answers.
# WARMUP=N (1 for full_sync, else 0) makes N requests first in both runs, outside the
# difference: the first full_sync builds those objects from every row, the cost of one right
# after a metrics tick. WARMUP=0 counts it in.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:?mode: servers or full_sync}
count=${2:?count}
servers=${3:-1000}
if [ "$mode" = full_sync ]; then warmup=${WARMUP:-1}; else warmup=${WARMUP:-0}; fi
binary=${SIMULATOR:-.build/release/serverbee-simulator}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

start() {  # start DIR [valgrind args…]: the simulator on DIR, its pid in $pid, URL in $url
  local dir=$1
  shift
  "$@" "$binary" --port 0 --data "$dir" --admin bench:bench-password --servers "$servers" \
    --metrics-interval 0 --outbox-workers 0 >"$work/line" 2>"$work/log" &
  pid=$!
  for _ in $(seq 1 3000); do [ -s "$work/line" ] && break; sleep 0.1; done
  url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$work/line")
}

# Seed once outside valgrind; each measured run starts from a copy of this directory.
start "$work/seed"
kill -INT "$pid"
wait "$pid" || true

total() {
  rm -rf "$work/data" "$work/line"
  cp -a "$work/seed" "$work/data"
  rm -f "$work/data/simulator.lock"
  start "$work/data" valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1"
  python3 - "$url" "$mode" "$(( $1 + warmup ))" <<'PY'
import asyncio, http.client, json, sys, urllib.parse
import websockets
url, mode, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
connection.request("POST", "/api/mobile/auth/login", json.dumps(
    {"username": "bench", "password": "bench-password", "installation_id": "bench",
     "device_name": "bench"}), {"Content-Type": "application/json"})
token = json.loads(connection.getresponse().read())["data"]["access_token"]
headers = {"Authorization": "Bearer " + token}
if mode == "servers":
    for _ in range(count):
        connection.request("GET", "/api/servers", headers=headers)
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
else:
    async def sync():
        for _ in range(count):
            async with websockets.connect(url.replace("http", "ws", 1) + "/api/ws/servers",
                                          additional_headers=headers, open_timeout=600,
                                          max_size=None) as ws:
                assert json.loads(await ws.recv())["type"] == "full_sync"
    asyncio.run(sync())
PY
  kill -INT "$pid"
  wait "$pid" || true
  grep -E '^(summary|totals):' "$work/cg.$1" | head -n 1 | awk '{print $2}'
}
with=$(total "$count")
without=$(total 0)
echo "$mode, $servers servers: $(( (with - without) / count )) instructions per request" \
  "($with - $without over $count, after $warmup; $binary)"
