#!/usr/bin/env bash
# Installs the Debian packages and Python test peers ServerBeeKit needs, only when missing.
# Safe to run repeatedly; used by scripts/test.sh and scripts/demo.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for package in libsqlite3-dev libssl-dev zlib1g-dev pkg-config openssl; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || need+=("$package")
done
# zbarimg decodes the QR codes of ServerBeeQR in its tests (Tests/ServerBeeQRTests).
command -v zbarimg >/dev/null || need+=(zbar-tools)
# prlimit runs the simulator under a low descriptor limit in its tests (util-linux).
command -v prlimit >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  echo "== installing Debian packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The transport and server interop tests run the Python `websockets` package as a peer
# (Tests/Peers).
if ! python3 -c 'import websockets' 2>/dev/null; then
  echo "== installing the Python websockets package"
  python3 -m pip install --quiet websockets \
    || python3 -m pip install --quiet --break-system-packages websockets
fi

# The HTTP/2 and APNs provider tests run a mock APNs on the Python `h2` package and check its
# JWTs with `cryptography` (Tests/Peers/apns_peer.py).
if ! python3 -c 'import h2, cryptography' 2>/dev/null; then
  echo "== installing the Python h2 and cryptography packages"
  python3 -m pip install --quiet h2 cryptography \
    || python3 -m pip install --quiet --break-system-packages h2 cryptography
fi

if ! command -v swift >/dev/null; then
  echo "bootstrap: the Swift toolchain (6.0 or later) is not on PATH" >&2
  exit 1
fi
