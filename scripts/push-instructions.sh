#!/usr/bin/env bash
# Instructions the simulator spends per encrypted push, across processes, measured with
# callgrind (they do not move with machine load): a serverbee-relay process (local-device
# provider; a device subscribed over a WebSocket by this script, so every push is accepted and
# delivered to it), and serverbee-simulator
# under valgrind, run twice on the same seeded data directory: once admitting COUNT test pushes
# (`POST /api/mobile/push/test`) and waiting until its outbox workers have sent every one to
# the relay and recorded the answer, once admitting none (the same start, login, settings,
# registration and stop). Prints the difference divided by COUNT: admission (authentication,
# sealing, the outbox row) + the workers' claim, relay request and record + one status read
# per push (`GET /api/mobile/push/test/{id}`, how the script knows it is done).
#
#   swift build -c release --product serverbee-simulator --product serverbee-relay
#   scripts/push-instructions.sh 200
#
# SIMULATOR=path/to/serverbee-simulator measures another build (a baseline, say); RELAY= picks
# the relay. RELAY_INSTRUCTIONS=1 also runs a fresh relay under callgrind for each of the two
# runs and prints the relay's instructions per push the same way (HTTP parse, validation, the
# device-stream write). KEEP=DIR keeps the callgrind files (for `callgrind_annotate`). Needs
# valgrind and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:?count}
binary=${SIMULATOR:-.build/release/serverbee-simulator}
relay=${RELAY:-.build/release/serverbee-relay}
work=$(mktemp -d)
relay_pid=
start_relay() {  # start_relay [valgrind args…]: a relay, its pid in $relay_pid, URL in $relay_url
  rm -f "$work/relay"
  "$@" "$relay" --port 0 --limits 1000000,1000000,1000000 >"$work/relay" 2>"$work/relay.log" &
  relay_pid=$!
  for _ in $(seq 1 600); do [ -s "$work/relay" ] && break; sleep 0.1; done
  relay_url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' \
    "$work/relay")
}
stop_relay() {
  [ -n "$relay_pid" ] || return 0
  kill -INT "$relay_pid" 2>/dev/null || true
  wait "$relay_pid" 2>/dev/null || true
  relay_pid=
}
cleanup() {
  set +e
  stop_relay
  if [ -n "${pid:-}" ]; then kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
  if [ -n "${KEEP:-}" ]; then cp "$work"/cg.* "$KEEP"/; fi
  rm -rf "$work"
}
trap cleanup EXIT
start_relay

start() {  # start DIR [valgrind args…]: the simulator on DIR, its pid in $pid, URL in $url
  local dir=$1
  shift
  rm -f "$work/line"
  "$@" "$binary" --port 0 --data "$dir" --admin bench:bench-password --metrics-interval 0 \
    --relay-url "$relay_url" >"$work/line" 2>"$work/log" &
  pid=$!
  for _ in $(seq 1 3000); do [ -s "$work/line" ] && break; sleep 0.1; done
  url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$work/line")
}

start "$work/seed"
kill -INT "$pid"
wait "$pid" || true

total() {
  if [ -n "${RELAY_INSTRUCTIONS:-}" ]; then
    stop_relay
    start_relay valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$work/cg.relay.$1"
  fi
  rm -rf "$work/data"
  cp -a "$work/seed" "$work/data"
  rm -f "$work/data/simulator.lock"
  start "$work/data" valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$work/cg.$1"
  python3 - "$url" "$1" "$relay_url" <<'PY'
import base64, http.client, json, os, sys, threading, time, urllib.parse, uuid
from websockets.sync.client import connect
url, count, relay_url = sys.argv[1], int(sys.argv[2]), sys.argv[3]
device = os.urandom(32).hex()
stream = connect(relay_url.replace("http", "ws", 1) + "/v1/devices/stream",
                 additional_headers={"X-ServerBee-Device-Token": device})
threading.Thread(target=lambda: [None for _ in stream], daemon=True).start()
parts = urllib.parse.urlsplit(url)
connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
def call(method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token: headers["Authorization"] = "Bearer " + token
    connection.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = connection.getresponse()
    data = json.loads(response.read() or b"null")
    assert response.status == 200, (path, response.status, data)
    return data
token = call("POST", "/api/mobile/auth/login", {
    "username": "bench", "password": "bench-password", "installation_id": "bench",
    "device_name": "bench"})["data"]["access_token"]
preferences = {"enabled": True, "alerts": True, "security": False, "task_failure": False,
               "task_success": False}
call("PUT", "/api/mobile/push/settings", {"expected_revision": 0, "preferences": preferences},
     token)
call("POST", "/api/mobile/push/encrypted-register", {
    "expected_revision": 1, "device_token": device, "environment": "sandbox",
    "content_key_id": str(uuid.uuid4()), "content_key": base64.b64encode(os.urandom(32)).decode(),
    "deployment_id": url}, token)
ids = [str(uuid.uuid4()) for _ in range(count)]
for event in ids:
    reply = call("POST", "/api/mobile/push/test", {"event_id": event, "expected_revision": 2},
                 token)
    assert reply["data"]["outcome"] == "pending", reply
for event in ids:
    while True:
        outcome = call("GET", "/api/mobile/push/test/" + event, None, token)["data"]["outcome"]
        if outcome == "accepted": break
        assert outcome in ("pending", "retryable"), outcome
        time.sleep(0.5)
PY
  kill -INT "$pid"
  wait "$pid" || true
  pid=
  [ -n "${RELAY_INSTRUCTIONS:-}" ] && stop_relay
  grep -E '^(summary|totals):' "$work/cg.$1" | head -n 1 | awk '{print $2}'
}
relay_total() {
  grep -E '^(summary|totals):' "$work/cg.relay.$1" | head -n 1 | awk '{print $2}'
}
with=$(total "$count")
without=$(total 0)
echo "test push through the outbox to serverbee-relay: $(( (with - without) / count ))" \
  "simulator instructions per push ($with - $without over $count; $binary)"
if [ -n "${RELAY_INSTRUCTIONS:-}" ]; then
  relay_with=$(relay_total "$count")
  relay_without=$(relay_total 0)
  echo "the same pushes in serverbee-relay: $(( (relay_with - relay_without) / count ))" \
    "relay instructions per push ($relay_with - $relay_without over $count; $relay)"
fi
