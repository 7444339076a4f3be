#!/usr/bin/env bash
# Peak RSS of a notification-extension-sized process (Documentation/Performance.md §1): builds
# push-extension-probe twice in release, linked against the Swift runtime's shared libraries
# (the default) and with --static-swift-stdlib (its own scratch directory), writes a fresh
# content key and payload with serverbee-bench, then runs each probe RUNS times (5 by default),
# interleaved, and prints every peak RSS in KiB (`/usr/bin/time -f %M`) and each build's range.
#
#   scripts/extension-rss.sh [RUNS]
#
# Why two builds: a Swift program on Linux maps libswiftCore, Foundation Essentials,
# Concurrency, Dispatch and the string-processing libraries, and the loader touches their
# relocated pages whether or not the program uses them (about 3.5 MB here). Linked statically,
# only the code the probe reaches is in the binary. On Apple platforms the system's shared
# libraries are clean pages of the shared cache and do not count toward an extension's limit.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
static_scratch=.build/static-stdlib
swift build -c release --product serverbee-bench >/dev/null
swift build -c release --product push-extension-probe >/dev/null
swift build -c release --product push-extension-probe --static-swift-stdlib \
  --scratch-path "$static_scratch" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.build/release/serverbee-bench push write-fixture "$work" >/dev/null
dynamic=.build/release/push-extension-probe
static="$static_scratch/release/push-extension-probe"
peak() { /usr/bin/time -f %M "$1" "$work/key.json" "$work/payload.json" 2>&1 >/dev/null | tail -1; }
dynamic_runs=()
static_runs=()
for _ in $(seq "$runs"); do
  dynamic_runs+=("$(peak "$dynamic")")
  static_runs+=("$(peak "$static")")
done
range() { printf '%s\n' "$@" | sort -n | sed -n '1p;$p' | paste -sd '-'; }
echo "shared Swift libraries: ${dynamic_runs[*]} KiB (range $(range "${dynamic_runs[@]}"))"
echo "--static-swift-stdlib:  ${static_runs[*]} KiB (range $(range "${static_runs[@]}"))"
