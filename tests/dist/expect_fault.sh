#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A rank that dies during weft_dist_run must end the whole run, with a
# message naming it, well before the timeout: never a silent hang.
# Usage: expect_fault.sh <seconds> <mpiexec> <ranks> <program> [args...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
"$here/mpirun.sh" "$@" >"$out" 2>&1
rc=$?
cat "$out"
echo "exit status $rc after $(( $(date +%s) - start )) s"
if [ $rc = 0 ]; then echo "FAILED: the run ended with status 0 though rank 1 died"; exit 1; fi
if [ $rc = 124 ]; then echo "FAILED: the run hung after rank 1 died"; exit 1; fi
if ! grep -qi "rank 1" "$out"; then echo "FAILED: no message names rank 1"; exit 1; fi
if grep -q "the run returned though rank 1 died" "$out"; then
  echo "FAILED: a rank's weft_dist_run returned normally"; exit 1
fi
echo "ok: the run ended (status $rc) and named rank 1"
