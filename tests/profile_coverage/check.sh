#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# weft's profiling library beside a coverage runtime that defines
# __sanitizer_cov_trace_pc too: a libFuzzer target (clang
# -fsanitize=fuzzer,address) linked with it must link (weft's definition
# is weak: libFuzzer's is kept), run its fuzzing rounds, and write a
# profile at exit (in time: libFuzzer's coverage is not trace-pc, and its
# own __sanitizer_cov_trace_pc only says so).  Exits 77 (ctest's skip), saying why, where clang cannot build a
# libFuzzer program.
# Usage: check.sh <profiling library (.a)> <include dir> <build include dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lib=$1 inc=$2 build_inc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v clang >/dev/null || { echo "SKIPPED: clang is not installed"; exit 77; }
echo 'int LLVMFuzzerTestOneInput(const char *d, long s) { (void)d; return (int)s * 0; }' \
  >"$work/probe.c"
clang -fsanitize=fuzzer,address "$work/probe.c" -o "$work/probe" >/dev/null 2>&1 ||
  { echo "SKIPPED: clang cannot link a libFuzzer program (-fsanitize=fuzzer)"; exit 77; }
clang -O1 -fsanitize=fuzzer,address -DWEFT_PROFILE=1 -isystem "$inc" -isystem "$build_inc" \
  "$here/fuzz_target.c" "$lib" -pthread -lm -o "$work/fuzz" >"$work/log" 2>&1 ||
  { echo "FAILED: linking a libFuzzer target with $lib:"; cat "$work/log"; exit 1; }
echo "ok: clang -fsanitize=fuzzer,address links with $(basename "$lib")"
unset WEFT_PROFILE WEFT_PROFILE_UNIT WEFT_WORKERS
WEFT_PROFILE_JSON="$work/p.json" "$work/fuzz" -runs=200 -seed=1 >"$work/log" 2>&1 ||
  { echo "FAILED: the fuzzer's run:"; tail -20 "$work/log"; exit 1; }
grep -q '"unit": "time"' "$work/p.json" ||
  { echo "FAILED: the profile is not in time:"; head -c 600 "$work/p.json"; exit 1; }
echo "ok: 200 fuzzing rounds on weft, a profile in time at exit"
