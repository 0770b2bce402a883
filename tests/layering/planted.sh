#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/check_layers.py on a copy of the tree: the copy as it is passes;
# each violation planted in it (one at a time) fails the check with a line
# that names the file and the rule it breaks.
# Usage: planted.sh <source dir>
set -euo pipefail
src=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tree/docs" "$work/tree/scripts"
cp -r "$src/src" "$src/include" "$src/tests" "$work/tree/"
cp "$src/docs/design.md" "$work/tree/docs/"
cp "$src/scripts/check_layers.py" "$work/tree/scripts/"
check() { python3 "$work/tree/scripts/check_layers.py" --root "$work/tree"; }

check >"$work/out" 2>&1 || { cat "$work/out" >&2; echo "FAILED: the unchanged copy fails" >&2; exit 1; }
echo "ok: the unchanged tree passes"

fail=0
# plant <file> <include line> <what the report must say>: the line is
# added to the file, or makes a new file of it (planted.c, in the folders
# whose files may move: each rule is about the folder, not its files).
plant() {
  local file=$1 line=$2 says=$3
  if [ -e "$work/tree/$file" ]; then cp "$work/tree/$file" "$work/saved"; else : >"$work/saved"; fi
  printf '%s\n' "$line" >>"$work/tree/$file"
  if check >"$work/out" 2>&1; then
    echo "FAILED: $file with '$line' passes the check" >&2; fail=1
  elif ! grep -F "$file:" "$work/out" | grep -qF "$says"; then
    echo "FAILED: $file with '$line': no line naming $file and '$says':" >&2
    cat "$work/out" >&2; fail=1
  else
    echo "ok: $file with '$line': $(grep -F "$file:" "$work/out" | head -1)"
  fi
  if [ -s "$work/saved" ]; then cp "$work/saved" "$work/tree/$file"; else rm "$work/tree/$file"; fi
}
plant src/lace/v1/lace1.c '#include "runtime/state.h"' "a front-end (src/lace) includes of src/ only"
plant src/lace/v2/lace2.c '#include "runtime/external.h"' "a front-end (src/lace) includes of src/ only"
plant src/sched/split/planted.c '#include "runtime/state.h"' \
  "a scheduler (src/sched) includes of the runtime only runtime/sched.h"
plant src/runtime/state.c '#include "runtime/sleep.h"' \
  "runtime/state (layer 3) includes runtime headers of layers 1-3 only; runtime/sleep is layer 4"
plant src/runtime/steal.c '#include "workpool/hosted.h"' "the runtime includes runtime/, sys/ and observe/ only"
plant src/runtime/planted.c '#include "runtime/state.h"' "runtime/planted is not in the module map's layer table"
plant src/observe/planted.c '#include "runtime/interrupt.h"' "observe/ includes runtime headers of layers 1-3 only"
plant src/observe/planted.c '#include "workpool/hosted.h"' "observe/ includes observe/, sys/ and the runtime's layers 1-3 only"
plant src/workpool/planted.c '#include "runtime/steal.h"' "workpool/ includes runtime headers of layers 1-4 only"
plant src/workpool/planted.c '#include "lace/common/run.h"' "workpool/ includes workpool/, observe/, sys/"
plant src/dist/planted.c '#include "runtime/state.h"' "dist/ includes runtime headers of layer 1 only"
plant include/weft/weft.h '#include "runtime/state.h"' "a public header (or src/version.c) includes public headers only"
plant tests/planted.c '#include "runtime/state.h"' "a test includes the public headers, tests/ and bench/ only"
exit $fail
