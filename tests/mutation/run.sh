#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation testing: applies each source mutant of tests/mutation/mutants.txt
# to a scratch copy of the tree, rebuilds incrementally, runs the tests
# aimed at it, and reports killed and survived (docs/verification.md,
# "Mutation testing").
# Usage: tests/mutation/run.sh [--quick] [--check] [NAME-FILTER]
#   --quick  the CI subset (the mutants marked `quick: yes`)
#   --check  only check that each snippet is in the source exactly once
#   --lanes N  mutants built and tested at once, each lane in a scratch
#            tree of its own (default 2; 1 on a single CPU)
# Last line: `mutants: N killed: K survived: S`.  Exit status 0 only when
# every selected mutant was applied, built and killed; a snippet that is
# not in the source exactly once is an ERROR, never a survivor.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec nice -n 10 python3 "$here/mutate.py" "$@"
