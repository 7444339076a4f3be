#!/usr/bin/env bash
# Examples/Starter, the recipes package that sees only ServerBeeKit's public API: checks it
# never reaches past it, builds it, runs its tests (the public fakes, from outside), then runs
# every recipe end to end against a serverbee-simulator and a serverbee-relay on 127.0.0.1
# and checks what each printed. Every process it starts ends with it, failure or not.
# Needs this package's `swift build` first (the simulator and the relay); scripts/test.sh
# runs it after the tests.
#
#   scripts/starter.sh
set -euo pipefail
cd "$(dirname "$0")/.."
starter=Examples/Starter
# Its own build directory inside ours, so a checkout stays clean and `swift format lint -r
# Examples` never walks into it.
scratch=.build/starter
bin="$scratch/debug"
started=$(date +%s)
elapsed() { echo "$(($(date +%s) - started)) s"; }

echo "== starter: public API only"
# A `package` symbol would not even compile from another package; these would get around it.
if grep -rnE '@testable|@_spi' --include='*.swift' --exclude-dir=.build "$starter"; then
  echo "Examples/Starter may use public API only: no @testable, no @_spi"
  exit 1
fi

echo "== starter: build and unit tests"
# Runs a command with its output filtered by `grep -E PATTERN` (kept lines); fails with it.
filtered() {
  local pattern=$1 status
  shift
  set +e
  "$@" 2>&1 | grep -E "$pattern"
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || { echo "'$*' failed (exit $status)"; exit "$status"; }
}
filtered 'error|warning|Compiling .*failed' \
  swift build --package-path "$starter" --scratch-path "$scratch" --build-tests
filtered '✘|Test run|error' \
  swift test --package-path "$starter" --scratch-path "$scratch" --skip-build --disable-xctest
echo "   built and tested in $(elapsed)"

echo "== starter: recipes end to end"
work=$(mktemp -d)
pids=()
# Ends every background process (SIGTERM, then SIGKILL after 3 s) and removes the work
# directory, on success, failure or interrupt.
cleanup() {
  local status=$? pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 30); do
    local alive=""
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    echo "starter: failed; the logs:"
    # Not relay.out and simulator.out: their one line holds a control token.
    for log in "$work"/*.out "$work"/*.err; do
      case "$log" in */relay.out | */simulator.out) continue ;; esac
      [ -s "$log" ] && { echo "--- $log"; tail -n 20 "$log"; }
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "starter: $*"; exit 1; }
# Waits (30 s at most) until FILE holds PATTERN.
wait_for() {
  for _ in $(seq 300); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  fail "'$2' never appeared in $1"
}
# A field of the JSON object on the first line of standard input.
field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())[sys.argv[1]])' "$1"; }
# The simulator's control API: METHOD PATH [JSON]; the token travels in the environment.
control() {
  python3 - "$SIMULATOR_URL$2" "$1" "${3:-"{}"}" <<'PY'
import os, sys, urllib.request
request = urllib.request.Request(
    sys.argv[1], data=sys.argv[3].encode(), method=sys.argv[2],
    headers={"X-Simulator-Token": os.environ["SIMULATOR_TOKEN"],
             "Content-Type": "application/json"})
print(urllib.request.urlopen(request, timeout=30).read().decode())
PY
}
# Runs a recipe in the foreground with a deadline: NAME ARGUMENT…; output in $work/NAME.*.
run() {
  local name=$1
  shift
  timeout -k 5 60 "$@" >"$work/$name.out" 2>"$work/$name.err"
}

relay_out="$work/relay.out"
.build/debug/serverbee-relay --port 0 >"$relay_out" 2>"$work/relay.err" &
pids+=($!)
wait_for "$relay_out" '"url"'
relay_url=$(field url <"$relay_out")
password="starter-$RANDOM$RANDOM"
simulator_out="$work/simulator.out"
.build/debug/serverbee-simulator --port 0 --admin "admin:$password" --servers 3 \
  --metrics-interval 1 --relay-url "$relay_url" >"$simulator_out" 2>"$work/simulator.err" &
pids+=($!)
wait_for "$simulator_out" '"url"'
SIMULATOR_URL=$(field url <"$simulator_out")
SIMULATOR_TOKEN=$(field control_token <"$simulator_out")
export SIMULATOR_URL SIMULATOR_TOKEN

# fleet-board: sign in, a few updates; then the stored login; then a paired member.
SERVERBEE_PASSWORD=$password run board "$bin/fleet-board" --home "$work/home" \
  --server "$SIMULATOR_URL" --username admin --seconds 3
grep -q 'signed in as admin' "$work/board.err" || fail "fleet-board did not sign in"
grep -q '3 servers, 3 online' "$work/board.out" || fail "fleet-board printed no fleet"
[ "$(grep -c 'servers,' "$work/board.out")" -ge 2 ] || fail "fleet-board saw no update"
grep -qE '^  server-[123]  online   CPU' "$work/board.out" || fail "fleet-board listed no server"
run board-again "$bin/fleet-board" --home "$work/home" --seconds 1 --top 1
grep -q '3 servers' "$work/board-again.out" || fail "fleet-board did not reuse the stored login"
member=$(control POST /__simulator/users '{"username":"ada","password":"pw","role":"member"}' \
  | field id)
qr=$(control POST "/__simulator/users/$member/pair-code" | field qr_text)
run board-pair "$bin/fleet-board" --home "$work/paired" --pair "$qr" --seconds 1 --sign-out
grep -q 'paired as ada' "$work/board-pair.err" || fail "fleet-board did not pair"
grep -q 'signed out' "$work/board-pair.err" || fail "fleet-board did not sign out"
set +e
run board-usage "$bin/fleet-board" --home "$work/home" --seconds soon
status=$?
set -e
[ "$status" -eq 64 ] || fail "a bad option exits $status, not 64"
echo "   fleet-board: signed in, stored login, paired, usage error ($(elapsed))"

# alert-notifier: a local relay device; an alert fires; the command gets title and body, says
# `open`, and the tap opens the alert.
cat >"$work/notify.sh" <<'SH'
#!/bin/sh
printf '%s\n%s\n' "$1" "$2" >>"$STARTER_NOTIFIED"
echo open
SH
chmod +x "$work/notify.sh"
mkdir "$work/payloads"
STARTER_NOTIFIED="$work/notified.txt" SERVERBEE_PASSWORD=$password \
  timeout -k 5 90 "$bin/alert-notifier" --home "$work/desktop" --relay "$relay_url" \
  --server "$SIMULATOR_URL" --username admin --count 1 --seconds 60 \
  --keep-payloads "$work/payloads" -- "$work/notify.sh" \
  >"$work/notifier.out" 2>"$work/notifier.err" &
notifier=$!
pids+=("$notifier")
wait_for "$work/notifier.err" 'listening for pushes'
server=$(control POST /__simulator/servers '{"name":"db-primary"}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')
control POST /__simulator/alerts/fire "{\"server_id\":\"$server\",\"rule_name\":\"High CPU\"}" \
  >/dev/null
wait "$notifier" || fail "alert-notifier failed"
[ "$(wc -l <"$work/notified.txt")" -eq 2 ] || fail "the command was not run once"
title=$(sed -n 1p "$work/notified.txt")
body=$(sed -n 2p "$work/notified.txt")
grep -q 'High CPU' "$work/notified.txt" || fail "the command got no alert text"
grep -qE '^push .+ \(alert\): command exited 0$' "$work/notifier.out" || fail "no push handled"
grep -q '^opened the alert: Alert firing' "$work/notifier.out" || fail "the tap opened nothing"
# The plaintext went to the command only.
if grep -qF -e "$title" -e "$body" "$work/notifier.out" "$work/notifier.err"; then
  fail "alert-notifier printed the notification text"
fi
echo "   alert-notifier: push decrypted, command run, tap opened the alert ($(elapsed))"

# notification-extension: the kept payload opens with the extension-shared key alone.
payload=$(find "$work/payloads" -name '*.json' | head -n 1)
[ -n "$payload" ] || fail "alert-notifier kept no payload"
run extension "$bin/notification-extension" --home "$work/desktop" --lang en "$payload"
cmp -s "$work/extension.out" "$work/notified.txt" || fail "the extension rendered other text"
run extension-stdin "$bin/notification-extension" --home "$work/desktop" --lang en - <"$payload"
cmp -s "$work/extension-stdin.out" "$work/notified.txt" || fail "stdin rendered other text"
set +e
echo '{"aps":{"alert":{"title":"x"}},"serverbee":{"v":1}}' \
  | run extension-bad "$bin/notification-extension" --home "$work/desktop" --lang en
status=$?
set -e
[ "$status" -eq 1 ] || fail "a payload that does not open exits $status, not 1"
[ "$(wc -l <"$work/extension-bad.err")" -eq 1 ] || fail "the failure is not one line"
echo "   notification-extension: file, stdin, a payload that does not open ($(elapsed))"

# api-key-report: an admin's API key, no session.
reporter=$(control POST /__simulator/users '{"username":"bot","password":"pw","role":"admin"}' \
  | field id)
api_key=$(control POST "/__simulator/users/$reporter/api-key" | field api_key)
SERVERBEE_API_KEY=$api_key run report "$bin/api-key-report" --server "$SIMULATOR_URL"
grep -q "^4 servers on $SIMULATOR_URL" "$work/report.out" || fail "the report has no servers"
grep -q '^  db-primary' "$work/report.out" || fail "the report lists no db-primary"
grep -q '^  High CPU on db-primary since ' "$work/report.out" || fail "no firing alert"
if grep -qF "$api_key" "$work/report.out" "$work/report.err"; then fail "the key was printed"; fi
set +e
SERVERBEE_API_KEY=serverbee_not-a-key run report-bad "$bin/api-key-report" \
  --server "$SIMULATOR_URL"
status=$?
set -e
[ "$status" -eq 1 ] || fail "a rejected key exits $status, not 1"
[ "$(wc -l <"$work/report-bad.err")" -eq 1 ] || fail "a rejected key is not one line"
echo "   api-key-report: report, rejected key ($(elapsed))"
echo "starter: every recipe works ($(elapsed))"
