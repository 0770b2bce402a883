#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The build commands of docs/*.md work as written: every indented block
# after a "<!-- tests/package/docs.sh configures with this block -->"
# comment has its `cmake -S` commands run as they are written, each in a
# clean copy of the tree; and each -DWEFT_PROVIDE_LACE value (OFF, 1.4, ON,
# 1.6, 2) configures with the tests on (the default) and off.  Configure only:
# what failed here before was the configure step, and building and
# installing each mode is tests/lace/package/check.sh's and
# tests/lace2/package/check.sh's work (minutes, not seconds).
# Usage: docs.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/log"
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }

# A clean copy of the tree (no build trees) for each command.
copy() {
  mkdir "$1"
  tar -C "$root" --exclude='./build*' --exclude='./results' --exclude='./.git' -cf - . |
    tar -C "$1" -xf -
}

# The `cmake -S` commands (with their continuation lines) of the indented
# blocks that follow a marker in one file, one command a line.
configure_commands() {
  awk '
    /<!-- tests\/package\/docs.sh configures with this block -->/ { armed = 1; next }
    armed && /^    / {
      line = substr($0, 5)
      if (cont) { cmd = cmd " " line } else if (line ~ /^cmake -S /) { cmd = line } else { next }
      cont = sub(/[ \t]*\\$/, "", cmd)
      if (!cont) { print cmd; cmd = "" }
      inside = 1; next
    }
    armed && inside && !/^    / { armed = 0; inside = 0 }
  ' "$1"
}

# The pages whose blocks must be here: a moved marker is a failure.
for doc in lace.md lace2.md profiling.md timeline.md schedulers.md; do
  [ -n "$(configure_commands "$root/docs/$doc")" ] || fail "docs/$doc has no marked build block"
done

# Each documented command in a copy of its own, two at a time (a
# configure mostly waits for its compiler checks).
cmds=() names=()
for doc in "$root"/docs/*.md; do
  while IFS= read -r cmd; do
    [ -n "$cmd" ] || continue
    cmds+=("$cmd")
    names+=("${doc#"$root"/}")
  done < <(configure_commands "$doc")
done
run_command() { # <index>
  copy "$work/src$1"
  (cd "$work/src$1" && bash -euo pipefail -c "${cmds[$1]}") >"$work/log$1" 2>&1
}
for ((i = 0; i < ${#cmds[@]}; i += 2)); do
  pids=()
  for j in $i $((i + 1)); do
    [ "$j" -lt ${#cmds[@]} ] || continue
    run_command "$j" &
    pids+=("$!:$j")
  done
  for p in "${pids[@]}"; do
    j=${p#*:}
    if ! wait "${p%%:*}"; then
      cp "$work/log$j" "$log"
      fail "${names[$j]}: ${cmds[$j]}"
    fi
    echo "ok: ${names[$j]}: ${cmds[$j]}"
  done
done
blocks=${#cmds[@]}

# Every WEFT_PROVIDE_LACE value with the tests on and off, reconfiguring
# one tree (CMake evaluates every CMakeLists.txt again at each configure).
copy "$work/modes"
for mode in OFF 1.4 ON 1.6 2; do
  for tests in ON OFF; do
    (cd "$work/modes" && cmake -S . -B build -DWEFT_PROVIDE_LACE="$mode" \
      -DWEFT_BUILD_TESTS="$tests") >"$log" 2>&1 ||
      fail "cmake -S . -B build -DWEFT_PROVIDE_LACE=$mode -DWEFT_BUILD_TESTS=$tests"
    echo "ok: -DWEFT_PROVIDE_LACE=$mode -DWEFT_BUILD_TESTS=$tests configures"
  done
done
echo "all $blocks documented build commands and 10 WEFT_PROVIDE_LACE configurations configure"
