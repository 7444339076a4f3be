#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (a separate package) with ASan and coverage, runs every
# (or the named) target, and prints a table: runs, runs/s, coverage (libFuzzer cov/ft),
# corpus size and result. Exits non-zero on any crash, leak, timeout or out-of-memory.
#
#   scripts/fuzz.sh                         # every target for 30 s (release build)
#   scripts/fuzz.sh --seconds 600 fuzz-models fuzz-live-decoder
#   scripts/fuzz.sh --runs 10000000         # the lead's campaign: a fixed number of runs each
#   scripts/fuzz.sh --smoke                 # CI: a quick debug build, 1 s per target
#   scripts/fuzz.sh --until-total 10000000  # each target's runs up to that total (ledger)
#   scripts/fuzz.sh --totals                # the ledger's totals per target, no run
#
# Every campaign run (not the smoke run) appends one line per target to Fuzz/logs/ledger.tsv:
# date, target, runs, seconds, runs/s, cov, ft, corpus, result. --until-total runs each target
# only for what its ledger total still lacks, so a campaign can go on across sessions.
#
# Inputs start from Fuzz/corpus-seed/<target>/ (in git, see Fuzz/make-seeds.py) and grow in
# Fuzz/corpus/<target>/ (not in git). A failing input is written to Fuzz/findings/<target>/;
# reproduce it with `Fuzz/.build/release/<target> Fuzz/findings/<target>/crash-…`. Full logs
# are in Fuzz/logs/<target>.log.
set -euo pipefail
script="$(readlink -f "$0")"
cd "$(dirname "$script")/../Fuzz"

all_targets=(
  fuzz-frame-decoder fuzz-http-head fuzz-http-request fuzz-http-response fuzz-live-decoder
  fuzz-models fuzz-pairing-payload fuzz-server-url fuzz-alert-key fuzz-rfc3339
  fuzz-apns-payload fuzz-push-sealed fuzz-push-renderer fuzz-relay-send fuzz-revocation-proof
  fuzz-apns-answer
)

seconds=30
runs=""
smoke=false
until_total=""
totals_only=false
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --smoke) smoke=true; seconds=1; shift ;;
    --until-total) until_total="${2:?--until-total needs a number}"; shift 2 ;;
    --totals) totals_only=true; shift ;;
    -h | --help) sed -n '2,21p' "$script"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  [ -d "Sources/$target" ] || { echo "fuzz.sh: no target $target" >&2; exit 2; }
done

mkdir -p logs
ledger=logs/ledger.tsv
# The ledger's total runs of one target (0 when it has none).
ledger_total() {
  [ -f "$ledger" ] || { echo 0; return; }
  awk -F'\t' -v t="$1" '$2 == t && $3 ~ /^[0-9]+$/ { n += $3 } END { printf "%d\n", n }' "$ledger"
}
print_totals() {
  printf '%-22s %12s %10s %s\n' target "total runs" seconds campaigns
  for target in "${targets[@]}"; do
    [ -f "$ledger" ] || break
    awk -F'\t' -v t="$target" '$2 == t && $3 ~ /^[0-9]+$/ { n += $3; s += $4; c++ }
      END { printf "%-22s %12d %10d %d\n", t, n, s, c }' "$ledger"
  done
}
if $totals_only; then print_totals; exit 0; fi

toolchain="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")"
runtime="$(ls -d "$toolchain"/lib/clang/*/lib/linux | head -n 1)/libclang_rt.fuzzer_no_main-x86_64.a"
[ -f "$runtime" ] || { echo "fuzz.sh: $runtime not found" >&2; exit 1; }

# Campaigns use an optimised (release, whole-module) build: small parsers then run at tens of
# thousands of inputs per second. The smoke run only proves that every target builds and runs,
# so it takes the debug build, which compiles about three times faster.
if $smoke; then
  build=(-c debug --build-path .build-smoke)
else
  build=(-c release --build-path .build)
fi
echo "== building fuzz targets (${build[1]}, ASan + coverage)"
start=$SECONDS
set +e
swift build "${build[@]}" \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xlinker "$runtime" -Xlinker -lstdc++ 2>&1 \
  | grep -vE '^\[[0-9]+/[0-9]+\]|Cannot export local symbol|^Building for|^Compiling|^Write'
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || { echo "fuzz.sh: the build failed"; exit "$status"; }
echo "   built in $((SECONDS - start)) s"
bin="$(swift build "${build[@]}" --show-bin-path)"

# Which dictionary and input size suit each target.
dictionary() {
  case "$1" in
    fuzz-frame-decoder | fuzz-http-*) echo dict/http.dict ;;
    fuzz-apns-answer) echo dict/http2.dict ;;
    *) echo dict/json.dict ;;
  esac
}
max_len() {
  case "$1" in
    fuzz-live-decoder | fuzz-models | fuzz-http-response) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

scratch=""
if $smoke; then scratch="$(mktemp -d)"; fi
trap '[ -z "$scratch" ] || rm -rf "$scratch"' EXIT
limit=(-max_total_time="$seconds")
[ -z "$runs" ] || limit=(-runs="$runs")
failed=0
rows=()
for target in "${targets[@]}"; do
  [ -x "$bin/$target" ] || { echo "fuzz.sh: $bin/$target was not built" >&2; exit 1; }
  # The smoke run must not grow the working corpus: it writes new inputs to a scratch folder.
  corpus="corpus/$target"
  [ -z "$scratch" ] || corpus="$scratch/$target"
  mkdir -p "$corpus" "findings/$target" "corpus-seed/$target"
  log="logs/$target.log"
  if [ -n "$until_total" ]; then
    have="$(ledger_total "$target")"
    if [ "$have" -ge "$until_total" ]; then
      echo "== $target: $have runs in the ledger, none needed"
      continue
    fi
    limit=(-runs="$((until_total - have))")
  fi
  echo "== $target (${limit[0]#-})"
  started=$SECONDS
  set +e
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$bin/$target" "${limit[@]}" -max_len="$(max_len "$target")" -timeout=10 -rss_limit_mb=2048 \
    -dict="$(dictionary "$target")" -print_final_stats=1 -artifact_prefix="findings/$target/" \
    "$corpus" "corpus-seed/$target" >"$log" 2>&1
  code=$?
  set -e
  # The last status line carries the coverage and corpus figures.
  status_line="$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)"
  cov="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$status_line")"
  ft="$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$status_line")"
  corp="$(sed -nE 's/.* corp: ([0-9]+\/[0-9]+[a-zA-Z]*).*/\1/p' <<<"$status_line")"
  done_runs="$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")"
  rate="$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log")"
  [ -n "$done_runs" ] || done_runs="$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$status_line")"
  # A run that stopped early reports 0/s in its stats; the last status line has the rate.
  [ "${rate:-0}" != 0 ] || rate="$(sed -nE 's/.* exec\/s: ([0-9]+).*/\1/p' <<<"$status_line")"
  result=ok
  if grep -q 'ERROR: LeakSanitizer' "$log"; then result=leak
  elif grep -q 'ERROR: libFuzzer: timeout' "$log"; then result=timeout
  elif grep -qE 'ERROR: libFuzzer: (out-of-memory|malloc limit)' "$log"; then result=oom
  elif grep -qE 'ERROR: (AddressSanitizer|libFuzzer)|FUZZ INVARIANT BROKEN|Fatal error' "$log"; then
    result=crash
  elif [ "$code" -ne 0 ]; then result="exit $code"
  fi
  if [ "$result" != ok ]; then
    failed=1
    { grep -E 'FUZZ INVARIANT BROKEN|Fatal error|ERROR:|SUMMARY|Test unit written' "$log" || tail -n 3 "$log"; } \
      | head -n 6 | sed 's/^/   /'
  fi
  if ! $smoke; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$target" \
      "${done_runs:-?}" "$((SECONDS - started))" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
      "$result" >>"$ledger"
  fi
  rows+=("$(printf '%-22s %10s %9s %6s %7s %12s  %s' "$target" "${done_runs:-?}" "${rate:-?}" \
    "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result")")
done

echo
printf '%-22s %10s %9s %6s %7s %12s  %s\n' target runs runs/s cov ft corpus result
for row in "${rows[@]}"; do echo "$row"; done
if ! $smoke; then echo; print_totals; fi
[ "$failed" -eq 0 ] || echo "fuzz.sh: failures; inputs are in Fuzz/findings/<target>/, logs in Fuzz/logs/"
exit "$failed"
