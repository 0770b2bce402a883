#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# More workers than the CPUs a process may use: one line on stderr saying
# how many of each (and, on an MPI rank, the mpirun option that lifts the
# binding), silenced by WEFT_OVERSUBSCRIBE=1; nothing when the workers fit.
# The process is confined to one CPU with taskset.
# A Lace program is silent, as Lace is, unless WEFT_OVERSUBSCRIBE=0 asks.
# Usage: check.sh <the workers program (tests/oversubscribe/workers.c)>
#                 [<the Lace program (tests/oversubscribe/lace_workers.c)>]
set -euo pipefail
prog=$1
lace_prog=${2:-}
command -v taskset >/dev/null || { echo "FAILED: taskset (util-linux) is not installed" >&2; exit 1; }
# The first CPU this process may run on.
cpu=$(awk '/^Cpus_allowed_list/ { split($2, a, /[,-]/); print a[1] }' /proc/self/status)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset WEFT_OVERSUBSCRIBE WEFT_WORKERS OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK MV2_COMM_WORLD_SIZE
fails=0

# run NAME EXPECT_STDOUT EXPECT_LINE [env assignments...] -- ARGS...
# EXPECT_LINE: "" for an empty stderr, otherwise a pattern (grep -E) that
# stderr's only line must match.
run() {
  local name=$1 want_out=$2 want_err=$3
  shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  local rc=0
  env ${envs[@]+"${envs[@]}"} taskset -c "$cpu" "${run_prog:-$prog}" "$@" >"$work/out" 2>"$work/err" || rc=$?
  local lines
  lines=$(wc -l <"$work/err")
  if [ "$rc" -ne 0 ] || ! grep -qxF "$want_out" "$work/out"; then
    echo "FAILED: $name: exit $rc, stdout: $(cat "$work/out")" >&2; fails=$((fails + 1)); return
  fi
  if [ -z "$want_err" ]; then
    if [ "$lines" -ne 0 ]; then
      echo "FAILED: $name: expected nothing on stderr, got: $(cat "$work/err")" >&2
      fails=$((fails + 1)); return
    fi
  elif [ "$lines" -ne 1 ] || ! grep -qE "$want_err" "$work/err"; then
    echo "FAILED: $name: expected one line matching '$want_err' on stderr, got $lines: $(cat "$work/err")" >&2
    fails=$((fails + 1)); return
  fi
  echo "ok: $name${want_err:+: $(cat "$work/err")}"
}

fib='fib(20) = 6765'
line='^weft: weft_start: 2 workers on 1 CPU \(the affinity mask allows 1\), so they take turns'
run "2 workers on 1 CPU" "$fib" "$line \(WEFT_OVERSUBSCRIBE=1 silences this\)$" -- start 2
run "2 workers on 1 CPU, WEFT_OVERSUBSCRIBE=1" "$fib" "" WEFT_OVERSUBSCRIBE=1 -- start 2
run "2 workers on 1 CPU, WEFT_OVERSUBSCRIBE=0" "$fib" "$line" WEFT_OVERSUBSCRIBE=0 -- start 2
run "WEFT_WORKERS=2 on 1 CPU" "$fib" "$line" WEFT_WORKERS=2 -- config 0
run "1 worker on 1 CPU" "$fib" "" -- start 1
run "the default count on 1 CPU" "$fib" "" -- start 0
run "an Open MPI rank bound to 1 CPU" "$fib" "$line; this MPI rank is bound to them: mpirun --bind-to none lifts the binding" \
  OMPI_COMM_WORLD_SIZE=1 -- start 2
run "an MPICH rank bound to 1 CPU" "$fib" "$line; .*-bind-to none lifts the binding" PMI_SIZE=1 -- start 2
run "a work pool of 2 workers on 1 CPU" "visited 100" \
  '^weft: the work pool: 2 workers on 1 CPU \(the affinity mask allows 1\)' -- pool 2
run "a work pool of 2 workers on 1 CPU, WEFT_OVERSUBSCRIBE=1" "visited 100" "" WEFT_OVERSUBSCRIBE=1 -- pool 2
run "a work pool of the default count on 1 CPU" "visited 100" "" -- pool 0
if [ -n "$lace_prog" ]; then
  run_prog=$lace_prog
  run "a Lace program, 2 workers on 1 CPU" "$fib" "" -- 2
  run "a Lace program, 2 workers on 1 CPU, WEFT_OVERSUBSCRIBE=0" "$fib" \
    '^lace: lace_start: 2 workers on 1 CPU \(the affinity mask allows 1\), so they take turns' \
    WEFT_OVERSUBSCRIBE=0 -- 2
  run "a Lace program, 1 worker on 1 CPU" "$fib" "" -- 1
  run_prog=
fi

[ "$fails" -eq 0 ] || { echo "$fails case(s) failed" >&2; exit 1; }
echo "all oversubscription cases passed"
