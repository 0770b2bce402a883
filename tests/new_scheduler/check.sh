#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Adding a scheduler is adding a folder: in a copy of the source tree, a
# throw-away scheduler folder is made by copying src/sched/split under a
# new name, and test_random_trees (and the copied white-box test) are built
# and run against it.  Nothing else in the tree is touched, which the
# script checks.  Usage: check.sh [scale]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
scale=${1:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=throwaway

# The sources as they are (not the build trees, results or git data).
tar -C "$root" --exclude='./build*' --exclude='./results' --exclude='./.git' -cf - . |
  (mkdir "$work/tree" && tar -C "$work/tree" -xf -)
cp -R "$work/tree/src/sched/split" "$work/tree/src/sched/$name"

# Only the new folder differs from the checkout.
diff -rq --exclude="$name" "$root/src" "$work/tree/src" >/dev/null ||
  { echo "FAILED: files outside src/sched/$name differ from the checkout" >&2; exit 1; }

cmake -P "$work/tree/cmake/WeftSchedulers.cmake" | grep -x "$name" >/dev/null ||
  { echo "FAILED: cmake/WeftSchedulers.cmake does not list the new folder" >&2; exit 1; }

cmake -S "$work/tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DWEFT_SCHEDULER="$name" -DWEFT_BUILD_BENCH=OFF -DWEFT_BUILD_EXAMPLES=OFF >/dev/null
grep -q "WEFT_SCHEDULER_NAME \"$name\"" "$work/build/include/weft/config.h" ||
  { echo "FAILED: weft/config.h does not name scheduler $name" >&2; exit 1; }
cmake --build "$work/build" --target test_random_trees test_split_deque >/dev/null
"$work/build/tests/test_random_trees" "$scale"
"$work/build/tests/test_split_deque"
echo "ok: scheduler '$name' added as a folder, built and tested"
