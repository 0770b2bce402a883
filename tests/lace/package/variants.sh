#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The lace package's profiling and tracing variants (docs/lace.md and
# docs/lace2.md, "Profiling and tracing a Lace program"), for the lace
# package of either generation: a Lace program built
#  (a) through find_package(lace COMPONENTS profile),
#  (b) unchanged (find_package(lace)) with -DWEFT_LACE_VARIANT=profile,
#  (c) through pkg-config lace-profile,
# each run with WEFT_PROFILE=1 prints the profile table with its task's
# name and a nonzero count; built with COMPONENTS trace, through
# -DWEFT_LACE_VARIANT=trace and through pkg-config lace-trace, each run
# with WEFT_TRACE=<file> writes a JSON trace with the task's slices; the
# plain package's program, run with WEFT_PROFILE=1 and WEFT_TRACE, gives
# advice in Lace's words (the lace package, no weft:: target); an unknown
# component, an unknown WEFT_LACE_VARIANT, two variants at once, and a
# variant that the install lacks fail with a message that says so.
# Usage: variants.sh <work dir> <prefix with the variants>
#          <prefix without them> <program.c> <its task's name>
# (called by tests/lace/package/check.sh and tests/lace2/package/check.sh)
set -euo pipefail
work=$1 pv=$2 plain_prefix=$3 prog=$4 task=$5
mkdir -p "$work"
log="$work/log"
fail() { echo "FAILED: $*" >&2; cat "$log" >&2 2>/dev/null || true; exit 1; }
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)

for f in lace-profile lace-profile-time lace-trace; do
  [ -e "$pv/lib/pkgconfig/$f.pc" ] || fail "$f.pc not installed"
done
[ ! -e "$plain_prefix/lib/pkgconfig/lace-profile.pc" ] ||
  fail "an install without weft's profiling variant has lace-profile.pc"

# A Lace program's CMake project: find_package(lace), with the components
# that -DASK names, if any.
src="$work/src"
mkdir -p "$src"
cat >"$src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(lace_program C)
if(ASK)
  find_package(lace REQUIRED COMPONENTS \${ASK})
else()
  find_package(lace REQUIRED)
endif()
add_executable(prog $prog)
target_compile_definitions(prog PRIVATE _GNU_SOURCE)
target_link_libraries(prog PRIVATE lace::lace)
CMAKE
build() { # name prefix cmake-args...
  local name=$1 prefix=$2; shift 2
  rm -rf "${work:?}/$name"
  cmake -S "$src" -B "$work/$name" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$log" 2>&1 && cmake --build "$work/$name" >>"$log" 2>&1
}
refused() { # what expected-message cmake-args...
  local what=$1 want=$2; shift 2
  if build refused "$@"; then fail "$what: configured"; fi
  # (CMake wraps a message's lines)
  tr -s ' \n' '  ' <"$log" | grep -qF "$want" || fail "$what: no message '$want'"
}
check_profile() { # how binary
  local how=$1 bin=$2
  WEFT_PROFILE=1 "$bin" >"$work/out" 2>"$log" || fail "$how: run"
  grep -q "^weft profile:" "$log" || fail "$how: no profile on stderr"
  awk -v t="$task" '/^task type/ {s = 1; next} s && $1 == t && $2 > 0 {ok = 1} END {exit !ok}' "$log" ||
    fail "$how: no task type $task with a nonzero count"
  echo "ok: $how: the profile has task $task"
}
check_trace() { # how binary
  local how=$1 bin=$2
  rm -f "$work/trace.json"
  WEFT_TRACE="$work/trace.json" "$bin" >"$work/out" 2>"$log" || fail "$how: run"
  python3 - "$work/trace.json" "$task" >>"$log" 2>&1 <<'PY' || fail "$how: the trace"
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
slices = [e for e in events if e.get("cat") == "task" and e.get("name") == sys.argv[2]]
assert slices, "no slice of task %s among %d events" % (sys.argv[2], len(events))
PY
  echo "ok: $how: the trace has task $task's slices"
}

# The profiling variant, three ways.
build profile "$pv" -DASK=profile || fail "find_package(lace COMPONENTS profile)"
check_profile "find_package(lace COMPONENTS profile)" "$work/profile/prog"
build unchanged "$pv" -DWEFT_LACE_VARIANT=profile || fail "-DWEFT_LACE_VARIANT=profile"
check_profile "-DWEFT_LACE_VARIANT=profile" "$work/unchanged/prog"
export PKG_CONFIG_PATH="$pv/lib/pkgconfig"
# shellcheck disable=SC2046
cc -O2 -D_GNU_SOURCE $(pkg-config --cflags lace-profile) "$prog" -o "$work/pc-profile" \
  $(pkg-config --libs --static lace-profile) >"$log" 2>&1 || fail "pkg-config lace-profile: build"
pkg-config --cflags lace-profile | grep -q -- "-DWEFT_PROFILE=1" || fail "lace-profile.pc: no -DWEFT_PROFILE=1"
check_profile "pkg-config lace-profile" "$work/pc-profile"

# The tracing variant, three ways.
build trace "$pv" -DASK=trace || fail "find_package(lace COMPONENTS trace)"
check_trace "find_package(lace COMPONENTS trace)" "$work/trace/prog"
build trace2 "$pv" -DWEFT_LACE_VARIANT=trace || fail "-DWEFT_LACE_VARIANT=trace"
check_trace "-DWEFT_LACE_VARIANT=trace" "$work/trace2/prog"
# shellcheck disable=SC2046
cc -O2 -D_GNU_SOURCE $(pkg-config --cflags lace-trace) "$prog" -o "$work/pc-trace" \
  $(pkg-config --libs --static lace-trace) >"$log" 2>&1 || fail "pkg-config lace-trace: build"
check_trace "pkg-config lace-trace" "$work/pc-trace"

# The plain package: the advice names the lace package's variants.
build plain "$pv" || fail "find_package(lace)"
WEFT_PROFILE=1 "$work/plain/prog" >"$work/out" 2>"$log" || fail "plain: run with WEFT_PROFILE=1"
grep -q "^lace: WEFT_PROFILE is set, but this build has no profiler (link the lace package's profiling variant instead: find_package(lace COMPONENTS profile)" "$log" ||
  fail "plain: WEFT_PROFILE=1's advice is not Lace's"
WEFT_TRACE="$work/none.json" "$work/plain/prog" >"$work/out" 2>>"$log" || fail "plain: run with WEFT_TRACE"
grep -q "^lace: WEFT_TRACE is set, but this build has no tracer (link the lace package's tracing variant instead" "$log" ||
  fail "plain: WEFT_TRACE's advice is not Lace's"
if grep -q "weft::\|weft-profile\|weft-trace" "$log"; then fail "plain: the advice names weft's own targets"; fi
echo "ok: the plain package's program advises the lace package's variants"

# Refusals.
refused "an unknown component" "unknown component 'bogus'; the lace package's components are profile, profile_time and trace" "$pv" -DASK=bogus
refused "WEFT_LACE_VARIANT=bogus" "WEFT_LACE_VARIANT=bogus: unknown variant of the lace package; it must be profile, profile_time, trace, or empty" "$pv" -DWEFT_LACE_VARIANT=bogus
refused "two variants" "one variant at a time" "$pv" "-DASK=profile;trace"
refused "no profiling variant" "has no profiling variant of its Lace library (weft was configured with -DWEFT_PROFILE_LIBRARY=OFF)" "$plain_prefix" -DASK=profile
refused "no tracing variant" "has no tracing variant of its Lace library (weft was configured with -DWEFT_TRACE_LIBRARY=OFF)" "$plain_prefix" -DWEFT_LACE_VARIANT=trace
echo "ok: an unknown component or variant, two at once, and a variant the install lacks are refused, each saying why"
