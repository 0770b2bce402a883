#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what weft's build, tests and benchmarks need, if missing.
# Usage: scripts/deps.sh [--log FILE] [extra Debian packages...]
#
# Quiet: prints one line, `deps: all present` or `deps: installed <packages>
# (<seconds> s; log FILE)`; apt's output goes to FILE (default
# build-logs/deps.log in the checkout, which git ignores).  On a failure it
# says so with the log's path and its last lines, and exits 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
log="$root/build-logs/deps.log"
if [ "${1:-}" = "--log" ]; then
  if [ $# -lt 2 ]; then echo "deps: --log needs a file name" >&2; exit 2; fi
  log=$2
  shift 2
fi

need=()
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

have_cmd cmake || need+=(cmake)
have_cmd ninja || need+=(ninja-build)
have_cmd gcc || need+=(gcc)
have_cmd g++ || need+=(g++)         # the C++ API's tests and benchmarks
have_cmd python3 || need+=(python3)
have_cmd pkg-config || need+=(pkg-config)
have_cmd clang++ || need+=(clang)   # the C++ header tests build with g++ and clang++
have_cmd spin || need+=(spin)       # the model checks (verification/run.sh)
have_cmd tcc || need+=(tcc)         # builds the model checks' verifiers (verification/run.sh)
have_cmd doxygen || need+=(doxygen) # the API reference (ctest api_reference)
have_cmd clang-format || need+=(clang-format) # scripts/check-format.sh
# Open MPI for the distributed work pool (weft::dist, tests/run_all.sh mpi).
for p in libssl-dev libhwloc-dev openmpi-bin libopenmpi-dev "$@"; do
  have_pkg "$p" || need+=("$p")
done

# matplotlib for the python3 on PATH (the harness's plots and trace
# renderer; tests/harness PlotsTest and RenderTest fail on CI without it),
# with pip: the Debian package serves only the system interpreter.
pip_matplotlib() {
  python3 -c 'import matplotlib' >/dev/null 2>&1 && return 0
  mkdir -p "$(dirname "$log")"
  local start=$(date +%s)
  if python3 -m pip install --quiet --disable-pip-version-check matplotlib >>"$log" 2>&1 ||
     python3 -m pip install --quiet --disable-pip-version-check --break-system-packages matplotlib >>"$log" 2>&1; then
    echo "deps: installed matplotlib with pip ($(( $(date +%s) - start )) s; log $log)" >&2
  else
    echo "deps: FAILED to install matplotlib with pip; log $log:" >&2
    tail -n 15 "$log" | sed 's/^/    /' >&2
    exit 1
  fi
}

if [ ${#need[@]} -eq 0 ]; then
  pip_matplotlib
  python3 -c 'import matplotlib' >/dev/null 2>&1 && echo "deps: all present" >&2
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# Other scripts may be running apt at the same time: wait for its lock.
lock=(-o DPkg::Lock::Timeout=300)
mkdir -p "$(dirname "$log")"
start=$(date +%s)
if { $SUDO apt-get "${lock[@]}" update -q \
     && $SUDO apt-get "${lock[@]}" install -y -q --no-install-recommends "${need[@]}"; } \
     >"$log" 2>&1; then
  echo "deps: installed ${need[*]} ($(( $(date +%s) - start )) s; log $log)" >&2
else
  echo "deps: FAILED to install ${need[*]} ($(( $(date +%s) - start )) s); log $log:" >&2
  tail -n 15 "$log" | sed 's/^/    /' >&2
  exit 1
fi
have_cmd python3 && pip_matplotlib
