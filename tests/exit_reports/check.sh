#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reports are written however the pool ends: a C program that never calls
# weft_stop and a C++ program on the default pool, run with WEFT_PROFILE=1,
# WEFT_PROFILE_JSON=<file> and WEFT_TRACE=<file> (and the C one with
# WEFT_STATS=1 where WEFT_CHECK_STATS=1 says the build counts), get the
# report at exit; where the pool cannot be stopped at exit (exit called
# from a task, or beside a thread inside RUN), one line says why it is not
# written.
# Usage: check.sh <never_stopped> [<default_pool>]
set -euo pipefail
c_prog=$1
cpp_prog=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset WEFT_PROFILE WEFT_PROFILE_JSON WEFT_TRACE WEFT_STATS WEFT_WORKERS
# The lines checked are the only ones: not the warning of a pool with more
# workers than CPUs either (the programs start 2; a machine may give one).
export WEFT_OVERSUBSCRIBE=1
fails=0
fail() { echo "FAILED: $*" >&2; fails=$((fails + 1)); }

# A JSON file: parsed whole when python3 is there, else its first byte.
json_ok() {
  [ -s "$1" ] || return 1
  if command -v python3 >/dev/null; then
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
  else
    [ "$(head -c1 "$1")" = "{" ]
  fi
}

# reports NAME PROGRAM ARGS...: each report, written at exit.
reports() {
  local name=$1
  shift
  local rc=0
  WEFT_PROFILE=1 "$@" >"$work/out" 2>"$work/err" || rc=$?
  if [ "$rc" -ne 0 ] || ! grep -q '^weft profile: ' "$work/err"; then
    fail "$name, WEFT_PROFILE=1: exit $rc, no profile on stderr: $(head -5 "$work/err")"
  else
    echo "ok: $name, WEFT_PROFILE=1: $(grep -c . "$work/err") lines of profile"
  fi
  rm -f "$work/p.json"
  rc=0
  WEFT_PROFILE_JSON="$work/p.json" "$@" >"$work/out" 2>"$work/err" || rc=$?
  if [ "$rc" -ne 0 ] || ! json_ok "$work/p.json" || ! grep -q '"weft_profile"' "$work/p.json"; then
    fail "$name, WEFT_PROFILE_JSON: exit $rc, no profile written; stderr: $(cat "$work/err")"
  else
    echo "ok: $name, WEFT_PROFILE_JSON: $(wc -c <"$work/p.json") bytes"
  fi
  rm -f "$work/t.json"
  rc=0
  WEFT_TRACE="$work/t.json" "$@" >"$work/out" 2>"$work/err" || rc=$?
  if [ "$rc" -ne 0 ] || ! json_ok "$work/t.json" || ! grep -q '"traceEvents"' "$work/t.json"; then
    fail "$name, WEFT_TRACE: exit $rc, no timeline written; stderr: $(cat "$work/err")"
  else
    echo "ok: $name, WEFT_TRACE: $(wc -c <"$work/t.json") bytes"
  fi
}

# unwritten NAME PATTERN PROGRAM ARGS...: exit code 0, no timeline, and
# stderr's one line matches PATTERN.
unwritten() {
  local name=$1 want=$2
  shift 2
  rm -f "$work/t.json"
  local rc=0
  # The pool runs on at exit, so its memory is still in use there: in an
  # AddressSanitizer build, not a leak to report.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" WEFT_TRACE="$work/t.json" "$@" \
    >"$work/out" 2>"$work/err" || rc=$?
  if [ "$rc" -ne 0 ] || [ -e "$work/t.json" ] || [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -qE "$want" "$work/err"; then
    fail "$name: exit $rc; expected one line matching '$want' on stderr, got: $(cat "$work/err")"
  else
    echo "ok: $name: $(cat "$work/err")"
  fi
}

reports "C, main returns without weft_stop" "$c_prog" return
# The counters (WEFT_STATS=1), in builds that count (check.sh is told so
# by WEFT_CHECK_STATS=1): their table's header line, "worker ...".
if [ "${WEFT_CHECK_STATS:-0}" = 1 ]; then
  rc=0
  WEFT_STATS=1 "$c_prog" return >"$work/out" 2>"$work/err" || rc=$?
  if [ "$rc" -ne 0 ] || ! grep -q '^worker ' "$work/err"; then
    fail "C, main returns without weft_stop, WEFT_STATS=1: exit $rc, no counters: $(cat "$work/err")"
  else
    echo "ok: C, main returns without weft_stop, WEFT_STATS=1: the counters"
  fi
fi
if [ -n "$cpp_prog" ]; then
  reports "C++, the default pool" "$cpp_prog"
fi
unwritten "C, exit from a task" \
  '^weft: exit called from a task: the timeline is not written, as the pool cannot stop under its own task' \
  "$c_prog" exit-in-task
unwritten "C, exit beside a thread inside RUN" \
  '^weft: the process exits with 1 thread inside the pool \(RUN, TOGETHER or NEWFRAME\): the timeline is not written \(let them return and call weft_stop before exit\)$' \
  "$c_prog" exit-beside-run

[ "$fails" -eq 0 ] || { echo "$fails case(s) failed" >&2; exit 1; }
echo "all exit report cases passed"
