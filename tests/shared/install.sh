#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The shared build as an install: weft built with BUILD_SHARED_LIBS=ON and
# installed in each API mode (WEFT_PROVIDE_LACE 1.4, 1.6 and 2, one build
# tree reconfigured, each mode into a prefix of its own), and a client
# program for every installed library, linked through its package and run
# against the installed shared libraries:
#   weft            examples/fib.c            find_package weft::weft, pkg-config weft
#   weft::cpp       examples/quicksort.cpp    find_package weft::cpp, pkg-config weft (C++17)
#   weft-profile    examples/fib.c            find_package weft::weft_profile, pkg-config weft-profile
#   weft-profile,   tests/plugin/plugin.c     a plugin closed while its pool runs, then the
#   weft-trace                                reports at weft_stop and at exit
#                                             (tests/plugin/reports.sh)
#   weft-dist       clients/dist_count.c      find_package weft::dist, 2 ranks (where MPI is
#                                             found; the install has no .pc for it)
#   weft-lace 1.4   tests/lace/test_lace_api.c  find_package lace::lace;
#                   bench/fib/fib-lace.c (RUN from outside the pool)  pkg-config lace;
#                   tests/lace/test_lace14_clients.c  pkg-config lace14
#   weft-lace 1.6   tests/lace/test_lace16.c  find_package lace::lace 1.6, pkg-config lace
#   weft-lace2      tests/lace2/package/fib.c find_package lace::lace, lace32, lace128;
#                                             pkg-config lace, lace32, lace128
# Each program checks its answer, and is checked to load its libraries from
# the prefix.  Usage: install.sh <source dir>
set -euo pipefail
src=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/log"
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)

# Program $3 loads every weft or Lace library from prefix $1's lib (not
# from a build tree or the system).  Usage: check_libs <prefix> <what> <program>
check_libs() {
  local prefix=$1 what=$2 program=$3 libs
  libs=$(LD_LIBRARY_PATH="$prefix/lib" ldd "$program" | grep -E 'lib(weft|lace)' || true)
  [ -n "$libs" ] || fail "$what: $program links no shared weft library"
  if grep -v "=> $prefix/lib/" <<<"$libs" | grep -q .; then
    echo "$libs" >"$log"; fail "$what: a weft library not from $prefix/lib"
  fi
}

# Runs a client against prefix $1's libraries; it must say what `expect`
# matches, and exit 0.  Usage: run_client <prefix> <what> <expect> <program> [args]
run_client() {
  local prefix=$1 what=$2 expect=$3; shift 3
  check_libs "$prefix" "$what" "$1"
  LD_LIBRARY_PATH="$prefix/lib" "$@" >"$log" 2>&1 || fail "$what: $*"
  grep -qE "$expect" "$log" || fail "$what: the answer ('$expect' expected)"
  echo "ok: $what"
}

# Configures the one build tree for API mode $1 and installs it into $2.
install_mode() {
  local mode=$1 prefix=$2
  cmake -S "$src" -B "$work/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF -DWEFT_BUILD_EXAMPLES=OFF \
    -DWEFT_PROVIDE_LACE="$mode" -DCMAKE_INSTALL_PREFIX="$prefix" >"$log" 2>&1 ||
    fail "configure (BUILD_SHARED_LIBS=ON, WEFT_PROVIDE_LACE=$mode)"
  cmake --build "$work/build" --target install >"$log" 2>&1 ||
    fail "build and install (BUILD_SHARED_LIBS=ON, WEFT_PROVIDE_LACE=$mode)"
  check_nodelete "$prefix"
}

# Every shared library in prefix $1 stays loaded once loaded (-z nodelete):
# the running pool keeps pointers into weft's libraries and the Lace
# layers', so a plugin closed and opened again with its pool running finds
# them where they were.  Usage: check_nodelete <prefix>
check_nodelete() {
  local prefix=$1 lib n=0
  for lib in "$prefix"/lib/lib*.so.0; do
    [ -e "$lib" ] || continue
    readelf -d "$lib" | grep -q 'Flags:.*NODELETE' || fail "$lib is not linked -z nodelete"
    n=$((n + 1))
  done
  [ "$n" -gt 0 ] || fail "no shared library installed in $prefix/lib"
  echo "ok: $n shared libraries in $prefix/lib stay loaded (NODELETE)"
}

# A find_package client project (clients/CMakeLists.txt) against prefix $1.
cmake_clients() { # <prefix> <build dir> <cmake args...>
  local prefix=$1 dir=$2; shift 2
  cmake -S "$here/clients" -B "$dir" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
    -DWEFT_SOURCE="$src" "$@" >"$log" 2>&1 || fail "find_package clients $*: configure"
  cmake --build "$dir" >"$log" 2>&1 || fail "find_package clients $*: build"
}

# A pkg-config client: <prefix> <package> <output> <compiler and sources...>
pc_client() {
  local prefix=$1 pc=$2 out=$3; shift 3
  local flags
  flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs "$pc") ||
    fail "pkg-config $pc"
  # shellcheck disable=SC2086
  "$@" $flags -o "$out" >"$log" 2>&1 || fail "pkg-config $pc: $*"
}

fib_answer='fib\(30\) = 832040'

# Mode 1.4: weft, weft::cpp, weft-profile, weft-dist, weft-lace (lace, lace14).
p="$work/p14"
install_mode 1.4 "$p"
cmake_clients "$p" "$work/c14" -DCLIENTS=weft
run_client "$p" "find_package weft::weft" "$fib_answer" "$work/c14/fib" 30
run_client "$p" "find_package weft::cpp" ": sorted" "$work/c14/quicksort" 100000
run_client "$p" "find_package weft::weft_profile" "$fib_answer" "$work/c14/fib_profile" 30
pc_client "$p" weft "$work/fib" cc -O2 "$src/examples/fib.c"
run_client "$p" "pkg-config weft" "$fib_answer" "$work/fib" 30
pc_client "$p" weft "$work/quicksort" c++ -std=c++17 -O2 "$src/examples/quicksort.cpp"
run_client "$p" "pkg-config weft, C++ API" ": sorted" "$work/quicksort" 100000
pc_client "$p" weft-profile "$work/fib_profile" cc -O2 "$src/examples/fib.c"
run_client "$p" "pkg-config weft-profile" "$fib_answer" "$work/fib_profile" 30
bash "$src/tests/plugin/reports.sh" "$p" >"$log" 2>&1 ||
  fail "the reports of a pool whose plugin was closed (tests/plugin/reports.sh)"
echo "ok: weft-profile and weft-trace: a closed plugin's task names in the reports at weft_stop and exit"
if [ -e "$p/lib/cmake/weft/weftDistTargets.cmake" ]; then
  [ -x "$work/c14/dist_count" ] || fail "weft::dist installed, but find_package(weft) has no weft::dist"
  mpiexec=$(command -v mpiexec || command -v mpirun) || fail "weft::dist installed, but no mpiexec"
  check_libs "$p" "find_package weft::dist" "$work/c14/dist_count"
  LD_LIBRARY_PATH="$p/lib" bash "$src/tests/dist/mpirun.sh" 120 "$mpiexec" 2 -x LD_LIBRARY_PATH \
    "$work/c14/dist_count" >"$log" 2>&1 || fail "find_package weft::dist: 2 ranks"
  grep -q "dist: 8191 nodes (right)" "$log" || fail "find_package weft::dist: the answer"
  echo "ok: find_package weft::dist, 2 ranks"
else
  echo "skipped: weft::dist (not built: no MPI found)"
fi
cmake_clients "$p" "$work/l14" -DCLIENTS=lace1 -DLACE_VERSION=1.4 -DLACE_TEST=test_lace_api
run_client "$p" "find_package lace::lace (Lace 1.4)" "" "$work/l14/lace_api"
pc_client "$p" lace "$work/fib-lace" cc -O2 -D_GNU_SOURCE -I"$src/bench/common" -I"$src/bench/fib" \
  "$src/bench/fib/fib-lace.c"
run_client "$p" "pkg-config lace (Lace 1.4), RUN from outside the pool" "832040" \
  "$work/fib-lace" -w 2 30
pc_client "$p" lace14 "$work/lace14" cc -O2 -D_GNU_SOURCE -I"$src/tests" \
  "$src/tests/lace/test_lace14_clients.c"
run_client "$p" "pkg-config lace14" "" "$work/lace14"

# Mode 1.6: weft-lace (lace).
p="$work/p16"
install_mode 1.6 "$p"
cmake_clients "$p" "$work/l16" -DCLIENTS=lace1 -DLACE_VERSION=1.6 -DLACE_TEST=test_lace16
run_client "$p" "find_package lace::lace (Lace 1.6)" "" "$work/l16/lace_api"
pc_client "$p" lace "$work/lace16" cc -O2 -D_GNU_SOURCE -I"$src/tests" "$src/tests/lace/test_lace16.c"
run_client "$p" "pkg-config lace (Lace 1.6)" "" "$work/lace16"

# Mode 2: weft-lace2 (lace, lace32; lace128 on weft-128).
p="$work/p2"
fib24='fib\(24\) = 46368'
install_mode 2 "$p"
cmake_clients "$p" "$work/l2" -DCLIENTS=lace2
for v in lace lace32 lace128; do
  run_client "$p" "find_package lace::$v (Lace 2)" "$fib24" "$work/l2/fib_$v"
done
for v in lace:64 lace32:32 lace128:128; do
  pc_client "$p" "${v%%:*}" "$work/${v%%:*}" cc -O2 -DFIB_HEADER="${v#*:}" \
    "$src/tests/lace2/package/fib.c"
  run_client "$p" "pkg-config ${v%%:*} (Lace 2)" "$fib24" "$work/${v%%:*}"
done
