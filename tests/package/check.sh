#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs weft and uses it the ways README.md documents, running the
# README's own command blocks (those after a "tests/package/check.sh runs
# this block" comment) as they are written, with $HOME pointing at a
# scratch directory; then the FetchContent route from this checkout, with a
# parent project whose build type and flags must survive.
# Usage: check.sh <build-dir>   (the build dir is only used for its
# compiler; the install is configured afresh from the README)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/log"

# The fenced block that follows the n-th "check.sh ... this block" comment.
readme_block() {
  awk -v want="$1" '
    /<!-- tests\/package\/check.sh (runs|builds a project with) this block/ { n++; armed = (n == want); next }
    armed && /^```/ { if (inside) { exit } inside = 1; next }
    armed && inside { print }
  ' "$root/README.md"
}
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }

install_cmds=$(readme_block 1)
cmake_snippet=$(readme_block 2)
consumer_cmds=$(readme_block 3)
pkgconfig_cmds=$(readme_block 4)
for b in install_cmds cmake_snippet consumer_cmds pkgconfig_cmds; do
  [ -n "${!b}" ] || fail "README.md has no block for $b (the check.sh markers moved?)"
done

export HOME="$work/home"
mkdir -p "$HOME"
# The source tree as it is, without build trees, so the README's
# `cmake -S . -B build` runs in a clean copy.
tar -C "$root" --exclude='./build*' --exclude='./results' --exclude='./.git' -cf - . |
  (mkdir "$work/src" && tar -C "$work/src" -xf -)
(cd "$work/src" && bash -euo pipefail -c "$install_cmds") >"$log" 2>&1 || fail "README install commands"
echo "ok: README install commands ($HOME/.local)"

# A project with the README's CMake lines.
mkdir -p "$work/app"
cp "$root/examples/fib.c" "$work/app/app.c"
cat >"$work/app/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app C)
add_executable(app app.c)
$cmake_snippet
CMAKE
(cd "$work/app" && bash -euo pipefail -c "$consumer_cmds" && cmake --build build) >"$log" 2>&1 ||
  fail "find_package consumer"
"$work/app/build/app" 20 | grep -q "fib(20) = 6765" || fail "find_package consumer's answer"
echo "ok: find_package (README)"

# A C++-only project (no C language enabled) on the C++ API, weft::cpp.
mkdir -p "$work/app-cpp"
cp "$root/examples/quicksort.cpp" "$work/app-cpp/app.cpp"
cat >"$work/app-cpp/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app_cpp CXX)
find_package(weft 0.1 REQUIRED)
add_executable(app app.cpp)
target_link_libraries(app PRIVATE weft::cpp)
CMAKE
(cmake -S "$work/app-cpp" -B "$work/app-cpp/build" -DCMAKE_PREFIX_PATH="$HOME/.local" &&
  cmake --build "$work/app-cpp/build") >"$log" 2>&1 || fail "find_package consumer of weft::cpp"
"$work/app-cpp/build/app" 100000 | grep -q ": sorted" || fail "weft::cpp consumer's answer"
echo "ok: find_package, weft::cpp from a C++-only project"

(cd "$work/app" && rm -rf build && bash -euo pipefail -c "$pkgconfig_cmds") >"$log" 2>&1 ||
  fail "pkg-config commands"
"$work/app/app" 20 | grep -q "fib(20) = 6765" || fail "pkg-config consumer's answer"
echo "ok: pkg-config (README)"

# FetchContent: the parent's settings survive (its CMakeLists checks).
cmake -S "$here/fetchcontent" -B "$work/fc1" -DWEFT_SOURCE="$root" -DCMAKE_BUILD_TYPE= \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -DPARENT_FLAGS" >"$log" 2>&1 || fail "FetchContent, no build type"
cmake -S "$here/fetchcontent" -B "$work/fc2" -DWEFT_SOURCE="$root" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$log" 2>&1 || fail "FetchContent, RelWithDebInfo"
cmake --build "$work/fc2" >"$log" 2>&1 || fail "FetchContent build"
"$work/fc2/consumer" 20 | grep -q "fib(20) = 6765" || fail "FetchContent consumer's answer"
echo "ok: FetchContent (the parent's build type and flags kept)"
