#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (a separate package) and runs each for SECONDS.
# Crash inputs are written to Fuzz/findings/<target>/; the corpus grows in Fuzz/corpus/<target>/.
#
#   scripts/fuzz.sh 30
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
seconds="${1:-30}"
toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
runtime="$(ls -d "$toolchain"/lib/clang/*/lib/linux | head -n 1)/libclang_rt.fuzzer_no_main-x86_64.a"
[ -f "$runtime" ] || { echo "fuzz.sh: $runtime not found" >&2; exit 1; }

echo "== building fuzz targets (ASan + coverage)"
swift build --build-path .build \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xlinker "$runtime" -Xlinker -lstdc++ 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]|Cannot export local symbol' || true
bin="$(swift build --build-path .build --show-bin-path)"

status=0
for target in fuzz-frame-decoder fuzz-http-head; do
  [ -x "$bin/$target" ] || { echo "fuzz.sh: $bin/$target was not built" >&2; exit 1; }
  mkdir -p "corpus/$target" "findings/$target"
  echo "== $target for ${seconds}s"
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/$target" \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="findings/$target/" "corpus/$target" 2>&1 \
    | grep -E '^#[0-9]+[[:space:]]+DONE|^Done|stat::number_of_executed_units|ERROR|SUMMARY|deadly|Test unit' \
    || status=1
done
exit "$status"
