#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The C++ test built with each C++ compiler installed (g++, clang++), with
# -std=c++17 -Wall -Wextra -Werror, against a build tree's libraries:
# test_cxx.cpp with c_tasks.c (compiled by the matching C compiler) and
# short_names.cpp; tests/lace/test_lace_cxx.cpp in Lace modes 1.4 and 1.6;
# and with compilers other than g++, tests/cpp/test_cpp.cpp.
# clang++ is skipped only when it is not installed.
# Usage: check_compilers.sh <build-dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inc=(-I"$root/include" -I"$build/include" -I"$root/include/weft-lace" -I"$here")
libs=("$build/libweft-lace.a" "$build/libweft.a" -pthread)
[ -f "$build/libweft.a" ] || { echo "FAILED: $build/libweft.a not built"; exit 1; }
if grep -q "WEFT_USE_HWLOC 1" "$build/include/weft/config.h"; then libs+=(-lhwloc); fi
ran=0
for pair in gcc:g++ clang:clang++; do
  cc=${pair%%:*} cxx=${pair#*:}
  if ! command -v "$cxx" >/dev/null 2>&1; then
    echo "skipped: $cxx is not installed"
    continue
  fi
  for std in c++17 c++20; do
    "$cc" -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE "${inc[@]}" -c "$here/c_tasks.c" -o "$work/c_tasks.o"
    "$cxx" -std=$std -Wall -Wextra -Werror "${inc[@]}" "$here/test_cxx.cpp" "$work/c_tasks.o" \
      "${libs[@]}" -o "$work/test_cxx"
    "$work/test_cxx"
    "$cxx" -std=$std -Wall -Wextra -Werror "${inc[@]}" "$here/short_names.cpp" "${libs[@]}" \
      -o "$work/short_names"
    "$work/short_names"
    # Lace's lace.h as C++ in both v1 modes (_Atomic(T), the memory orders).
    for api in 14 16; do
      "$cxx" -std=$std -Wall -Wextra -Werror -DWEFT_LACE_API=$api "${inc[@]}" \
        "$root/tests/lace/test_lace_cxx.cpp" "${libs[@]}" -o "$work/test_lace_cxx"
      "$work/test_lace_cxx" >/dev/null
    done
    # The C++ API (weft/weft.hpp): its test with the other compiler (the
    # build's own compiler builds it as test_cpp and test_cpp20).
    if [ "$cxx" != g++ ]; then
      "$cxx" -std=$std -O1 -Wall -Wextra -Werror "${inc[@]}" -I"$root/tests" -I"$root/tests/cpp" \
        "$root/tests/cpp/test_cpp.cpp" "${libs[@]}" -o "$work/test_cpp"
      "$work/test_cpp" 1 >/dev/null
    fi
    echo "ok: $cxx -std=$std"
    ran=$((ran + 1))
  done
done
[ "$ran" -gt 0 ] || { echo "FAILED: no C++ compiler"; exit 1; }
