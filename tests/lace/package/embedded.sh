#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# weft built in a Lace source's place by a parent project (docs/lace.md,
# "Without an install"):
#  1. FetchContent of Lace with FETCHCONTENT_SOURCE_DIR_LACE at this tree
#     and -DWEFT_PROVIDE_LACE=1.4 (how Q-Sylvan's build takes a Lace it
#     does not download): a Lace 1.4 program links the plain names `lace`
#     and `lace14`, builds, runs and gives its answer; the parent's install
#     carries the lace package, as a Lace source's install rules would;
#     with -DWEFT_INSTALL=OFF the parent's build makes nothing of weft but
#     the two libraries it links;
#  2. add_subdirectory with -DWEFT_PROVIDE_LACE=2, as a parent of Sylvan or
#     Oink would (they test `if(NOT TARGET lace)` before they look for
#     Lace, and export targets that link it): `lace`, lace::lace,
#     lace::lace32 and lace::lace128 exist; a Lace 2 program builds and
#     runs through `lace`, lace::lace and lace::lace32; a library of the
#     parent's that links lace::lace is exported (from the build tree too,
#     as Oink does) and installed;
#  3. mode 1.6 names `lace` (configure only);
#  4. a parent that builds a Lace of its own (a target `lace` already
#     there) is told at configure time that weft cannot take its place.
# Usage: embedded.sh   (configures weft afresh from this checkout)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/log"
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
# The libraries a build tree made (archives and shared objects, any folder).
built_in() { (cd "$1" && find . \( -name '*.a' -o -name '*.so*' \) -printf '%f\n' | sort | tr '\n' ' '); }

# 1. FetchContent, mode 1.4; the repository URL is never contacted.
mkdir -p "$work/p14"
cat >"$work/p14/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(parent14 C)
include(FetchContent)
FetchContent_Declare(lace GIT_REPOSITORY https://lace.invalid/lace.git GIT_TAG v1.4.0)
FetchContent_MakeAvailable(lace)
add_executable(fib "$here/fib14.c")
target_link_libraries(fib PRIVATE lace)
add_executable(fib_14 "$here/fib14.c")
target_link_libraries(fib_14 PRIVATE lace14)
CMAKE
(cmake -S "$work/p14" -B "$work/p14/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
   -DFETCHCONTENT_SOURCE_DIR_LACE="$root" -DWEFT_PROVIDE_LACE=1.4 -DWEFT_WITH_MPI=OFF &&
 cmake --build "$work/p14/build" --parallel 2 &&
 cmake --install "$work/p14/build" --prefix "$work/p14/inst") >"$log" 2>&1 ||
  fail "a parent fetching Lace from this tree (mode 1.4)"
for p in fib fib_14; do
  "$work/p14/build/$p" | grep -qx "fib(24) = 46368" || fail "$p's answer (mode 1.4, fetched)"
done
for f in include/weft-lace/lace.h include/weft-lace/lace14.h; do
  [ -f "$work/p14/inst/$f" ] || fail "the parent's install lacks $f"
done
for f in libweft-lace.a cmake/lace/laceConfig.cmake pkgconfig/lace.pc; do
  compgen -G "$work/p14/inst/lib*/$f" >/dev/null || fail "the parent's install lacks lib*/$f"
done
(cmake -S "$work/p14" -B "$work/p14/light" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
   -DFETCHCONTENT_SOURCE_DIR_LACE="$root" -DWEFT_PROVIDE_LACE=1.4 -DWEFT_INSTALL=OFF &&
 cmake --build "$work/p14/light" --parallel 2) >"$log" 2>&1 ||
  fail "a parent fetching Lace from this tree (mode 1.4, WEFT_INSTALL=OFF)"
"$work/p14/light/fib" | grep -qx "fib(24) = 46368" || fail "fib's answer (WEFT_INSTALL=OFF)"
got=$(built_in "$work/p14/light/_deps/lace-build")
[ "$got" = "libweft-lace.a libweft.a " ] ||
  fail "with WEFT_INSTALL=OFF a parent linking lace got '$got' built, not libweft-lace.a and libweft.a"
echo "ok: FetchContent with FETCHCONTENT_SOURCE_DIR_LACE, mode 1.4: lace and lace14 link weft's library; the lace package installs with the parent"

# 2. add_subdirectory, mode 2, a parent that looks for the target first.
mkdir -p "$work/p2"
cat >"$work/p2/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(parent2 C)
add_subdirectory("$root" weft)
foreach(t lace lace::lace lace::lace32 lace::lace128)
  if(NOT TARGET \${t})
    message(FATAL_ERROR "no target \${t}")
  endif()
endforeach()
foreach(v lace=64 lace::lace=64 lace::lace32=32)
  string(REPLACE "=" ";" p \${v})
  list(GET p 0 name)
  list(GET p 1 size)
  string(MAKE_C_IDENTIFIER "fib_\${name}" exe)
  add_executable(\${exe} "$root/tests/lace2/package/fib.c")
  target_compile_definitions(\${exe} PRIVATE FIB_HEADER=\${size})
  target_link_libraries(\${exe} PRIVATE \${name})
endforeach()
add_library(parentlib STATIC "$root/tests/lace2/package/fib.c")
target_compile_definitions(parentlib PRIVATE main=parent_main)
target_link_libraries(parentlib PUBLIC lace::lace)
install(TARGETS parentlib EXPORT parent-targets ARCHIVE DESTINATION lib)
install(EXPORT parent-targets NAMESPACE parent:: DESTINATION lib/cmake/parent)
export(EXPORT parent-targets NAMESPACE parent:: FILE "\${CMAKE_CURRENT_BINARY_DIR}/parent-targets.cmake")
CMAKE
(cmake -S "$work/p2" -B "$work/p2/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
   -DWEFT_PROVIDE_LACE=2 -DWEFT_WITH_MPI=OFF && cmake --build "$work/p2/build" --parallel 2 &&
 cmake --install "$work/p2/build" --prefix "$work/p2/inst") >"$log" 2>&1 ||
  fail "a parent with weft as its Lace (mode 2)"
for p in fib_lace fib_lace__lace fib_lace__lace32; do
  "$work/p2/build/$p" | grep -q "^fib(24) = 46368 " || fail "$p's answer (mode 2, add_subdirectory)"
done
for f in libparentlib.a cmake/parent/parent-targets.cmake cmake/lace/laceConfig.cmake libweft-lace2.a; do
  compgen -G "$work/p2/inst/lib*/$f" >/dev/null || fail "the parent's install lacks lib*/$f"
done
echo "ok: add_subdirectory, mode 2: lace, lace::lace, lace::lace32 and lace::lace128 are weft's; a parent's exported library links lace::lace"

# 3. mode 1.6: the plain name (configure only).
mkdir -p "$work/p16"
cat >"$work/p16/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(parent16 C)
add_subdirectory("$root" weft)
if(NOT TARGET lace OR NOT TARGET lace::lace)
  message(FATAL_ERROR "mode 1.6 names no target lace")
endif()
CMAKE
cmake -S "$work/p16" -B "$work/p16/build" "${gen[@]}" -DWEFT_PROVIDE_LACE=1.6 >"$log" 2>&1 ||
  fail "a parent with weft as its Lace (mode 1.6)"
echo "ok: mode 1.6 names lace"

# 4. A Lace of the parent's own: a message at configure time.
mkdir -p "$work/own"
cat >"$work/own/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(own C)
add_library(lace INTERFACE)
add_subdirectory("$root" weft)
CMAKE
if cmake -S "$work/own" -B "$work/own/build" "${gen[@]}" -DWEFT_PROVIDE_LACE=1.4 >"$log" 2>&1; then
  fail "a parent with a target lace of its own configured weft in Lace's place"
fi
tr -s ' \n' ' ' <"$log" | grep -q "already has a target named lace, so it builds a Lace of its own" ||
  fail "the message for a parent's own Lace"
echo "ok: a parent's own target lace is refused, with a message"
