#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The lace packages from an install tree (docs/lace.md):
#  1. an install without WEFT_PROVIDE_LACE puts no lace package and no
#     lace.h where a real Lace's would be;
#  2. with -DWEFT_PROVIDE_LACE=ON, the Lace-API benchmark programs build
#     through find_package(lace) (FetchContent with FIND_PACKAGE_ARGS) and
#     through pkg-config lace, and each checks its answer;
#  3. the version file of mode 1.4 accepts 1.x up to 1.5.4 (Lace 1.5
#     kept 1.4's API), a Lace 1.5 program (TASK(f), as Sylvan 1.9 writes
#     it) builds through find_package(lace 1.5.3), and the targets
#     lace::lace, lace and lace::lace14 and lace14.pc exist;
#  4. reconfigured with -DWEFT_PROVIDE_LACE=1.6: the version file accepts
#     1.6.0 to 1.6.3 and refuses 1.5 and 1.4 (whose TASK(f) 1.6 replaced),
#     pkg-config --atleast-version holds, and Lace 1.6 and 1.4 client
#     programs (tests/lace) build through find_package with a version
#     request and through pkg-config, and pass;
#  5. the same build tree with weft's profiling and tracing variants (mode
#     1.4): variants.sh builds a Lace program through
#     find_package(lace COMPONENTS profile), unchanged with
#     -DWEFT_LACE_VARIANT=profile, through pkg-config lace-profile, and
#     the tracing variant, and runs each; the plain one's advice is in
#     Lace's words; an unknown component or value, or a variant the
#     install lacks (mode 1.4's above), fails with a message that says so.
# Usage: check.sh   (configures weft afresh from this checkout)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/log"
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
# (No profiling variant of weft: tests/package/check.sh installs that.)
lib_only=(-DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_BENCH=OFF
          -DWEFT_BUILD_EXAMPLES=OFF -DWEFT_PROFILE_LIBRARY=OFF -DWEFT_TRACE_LIBRARY=OFF)

# 1. the default install
cmake -S "$root" -B "$work/b0" "${gen[@]}" "${lib_only[@]}" -DCMAKE_INSTALL_PREFIX="$work/p0" \
  >"$log" 2>&1 || fail "configure (default)"
cmake --build "$work/b0" --target install >"$log" 2>&1 || fail "install (default)"
[ -f "$work/p0/include/weft-lace/lace.h" ] || fail "lace.h not installed under include/weft-lace"
for f in include/lace.h lib/cmake/lace lib/pkgconfig/lace.pc; do
  [ ! -e "$work/p0/$f" ] || fail "the default install put $f in place of a real Lace's"
done
echo "ok: the default install provides no lace package"

# 2. with the lace packages
p="$work/p1"
# The prefix held a Lace 2 package before: the mode-1.4 install leaves
# nothing of it (docs/lace.md).
lace2_files=(include/weft-lace2/lace.h include/weft-lace2-128/weft/config.h
             lib/libweft-lace2.a lib/libweft-lace2-128.a lib/libweft-128.a lib/libweft-lace2.so.0
             lib/pkgconfig/lace32.pc lib/pkgconfig/lace128.pc lib/pkgconfig/lace32-trace.pc
             lib/pkgconfig/lace-profile.pc lib/cmake/lace/lace2Targets.cmake
             lib/cmake/lace/lace2Targets-release.cmake)
for f in "${lace2_files[@]}"; do mkdir -p "$(dirname "$p/$f")"; echo stale >"$p/$f"; done
cmake -S "$root" -B "$work/b1" "${gen[@]}" "${lib_only[@]}" -DCMAKE_INSTALL_PREFIX="$p" \
  -DWEFT_PROVIDE_LACE=ON >"$log" 2>&1 || fail "configure (WEFT_PROVIDE_LACE=ON)"
cmake --build "$work/b1" --target install >"$log" 2>&1 || fail "install (WEFT_PROVIDE_LACE=ON)"
[ -f "$p/lib/cmake/lace/laceConfig.cmake" ] && [ -f "$p/lib/pkgconfig/lace.pc" ] ||
  fail "no lace package installed"
for f in "${lace2_files[@]}" include/weft-lace2 include/weft-lace2-128; do
  [ ! -e "$p/$f" ] || fail "the mode-1.4 install left the Lace 2 package's $f"
done
echo "ok: installed over a Lace 2 package, nothing of it is left"

run_all() { # dir-with-binaries how
  local d=$1 how=$2
  "$d/fib-lace" -w 2 25 >"$log" 2>&1 || fail "$how: fib-lace"
  "$d/queens-lace" -w 2 9 >"$log" 2>&1 || fail "$how: queens-lace"
  "$d/pi-lace" -w 2 200000 1000 >"$log" 2>&1 || fail "$how: pi-lace"
  "$d/knapsack-lace" -w 2 30 1 >"$log" 2>&1 || fail "$how: knapsack-lace"
  "$d/cilksort-lace" -w 2 50000 >"$log" 2>&1 || fail "$how: cilksort-lace"
  "$d/matmul-lace" -w 2 128 >"$log" 2>&1 || fail "$how: matmul-lace"
  "$d/strassen-lace" -w 2 128 8 >"$log" 2>&1 || fail "$how: strassen-lace"
  "$d/dfs-lace" -w 2 3 5 100 2 >"$log" 2>&1 || fail "$how: dfs-lace"
  "$d/uts-lace" -w 2 -t 1 -a 3 -d 10 -b 4 -r 19 >"$log" 2>&1 || fail "$how: uts-lace"
  echo "ok: $how: 9 Lace-API programs built and checked their answers"
}

cmake -S "$here" -B "$work/c1" "${gen[@]}" -DCMAKE_PREFIX_PATH="$p" -DWEFT_SOURCE="$root" \
  -DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS >"$log" 2>&1 || fail "find_package(lace) consumer: configure"
grep -q "nonexistent" "$log" && fail "FetchContent tried to fetch instead of finding lace"
cmake --build "$work/c1" >"$log" 2>&1 || fail "find_package(lace) consumer: build"
run_all "$work/c1" "find_package(lace)"

export PKG_CONFIG_PATH="$p/lib/pkgconfig"
pkg-config --exists 'lace >= 1.4' || fail "pkg-config lace >= 1.4"
mkdir -p "$work/c2"
cflags=$(pkg-config --cflags lace)
libs=$(pkg-config --libs --static lace)
for b in fib queens pi knapsack cilksort matmul strassen dfs; do
  # shellcheck disable=SC2086
  cc -O2 -D_GNU_SOURCE -I"$root/bench/common" -I"$root/bench/$b" $cflags \
    "$root/bench/$b/$b-lace.c" -o "$work/c2/$b-lace" $libs -lm >"$log" 2>&1 ||
    fail "pkg-config lace: $b-lace"
done
# shellcheck disable=SC2086
cc -O2 -D_GNU_SOURCE -I"$root/bench/common" -I"$root/bench/uts" $cflags \
  "$root/bench/uts/uts-lace.c" "$root/bench/uts/uts_tree.c" -o "$work/c2/uts-lace" $libs -lcrypto -lm \
  >"$log" 2>&1 || fail "pkg-config lace: uts-lace"
run_all "$work/c2" "pkg-config lace"

# A Lace program's own lines (SPAWN as an expression among them) under
# -Wall -Wextra -Wpedantic -Werror, through pkg-config lace and through
# find_package(lace), with clang and gcc: as with Lace's own lace.h.
pedantic=(-std=c11 -Wall -Wextra -Wpedantic -Werror)
for compiler in clang gcc; do
  command -v "$compiler" >/dev/null 2>&1 || fail "$compiler is not installed"
  # shellcheck disable=SC2086
  "$compiler" "${pedantic[@]}" -D_GNU_SOURCE $cflags "$here/pedantic_lace.c" -o "$work/c2/pedantic" \
    $libs >"$log" 2>&1 || fail "pkg-config lace: $compiler ${pedantic[*]}"
  "$work/c2/pedantic" | grep -q "pfib(18) = 8904" || fail "pkg-config lace: pedantic program's answer"
done
mkdir -p "$work/cp"
cat >"$work/cp/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(p C)
find_package(lace REQUIRED)
add_executable(p $here/pedantic_lace.c)
set_target_properties(p PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF)
target_compile_options(p PRIVATE -Wall -Wextra -Wpedantic -Werror)
target_link_libraries(p PRIVATE lace::lace)
CMAKE
(CC=clang cmake -S "$work/cp" -B "$work/cp/b" -DCMAKE_PREFIX_PATH="$p" && cmake --build "$work/cp/b") \
  >"$log" 2>&1 || fail "find_package(lace): clang ${pedantic[*]}"
"$work/cp/b/p" | grep -q "pfib(18) = 8904" || fail "find_package(lace): pedantic program's answer"
echo "ok: a Lace program under clang and gcc ${pedantic[*]}, through pkg-config and find_package: no warning"

# 3. versions and targets, mode 1.4
check_versions() { # prefix "request:ok|no" ...
  local prefix=$1; shift
  mkdir -p "$work/v"
  for want in "$@"; do
    local v=${want%%:*} expect=${want#*:}
    cat >"$work/v/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(v C)
find_package(lace $v CONFIG)
if(lace_FOUND)
  message(STATUS "lace-found")
  foreach(t lace::lace lace)
    if(NOT TARGET \${t})
      message(FATAL_ERROR "no target \${t}")
    endif()
  endforeach()
endif()
CMAKE
    rm -rf "$work/v/b"
    cmake -S "$work/v" -B "$work/v/b" -DCMAKE_PREFIX_PATH="$prefix" >"$log" 2>&1 || fail "version $v: configure"
    local got=no
    if grep -q lace-found "$log"; then got=ok; fi
    [ "$got" = "$expect" ] || fail "find_package(lace $v) in $prefix: expected $expect, got $got"
  done
}
check_versions "$p" "1.4:ok" "1.4.0:ok" "1.4.2:ok" "1.3:ok" "1:ok" "1.5:ok" "1.5.3:ok" "1.5.4:ok" \
  "1.5.5:no" "1.6.0:no" "1.6.2:no" "2:no" "1.2...1.4.9:ok" "1.5.3...<1.6:ok" "1.6...1.7:no"
# A Lace 1.5 program: Sylvan 1.9's request and its TASK(f).
mkdir -p "$work/c15"
cat >"$work/c15/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(c15 C)
find_package(lace 1.5.3 QUIET)
if(NOT lace_FOUND)
  message(FATAL_ERROR "find_package(lace 1.5.3) refused mode 1.4")
endif()
add_executable(c15 $here/fib14.c)
target_link_libraries(c15 PRIVATE lace::lace)
CMAKE
(cmake -S "$work/c15" -B "$work/c15/b" -DCMAKE_PREFIX_PATH="$p" && cmake --build "$work/c15/b") \
  >"$log" 2>&1 || fail "a Lace 1.5 program through find_package(lace 1.5.3)"
"$work/c15/b/c15" | grep -qx "fib(24) = 46368" || fail "the Lace 1.5 program's answer"
pkg-config --atleast-version=1.4.2 lace && ! pkg-config --atleast-version=1.4.3 lace &&
  pkg-config --exact-version=1.4.2 lace14 || fail "pkg-config lace/lace14 versions (mode 1.4)"
echo "ok: mode 1.4: find_package(lace) accepts 1.x up to 1.5.4 and builds a Lace 1.5 program; lace.pc and lace14.pc say 1.4.2"

# 4. mode 1.6, from the same build tree
p6="$work/p6"
cmake -S "$root" -B "$work/b1" -DCMAKE_INSTALL_PREFIX="$p6" -DWEFT_PROVIDE_LACE=1.6 >"$log" 2>&1 ||
  fail "configure (WEFT_PROVIDE_LACE=1.6)"
cmake --build "$work/b1" --target install >"$log" 2>&1 || fail "install (WEFT_PROVIDE_LACE=1.6)"
[ ! -e "$p6/lib/pkgconfig/lace14.pc" ] || fail "mode 1.6 installed lace14.pc"
check_versions "$p6" "1.6:ok" "1.6.0:ok" "1.6.2:ok" "1.6.3:ok" "1.6.4:no" "1.5:no" "1.5.3:no" "1.4.2:no" \
  "1:ok" "2:no" "1.7:no" "1.4...1.6.2:ok" "1.4...<1.6:no"
export PKG_CONFIG_PATH="$p6/lib/pkgconfig"
pkg-config --atleast-version=1.6.2 lace && ! pkg-config --atleast-version=1.6.4 lace ||
  fail "pkg-config lace versions (mode 1.6)"
mkdir -p "$work/c6"
cat >"$work/c6/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(c6 C)
find_package(lace 1.6.2 REQUIRED)
add_executable(test_lace16 $root/tests/lace/test_lace16.c)
target_include_directories(test_lace16 PRIVATE $root/tests)
target_compile_definitions(test_lace16 PRIVATE _GNU_SOURCE)
target_link_libraries(test_lace16 PRIVATE lace)
CMAKE
cmake -S "$work/c6" -B "$work/c6/b" -DCMAKE_PREFIX_PATH="$p6" >"$log" 2>&1 &&
  cmake --build "$work/c6/b" >"$log" 2>&1 || fail "find_package(lace 1.6.2): test_lace16"
"$work/c6/b/test_lace16" >"$log" 2>&1 || fail "test_lace16 built against mode 1.6"
# shellcheck disable=SC2046
cc -O2 -D_GNU_SOURCE -I"$root/tests" $(pkg-config --cflags lace) "$root/tests/lace/test_lace16.c" \
  -o "$work/c6/t16" $(pkg-config --libs --static lace) >"$log" 2>&1 || fail "pkg-config lace: test_lace16"
"$work/c6/t16" >"$log" 2>&1 || fail "test_lace16 built through pkg-config"
export PKG_CONFIG_PATH="$p/lib/pkgconfig"
# shellcheck disable=SC2046
cc -O2 -D_GNU_SOURCE -I"$root/tests" $(pkg-config --cflags lace14) \
  "$root/tests/lace/test_lace14_clients.c" -o "$work/c6/t14" $(pkg-config --libs --static lace14) \
  >"$log" 2>&1 || fail "pkg-config lace14: test_lace14_clients"
"$work/c6/t14" >"$log" 2>&1 || fail "test_lace14_clients built through pkg-config lace14"
echo "ok: mode 1.6: find_package(lace) accepts 1.6.0 to 1.6.3; Lace 1.6 and 1.4 clients build and pass"

# 5. the profiling and tracing variants, from the same build tree
pv="$work/pv"
cmake -S "$root" -B "$work/b1" -DCMAKE_INSTALL_PREFIX="$pv" -DWEFT_PROVIDE_LACE=1.4 \
  -DWEFT_PROFILE_LIBRARY=ON -DWEFT_TRACE_LIBRARY=ON >"$log" 2>&1 || fail "configure (the variants)"
cmake --build "$work/b1" --target install >"$log" 2>&1 || fail "install (the variants)"
for f in lace14-profile lace14-profile-time lace14-trace; do
  [ -e "$pv/lib/pkgconfig/$f.pc" ] || fail "$f.pc not installed"
done
bash "$here/variants.sh" "$work/variants" "$pv" "$p" "$here/pedantic_lace.c" pfib
