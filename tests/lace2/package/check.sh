#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The lace package for Lace 2 from an install tree (docs/lace2.md): with
# -DWEFT_PROVIDE_LACE=2, a Lace 2 program builds through find_package(lace
# 2.x) against lace::lace, lace::lace32, lace::lace128 and lace, and
# through pkg-config lace, lace32 and lace128; each checks its answer; the
# version file and the .pc files say 2.3.2 and refuse what is not 2.x up to
# it.  Then the same build tree installs weft's profiling and tracing
# variants too, and ../../lace/package/variants.sh builds fib.c against
# the package's profiling and tracing variants (components, the
# WEFT_LACE_VARIANT cache variable, pkg-config lace-profile and
# lace-trace), runs them, and checks the refusals and the plain package's
# advice.  Usage: check.sh [work-dir]   (configures weft from this checkout; a
# work dir kept from an earlier run is reused, so a repeat only rebuilds
# what changed; without one, a temporary dir)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ $# -ge 1 ]; then
  work=$1; mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
log="$work/log"
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
p="$work/p"
# The prefix held a Lace 1 package before (mode 1.4 with its variants):
# the mode-2 install leaves nothing of it (docs/lace2.md).
lace1_files=(include/weft-lace/lace.h include/weft-lace/lace14.h lib/libweft-lace.a
             lib/libweft-lace.so.0 lib/libweft-lace-profile.a lib/libweft-lace-trace.a
             lib/pkgconfig/lace14.pc lib/pkgconfig/lace14-profile.pc
             lib/pkgconfig/lace-profile.pc lib/pkgconfig/lace-trace.pc)
for f in "${lace1_files[@]}"; do mkdir -p "$(dirname "$p/$f")"; echo stale >"$p/$f"; done

# (No profiling variant of weft: tests/package/check.sh installs that.)
cmake -S "$root" -B "$work/b" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_TESTS=OFF \
  -DWEFT_BUILD_BENCH=OFF -DWEFT_BUILD_EXAMPLES=OFF -DWEFT_WITH_MPI=OFF -DWEFT_PROFILE_LIBRARY=OFF -DWEFT_TRACE_LIBRARY=OFF \
  -DCMAKE_INSTALL_PREFIX="$p" -DWEFT_PROVIDE_LACE=2 >"$log" 2>&1 || fail "configure (WEFT_PROVIDE_LACE=2)"
cmake --build "$work/b" --target install >"$log" 2>&1 || fail "install (WEFT_PROVIDE_LACE=2)"
for f in lib/cmake/lace/laceConfig.cmake lib/pkgconfig/lace.pc lib/pkgconfig/lace32.pc \
         lib/pkgconfig/lace128.pc include/weft-lace2/lace.h include/weft-lace2/lace128.h; do
  [ -e "$p/$f" ] || fail "$f not installed"
done
for f in "${lace1_files[@]}" include/weft-lace; do
  [ ! -e "$p/$f" ] || fail "the mode-2 install left the Lace 1 package's $f"
done
echo "ok: installed over a Lace 1 package, nothing of it is left"

# find_package(lace 2.3) with each target.
rm -rf "$work/c1" "$work/v"
cmake -S "$here" -B "$work/c1" "${gen[@]}" -DCMAKE_PREFIX_PATH="$p" >"$log" 2>&1 ||
  fail "find_package(lace 2.3) consumer: configure"
cmake --build "$work/c1" >"$log" 2>&1 || fail "find_package(lace 2.3) consumer: build"
for t in fib_lace fib_lace32 fib_lace128 fib_plain; do
  "$work/c1/$t" >"$log" 2>&1 || fail "find_package: $t"
done
echo "ok: find_package(lace 2.3): lace::lace, lace::lace32, lace::lace128 and lace build and run"

# pkg-config, each variant.
export PKG_CONFIG_PATH="$p/lib/pkgconfig"
for v in lace:64 lace32:32 lace128:128; do
  pc=${v%%:*} size=${v#*:}
  pkg-config --atleast-version 2.3 "$pc" || fail "pkg-config --atleast-version 2.3 $pc"
  pkg-config --atleast-version 2.3.3 "$pc" && fail "pkg-config $pc claims 2.3.3"
  [ "$(pkg-config --modversion "$pc")" = 2.3.2 ] || fail "$pc Version"
  # shellcheck disable=SC2046
  cc -O2 -DFIB_HEADER="$size" $(pkg-config --cflags "$pc") "$here/fib.c" -o "$work/$pc" \
    $(pkg-config --libs --static "$pc") >"$log" 2>&1 || fail "pkg-config $pc: build"
  "$work/$pc" >"$log" 2>&1 || fail "pkg-config $pc: run"
done
echo "ok: pkg-config lace, lace32, lace128 (2.3.2) build and run"

# Versions.
mkdir -p "$work/v"
for want in "2:ok" "2.0:ok" "2.3:ok" "2.3.2:ok" "2.0...2.9:ok" "2.3.3:no" "2.4:no" "1.6.2:no" \
            "3:no" "2.4...2.9:no"; do
  v=${want%%:*} expect=${want#*:}
  cat >"$work/v/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(v C)
find_package(lace $v CONFIG)
if(lace_FOUND)
  message(STATUS "lace-found")
endif()
CMAKE
  rm -rf "$work/v/b"
  cmake -S "$work/v" -B "$work/v/b" -DCMAKE_PREFIX_PATH="$p" >"$log" 2>&1 || fail "version $v: configure"
  if grep -q lace-found "$log"; then got=ok; else got=no; fi
  [ "$got" = "$expect" ] || fail "find_package(lace $v): expected $expect, got $got"
done
echo "ok: the version file accepts 2.x up to 2.3.2 and refuses 2.3.3, 2.4, 1.6.2 and 3"

# The profiling and tracing variants: the same build tree, their libraries
# added, installed in a prefix of their own; the one above has none.
pv="$work/pv"
cmake -S "$root" -B "$work/b" -DCMAKE_INSTALL_PREFIX="$pv" -DWEFT_PROFILE_LIBRARY=ON \
  -DWEFT_TRACE_LIBRARY=ON >"$log" 2>&1 || fail "configure (the variants)"
cmake --build "$work/b" --target install >"$log" 2>&1 || fail "install (the variants)"
for f in lace32-profile lace32-profile-time lace32-trace; do
  [ -e "$pv/lib/pkgconfig/$f.pc" ] || fail "$f.pc not installed"
done
[ ! -e "$pv/lib/pkgconfig/lace128-profile.pc" ] || fail "lace128-profile.pc installed (lace128 has no profiler)"
bash "$here/../../lace/package/variants.sh" "$work/variants" "$pv" "$p" "$here/fib.c" fib
