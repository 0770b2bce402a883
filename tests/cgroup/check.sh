#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The default worker count under a CPU quota, in real cgroups this test
# creates below its own: the quota rounded up, at least 1, never above the
# affinity mask; an ancestor's smaller quota counts; WEFT_WORKERS still
# wins, and its oversubscription line counts against the quota.  Uses the
# cpu controller's hierarchy: cgroup v1 (cpu.cfs_quota_us,
# cpu.cfs_period_us) where the controller is mounted on one, v2 (cpu.max)
# otherwise.  Exits 77 (ctest's skip), saying why, where it may not create
# cgroups with the cpu controller.
# Usage: check.sh <the default_workers program (tests/cgroup/default_workers.c)>
set -euo pipefail
prog=$1
skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "creating cgroups needs root"
unset WEFT_WORKERS WEFT_OVERSUBSCRIBE OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_RANK MV2_COMM_WORLD_SIZE
cpus=$(nproc)

# The cpu controller's hierarchy: v1 if a v1 mount carries it.
v1_path=$(awk -F: '$1 != "0" { n = split($2, c, ","); for (i = 1; i <= n; i++) if (c[i] == "cpu") print $3 }' /proc/self/cgroup)
mount_of() { # fstype, controller ("" for v2): the mount point and the mount's root
  awk -v fs="$1" -v ctl="$2" '{
      for (i = 7; $i != "-"; i++) ;
      if ($(i + 1) != fs) next
      if (ctl != "") { n = split($(i + 3), o, ","); ok = 0; for (j = 1; j <= n; j++) if (o[j] == ctl) ok = 1; if (!ok) next }
      print $5, $4; exit }' /proc/self/mountinfo
}
version=
if [ -n "$v1_path" ]; then
  read -r mnt mroot < <(mount_of cgroup cpu) || true
  [ -n "${mnt:-}" ] && version=1 && path=$v1_path
fi
if [ -z "$version" ]; then
  path=$(awk -F: '$1 == "0" && $2 == "" { print $3 }' /proc/self/cgroup)
  read -r mnt mroot < <(mount_of cgroup2 "") || true
  [ -n "${mnt:-}" ] && [ -n "$path" ] || skip "no cgroup hierarchy with the cpu controller is mounted"
  version=2
fi
[ "$mroot" = / ] || path=${path#"$mroot"}
base=$mnt${path%/}
[ -w "$base" ] || skip "$base (cgroup v$version) is not writable"
if [ "$version" = 2 ]; then
  grep -qw cpu "$base/cgroup.controllers" 2>/dev/null ||
    skip "the cpu controller is not available in $base (cgroup v2)"
fi

top=$base/weft-quota-test-$$
cleanup() {
  # Children first; their processes have exited.
  find "$top" -depth -type d -exec rmdir {} \; 2>/dev/null || true
}
trap cleanup EXIT
mkdir "$top" || skip "cannot create a cgroup in $base"

# make_group DIR QUOTA_US PERIOD_US (QUOTA_US "max": no limit)
make_group() {
  local dir=$1 quota=$2 period=$3 parent
  parent=$(dirname "$dir")
  [ -d "$dir" ] || mkdir "$dir"
  if [ "$version" = 1 ]; then
    echo "$period" >"$dir/cpu.cfs_period_us"
    [ "$quota" = max ] && quota=-1
    echo "$quota" >"$dir/cpu.cfs_quota_us"
  else
    # The cpu controller reaches a group only through its parents'
    # subtree_control (a busy non-root parent refuses: then skip).
    echo +cpu >"$parent/cgroup.subtree_control" 2>/dev/null ||
      skip "cannot enable the cpu controller below $parent (cgroup v2)"
    echo "$quota $period" >"$dir/cpu.max"
  fi
}
if [ "$version" = 2 ]; then
  echo +cpu >"$base/cgroup.subtree_control" 2>/dev/null ||
    skip "cannot enable the cpu controller below $base (cgroup v2)"
fi

fails=0
# run NAME GROUP WANT_START WANT_POOL WANT_ERR [env assignments...] [-- command prefix...]
# Runs the program as a process moved into GROUP first; WANT_ERR is ""
# for an empty stderr or a pattern (grep -E) for its one line.
run() {
  local name=$1 group=$2 want_start=$3 want_pool=$4 want_err=$5
  shift 5
  local envs=() prefix=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
  [ $# -gt 0 ] && shift && prefix=("$@")
  local out err rc=0
  out=$(mktemp) err=$(mktemp)
  env ${envs[@]+"${envs[@]}"} sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$group" \
    ${prefix[@]+"${prefix[@]}"} "$prog" >"$out" 2>"$err" || rc=$?
  local got
  got=$(tr '\n' ' ' <"$out")
  if [ "$rc" -ne 0 ] || [ "$got" != "start $want_start pool $want_pool " ]; then
    echo "FAILED: $name: exit $rc, printed '$got', wanted 'start $want_start pool $want_pool'; stderr: $(cat "$err")" >&2
    fails=$((fails + 1))
  elif [ -z "$want_err" ] && [ -s "$err" ]; then
    echo "FAILED: $name: expected nothing on stderr, got: $(cat "$err")" >&2
    fails=$((fails + 1))
  elif [ -n "$want_err" ] && { [ "$(wc -l <"$err")" -ne 1 ] || ! grep -qE "$want_err" "$err"; }; then
    echo "FAILED: $name: expected one line matching '$want_err' on stderr, got: $(cat "$err")" >&2
    fails=$((fails + 1))
  else
    echo "ok: $name: $got${want_err:+($(cat "$err"))}"
  fi
  rm -f "$out" "$err"
}

echo "cgroup v$version below $base; $cpus CPUs in the affinity mask"
make_group "$top" max 100000
run "no quota" "$top" "$cpus" "$cpus" ""
make_group "$top" 50000 100000
run "half a CPU" "$top" 1 1 ""
# The quota is named only where it is the narrower bound (not beside an
# affinity mask of one CPU).
quota_note=""
[ "$cpus" -ge 2 ] && quota_note=", the cgroup's CPU quota 1"
run "half a CPU, WEFT_WORKERS=3" "$top" 3 1 \
  "^weft: weft_start: 3 workers on 1 CPU \(the affinity mask allows $cpus$quota_note\), so they take turns" \
  WEFT_WORKERS=3
run "half a CPU, WEFT_WORKERS=3, WEFT_OVERSUBSCRIBE=1" "$top" 3 1 "" WEFT_WORKERS=3 WEFT_OVERSUBSCRIBE=1
make_group "$top/inner" max 100000
run "half a CPU on the parent, none on the group" "$top/inner" 1 1 ""
# (v1 refuses a group a larger quota than its parent's: the parent's is
# raised first, and the group's own is the smaller.)
make_group "$top" 150000 100000
if [ "$cpus" -ge 2 ]; then
  run "1.5 CPUs on the parent, none on the group (rounded up)" "$top/inner" 2 2 ""
  cpu=$(awk '/^Cpus_allowed_list/ { split($2, a, /[,-]/); print a[1] }' /proc/self/status)
  run "1.5 CPUs, an affinity mask of 1" "$top/inner" 1 1 "" -- taskset -c "$cpu"
fi
make_group "$top/inner" 50000 100000
run "1.5 CPUs on the parent, half a CPU on the group" "$top/inner" 1 1 ""

[ "$fails" -eq 0 ] || { echo "$fails case(s) failed" >&2; exit 1; }
echo "all CPU quota cases passed"
