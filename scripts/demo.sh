#!/usr/bin/env bash
# The first command on a fresh machine: installs what is missing (Debian packages), builds the
# `serverbee` command line and runs its demo against an embedded simulator (no network needed).
#
#   scripts/demo.sh                   # 20 seconds of live metrics
#   scripts/demo.sh --duration 5      # any `serverbee demo` option
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
echo "== building serverbee (first build takes a few minutes)" >&2
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
# Progress on stderr, one line per step: each module as SwiftPM starts compiling it, each
# link, and the end. The full log is kept and shown only when the build fails, and stdout
# stays the demo's own.
progress() {
  local line step module seen=" "
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$build_log"
    case "$line" in
      "["*"] Compiling "* | "["*"] Linking "*)
        read -r step _ module _ <<<"$line"
        case "$line" in *" Linking "*) module="linking $module" ;; esac
        case "$seen" in *" $module "*) continue ;; esac
        seen+="$module "
        printf '   %s %s\n' "$step" "$module" >&2
        ;;
      "Build"*" complete!"*) printf '   %s\n' "$line" >&2 ;;
    esac
  done
}
set +e
swift build --product serverbee 2>&1 | progress
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ]; then
  cat "$build_log" >&2
  echo "demo: the build failed" >&2
  exit 1
fi
exec "$(swift build --show-bin-path)/serverbee" demo "$@"
