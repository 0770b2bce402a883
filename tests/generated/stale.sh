#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The freshness check of include/weft-lace2/lace2_arity.h
# (scripts/gen_lace2_arity.py --check) fails on a stale copy: one with a
# macro's body changed, and one with a macro missing; each failure names
# the header and says how to regenerate it.
# Usage: stale.sh <source dir>
set -euo pipefail
src=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
header="$src/include/weft-lace2/lace2_arity.h"
gen="$src/scripts/gen_lace2_arity.py"
fail=0
expect_stale() { # <what> <copy>
  if python3 "$gen" --check "$2" >"$work/out" 2>&1; then
    echo "FAILED: $1: the check passes" >&2; fail=1
  elif ! grep -qF "$2 is stale" "$work/out" || ! grep -qF "scripts/gen_lace2_arity.py >" "$work/out"; then
    echo "FAILED: $1: the message does not name the header and the fix:" >&2
    cat "$work/out" >&2; fail=1
  else
    echo "ok: $1: $(head -1 "$work/out")"
  fi
}
sed 's/(f)->d.args.a3 = a3;/(f)->d.args.a3 = a2;/' "$header" >"$work/changed.h"
cmp -s "$header" "$work/changed.h" && { echo "FAILED: the planted change did not apply" >&2; exit 1; }
expect_stale "a macro's body changed" "$work/changed.h"
grep -v '^#define LACE2_PARAMS_OF_29 ' "$header" >"$work/missing.h"
expect_stale "a macro missing" "$work/missing.h"
exit $fail
