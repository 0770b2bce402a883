#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs an MPI program the way the dist tests do: on this machine only
# (shared memory, and TCP on the loopback device), oversubscribed, as root
# too (CI runs as root), under a timeout that fails with a message.
# Usage: mpirun.sh <seconds> <mpiexec> <ranks> <program> [args...]
# Exit status: the program's (mpiexec's), or 124 if it did not end in time.
set -uo pipefail
seconds=$1 mpiexec=$2 ranks=$3
shift 3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
# Containers often forbid the cross-memory attach of vader's single copy.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
start=$(date +%s)
# --bind-to none: with one or two ranks Open MPI binds each to a single
# core, and a rank's workers would share it.
timeout -k 10 "$seconds" "$mpiexec" --oversubscribe --bind-to none -np "$ranks" "$@"
rc=$?
# 124 or 137 (killed after -k) from timeout; a rank killed by SIGKILL also
# makes mpiexec exit 137, so the clock decides.
if { [ $rc = 124 ] || [ $rc = 137 ]; } && [ $(( $(date +%s) - start )) -ge "$seconds" ]; then
  echo "FAILED: no end after $seconds s: $mpiexec -np $ranks $*" >&2
  exit 124
fi
exit $rc
