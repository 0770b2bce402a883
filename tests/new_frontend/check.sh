#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Adding an API front-end is writing a header over the fork-join core, as
# docs/frontends.md says: mini_fj.h here is such a front-end, written from
# the guide alone, and mini_test.c uses it.  The build under test is
# installed into a scratch prefix, and the program is built against that
# install as a user would build it (find_package, then pkg-config) and run:
# fib and random task trees at 1, 2, 3 and 8 workers, mini_fj nested with
# weft's C macros both ways; two out-of-order mixes (a mini SYNC under a
# pending weft SPAWN, a mini SPAWN from a head a weft SPAWN has used) that
# the core must refuse with its message naming the rule; a mini SYNC of
# the wrong task, which the front-end's WEFT_CHECKS check refuses.  The
# script also checks that the front-end includes nothing but installed
# headers and that every weft name it uses is in docs/frontends.md.
# Usage: check.sh <build-dir> [scale]   (a build whose targets are built)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: check.sh <build-dir> [scale]}" && pwd)
scale=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/log"
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }
ulimit -c 0 # the refusals abort: no core files

# The front-end is the installed headers' user only: no include of src/ or
# of weft's tests, and every weft name it uses is one the guide gives.
includes=$(grep -ho '^#include [<"][^>"]*' "$here/mini_fj.h" "$here/mini_test.c" | cut -c10- | sort -u)
for inc in $includes; do
  case "$inc" in
    '<weft/weft.h' | '"mini_fj.h' | '<std'* | '<string.h') ;;
    *) echo "FAILED: the front-end includes ${inc#?}: only <weft/weft.h> and the C library" >&2; exit 1 ;;
  esac
done
for name in $(grep -o '\b\(weft\|WEFT\)_[A-Za-z0-9_]*' "$here/mini_fj.h" | sort -u); do
  grep -q "\b$name\b" "$root/docs/frontends.md" ||
    { echo "FAILED: mini_fj.h uses $name, which docs/frontends.md does not name" >&2; exit 1; }
done
echo "ok: mini_fj.h uses installed headers and the names of docs/frontends.md only"

# The build, installed as a user installs it.
cmake --install "$build" --prefix "$work/prefix" >"$log" 2>&1 ||
  fail "cmake --install $build (are all of its targets built?)"
for h in weft.h bits/fork_join.h bits/task_macros.h bits/runtime.h bits/observe.h; do
  [ -f "$work/prefix/include/weft/$h" ] || fail "the install has no weft/$h"
done
libdir=$(dirname "$(find "$work/prefix" -name weft.pc -path '*/pkgconfig/*' | head -n 1)")
[ -f "$libdir/weft.pc" ] || fail "the install has no weft.pc"

# The build's own C compiler, as the user's.
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$cc" ] || cc=cc
gen=()
if command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi

# find_package(weft), as README.md's consumer does.
cmake -S "$here" -B "$work/app" "${gen[@]}" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >"$log" 2>&1 || fail "configuring the front-end's program"
cmake --build "$work/app" >"$log" 2>&1 || fail "building the front-end's program (find_package)"
app="$work/app/mini_test"
# (8 workers on this machine's CPUs: no warning about it in the log; five
# rounds per unit of scale, at most 20: release's 150 took 55 s)
reps=$((5 * scale))
[ "$reps" -le 20 ] || reps=20
WEFT_OVERSUBSCRIBE=1 "$app" all "$reps" >"$log" 2>&1 || fail "mini_test all"
cat "$log"

# pkg-config, the other way README.md gives; with the front-end's
# WEFT_CHECKS checks on, whatever the build's default.
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror -DWEFT_CHECKS=1 \
  $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags weft) "$here/mini_test.c" \
  $(PKG_CONFIG_PATH="$libdir" pkg-config --libs weft) -o "$work/mini_test_pc" \
  >"$log" 2>&1 || fail "building the front-end's program (pkg-config)"
WEFT_OVERSUBSCRIBE=1 "$work/mini_test_pc" all 1 >"$log" 2>&1 || fail "mini_test all (pkg-config)"
echo "ok: the program built with pkg-config's flags and WEFT_CHECKS=1, answers right"

# The profiling and tracing variants, where the build has them
# (WEFT_PROFILE_LIBRARY, WEFT_TRACE_LIBRARY): the front-end's hooks name its
# tasks in the profile and in the timeline.
variant() { # <pkg-config name> <environment>...
  local pc=$1
  shift
  # shellcheck disable=SC2046
  "$cc" -std=c11 -Wall -Wextra -Werror $(PKG_CONFIG_PATH="$libdir" pkg-config --cflags "$pc") \
    "$here/mini_test.c" $(PKG_CONFIG_PATH="$libdir" pkg-config --libs "$pc") -o "$work/mini_test_$pc" \
    >"$log" 2>&1 || fail "building the front-end's program against $pc"
  env WEFT_OVERSUBSCRIBE=1 "$@" "$work/mini_test_$pc" all 1 >"$log" 2>&1 || fail "mini_test all ($pc)"
}
if [ -f "$libdir/weft-profile-time.pc" ]; then
  variant weft-profile-time WEFT_PROFILE_JSON="$work/profile.json"
  python3 - "$work/profile.json" <<'PY' || fail "the profile of the front-end's tasks"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
types = {t["name"]: t for t in d["task_types"]}
for name in ("mfib", "mtree", "mchain", "wchain"):
    assert name in types and types[name]["count"] > 0 and types[name]["work_ns"] > 0, (name, types.keys())
PY
  echo "ok: weft-profile-time: the profile counts and times the front-end's tasks by name"
else
  echo "skipped: the install has no profiling variant (WEFT_PROFILE_LIBRARY=OFF)"
fi
if [ -f "$libdir/weft-trace.pc" ]; then
  variant weft-trace WEFT_TRACE="$work/trace.json"
  python3 - "$work/trace.json" <<'PY' || fail "the timeline of the front-end's tasks"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
names = {e.get("name") for e in d["traceEvents"] if e.get("ph") == "X"}
assert {"mfib", "mtree"} <= names, names
PY
  echo "ok: weft-trace: the timeline names the front-end's tasks"
else
  echo "skipped: the install has no tracing variant (WEFT_TRACE_LIBRARY=OFF)"
fi

# Out of order: refused, at once, with the core's message naming the call
# and the rule (docs/design.md, "Mixing the APIs on one worker").
refused() { # <program> <mode> <workers> <message part>...
  local prog=$1 mode=$2 workers=$3 rc=0
  shift 3
  # (in a subshell of its own, whose report of the abort goes to the log)
  ("$prog" "$mode" "$workers" || exit $?) >"$log" 2>&1 || rc=$?
  [ "$rc" -ne 0 ] || fail "mini_test $mode $workers was not refused (exit 0)"
  for part in "$@"; do
    grep -qF "$part" "$log" || fail "mini_test $mode $workers (exit $rc): no '$part' in its message"
  done
  echo "ok: $mode at $workers worker(s) refused (exit $rc): $(grep -m1 '^weft:' "$log" | cut -c1-70)..."
}
rule='docs/design.md, "Mixing the APIs"'
for workers in 1 2; do
  refused "$app" refuse-join "$workers" "weft: MINI_SYNC(mfib) on worker" "spawns and joins nest" "$rule"
  refused "$app" refuse-spawn "$workers" "weft: MINI_SPAWN(mfib) on worker" "holds a task still pending" "$rule"
done
# And WEFT_CHECKS's own check, which the front-end places: a join of
# another task than the pending one.
refused "$work/mini_test_pc" refuse-name 1 "weft: SYNC(mchain) on worker 0, but the last unmatched SPAWN was of another task"
echo "ok: a front-end written from docs/frontends.md, built against the install, tested"
