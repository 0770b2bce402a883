#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/check_layers.py on a copy of the tree: the copy as it is passes;
# each violation planted in it (one at a time) fails the check with a line
# that names the file, the include or the symbol, and the rule it breaks.
# Usage: planted.sh <source dir> [<objects list> <compile_commands.json>]
# With a build's object list (tests/layering/objects-<config>.txt) and its
# compile commands, calls are planted too: the planted file is compiled
# with the build's command for it (tests/layering/objects_of_copy.py) and
# the check reads the build's objects with that one in its place.
set -euo pipefail
src=$(cd "$1" && pwd)
objects=${2:-}
commands=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tree/docs" "$work/tree/scripts"
cp -r "$src/src" "$src/include" "$src/tests" "$work/tree/"
cp "$src/docs/design.md" "$work/tree/docs/"
cp "$src/scripts/check_layers.py" "$work/tree/scripts/"
check() { python3 "$work/tree/scripts/check_layers.py" --root "$work/tree" "$@"; }

check >"$work/out" 2>&1 || { cat "$work/out" >&2; echo "FAILED: the unchanged copy fails" >&2; exit 1; }
echo "ok: the unchanged tree passes the include rules"
if [ -n "$objects" ]; then
  check --objects "$objects" >"$work/out" 2>&1 ||
    { cat "$work/out" >&2; echo "FAILED: the unchanged copy fails with the build's objects" >&2; exit 1; }
  echo "ok: the unchanged tree passes the call rules ($(tail -1 "$work/out"))"
fi

fail=0
# expect <what was planted> <file> <what the report must say> [<symbol>]:
# the check of the planted copy ($work/out) failed with a line naming the
# file (and the symbol it calls) and saying what it must.
expect() {
  local what=$1 file=$2 says=$3 symbol=${4:-} status=$5
  local named="$file:"
  [ -z "$symbol" ] || named="$file: calls $symbol "
  if [ "$status" = 0 ]; then
    echo "FAILED: $what passes the check" >&2; fail=1
  elif ! grep -F "$named" "$work/out" | grep -qF "$says"; then
    echo "FAILED: $what: no line naming '$named' and '$says':" >&2
    cat "$work/out" >&2; fail=1
  else
    echo "ok: $what: $(grep -F "$named" "$work/out" | grep -F "$says" | head -1)"
  fi
}
# keep <file> / restore <file>: the file as it was (or no file).
keep() {
  if [ -e "$work/tree/$1" ]; then cp "$work/tree/$1" "$work/saved"; else rm -f "$work/saved"; fi
}
restore() {
  if [ -e "$work/saved" ]; then cp "$work/saved" "$work/tree/$1"; else rm "$work/tree/$1"; fi
}

# plant <file> <include line> <what the report must say>: the line is
# added to the file, or makes a new file of it (planted.c, in the folders
# whose files may move: each rule is about the folder, not its files).
plant() {
  local file=$1 line=$2 says=$3 status=0
  keep "$file"
  mkdir -p "$(dirname "$work/tree/$file")"
  printf '%s\n' "$line" >>"$work/tree/$file"
  check >"$work/out" 2>&1 || status=$?
  expect "$file with '$line'" "$file" "$says" "" "$status"
  restore "$file"
}
plant src/lace/v1/lace1.c '#include "runtime/state.h"' "a front-end (src/lace) includes of src/ only"
plant src/lace/v2/lace2.c '#include "runtime/external.h"' "a front-end (src/lace) includes of src/ only"
plant src/sched/split/planted.c '#include "runtime/state.h"' \
  "a scheduler (src/sched/split) includes of the runtime only runtime/sched_services.h"
plant src/runtime/state.c '#include "runtime/sleep.h"' \
  "runtime/state (layer 3) includes runtime headers of layers 1-3 only; runtime/sleep is layer 4"
plant src/runtime/steal.c '#include "workpool/hosted.h"' "the runtime includes runtime/, sys/ and observe/hooks.h only"
plant src/runtime/planted.c '#include "runtime/state.h"' "runtime/planted is not in the module map's layer table"
plant src/observe/planted.c '#include "runtime/interrupt.h"' "observe/ includes runtime headers of layers 1-3 only"
plant src/observe/planted.c '#include "workpool/hosted.h"' "observe/ includes observe/, sys/ and the runtime's layers 1-3 only"
plant src/workpool/planted.c '#include "runtime/steal.h"' "workpool/ includes runtime headers of layers 1-4 only"
plant src/workpool/planted.c '#include "lace/common/run.h"' "workpool/ includes workpool/, the observe hooks, sys/"
plant src/dist/planted.c '#include "runtime/state.h"' "dist/ includes runtime headers of layer 1 only"
plant include/weft/weft.h '#include "runtime/state.h"' "a public header (or src/version.c) includes public headers only"
plant tests/planted.c '#include "runtime/state.h"' "a test includes the public headers, tests/ and bench/ only"
# The runtime reaches observe/ through its hooks' header only.
plant src/runtime/steal.c '#include "observe/json.h"' "the runtime includes of observe/ only observe/hooks.h"
# A scheduler includes its own folder and those its sources.cmake names,
# never another scheduler's: a private header of split's in wool, and of
# private-ri's in private-si (which shares private-common with it).
plant src/sched/wool/wool_deque.c '#include "sched/split/split_deque.h"' \
  "a scheduler (src/sched/wool) includes of src/sched/ only its own folder"
plant src/sched/private-si/private_si.c '#include "sched/private-ri/race_facts.h"' \
  "sched/private-ri/ is another scheduler's"
# The shared base includes no scheduler's folder, but in a test that
# scheduler runs as its own.
plant src/sched/private-common/private_deque.c '#include "sched/private-si/private_si.h"' \
  "src/sched/private-common, the base of private-ri, private-si, includes of src/sched/ only its own folder"
# A folder of src/ that the module map does not name is an error; one it
# declares a front-end is held to the front-end rule from its first file.
plant src/newapi/planted.c '#include "runtime/frontend.h"' "unknown folder src/newapi/: add it to the module map"
cp "$work/tree/docs/design.md" "$work/design.md"
row='| front-end: a planted API | `src/newapi/` | `newapi/` and `runtime/frontend.h` | the same |'
awk -v row="$row" '{ print } /^\| front-end: the Lace APIs / { print row }' "$work/design.md" \
  >"$work/tree/docs/design.md"
grep -qF "$row" "$work/tree/docs/design.md" || { echo "FAILED: no front-end row planted" >&2; exit 1; }
plant src/newapi/planted.c '#include "runtime/frontend.h"
#include "runtime/state.h"' "a front-end (src/newapi) includes of src/ only newapi/ and runtime/frontend.h"
cp "$work/design.md" "$work/tree/docs/design.md"

# plant_call <file> <code> <symbol> <what the report must say>: the code,
# a function calling <symbol> through a declaration of its own (no
# include to see), is added to the file, which is compiled; the check
# with that object must name the file, the symbol and the rule.
plant_call() {
  local file=$1 code=$2 symbol=$3 says=$4 status=0 listed
  keep "$file"
  printf '\n%s\n' "$code" >>"$work/tree/$file"
  rm -rf "$work/obj"
  if ! listed=$(python3 "$src/tests/layering/objects_of_copy.py" "$src" "$work/tree" "$objects" \
                "$commands" "$file" "$work/obj"); then
    echo "FAILED: $file with a call of $symbol: no object" >&2; fail=1
  else
    check --objects "$listed" >"$work/out" 2>&1 || status=$?
    expect "$file calling $symbol" "$file" "$says" "$symbol" "$status"
  fi
  restore "$file"
}
if [ -n "$objects" ]; then
  # Up the layers: state (3) calls sleep's (4) weft__wake_all.
  plant_call src/runtime/state.c 'extern void weft__wake_all(void);
void weft__planted_call(void);
void weft__planted_call(void) { weft__wake_all(); }' weft__wake_all \
    "runtime/state (layer 3) uses runtime modules of layers 1-3 only; runtime/sleep is layer 4"
  # Into observe/ past its hooks: the JSON writer's weft__json_string.
  plant_call src/runtime/steal.c '#include <stdio.h>
extern void weft__json_string(FILE *out, const char *s);
void weft__planted_call(void);
void weft__planted_call(void) { weft__json_string(stdout, "planted"); }' weft__json_string \
    "the runtime calls of observe/ only the hooks"
  # Past the scheduler seam: gate's weft__lifecycle_hold, which
  # runtime/sched_services.h does not declare.
  plant_call src/sched/split/split_deque.c 'extern bool weft__lifecycle_hold(bool *held);
bool weft__planted_call(void);
bool weft__planted_call(void) { bool held; return weft__lifecycle_hold(&held); }' \
    weft__lifecycle_hold "a scheduler calls of the runtime only what including runtime/sched_services.h declares"
  # A hook called from a runtime file that does not include observe/hooks.h.
  plant_call src/runtime/gate.c 'extern int weft__trace_check_env(void);
int weft__planted_call(void);
int weft__planted_call(void) { return weft__trace_check_env(); }' weft__trace_check_env \
    "the runtime calls observe's hooks only from a file that includes observe/hooks.h"
else
  echo "note: no object list given: the call rules are not planted"
fi
exit $fail
