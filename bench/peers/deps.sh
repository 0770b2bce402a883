#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what the peer implementations need, if missing, and prints one
# line per peer: `<peer>: available (...)` or `<peer>: not available (why)`.
#
#   bash bench/peers/deps.sh
#
# Peers: tbb (oneTBB, g++), omp-gcc (g++ and libgomp), omp-clang (clang++
# and LLVM's libomp), rayon (cargo), java (javac and java).  Debian packages
# are installed with apt-get when missing; a failed install is reported on
# that peer's line, never fatal, so the harness can run the peers it has.
# With everything present it only queries dpkg and PATH (well under a
# second).  Always exits 0.
set -uo pipefail

have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# g++ ships libgomp with the compiler; -print-file-name echoes the bare name
# back when the library is not there.
have_libgomp() { have_cmd g++ && [ "$(g++ -print-file-name=libgomp.so)" != "libgomp.so" ]; }

# Debian packages the C++ peers build with: the toolchain and generator the
# harness configures them with, OpenSSL for UTS, oneTBB, clang and libomp.
wanted=(cmake ninja-build g++ libssl-dev libtbb-dev clang libomp-dev)
missing=()
for p in "${wanted[@]}"; do
  have_pkg "$p" || missing+=("$p")
done

install_note=""
if [ ${#missing[@]} -gt 0 ]; then
  if ! have_cmd apt-get; then
    install_note="no apt-get to install ${missing[*]}"
  else
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
      if have_cmd sudo; then SUDO="sudo"; else install_note="not root and no sudo"; fi
    fi
    if [ -z "$install_note" ]; then
      echo "peers deps: installing ${missing[*]}" >&2
      export DEBIAN_FRONTEND=noninteractive
      # Other scripts may be running apt at the same time: wait for its lock.
      lock=(-o DPkg::Lock::Timeout=300)
      $SUDO apt-get "${lock[@]}" update -qq >&2 || install_note="apt-get update failed"
      # One package at a time, so one that cannot be had does not stop the rest.
      for p in "${missing[@]}"; do
        $SUDO apt-get "${lock[@]}" install -y -qq "$p" >&2 \
          || install_note="${install_note:+$install_note; }apt-get install $p failed"
      done
    fi
  fi
fi

# Why a package is still missing, for the peer lines below.
why_missing() {
  local p
  for p in "$@"; do
    if ! have_pkg "$p"; then
      echo "package $p not installed${install_note:+: $install_note}"
      return
    fi
  done
}

report() { # <peer> <reason-if-unavailable or empty> <version note>
  if [ -z "$2" ]; then echo "$1: available ($3)"; else echo "$1: not available ($2)"; fi
}

cxx_common=$(why_missing cmake ninja-build g++ libssl-dev)

tbb_why=${cxx_common:-$(why_missing libtbb-dev)}
report tbb "$tbb_why" "oneTBB $(dpkg-query -W -f='${Version}' libtbb-dev 2>/dev/null)"

gomp_why=$cxx_common
if [ -z "$gomp_why" ] && ! have_libgomp; then gomp_why="g++ has no libgomp"; fi
report omp-gcc "$gomp_why" "$(g++ -dumpfullversion 2>/dev/null | sed 's/^/g++ /')"

clang_why=${cxx_common:-$(why_missing clang libomp-dev)}
if [ -z "$clang_why" ] && ! have_cmd clang++; then clang_why="clang++ not on PATH"; fi
report omp-clang "$clang_why" "$(clang++ --version 2>/dev/null | head -n 1)"

rayon_why=""
have_cmd cargo || rayon_why="cargo not on PATH (a Rust toolchain is needed; rustup or Debian's cargo)"
report rayon "$rayon_why" "$(cargo --version 2>/dev/null)"

java_why=""
if ! have_cmd javac; then java_why="javac not on PATH (a JDK is needed, e.g. default-jdk-headless)"
elif ! have_cmd java; then java_why="java not on PATH"; fi
report java "$java_why" "$(javac -version 2>&1 | head -n 1)"
exit 0
