#!/usr/bin/env bash
# Runs a filtered test suite several times in a row while `stress` keeps the CPUs busy, and
# prints how many runs passed (the Python interop suites on a loaded machine). Run by
# hand, never in CI: it asserts nothing and loads the machine for every other user of it.
#
#   scripts/interop-under-load.sh [--runs N] [--cpu N] [--filter REGEX] [--seconds-per-run S]
#
# Defaults: 10 runs of `ServerInteropTests` next to `stress --cpu 4` (two busy loops per core
# on a 2-core machine). The tests are built first, without load. `stress` gets a `--timeout`
# covering every run, and each run is killed after `--seconds-per-run` (600), so the script is
# bounded; on exit (also on Ctrl-C) it kills the `stress` it started, by its process id only.
# Needs `stress` (Debian: `apt-get install stress`).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=10
cpu=4
filter=ServerInteropTests
per_run=600
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --seconds-per-run) per_run=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v stress >/dev/null || { echo "stress is not installed (apt-get install stress)" >&2; exit 2; }
swift build --build-tests >/dev/null
logs=$(mktemp -d)
stress --cpu "$cpu" --timeout "$((runs * per_run + 60))s" >/dev/null 2>&1 &
stress_pid=$!
trap 'kill "$stress_pid" 2>/dev/null || true; wait "$stress_pid" 2>/dev/null || true' EXIT
sleep 2
passed=0
for run in $(seq 1 "$runs"); do
  start=$(date +%s)
  if timeout "$per_run" swift test --skip-build --disable-xctest --filter "$filter" \
    >"$logs/run-$run.log" 2>&1; then
    passed=$((passed + 1))
    verdict=passed
  else
    verdict=FAILED
  fi
  echo "run $run: $verdict in $(($(date +%s) - start)) s (load $(cut -d' ' -f1 /proc/loadavg))"
  [ "$verdict" = passed ] || grep -E '✘|error:|failed:' "$logs/run-$run.log" | head -8 || true
done
echo "$passed of $runs runs passed (stress --cpu $cpu; logs in $logs)"
