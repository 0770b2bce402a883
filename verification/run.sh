#!/usr/bin/env bash
# Runs every model check of docs/verification.md with spin and asserts its
# expected outcome: a model of the code as written must pass (no assertion
# violation, no invalid end state); each mutant (a bug injected into the
# model) must be found.  Prints a table with states and times.
#
# Usage: verification/run.sh [--quick | --full] [--keep] [NAME-FILTER]
#   --quick  the CI set (default): every protocol under SC, TSO and the weak
#            model at small bounds, and every mutant; a few minutes on 2 cores
#   --full   adds the split deque's large bounds (the weekly job; ~1 hour and
#            ~8 GB of memory on 2 cores) and the pool model at 3 items
#   --keep   keep the work directories (traces of found errors: spin -t -p)
#   NAME-FILTER  only checks whose name contains it
# Needs spin (Debian package `spin`; installed here if missing and we are
# root) and a C compiler.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

mode=quick keep=0 filter=""
for a in "$@"; do
  case "$a" in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --keep) keep=1 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option '$a' (--quick, --full, --keep)" >&2; exit 2 ;;
    *) filter=$a ;;
  esac
done

if ! command -v spin >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "=== installing spin (apt-get)"
    (apt-get update -qq && apt-get install -y -qq spin) >/dev/null
  fi
  command -v spin >/dev/null || { echo "run.sh: spin is not installed (Debian: apt-get install spin)" >&2; exit 2; }
fi
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "run.sh: no C compiler ($cc)" >&2; exit 2; }

# The sleep model follows the code: is the owner's clearing of a request
# (clear_splitreq, before it reads the sleeper counts) seq_cst yet?  See
# finding 1 in docs/verification.md.
clear_fixed=0
if sed -n '/^static inline void clear_splitreq/,/^}/p' "$root/src/split_deque.c" |
     grep -q memory_order_seq_cst; then
  clear_fixed=1
fi
sleep_defs=()
sleep_expect=fail
if [ $clear_fixed = 1 ]; then sleep_defs=(-DFIX_CLEAR_SEQCST); sleep_expect=pass; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-verify.XXXXXX")
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT

failures=0 count=0 total_start=$(date +%s)
printf '%-34s %-5s %-6s %12s %8s  %-6s %s\n' check model expect states seconds result note
printf '%s\n' "$(printf '%.0s-' {1..100})"

# check MODE NAME MODEL MM EXPECT HASHBITS [defines...]
#   MODE: quick (run in both modes) or full (only with --full)
#   MM: SC, TSO or WEAK; EXPECT: pass (no error) or fail (spin finds one)
check() {
  local cmode=$1 name=$2 model=$3 mm=$4 expect=$5 hashbits=$6
  shift 6
  [ "$cmode" = full ] && [ $mode != full ] && return 0
  [ -n "$filter" ] && [[ "$name" != *"$filter"* ]] && return 0
  count=$((count + 1))
  local dir="$work/$name"
  mkdir -p "$dir"
  local start end result note="" states=""
  # pan.c takes seconds to optimise: worth it only for the large runs
  local opt=-O0
  [ "$cmode" = full ] && opt=-O2
  start=$(date +%s.%N)
  if ! "$cc" -E -P -x c -I"$here" -DMM_"$mm" "$@" "$here/$model" > "$dir/model.pml" 2> "$dir/cpp.txt" ||
     ! (cd "$dir" && spin -a model.pml > spin.txt 2>&1) ||
     ! (cd "$dir" && "$cc" -w "$opt" -DSAFETY -DCOLLAPSE -DVECTORSZ=4096 -DMEMLIM=16000 -o pan pan.c > cc.txt 2>&1); then
    result=BROKEN
    note="model does not build: see $dir"
    keep=1
  else
    (cd "$dir" && ./pan -m10000000 -w"$hashbits" > pan.txt 2>&1) || true
    local errors
    errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$dir/pan.txt" | head -1)
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$dir/pan.txt" | head -1)
    if grep -q "max search depth too small" "$dir/pan.txt" || [ -z "$errors" ]; then
      result=BROKEN
      note="search incomplete: see $dir/pan.txt"
      keep=1
    elif [ "$errors" = 0 ]; then
      result=pass
    else
      result=fail
      note=$(grep -m1 -E "assertion violated|invalid end state" "$dir/pan.txt" | sed 's/^pan:[0-9]*: //; s/ (at depth.*//' | cut -c1-60)
    fi
  fi
  end=$(date +%s.%N)
  local ok=OK
  if [ "$result" != "$expect" ]; then
    ok=UNEXPECTED
    failures=$((failures + 1))
    keep=1
  fi
  printf '%-34s %-5s %-6s %12s %8.1f  %-6s %s %s\n' "$name" "$mm" "$expect" "${states:--}" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$result" "$([ $ok = OK ] || echo "<<< $ok")" "$note"
}

# Bounds (docs/verification.md): P = spawn, S = sync in the owner's script;
# NATT steal attempts per thief (2 thieves); NLEAP tasks the owner runs by
# leapfrogging while it joins a stolen one; NSLOT deque slots (more than
# the owner ever fills: a full deque is finding 2, checked on its own).
small=(-DNSLOT=5 -DNATT=1 -DNLEAP=0 "-DSCRIPT=P P P S S S")   # steal, ask, grow, shrink
fig3=(-DNSLOT=7 -DNATT=2 -DNLEAP=0 "-DSCRIPT=P P P P P P S S S S S S")  # Figure 3
reuse_1=(-DNSLOT=5 -DNATT=1 -DNLEAP=1 "-DSCRIPT=P S P S")     # slot reuse, pop_stolen
reuse_2=(-DNSLOT=5 -DNATT=2 -DNLEAP=1 "-DSCRIPT=P S P P S S P S")
three=(-DNSLOT=5 -DNATT=3 -DNLEAP=1 "-DSCRIPT=P P P S S S")
# (split-default: NSLOT=5, NATT=3, NLEAP=1, P P S P S S P P S S)

# ---- the split deque (Lace Figure 4 as in src/split_deque.c) ----
for mm in SC TSO WEAK; do
  check quick "split-small-$mm" split_deque.pml $mm pass 22 "${small[@]}"
  check quick "split-reuse-1-$mm" split_deque.pml $mm pass 22 "${reuse_1[@]}"
done
check quick split-fig3-SC  split_deque.pml SC  pass 24 "${fig3[@]}"
check quick split-fig3-TSO split_deque.pml TSO pass 24 "${fig3[@]}"
check full split-fig3-WEAK split_deque.pml WEAK pass 27 "${fig3[@]}"
check quick split-three-SC split_deque.pml SC pass 24 "${three[@]}"
check full split-three-TSO split_deque.pml TSO pass 26 "${three[@]}"
for mm in SC TSO WEAK; do
  check full "split-reuse-2-$mm" split_deque.pml $mm pass 26 "${reuse_2[@]}"
  check full "split-default-$mm" split_deque.pml $mm pass 27
done
# finding 2: with 4 slots the script fills the deque.  Under the reserve
# rule as fixed (the last slot stays free; a SPAWN that needs it stops the
# program with a message) every run is right; under the old rule (head may
# reach end) grow_shared parks o_split at end, o_allstolen's encoding.
full=(-DNSLOT=4 -DNATT=3 -DNLEAP=1 "-DSCRIPT=P P P S S S")
check quick split-full-deque-SC  split_deque.pml SC  pass 22 "${full[@]}"
check full split-full-deque-TSO split_deque.pml TSO pass 22 "${full[@]}"
check quick split-full-deque-oldrule-SC split_deque.pml SC fail 22 -DOLD_RESERVE "${full[@]}"
check quick split-cover-overflow-SC split_deque.pml SC fail 22 -DCOVER_OVERFLOW=1 "${full[@]}"
# mutants: the fence, the re-split, the CAS, the orders
check quick split-mut-nofence-SC    split_deque.pml SC   pass 24 -DMUT_SHRINK_NOFENCE "${fig3[@]}"
check quick split-mut-nofence-TSO   split_deque.pml TSO  fail 22 -DMUT_SHRINK_NOFENCE "${small[@]}"
check quick split-mut-nofence-WEAK  split_deque.pml WEAK fail 22 -DMUT_SHRINK_NOFENCE "${small[@]}"
check quick split-mut-nofence-fig3-TSO split_deque.pml TSO fail 24 -DMUT_SHRINK_NOFENCE "${fig3[@]}"
check quick split-mut-resplit-SC    split_deque.pml SC   fail 24 -DMUT_SHRINK_RESPLIT "${fig3[@]}"
check quick split-mut-nocas-SC      split_deque.pml SC   fail 22 -DMUT_STEAL_NOCAS "${small[@]}"
check quick split-mut-popstolen-SC  split_deque.pml SC   fail 22 -DMUT_POPSTOLEN "${reuse_1[@]}"
check quick split-mut-grow-rlx-TSO  split_deque.pml TSO  pass 22 -DMUT_GROW_RLX "${reuse_1[@]}"
check quick split-mut-grow-rlx-WEAK split_deque.pml WEAK fail 22 -DMUT_GROW_RLX "${reuse_1[@]}"
check quick split-mut-push-rlx-TSO  split_deque.pml TSO  pass 22 -DMUT_PUSH_RLX "${reuse_1[@]}"
check quick split-mut-push-rlx-WEAK split_deque.pml WEAK fail 22 -DMUT_PUSH_RLX "${reuse_1[@]}"
check quick split-mut-steal-rlx-TSO  split_deque.pml TSO  pass 22 -DMUT_STEAL_RLX "${reuse_1[@]}"
check quick split-mut-steal-rlx-WEAK split_deque.pml WEAK fail 22 -DMUT_STEAL_RLX "${reuse_1[@]}"
check quick split-mut-done-rlx-TSO  split_deque.pml TSO  pass 22 -DMUT_DONE_RLX "${reuse_1[@]}"
check quick split-mut-done-rlx-WEAK split_deque.pml WEAK fail 22 -DMUT_DONE_RLX "${reuse_1[@]}"
check quick split-mut-join-rlx-TSO  split_deque.pml TSO  pass 22 -DMUT_JOIN_RLX "${reuse_1[@]}"
check quick split-mut-join-rlx-WEAK split_deque.pml WEAK fail 22 -DMUT_JOIN_RLX "${reuse_1[@]}"
# coverage: each of these points is reached (reaching it is made an error)
check quick split-cover-grow-SC       split_deque.pml SC fail 22 -DCOVER_GROW=1 "${small[@]}"
check quick split-cover-grow-noop-SC  split_deque.pml SC fail 22 -DCOVER_GROW_NOOP=1 "${small[@]}"
check quick split-cover-line52-SC     split_deque.pml SC fail 24 -DCOVER_LINE52=1 "${fig3[@]}"
check quick split-cover-line52-TSO    split_deque.pml TSO fail 24 -DCOVER_LINE52=1 "${fig3[@]}"
check quick split-cover-allstolen-SC  split_deque.pml SC fail 22 -DCOVER_ALLSTOLEN=1 "${small[@]}"
check quick split-cover-push-shared-SC split_deque.pml SC fail 22 -DCOVER_PUSH_SHARED=1 "${reuse_1[@]}"
check quick split-cover-popstolen-SC  split_deque.pml SC fail 22 -DCOVER_POPSTOLEN=1 "${reuse_1[@]}"

# ---- Wool's task-state protocol (paper Figure 3) ----
for mm in SC TSO WEAK; do
  check quick "wool-$mm" wool.pml $mm pass 22
done
check quick wool-mut-nobotcheck-SC wool.pml SC   fail 22 -DMUT_WOOL_NOBOTCHECK
check quick wool-mut-norestore-SC  wool.pml SC   fail 22 -DMUT_WOOL_NORESTORE
check quick wool-mut-noswap-SC     wool.pml SC   fail 22 -DMUT_WOOL_JOIN_NOSWAP
check quick wool-mut-spawn-rlx-TSO  wool.pml TSO  pass 22 -DMUT_WOOL_SPAWN_RLX
check quick wool-mut-spawn-rlx-WEAK wool.pml WEAK fail 22 -DMUT_WOOL_SPAWN_RLX
check quick wool-mut-done-rlx-WEAK  wool.pml WEAK fail 22 -DMUT_WOOL_DONE_RLX

# ---- sleep / wake (src/sleep.c with the split deque) ----
check quick sleep-SC sleep.pml SC pass 22 "${sleep_defs[@]}"
for mm in TSO WEAK; do
  check quick "sleep-$mm" sleep.pml $mm "$sleep_expect" 22 "${sleep_defs[@]}"
  check quick "sleep-fix1-$mm" sleep.pml $mm pass 22 -DFIX_CLEAR_SEQCST
done
check quick sleep-mut-nolastlook-SC sleep.pml SC  fail 22 -DMUT_SLEEP_NO_LASTLOOK
check quick sleep-mut-latecount-SC  sleep.pml SC  fail 22 -DMUT_SLEEP_LATE_COUNT
check quick sleep-mut-noopclear-SC  sleep.pml SC  fail 22 -DMUT_SLEEP_NOOP_CLEAR
check quick sleep-mut-nojoinwake-SC sleep.pml SC  fail 22 -DMUT_SLEEP_NO_JOIN_WAKE
check quick sleep-mut-futex-nocmp-SC sleep.pml SC fail 22 -DMUT_FUTEX_NOCMP
# the push's ts store relaxed: on TSO the seq_cst clear after it (fix 1)
# drains it before the count is read, so the Dekker pair still holds
check quick sleep-mut-push-rlx-TSO  sleep.pml TSO pass 22 -DFIX_CLEAR_SEQCST -DMUT_PUSH_RLX
check quick sleep-mut-push-rlx-WEAK sleep.pml WEAK fail 22 -DFIX_CLEAR_SEQCST -DMUT_PUSH_RLX

# ---- private deques, receiver-initiated request/transfer cells ----
for mm in SC TSO WEAK; do
  check quick "private-ri-$mm" private_ri.pml $mm pass 22
done
check quick private-ri-mut-noreject-SC    private_ri.pml SC   fail 22 -DMUT_RI_NO_REJECT
check quick private-ri-mut-takestore-SC   private_ri.pml SC   fail 22 -DMUT_RI_TAKE_STORE
check quick private-ri-mut-latereset-SC   private_ri.pml SC   fail 22 -DMUT_RI_LATE_RESET
check quick private-ri-mut-answer-rlx-WEAK private_ri.pml WEAK pass 22 -DMUT_RI_ANSWER_RLX
check quick private-ri-mut-norelease-WEAK private_ri.pml WEAK fail 22 -DMUT_RI_NO_RELEASE

# ---- the work pool's termination detection ----
for mm in SC TSO WEAK; do
  check quick "pool-term-2-$mm" pool_term.pml $mm pass 22 -DNITEMS=2
  check full "pool-term-3-$mm" pool_term.pml $mm pass 26 -DNITEMS=3
done
check quick pool-term-mut-noleave-SC  pool_term.pml SC fail 22 -DNITEMS=2 -DMUT_TERM_NO_LEAVE
check quick pool-term-mut-joinbusy-SC pool_term.pml SC fail 22 -DNITEMS=2 -DMUT_TERM_JOIN_BUSY
check quick pool-term-mut-nocheck-SC  pool_term.pml SC pass 22 -DNITEMS=2 -DMUT_TERM_NO_CHECK

echo
echo "=== $count checks ($mode), $failures unexpected, $(( $(date +%s) - total_start )) s"
[ $keep = 1 ] && echo "=== work directories kept in $work"
[ $failures = 0 ]
