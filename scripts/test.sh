#!/usr/bin/env bash
# The test command: installs what the tests need when it is missing, builds, runs every test,
# lints the sources, checks the module layering and the references, builds and runs the
# Starter recipes and smoke-runs every fuzz target. `.ci/run` calls exactly this.
#
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh

# Runs a command, hiding per-file progress and "started" lines; fails with the command.
quiet() {
  set +e
  "$@" 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] | started\.?$| started at '
  local status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || { echo "'$*' failed (exit $status)"; exit "$status"; }
}

# Warnings are errors, in the modules, the examples and the tests alike: a package that
# depends on the SDK sees none. The same flags go to `swift test`, so it reuses this build.
strict=(-Xswiftc -warnings-as-errors)

echo "== swift build (warnings are errors)"
quiet swift build "${strict[@]}"

echo "== swift test"
# Swift Testing only (no XCTest tests exist, so its "Executed 0 tests" line is noise), every
# suite in parallel. That works on two cores because nothing blocks Swift's cooperative pool:
# the credential store's callers run on threads of their own (SecureStore's
# CredentialStoreExecutor), blocking test I/O runs off the pool (offPool), waits are gates or
# the manual clock, and deadlines in tests are generous (they only end a broken test; each
# suite's time limit is 5 minutes, since a test's wall time here includes its neighbours' work).
# Every test is isolated (ephemeral ports, temp directories, fresh fakes).
#
# At most 32 test cases run at once. Unbounded, Swift Testing starts all 1,500 at the same
# moment and the two pool threads work through one long queue: an in-process simulator's
# accept loop then waited over 30 s behind unrelated tests, and a wait for its answer ran out
# (`WireFixtureTests`: "POST /api/mobile/auth/pair: no answer", 2 of 2 runs at load 40, and once
# in CI). With 32, two runs at load 35 passed, in about 4 minutes (unbounded: 2 to 2.5 minutes, failing).
#
# Each process the tests start (Python peers, openssl s_server, serverbee, serverbee-simulator,
# serverbee-relay, securestore-crash-writer) inherits this marker, so the check after the
# run finds exactly this run's leftovers, even reparented to init, and never another run's.
run_marker="SERVERBEE_TEST_RUN=$$-$(date +%s%N)"
set +e
(quiet env "$run_marker" SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=32 \
  swift test --disable-xctest "${strict[@]}")
tests_status=$?
set -e

# The processes (other than this script) whose environment carries the marker.
marked_processes() {
  local environ pid
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}
    pid=${pid%/environ}
    [ "$pid" = "$$" ] && continue
    tr '\0' '\n' 2>/dev/null <"$environ" | grep -qxF "$run_marker" && echo "$pid"
  done
  return 0
}

echo "== no process left by the tests"
# Each child ends with its test: its process group gets SIGTERM when the test releases it,
# and SIGKILL 3 s later (ServerBeeTestHarness's Process.endGroup); a watchdog ends it if the test
# process itself died. Give stragglers a few seconds before calling them leftovers.
leftovers=""
for _ in $(seq 20); do
  leftovers=$(marked_processes)
  [ -z "$leftovers" ] && break
  sleep 0.5
done
if [ -n "$leftovers" ]; then
  echo "processes started by the tests are still running:"
  # shellcheck disable=SC2086
  ps -o pid,ppid,etime,args -p "$(echo $leftovers | tr ' ' ',')" || true
  # shellcheck disable=SC2086
  kill -KILL $leftovers 2>/dev/null || true
  exit 1
fi
[ "$tests_status" -eq 0 ] || exit "$tests_status"

echo "== swift format lint --strict"
swift format lint --strict -r Modules Tests Examples Benchmarks Package.swift
swift format lint --strict -r Fuzz/Sources Fuzz/Package.swift

echo "== docs (DocC, warnings are errors)"
scripts/docs.sh

echo "== layering"
scripts/check-layering.sh

# Every reference in code, DocC and docs resolves inside the repository (no outside document,
# no issue number, no section that does not exist). Documentation/Coverage.md is checked by
# CoverageTests in the test run above.
echo "== references"
scripts/check-references.sh

# Examples/Starter, a package of its own on the public API only: about 75 s to build from a
# cold .build/starter on two cores, then about 10 s of tests and end-to-end runs.
echo "== Examples/Starter"
scripts/starter.sh

# Every fuzz target builds (debug, ASan + coverage) and runs 1 s from its seeds: about 60 s
# to build from a cold Fuzz/.build-smoke on two quiet cores, then about 35 s of runs.
# Campaigns are `scripts/fuzz.sh` alone.
echo "== fuzz smoke"
scripts/fuzz.sh --smoke
echo "all checks passed"
