#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A SPAWN's arguments are not stored as one 32-byte vector: compiled for
# AVX2 (-O3 -march=haswell, as a client built with -march=native on such
# a machine), neither copy of a task body of four word arguments (the
# plain one and the profiled one) realigns its stack frame to 32 bytes,
# which GCC does in every function that holds a 32-byte vector value;
# nor does a Lace 2 task's body (its layer has its own stores).
# The control function in the same file stores four words with a call
# beside it and must realign, so that a compiler that no longer realigns
# cannot pass the check unseen.  GCC on x86-64 only (CMake's condition).
# Usage: check.sh <C compiler> <objdump> <include dir> <build include dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cc=$1 objdump=$2 inc=$3 build_inc=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for src in spawn_args spawn_args_lace2; do
  "$cc" -O3 -march=haswell -DWEFT_PROFILE=1 -isystem "$inc" -isystem "$inc/weft-lace2" \
    -isystem "$build_inc" -c "$here/$src.c" -o "$work/$src.o"
  "$objdump" -d --no-show-raw-insn "$work/$src.o" >>"$work/dis"
done
# The functions that realign: a stack pointer rounded down to 32 bytes.
awk '/^[0-9a-f]+ <[^>]*>:$/ { fn = substr($2, 2, length($2) - 3) }
     /and +\$0xffffffffffffffe0,%rsp/ { print fn }' "$work/dis" | sort -u >"$work/realign"
fail=0
grep -qx codegen_control "$work/realign" ||
  { echo "FAILED: the control function does not realign: this compiler's code cannot show the fault"; fail=1; }
for fn in walk4_CALL walk4_CALL_PROFILED_ walk4l_CALL; do
  grep -q "^[0-9a-f]* <$fn\(\.[a-z0-9.]*\)\?>:$" "$work/dis" ||
    { echo "FAILED: no function $fn in the object"; fail=1; }
done
if grep '^walk4' "$work/realign"; then
  echo "FAILED: the task's code above realigns its stack frame (a SPAWN's arguments as one vector)"
  fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "ok: no copy of walk4's body nor walk4l's (Lace 2) realigns its frame; the control does"
