#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The reports of a pool whose plugin was closed: tests/plugin/plugin.c,
# built against an installed profiling (weft-profile) or tracing
# (weft-trace) shared library, is opened, starts the pool, computes and is
# closed, three times (test_plugin_unload); the pool runs on.  The report
# is then written by weft_stop, called through the library, or at exit,
# and must name the closed plugin's task (pfib): the profile's table
# (WEFT_PROFILE=1), its JSON (WEFT_PROFILE_JSON) and the timeline
# (WEFT_TRACE).  The profiler and the tracer keep their own copies of the
# task names (src/observe/profile_types.c, trace_names.c): the plugin's
# strings are unmapped by its dlclose.
# Usage: reports.sh <prefix>   (an install of the shared build, with the
# weft-profile and weft-trace packages)
set -euo pipefail
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
unset WEFT_PROFILE WEFT_PROFILE_JSON WEFT_TRACE WEFT_STATS WEFT_WORKERS
# The plugin starts 2 workers: no warning where the machine gives fewer.
export WEFT_OVERSUBSCRIBE=1
command -v python3 >/dev/null || { echo "reports.sh: needs python3 (the JSON checks)" >&2; exit 2; }
fails=0
fail() { echo "FAILED: $*" >&2; fails=$((fails + 1)); }

cc -O2 "$here/test_plugin_unload.c" -o "$work/host" -ldl
for v in weft-profile weft-trace; do
  # shellcheck disable=SC2046
  cc -O2 -fPIC -shared "$here/plugin.c" $(pkg-config --cflags --libs "$v") \
    -Wl,-rpath,"$prefix/lib" -o "$work/$v-plugin.so"
done

# The report names pfib: which report, and the file it is in.
names_task() {
  python3 - "$1" "$2" <<'PY'
import json, sys
kind, path = sys.argv[1], sys.argv[2]
if kind == "table":
    lines = open(path).read().splitlines()
    head = [i for i, l in enumerate(lines) if l.startswith("task type ")]
    ok = bool(head) and any(l.split()[:1] == ["pfib"] for l in lines[head[-1] + 1:])
elif kind == "profile":
    ok = any(t["name"] == "pfib" for t in json.load(open(path))["task_types"])
else:
    ok = any(e.get("name") == "pfib" and e.get("ph") == "X"
             for e in json.load(open(path))["traceEvents"])
sys.exit(0 if ok else 1)
PY
}

# case VARIANT KIND ENDING: one run, its report checked.
case_run() {
  local v=$1 kind=$2 ending=$3 env report rc=0
  local args=("$work/$v-plugin.so")
  [ "$ending" = stop ] && args+=("$prefix/lib/lib$v.so")
  case $kind in
    table)   env=WEFT_PROFILE=1; report="$work/err" ;;
    profile) env=WEFT_PROFILE_JSON="$work/report.json"; report="$work/report.json" ;;
    trace)   env=WEFT_TRACE="$work/report.json"; report="$work/report.json" ;;
  esac
  rm -f "$work/report.json"
  env "$env" "$work/host" "${args[@]}" >"$work/out" 2>"$work/err" || rc=$?
  local what="$v, $env, the report at $ending"
  [ "$ending" = stop ] && what="$v, $env, the report at weft_stop after the dlclose"
  if [ "$rc" -ne 0 ]; then
    fail "$what: exit $rc (139 is SIGSEGV); stderr: $(tail -3 "$work/err")"
  elif ! [ -s "$report" ] || ! names_task "$kind" "$report" 2>>"$work/err"; then
    fail "$what: no report naming the plugin's task pfib; stderr: $(tail -3 "$work/err")"
  else
    echo "ok: $what: names pfib"
  fi
}

for ending in exit stop; do
  case_run weft-profile table "$ending"
  case_run weft-profile profile "$ending"
  case_run weft-trace trace "$ending"
done
[ "$fails" -eq 0 ] || { echo "$fails case(s) failed" >&2; exit 1; }
echo "all plugin report cases passed"
