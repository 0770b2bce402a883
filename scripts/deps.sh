#!/usr/bin/env bash
# Installs what weft's build, tests and benchmarks need, if missing.
# Usage: scripts/deps.sh [extra Debian packages...]
set -euo pipefail

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

have_cmd cmake || need+=(cmake)
have_cmd ninja || need+=(ninja-build)
have_cmd gcc || need+=(gcc)
have_cmd python3 || need+=(python3)
have_cmd pkg-config || need+=(pkg-config)
for p in libssl-dev libhwloc-dev "$@"; do
  have_pkg "$p" || need+=("$p")
done

if [ ${#need[@]} -gt 0 ]; then
  echo "deps: installing ${need[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >&2
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi
