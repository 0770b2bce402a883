#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every model check of docs/verification.md with spin and asserts its
# expected outcome: a model of the code as written must pass (no assertion
# violation, no invalid end state); each mutant (a bug injected into the
# model) must be found.  Prints a table with states and times.
#
# Usage: verification/run.sh [--quick | --full] [--keep] [NAME-FILTER]
#   --quick  the CI set (default): every protocol under SC, TSO and the weak
#            model at small bounds, and every mutant; a few minutes on 2 cores
#   --full   adds larger bounds: the split deque (up to 250 M states and
#            14 GB), private-si, the leapfrog sleepers, Chase-Lev,
#            interrupts, the pool at 3 items and the distributed pool at
#            5 (the weekly job; about 90 minutes one check at a time on 2
#            cores)
#   --jobs N run N checks at once (default: the CPU count for --quick, 1
#            for --full, whose large runs need memory)
#   --keep   keep the work directories (traces of found errors: spin -t -p)
#   --dry    list the checks of the mode and check that every mutant's
#            bounds have an unmutated baseline, without running spin
#   NAME-FILTER  only checks whose name contains it
# Needs spin (Debian package `spin`; installed here if missing and we are
# root) and a C compiler: $CC, else clang, else cc (and tcc, if installed,
# for the unoptimised builds).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

mode=quick keep=0 filter="" jobs="" dry=0
while [ $# -gt 0 ]; do
  a=$1
  shift
  case "$a" in
    --jobs)
      jobs=${1:-}
      shift || true
      [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --jobs needs a positive number" >&2; exit 2; } ;;
    --quick) mode=quick ;;
    --full) mode=full ;;
    --keep) keep=1 ;;
    --dry) dry=1 ;;
    -h|--help) sed -n '3,23p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option '$a' (--quick, --full, --jobs N, --keep)" >&2; exit 2 ;;
    *) filter=$a ;;
  esac
done
# quick checks need little memory: one per CPU; the full set's large runs
# take up to ~8 GB each, so one at a time unless told otherwise
if [ -z "$jobs" ]; then
  if [ $mode = full ]; then jobs=1; else jobs=$(nproc 2>/dev/null || echo 1); fi
fi

if ! command -v spin >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "=== installing spin (apt-get)"
    (apt-get update -qq && apt-get install -y -qq spin) >/dev/null
  fi
  command -v spin >/dev/null || { echo "run.sh: spin is not installed (Debian: apt-get install spin)" >&2; exit 2; }
fi
# pan.c of the larger models is half a megabyte of C, and building it is
# most of a small check's time: clang builds it at -O0 in less than half
# gcc's time, and tcc (Debian package tcc) in a thirtieth of clang's (0.2 s
# against 4-6 s) into a verifier that searches as fast as clang's at -O0.
# The unoptimised builds use tcc where it is installed; the optimised ones
# (below) and every build when $CC is set use $CC, else clang, else cc.
cc=${CC:-}
if [ -z "$cc" ]; then
  if command -v clang >/dev/null; then cc=clang; else cc=cc; fi
fi
command -v "$cc" >/dev/null || { echo "run.sh: no C compiler ($cc)" >&2; exit 2; }
cc_unoptimised=$cc
[ -z "${CC:-}" ] && command -v tcc >/dev/null && cc_unoptimised=tcc

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-verify.XXXXXX")
trap '[ $keep = 1 ] || rm -rf "$work"' EXIT   # kept when a check went wrong

failures=0 count=0 total_start=$(date +%s)
printf '%-40s %-5s %12s %8s  %s\n' check model states seconds result
printf '%s\n' "$(printf '%.0s-' {1..100})"

# check MODE NAME MODEL MM EXPECT HASHBITS [defines...]
#   MODE: quick (run in both modes) or full (only with --full)
#   MM: SC, TSO or WEAK; EXPECT: pass (no error) or fail (spin finds one)
# Each check runs as a background job (at most $jobs at once) and leaves its
# table row in $work/NAME/row and its verdict in $work/NAME/verdict; rows
# are printed in the order the checks are listed, as soon as they are in.
names=()
printed=0
# Every mutant's bounds are checked unmutated in the same mode: the
# signature of a check is its model, memory model and defines without the
# -DMUT_ ones; each mutant's signature must be a passing check's.
declare -A baseline=()
mutant_sigs=()
check() {
  local cmode=$1 name=$2
  [ "$cmode" = full ] && [ $mode != full ] && return 0
  [ -n "$filter" ] && [[ "$name" != *"$filter"* ]] && return 0
  local sig d mutant=0 cover=0 defs=()
  for d in "${@:7}"; do
    case "$d" in
      -DMUT_*) mutant=1 ;;
      -DCOVER_*) cover=1; defs+=("$d") ;;
      # switches that only drop an assertion (the baseline with it kept
      # is the stronger check), not bounds
      -DNO_ROUND_BOUND|-DNO_COUNT_CHECK) ;;
      *) defs+=("$d") ;;
    esac
  done
  sig="$3 $4 $(printf '%s\n' "${defs[@]}" | sort | tr '\n' ' ')"
  if [ $mutant = 1 ]; then mutant_sigs+=("$name|$sig")
  elif [ $cover = 0 ] && [[ "$5" == pass* ]]; then baseline["$sig"]=1
  fi
  if [ $dry = 1 ]; then echo "$name"; return 0; fi
  names+=("$name")
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; print_ready; done
  run_check "$@" &
  print_ready
}

run_check() {
  local cmode=$1 name=$2 model=$3 mm=$4 expect=$5 hashbits=$6
  shift 6
  local dir="$work/$name"
  mkdir -p "$dir"
  local start end result=BROKEN note="" states=""
  # pan.c takes seconds to optimise (16 s for the split deque's): worth it
  # only for the large runs, the full set's and the tens of millions of
  # states given a hash table of 2^26 slots
  local opt=-O0 collapse="" pan_cc=$cc_unoptimised
  { [ "$cmode" = full ] || [ "$hashbits" -ge 26 ]; } && opt=-O2 pan_cc=$cc
  # State compression saves memory at a fifth of the search's time: for
  # those runs too (the others store at most a few GB), and for the
  # distributed pool's, whose long state vectors (its channels) it makes
  # faster to store (its quick checks took 1.2 times as long without)
  { [ "$cmode" = full ] || [ "$hashbits" -ge 26 ] || [ "$model" = dist_term.pml ]; } &&
    collapse=-DCOLLAPSE
  start=$(date +%s.%N)
  if ! "$cc" -E -P -x c -I"$here" -DMM_"$mm" "$@" "$here/$model" > "$dir/model.pml" 2> "$dir/cpp.txt" ||
     ! (cd "$dir" && spin -a model.pml > spin.txt 2>&1) ||
     ! (cd "$dir" && "$pan_cc" -w "$opt" -DSAFETY $collapse -DVECTORSZ=4096 -DMEMLIM=16000 -o pan pan.c > cc.txt 2>&1); then
    result=BROKEN
    note="model does not build: see $dir"
  else
    local rc=0 errors
    # The depth cap's stack is allocated whole: 10^7 steps cost half a
    # second of page faults per check, 10^6 a twentieth.  A search that
    # reaches the cap is reported incomplete (below), never passed.
    local depth=1000000
    [ "$cmode" = full ] && depth=10000000
    (cd "$dir" && ./pan -m"$depth" -w"$hashbits" > pan.txt 2>&1) || rc=$?
    errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$dir/pan.txt" | head -1)
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$dir/pan.txt" | head -1)
    # An incomplete search proves nothing: pan stopped early (its exit
    # code), at the depth or memory cap, or said so.  Only a check declared
    # bounded on purpose (EXPECT pass-bounded) may pass after a partial
    # search; a found error counts either way.
    local incomplete=""
    if [ $rc != 0 ]; then incomplete="pan exited with $rc"
    elif grep -q "max search depth too small" "$dir/pan.txt"; then incomplete="depth cap"
    elif grep -qiE "Search not completed|out of memory|reached -DMEMLIM" "$dir/pan.txt"; then
      incomplete="search not completed (memory cap)"
    elif [ -z "$errors" ]; then incomplete="no result line"
    fi
    if [ $rc = 0 ] && [ -n "$errors" ] && [ "$errors" != 0 ]; then
      result=fail
    elif [ -n "$incomplete" ] && { [ "$expect" != pass-bounded ] || [ -z "$errors" ]; }; then
      result=BROKEN
      note="search incomplete ($incomplete): see $dir/pan.txt"
    elif [ "$errors" = 0 ]; then
      result=pass
    fi
    if [ "$result" = fail ]; then
      note=$(grep -m1 -E "assertion violated|invalid end state|acceptance cycle|non-progress cycle" "$dir/pan.txt" | sed 's/^pan:[0-9]*: //; s/ (at depth.*//' | cut -c1-60 || true)
    fi
  fi
  [ "$expect" = pass-bounded ] && expect=pass
  # A mutant must be found for the reason it was made: `why=TEXT check ...`
  # names the text its error must contain (an assertion's or property's
  # name), so a mutant that breaks the model some other way (a generic
  # invalid end state) does not count.
  if [ "$result" = fail ] && [ -n "${why:-}" ] && ! grep -m1 -E "assertion violated|invalid end state" "$dir/pan.txt" | grep -q -- "$why"; then
    result=BROKEN
    note="found, but not as '$why': $note"
  fi
  end=$(date +%s.%N)
  # The words of the result column: only an outcome that differs from the
  # expected one says UNEXPECTED (and nothing else says "fail"), so that a
  # log can be searched for it.
  local ok=OK verdict
  [ "$result" = "$expect" ] || ok=UNEXPECTED
  case "$expect/$result" in
    pass/pass) verdict="passed" ;;
    fail/fail) verdict="found (expected): $note" ;;
    pass/fail) verdict="UNEXPECTED: an error was found: $note" ;;
    fail/pass) verdict="UNEXPECTED: passed, but an error was expected" ;;
    *) verdict="UNEXPECTED: $note" ;;
  esac
  printf '%-40s %-5s %12s %8.1f  %s\n' "$name" "$mm" "${states:--}" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$verdict" > "$dir/row.tmp"
  echo "$ok" > "$dir/verdict"
  mv "$dir/row.tmp" "$dir/row"   # last: print_ready takes a present row as complete
}

# Prints the rows of finished checks, in list order, up to the first one
# still running.
print_ready() {
  while [ $printed -lt ${#names[@]} ] && [ -f "$work/${names[$printed]}/row" ]; do
    cat "$work/${names[$printed]}/row"
    printed=$((printed + 1))
  done
}

# hidden_by_tso NAME MODEL [defines...]: a mutant that weakens an order
# x86-TSO still keeps (its stores drain in order, a locked RMW drains the
# buffer): not found under TSO (NAME-TSO passes), found under the weak
# model (NAME-WEAK fails).  The TSO half only documents why the mutant's
# check is a weak-model one: --full.
hidden_by_tso() {
  local name=$1 model=$2
  shift 2
  check full "$name-TSO" "$model" TSO pass 22 "$@"
  check quick "$name-WEAK" "$model" WEAK fail 22 "$@"
}

# cover_checks NAME_PATTERN MODEL "POINTS" [defines...]: one SC check per
# coverage point P of MODEL: -DCOVER_P=1 makes reaching P an error, so the
# check must fail.  The check's name is NAME_PATTERN with %s replaced by
# P in lower case with dashes.
cover_checks() {
  local pattern=$1 model=$2 points=$3 point
  shift 3
  for point in $points; do
    check quick "$(printf "$pattern" "$(echo "$point" | tr 'A-Z_' 'a-z-')")" "$model" SC fail 22 \
      -DCOVER_"$point"=1 "$@"
  done
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

# ---- the split deque (Lace Figure 4 as in src/sched/split/split_deque.c) ----
for mm in SC TSO WEAK; do
  check quick "split-small-$mm" split_deque.pml $mm pass 22 "${small[@]}"
  check quick "split-reuse-1-$mm" split_deque.pml $mm pass 22 "${reuse_1[@]}"
done
check quick split-fig3-SC  split_deque.pml SC  pass 24 "${fig3[@]}"
check quick split-fig3-TSO split_deque.pml TSO pass 24 "${fig3[@]}"
# split-fig3-WEAK (the fig3 bounds under the weak model) does not fit a
# 24 GB machine: stopped at 222 M states and 12.3 GB without an error
# (docs/results/model-checks.md); the weak model is checked at the
# small and reuse bounds instead.
check quick split-three-SC split_deque.pml SC pass 24 "${three[@]}"
# The join guard folded into limit (weft/bits/fork_join.h, "Where the
# join's test is made"): a search raises it (G) under two pending tasks,
# the owner joins past it, the runtime-started task ends (R); thieves'
# requests come and are served meanwhile.  No SYNC below the guard takes
# the fast path (split_sync.pml's assertion).  Mutants: clearing a
# request publishes o_split alone; the guard moves without limit.
guard=(-DJOIN_GUARD -DNSLOT=5 -DNATT=2 -DNLEAP=1 "-DSCRIPT=P P P G P S S S S R P S")
check quick split-guard-SC split_deque.pml SC pass 23 "${guard[@]}"
check quick split-guard-TSO split_deque.pml TSO pass 24 "${guard[@]}"
check full split-guard-WEAK split_deque.pml WEAK pass 26 "${guard[@]}"
check quick split-mut-guard-clear-SC split_deque.pml SC fail 23 -DMUT_GUARD_CLEAR "${guard[@]}"
check quick split-mut-guard-nopublish-SC split_deque.pml SC fail 23 -DMUT_GUARD_NOPUBLISH "${guard[@]}"
check full split-three-TSO split_deque.pml TSO pass 26 "${three[@]}"
for mm in SC TSO WEAK; do
  check full "split-reuse-2-$mm" split_deque.pml $mm pass 26 "${reuse_2[@]}"
  check full "split-default-$mm" split_deque.pml $mm pass 27
done
# WEFT_YIELD serves a request (owner_poll): three pending tasks, the
# thieves steal the shared one and ask; the running task yields before it
# syncs.  Every task runs once; the poll's grow is reached (cover);
# growing from a head one slot too high is caught (a thief takes a slot
# nobody pushed).
yield=(-DNSLOT=5 -DNATT=2 -DNLEAP=0 "-DSCRIPT=P P P Y S Y S S")
check quick split-yield-SC  split_deque.pml SC  pass 22 "${yield[@]}"
check quick split-yield-TSO split_deque.pml TSO pass 22 "${yield[@]}"
check full split-yield-WEAK split_deque.pml WEAK pass 24 "${yield[@]}"
check quick split-cover-poll-grow-SC split_deque.pml SC fail 22 -DCOVER_POLL_GROW=1 "${yield[@]}"
check quick split-mut-poll-above-SC split_deque.pml SC fail 22 -DMUT_POLL_ABOVE "${yield[@]}"
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
why=owner_done check quick split-mut-popstolen-SC  split_deque.pml SC   fail 22 -DMUT_POPSTOLEN "${reuse_1[@]}"
for m in GROW PUSH STEAL DONE JOIN; do
  hidden_by_tso "split-mut-$(echo $m | tr A-Z a-z)-rlx" split_deque.pml -DMUT_${m}_RLX "${reuse_1[@]}"
done
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
why=owner_done check quick wool-mut-norestore-SC  wool.pml SC   fail 22 -DMUT_WOOL_NORESTORE
why=owner_done check quick wool-mut-noswap-SC     wool.pml SC   fail 22 -DMUT_WOOL_JOIN_NOSWAP
hidden_by_tso wool-mut-spawn-rlx wool.pml -DMUT_WOOL_SPAWN_RLX
check quick wool-mut-done-rlx-WEAK  wool.pml WEAK fail 22 -DMUT_WOOL_DONE_RLX

# ---- weft's Wool variant (src/sched/wool/wool_deque.c: CAS join, bot CAS, private
# tasks with the trip wire) ----
# Bounds: 1 owner (script of P = spawn, S = sync, Y = yield), 2 thieves,
# NATT attempts each, NSLOT slots, privatize after PRIV_AFTER public joins.
ww_two=(-DNSLOT=3 -DNATT=2 -DPRIV_AFTER=1 "-DSCRIPT=P P S S P P S S")    # two rounds
ww_reuse=(-DNSLOT=3 -DNATT=2 -DPRIV_AFTER=1 "-DSCRIPT=P P S S P S P S")  # slot 0 reused private
ww_yield=(-DNSLOT=3 -DNATT=2 -DPRIV_AFTER=1 "-DSCRIPT=P P Y S S P Y S")  # WEFT_YIELD serves
for mm in SC TSO WEAK; do
  check quick "wool-weft-$mm" wool_weft.pml $mm pass 22 "${ww_two[@]}"
  check quick "wool-weft-reuse-$mm" wool_weft.pml $mm pass 22 "${ww_reuse[@]}"
done
check quick wool-weft-yield-SC   wool_weft.pml SC   pass 22 "${ww_yield[@]}"
check quick wool-weft-yield-WEAK wool_weft.pml WEAK pass 22 "${ww_yield[@]}"
check quick wool-weft-mut-botstore-SC     wool_weft.pml SC   fail 22 -DMUT_BOT_STORE "${ww_two[@]}"
check quick wool-weft-mut-restorestore-SC wool_weft.pml SC   fail 22 -DMUT_RESTORE_STORE "${ww_two[@]}"
check quick wool-weft-mut-joinnocas-SC    wool_weft.pml SC   fail 22 -DMUT_JOIN_NOCAS "${ww_two[@]}"
check quick wool-weft-mut-settlenope-SC   wool_weft.pml SC   fail 22 -DMUT_SETTLE_NOPE "${ww_two[@]}"
check quick wool-weft-mut-settlenostate-SC wool_weft.pml SC  fail 22 -DMUT_SETTLE_NOSTATE "${ww_reuse[@]}"
why=owner_done check quick wool-weft-mut-joinnobot-SC    wool_weft.pml SC   fail 22 -DMUT_JOIN_NOBOT "${ww_two[@]}"
for m in SPAWN CLAIM DONE; do
  hidden_by_tso "wool-weft-mut-$(echo $m | tr A-Z a-z)-rlx" wool_weft.pml -DMUT_${m}_RLX "${ww_two[@]}"
done
# without privatizing, unmutated (4.3 M states) and the spawn mutant that
# needs it: --full (the spawn mutant with privatizing is in --quick above)
check full wool-weft-nopriv-WEAK wool_weft.pml WEAK pass 23 -DNO_PRIVATIZE "${ww_two[@]}"
check full wool-weft-mut-spawn-rlx-nopriv-WEAK wool_weft.pml WEAK fail 22 -DMUT_SPAWN_RLX -DNO_PRIVATIZE "${ww_two[@]}"
hidden_by_tso wool-weft-mut-serve-rlx wool_weft.pml -DMUT_SERVE_RLX "${ww_reuse[@]}"
# coverage: each point is reached (reaching it is made an error)
cover_checks "wool-weft-cover-%s-SC" wool_weft.pml "SERVE ASK STEAL BACKOFF_PE BACKOFF_BOT PRIVATIZE WAIT PRIVWAIT JOINSTOLEN" "${ww_two[@]}"
check quick wool-weft-cover-giveup-SC wool_weft.pml SC fail 22 -DCOVER_GIVEUP=1 "${ww_reuse[@]}"
check quick wool-weft-cover-backoff-WEAK wool_weft.pml WEAK fail 22 -DCOVER_BACKOFF=1 "${ww_two[@]}"
check quick wool-weft-cover-privatize-WEAK wool_weft.pml WEAK fail 22 -DCOVER_PRIVATIZE=1 "${ww_two[@]}"

# ---- sleep / wake (src/runtime/sleep.c with the split deque) ----
# The code clears a request with seq_cst (clear_splitreq in
# src/sched/split/split_deque.c; finding 1 in docs/verification.md): the
# model of it (sleep.pml's default) passes everywhere; the relaxed clear
# it replaced (MUT_CLEAR_RLX) is a mutant found under TSO and the weak
# model.  Stated here,
# not read from the source: reverting the fix is for the C tests and the
# mutation list (tests/mutation/mutants.txt) to catch.
check quick sleep-SC sleep.pml SC pass 22
for mm in TSO WEAK; do
  check quick "sleep-$mm" sleep.pml $mm pass 22
  check quick "sleep-mut-clear-rlx-$mm" sleep.pml $mm fail 22 -DMUT_CLEAR_RLX
done
check quick sleep-mut-nolastlook-SC sleep.pml SC  fail 22 -DMUT_SLEEP_NO_LASTLOOK
check quick sleep-mut-latecount-SC  sleep.pml SC  fail 22 -DMUT_SLEEP_LATE_COUNT
check quick sleep-mut-noopclear-SC  sleep.pml SC  fail 22 -DMUT_SLEEP_NOOP_CLEAR
check quick sleep-mut-nojoinwake-SC sleep.pml SC  fail 22 -DMUT_SLEEP_NO_JOIN_WAKE
check quick sleep-mut-futex-nocmp-SC sleep.pml SC fail 22 -DMUT_FUTEX_NOCMP
# the push's ts store relaxed: on TSO the seq_cst clear after it (fix 1)
# drains it before the count is read, so the Dekker pair still holds
hidden_by_tso sleep-mut-push-rlx sleep.pml -DMUT_PUSH_RLX

# ---- leapfrogging joiners that sleep (sleep_leap.pml: JOIN_LEAP sleepers,
# leap_sleepers, with a thief's split deque and an idle third worker) ----
# Bounds: SCRIPT = B's body of the stolen task T; B_SLEEPS: B may sleep at
# the join of a stolen child (JOIN_LEAP on A or C).
sl_q=("-DSCRIPT=P S" -DB_SLEEPS=0)          # A and C sleep, B polls at joins
sl_b=("-DSCRIPT=P S" -DB_SLEEPS=1)          # B sleeps at joins too
sl_2=("-DSCRIPT=P P S S" -DB_SLEEPS=0)      # grow_shared (share, no-op, OK_MORE)
sl_3=("-DSCRIPT=P P S P S S" -DB_SLEEPS=0)  # a push after grow's no-op
for mm in SC TSO WEAK; do
  check quick "sleep-leap-$mm" sleep_leap.pml $mm pass 22 "${sl_q[@]}"
done
check quick sleep-leap-bsleep-SC sleep_leap.pml SC pass 22 "${sl_b[@]}"
# the bounds of the mutant that needs a push after grow's no-op, unmutated
# (4.5 M states for P P S S alone: --full)
check full sleep-leap-ppsps-nob-SC sleep_leap.pml SC pass 24 "${sl_3[@]}"
check full sleep-leap-pps-SC sleep_leap.pml SC pass 26 "-DSCRIPT=P P S S" -DB_SLEEPS=1
check quick sleep-leap-mut-poolcount-SC sleep_leap.pml SC fail 22 -DMUT_LEAP_POOLCOUNT "${sl_q[@]}"
check quick sleep-leap-mut-nolook-SC    sleep_leap.pml SC fail 22 -DMUT_LEAP_NO_LOOK "${sl_q[@]}"
check full sleep-leap-mut-noask-SC     sleep_leap.pml SC fail 24 -DMUT_LEAP_NO_ASK "${sl_3[@]}"
check quick sleep-leap-mut-noshared-SC  sleep_leap.pml SC fail 22 -DMUT_LEAP_NO_SHARED "${sl_q[@]}"
check quick sleep-leap-mut-joinermask-SC sleep_leap.pml SC fail 22 -DMUT_JOINER_MASK "${sl_q[@]}"
check quick sleep-leap-mut-claimstore-SC sleep_leap.pml SC fail 22 -DMUT_CLAIM_STORE "${sl_q[@]}"
# coverage: each point is reached (reaching it is made an error)
cover_checks "sleep-leap-cover-%s-SC" sleep_leap.pml "LEAP_SLEEP LEAP_WITHDRAW LEAP_STEAL WAKE_LEAP_OWNER WAKE_DONE CLAIM_RACE WAKE_IDLE RENEW NOOP_RAISE COUNT_LOW COUNT_HIGH" "${sl_2[@]}"
check full sleep-leap-cover-wake-leap-thief-SC sleep_leap.pml SC fail 22 -DCOVER_WAKE_LEAP_THIEF=1 "${sl_2[@]}"
check quick sleep-leap-cover-b-sleep-SC sleep_leap.pml SC fail 22 -DCOVER_B_SLEEP=1 "${sl_b[@]}"
check quick sleep-leap-cover-b-wake-SC  sleep_leap.pml SC fail 22 -DCOVER_B_WAKE=1 "${sl_b[@]}"

# ---- RUN callers that borrow an idle worker (run_borrow.pml: the worker's
# thread, NBT borrowers NB times each, a publisher of work, the thief of a
# borrower's stolen task) ----
rb_two=(-DNBT=2 -DNB=1)     # two borrowers: a borrow while the last loan ends
for mm in SC TSO WEAK; do
  check quick "run-borrow-$mm" run_borrow.pml $mm pass 22
  check full "run-borrow-pub2-$mm" run_borrow.pml $mm pass 22 -DNPUB=2
done
check quick run-borrow-two-SC run_borrow.pml SC pass 22 "${rb_two[@]}"
check full run-borrow-two-TSO  run_borrow.pml TSO  pass 22 "${rb_two[@]}"
check full run-borrow-two-WEAK run_borrow.pml WEAK pass 22 "${rb_two[@]}"
# mutants: the return's last look and re-count (lost wake-ups), claims
# that wake one waiter or give up when the sleeper became lendable, the
# worker's thread not waiting for the loan, the borrower's sleeps ending
# in AWAKE, lendable before the last look, claims that accept LENT
check quick run-borrow-mut-nolastlook-SC run_borrow.pml SC fail 22 -DMUT_LEND_NO_LASTLOOK
check quick run-borrow-mut-norecount-SC  run_borrow.pml SC fail 22 -DMUT_LEND_NO_RECOUNT -DNO_COUNT_CHECK
check quick run-borrow-mut-wakeone-SC    run_borrow.pml SC fail 22 -DMUT_WAKE_ONE
check quick run-borrow-mut-claimnoretry-SC run_borrow.pml SC fail 22 -DMUT_CLAIM_NO_RETRY
check quick run-borrow-mut-noloancheck-SC run_borrow.pml SC fail 22 -DMUT_NO_LOAN_CHECK
check quick run-borrow-mut-noguestbit-SC run_borrow.pml SC fail 22 -DMUT_NO_GUEST_BIT
check quick run-borrow-mut-lendearly-SC  run_borrow.pml SC fail 22 -DMUT_LENDABLE_EARLY
check quick run-borrow-mut-claimlent-SC  run_borrow.pml SC fail 22 -DMUT_LEND_CLAIM_LENT
check quick run-borrow-mut-futex-nocmp-SC run_borrow.pml SC fail 22 -DMUT_FUTEX_NOCMP
# the worker's own state (L_STATE) handed over with the loan: the orders
# that protect it weakened (x86's locked RMWs keep both).  The thread's
# CAS to lendable relaxed: a borrower reads the state before the thread's
# last writes (state_last); the borrower's loan decrement relaxed: its last
# read of the state sees the woken thread's write (my_stamp)
why=state_last hidden_by_tso run-borrow-mut-lendable-rlx run_borrow.pml -DMUT_LENDABLE_RLX
why=my_stamp hidden_by_tso run-borrow-mut-loan-rlx run_borrow.pml -DMUT_LOAN_RLX
# coverage: each point is reached (reaching it is made an error)
cover_checks "run-borrow-cover-%s-SC" run_borrow.pml "BORROW GUEST_SLEEP GUEST_WOKEN RETURN_CLAIM LOAN_WAIT WOKEN_IN_LOAN"
check quick run-borrow-cover-reborrow-SC run_borrow.pml SC fail 22 -DCOVER_REBORROW=1 "${rb_two[@]}"

# ---- private deques, receiver-initiated request/transfer cells ----
for mm in SC TSO WEAK; do
  check quick "private-ri-$mm" private_ri.pml $mm pass 22
done
why=thief_waits check quick private-ri-mut-noreject-SC    private_ri.pml SC   fail 22 -DMUT_RI_NO_REJECT
check quick private-ri-mut-takestore-SC   private_ri.pml SC   fail 22 -DMUT_RI_TAKE_STORE
check quick private-ri-mut-latereset-SC   private_ri.pml SC   fail 22 -DMUT_RI_LATE_RESET
check quick private-ri-mut-answer-rlx-WEAK private_ri.pml WEAK pass 22 -DMUT_RI_ANSWER_RLX
check quick private-ri-mut-norelease-WEAK private_ri.pml WEAK fail 22 -DMUT_RI_NO_RELEASE

# ---- private deques, sender-initiated deals (private_si.pml) ----
# Bounds: script P P S S (default) or P P S P S S (slot reuse); NR
# receivers; NBUSY busy phases per receiver; NJSLEEP join sleeps.
si_one=(-DNR=1)
si_reuse=(-DNR=1 "-DSCRIPT=P P S P S S")
si_two=(-DNR=2 -DNBUSY=0 -DNJSLEEP=0)
for mm in SC TSO WEAK; do
  check quick "private-si-$mm" private_si.pml $mm pass 22 "${si_one[@]}"
  check quick "private-si-reuse-$mm" private_si.pml $mm pass 22 "${si_reuse[@]}"
  check quick "private-si-two-$mm" private_si.pml $mm pass 23 "${si_two[@]}"
done
for mm in TSO WEAK; do
  check quick "private-si-nosleep-$mm" private_si.pml $mm pass 22 -DNJSLEEP=0 "${si_one[@]}"
done
check full private-si-two-all-SC    private_si.pml SC   pass 24 -DNR=2
check full private-si-two-sleep-TSO private_si.pml TSO  pass 24 -DNR=2 -DNBUSY=0
check full private-si-two-sleep-WEAK private_si.pml WEAK pass 24 -DNR=2 -DNBUSY=0
check quick private-si-mut-takestore-SC     private_si.pml SC   fail 22 -DMUT_SI_TAKE_STORE "${si_one[@]}"
check quick private-si-mut-takebackstore-SC private_si.pml SC   fail 22 -DMUT_SI_TAKEBACK_STORE "${si_one[@]}"
check quick private-si-mut-takebacknocount-SC private_si.pml SC fail 22 -DMUT_SI_TAKEBACK_NOCOUNT "${si_one[@]}"
check quick private-si-mut-closestore-SC    private_si.pml SC   fail 22 -DMUT_SI_CLOSE_STORE "${si_one[@]}"
check quick private-si-mut-nowake-SC        private_si.pml SC   fail 22 -DMUT_SI_NO_WAKE "${si_one[@]}"
check quick private-si-mut-nolastlook-SC    private_si.pml SC   fail 22 -DMUT_SI_NO_LASTLOOK "${si_one[@]}"
check quick private-si-mut-futex-nocmp-SC   private_si.pml SC   fail 22 -DMUT_FUTEX_NOCMP "${si_one[@]}"
hidden_by_tso private-si-mut-deal-rlx private_si.pml -DMUT_SI_DEAL_RLX "${si_one[@]}"
check quick private-si-mut-unordered-SC     private_si.pml SC   fail 23 -DMUT_SI_DEAL_UNORDERED "${si_two[@]}"
check quick private-si-mut-done-rlx-TSO     private_si.pml TSO  fail 22 -DMUT_SI_DONE_RLX "${si_one[@]}"
check quick private-si-mut-done-rlx-WEAK    private_si.pml WEAK fail 22 -DMUT_SI_DONE_RLX "${si_one[@]}"
hidden_by_tso private-si-mut-done-rlx-nosleep private_si.pml -DMUT_SI_DONE_RLX -DNJSLEEP=0 "${si_one[@]}"
hidden_by_tso private-si-mut-announce-rlx private_si.pml -DMUT_SI_ANNOUNCE_RLX "${si_one[@]}"
check quick private-si-mut-peek-rlx-WEAK    private_si.pml WEAK pass 22 -DMUT_SI_PEEK_RLX "${si_one[@]}"
# coverage: each of these points is reached (reaching it is made an error)
check quick private-si-cover-taken-SC     private_si.pml SC fail 22 -DCOVER_TAKEN=1 "${si_one[@]}"
check quick private-si-cover-takeback-SC  private_si.pml SC fail 22 -DCOVER_TAKEBACK=1 "${si_one[@]}"
check quick private-si-cover-wake-SC      private_si.pml SC fail 22 -DCOVER_WAKE=1 "${si_one[@]}"
check quick private-si-cover-wake-WEAK    private_si.pml WEAK fail 22 -DCOVER_WAKE=1 "${si_one[@]}"
check quick private-si-cover-lastlook-SC  private_si.pml SC fail 22 -DCOVER_LASTLOOK=1 "${si_one[@]}"
check quick private-si-cover-busydeal-SC  private_si.pml SC fail 22 -DCOVER_BUSY_DEAL=1 "${si_one[@]}"
check quick private-si-cover-joinwake-SC  private_si.pml SC fail 22 -DCOVER_JOIN_WAKE=1 "${si_one[@]}"

# ---- the Chase-Lev scheduler and its sleeper handshake (chase_lev.pml) ----
# Bounds: owner script (P = spawn, S = sync), NI idle workers, NARR array
# entries.  Default: P P S S, one idle worker, 4 entries.
cl_reuse=(-DNARR=2 "-DSCRIPT=P P S S P S")   # push_slow, array entries reused
cl_two=(-DNI=2 "-DSCRIPT=P S")               # two sleepers, one request word
cl_two_full=(-DNI=2)                         # two sleepers, P P S S (cascade)
for mm in SC TSO WEAK; do
  check quick "chase-lev-$mm" chase_lev.pml $mm pass 22
  check quick "chase-lev-reuse-$mm" chase_lev.pml $mm pass 22 "${cl_reuse[@]}"
  check quick "chase-lev-two-$mm" chase_lev.pml $mm pass 23 "${cl_two[@]}"
  check full "chase-lev-two-full-$mm" chase_lev.pml $mm pass 25 "${cl_two_full[@]}"
done
# not promised by the code: no sleeper asleep while top < bottom at all.
# Holds under SC; on TSO and weaker a push's relaxed read of the request
# misses a sleeper that missed the push (store-buffer Dekker), until the
# owner's next push, SYNC or poll
check quick chase-lev-strong-SC   chase_lev.pml SC   pass 22 -DSTRONG
check quick chase-lev-strong-TSO  chase_lev.pml TSO  fail 22 -DSTRONG
check quick chase-lev-strong-WEAK chase_lev.pml WEAK fail 22 -DSTRONG
# mutants
check quick chase-lev-mut-popnofence-SC   chase_lev.pml SC   pass 22 -DMUT_POP_NOFENCE
check quick chase-lev-mut-popnofence-TSO  chase_lev.pml TSO  fail 22 -DMUT_POP_NOFENCE
check quick chase-lev-mut-popnofence-WEAK chase_lev.pml WEAK fail 22 -DMUT_POP_NOFENCE
check quick chase-lev-mut-serveclear-SC   chase_lev.pml SC   fail 22 -DMUT_SERVE_CLEAR
check quick chase-lev-mut-reqrlx-SC       chase_lev.pml SC   pass 22 -DMUT_REQ_RLX
check quick chase-lev-mut-reqrlx-TSO      chase_lev.pml TSO  fail 22 -DMUT_REQ_RLX
check quick chase-lev-mut-reqrlx-WEAK     chase_lev.pml WEAK fail 22 -DMUT_REQ_RLX
check quick chase-lev-mut-lookfirst-SC    chase_lev.pml SC   fail 22 -DMUT_LOOK_FIRST
check quick chase-lev-mut-popnoreq-SC     chase_lev.pml SC   pass 22 -DMUT_POP_NOREQ
check quick chase-lev-mut-popnoreq-TSO    chase_lev.pml TSO  fail 22 -DMUT_POP_NOREQ
# not found by the weak model: its release store waits for the older
# stores to drain, so only the newest push can be missed, and the pop
# takes that one itself (ARMv8's STLR does not stall the thread: real ARM
# has the TSO execution too)
check quick chase-lev-mut-popnoreq-WEAK   chase_lev.pml WEAK pass 22 -DMUT_POP_NOREQ
# the push's read of the request is not needed for the promise (the
# pop's is), only for the stronger property
check quick chase-lev-mut-pushnoreq-TSO   chase_lev.pml TSO  pass 22 -DMUT_PUSH_NOREQ
check quick chase-lev-mut-pushnoreq-strong-SC chase_lev.pml SC fail 22 -DMUT_PUSH_NOREQ -DSTRONG
hidden_by_tso chase-lev-mut-push-rlx chase_lev.pml -DMUT_PUSH_RLX
check quick chase-lev-mut-norenew-two-SC  chase_lev.pml SC   fail 23 -DMUT_NO_RENEW "${cl_two[@]}"
# coverage: each point is reached (reaching it is made an error)
cover_checks "chase-lev-cover-%s-SC" chase_lev.pml "PUSH_SERVE POP_SERVE KEEP OWNER_CAS JOIN BUSY WITHDRAW"
check quick chase-lev-cover-missed-TSO     chase_lev.pml TSO  fail 22 -DCOVER_MISSED=1
check quick chase-lev-cover-missed-WEAK    chase_lev.pml WEAK fail 22 -DCOVER_MISSED=1
check quick chase-lev-cover-pop-catch-TSO  chase_lev.pml TSO  fail 22 -DCOVER_POP_CATCH=1
check quick chase-lev-cover-pop-catch-WEAK chase_lev.pml WEAK fail 22 -DCOVER_POP_CATCH=1
check quick chase-lev-cover-push-slow-SC   chase_lev.pml SC   fail 22 -DCOVER_PUSH_SLOW=1 "${cl_reuse[@]}"
check quick chase-lev-cover-wrap-SC        chase_lev.pml SC   fail 22 -DCOVER_WRAP=1 "${cl_reuse[@]}"
cover_checks "chase-lev-cover-%s-two-SC" chase_lev.pml "MORE RENEW SKIPREQ" -DNI=2

# ---- interrupts: freeze, barriers, thaw (src/runtime/interrupt.c with the split
# deque's weft__sched_freeze/thaw; interrupt.pml) ----
# Bounds: worker 0 runs SCRIPT (P = spawn an old task, S = sync one, Y =
# WEFT_YIELD, N = NEWFRAME from a task on worker 0); worker 1 makes NATT
# steal attempts on the old tasks; NEXT external threads and, with
# W1_INIT=1, worker 1 each call NEWFRAME once (a task that spawns and syncs
# one child); 4 slots per deque.
intr_one=(-DNSLOT=4 -DNATT=1 -DNEXT=1 "-DSCRIPT=P P Y S S")              # external initiator
intr_w0=(-DNSLOT=4 -DNATT=1 -DNEXT=0 "-DSCRIPT=P P N S S")               # NEWFRAME from a task
intr_both=(-DNSLOT=4 -DNATT=1 -DNEXT=0 -DW1_INIT=1 "-DSCRIPT=P P N S S") # both workers initiate
intr_two=(-DNSLOT=4 -DNATT=1 -DNEXT=1 -DW1_INIT=1 "-DSCRIPT=P P Y S S")  # external + worker 1
intr_ext2=(-DNSLOT=4 -DNATT=1 -DNEXT=2 "-DSCRIPT=P Y S")                 # two external threads
for mm in SC TSO WEAK; do
  check quick "interrupt-$mm" interrupt.pml $mm pass 22 "${intr_one[@]}"
  check quick "interrupt-both-$mm" interrupt.pml $mm pass 22 "${intr_both[@]}"
done
check quick interrupt-w0-SC  interrupt.pml SC pass 22 "${intr_w0[@]}"
check quick interrupt-two-SC interrupt.pml SC pass 22 "${intr_two[@]}"
check full interrupt-two-TSO  interrupt.pml TSO pass 24 "${intr_two[@]}"
check full interrupt-ext2-SC  interrupt.pml SC  pass 24 "${intr_ext2[@]}"
check full interrupt-ext2-TSO interrupt.pml TSO pass 24 "${intr_ext2[@]}"
# mutants: the barriers, the freeze, the last leaver, a waiting initiator
check quick interrupt-mut-nobarrier1-SC  interrupt.pml SC fail 22 -DMUT_NO_BARRIER1 "${intr_one[@]}"
check quick interrupt-mut-nobarrier2-SC  interrupt.pml SC fail 22 -DMUT_NO_BARRIER2 "${intr_one[@]}"
check quick interrupt-mut-freeze-nohide-SC interrupt.pml SC fail 22 -DMUT_FREEZE_NOHIDE "${intr_one[@]}"
check quick interrupt-mut-freeze-store-SC interrupt.pml SC fail 22 -DMUT_FREEZE_STORE "${intr_one[@]}"
check quick interrupt-mut-early-free-SC  interrupt.pml SC fail 22 -DMUT_EARLY_FREE "${intr_one[@]}"
check quick interrupt-mut-free-order-SC  interrupt.pml SC fail 22 -DMUT_FREE_ORDER "${intr_two[@]}"
why=waits_for_slot check quick interrupt-mut-init-noserve-SC interrupt.pml SC fail 22 -DMUT_INIT_NOSERVE "${intr_two[@]}"
why=inside check quick interrupt-mut-init-frees-SC interrupt.pml SC fail 22 -DMUT_INIT_FREES "${intr_two[@]}"
# (MUT_LEAVE_RLX is no longer found since the generation is unpublished at
# barrier 1: the relaxed `released` bump and busy store now only delay
# what the model does not check, NEWFRAME's result reaching the initiator.)
hidden_by_tso interrupt-mut-publish-rlx interrupt.pml -DMUT_PUBLISH_RLX "${intr_both[@]}"
# nested interrupts (interrupt_nest.pml, SC): a NEWFRAME task that starts a
# TOGETHER; EXT2 adds a second outermost initiator at any time
check quick interrupt-nest-SC      interrupt_nest.pml SC pass 22
check quick interrupt-nest-ext2-SC interrupt_nest.pml SC pass 22 -DEXT2
why=pending_g==gen check quick interrupt-nest-mut-unpublish-late-SC interrupt_nest.pml SC fail 22 -DMUT_UNPUBLISH_LATE
check quick interrupt-nest-mut-busy-at-b1-SC interrupt_nest.pml SC fail 22 -DEXT2 -DMUT_BUSY_AT_B1
why=old_answer check quick interrupt-nest-mut-thaw-drops-hold-SC interrupt_nest.pml SC fail 22 -DMUT_THAW_DROPS_HOLD
why=freed check quick interrupt-nest-mut-free-before-wake-SC interrupt_nest.pml SC fail 22 -DMUT_FREE_BEFORE_WAKE
# coverage: each point is reached (reaching it is made an error)
cover_checks "interrupt-cover-%s-SC" interrupt.pml "FREEZE_SHARED STALE_CAS FREEZE_REQ HELP_STEAL FRAME_JOIN JOIN_SERVE STEAL_AFTER EXEC_W1" "${intr_one[@]}"
check quick interrupt-cover-slot-busy-SC    interrupt.pml SC fail 22 -DCOVER_SLOT_BUSY=1 "${intr_both[@]}"
check quick interrupt-cover-init-serves-SC  interrupt.pml SC fail 22 -DCOVER_INIT_SERVES=1 "${intr_both[@]}"
check quick interrupt-cover-stale-cas-WEAK  interrupt.pml WEAK fail 22 -DCOVER_STALE_CAS=1 "${intr_one[@]}"

# ---- weft_barrier inside interrupts (barrier.pml; src/runtime/interrupt.c):
# a TOGETHER copy starts a nested TOGETHER (or NEWFRAME) and then calls
# weft_barrier while the other copies wait at theirs; they serve it from
# there, asleep they are woken by its publication, and each TOGETHER's
# barrier counts its own copies ----
# Three workers passing one outer barrier: 1.5 M states, 5-40 s; passing
# two: 8 M states, 20-60 s each (--full).
for mm in SC TSO WEAK; do
  check quick "barrier-$mm" barrier.pml $mm pass 22
  check quick "barrier-newframe-$mm" barrier.pml $mm pass 22 -DNEST_NEWFRAME
  check quick "barrier-nested-two-$mm" barrier.pml $mm pass 22 -DNB1=2
  check full "barrier-three-two-$mm" barrier.pml $mm pass 24 -DNW=3
done
check quick barrier-three-SC barrier.pml SC pass 24 -DNW=3 -DNB0=1
check quick barrier-three-WEAK barrier.pml WEAK pass 24 -DNW=3 -DNB0=1
# mutants: the earlier barrier's three faults (no serving at the barrier,
# no wake-up for the nested interrupt, one barrier for every TOGETHER);
# the waiter's last look and its read of the word; the waker's order; the
# futex's compare
why=returned check quick barrier-mut-noserve-SC barrier.pml SC fail 22 -DMUT_NO_SERVE
why=returned check quick barrier-mut-noserve-newframe-SC barrier.pml SC fail 22 -DNEST_NEWFRAME -DMUT_NO_SERVE
why=returned check quick barrier-mut-nointrwake-SC barrier.pml SC fail 22 -DMUT_NO_INTR_WAKE
why=all_arrived check quick barrier-mut-onebarrier-SC barrier.pml SC fail 22 -DMUT_ONE_BARRIER
why=all_arrived check quick barrier-mut-onebarrier-three-SC barrier.pml SC fail 24 -DNW=3 -DNB0=1 -DMUT_ONE_BARRIER
why=returned check quick barrier-mut-looknointr-SC barrier.pml SC fail 22 -DMUT_LOOK_NO_INTR
why=returned check quick barrier-mut-wordlate-SC barrier.pml SC fail 22 -DMUT_WORD_LATE
why=returned check quick barrier-mut-bumpfirst-SC barrier.pml SC fail 22 -DMUT_BUMP_FIRST
why=returned check quick barrier-mut-futex-nocmp-SC barrier.pml SC fail 22 -DMUT_FUTEX_NOCMP
# the waker's bump and count read relaxed: x86's XCHG of the publication
# drains first (TSO passes), the weak model's read passes it
hidden_by_tso barrier-mut-wake-rlx barrier.pml -DMUT_WAKE_RLX
# copies that call the barrier a different number of times (MISUSE): the
# waiting copy finds that its barrier cannot pass, and a correct program's
# never is; mutants: the count taken without the generation read again
# (a correct program stopped), no wake-up as a copy returns and a last
# look without the count (each a silent hang)
for mm in SC TSO WEAK; do
  check quick "barrier-misuse-$mm" barrier.pml $mm pass 22 -DMISUSE
done
why=wrongly_refused check quick barrier-mut-norelook-SC barrier.pml SC fail 22 -DMUT_NO_RELOOK
why=detected check quick barrier-mut-finish-nowake-SC barrier.pml SC fail 22 -DMISUSE -DMUT_FINISH_NO_WAKE
why=detected check quick barrier-mut-look-nocopies-SC barrier.pml SC fail 22 -DMISUSE -DMUT_LOOK_NO_COPIES
cover_checks "barrier-cover-%s-SC" barrier.pml "WAKE_CALL SERVE_AFTER_SLEEP NESTED_SLEEP"

# ---- parking (park.pml; src/runtime/parking.h): the sleep protocol the
# runtime and the work pool share, with either uncount rule ----
for mm in SC TSO WEAK; do
  check quick "park-$mm" park.pml $mm pass 22
  check quick "park-claimer-$mm" park.pml $mm pass 22 -DCLAIMER_UNCOUNTS
  check quick "park-two-wakers-$mm" park.pml $mm pass 22 -DNW=2 -DCLAIMER_UNCOUNTS
done
check quick park-mut-lookfirst-SC park.pml SC fail 22 -DMUT_PARK_LOOK_FIRST
hidden_by_tso park-mut-nofence park.pml -DMUT_PARK_NOFENCE
check quick park-mut-withdrawstore-SC park.pml SC fail 22 -DMUT_PARK_WITHDRAW_STORE -DCLAIMER_UNCOUNTS
check quick park-mut-wakernofence-SC  park.pml SC  pass 22 -DMUT_PARK_WAKER_NOFENCE
check quick park-mut-wakernofence-TSO park.pml TSO fail 22 -DMUT_PARK_WAKER_NOFENCE
check quick park-mut-futex-nocmp-SC park.pml SC fail 22 -DMUT_FUTEX_NOCMP
cover_checks "park-cover-%s-SC" park.pml "SLEEP WITHDRAW CLAIM LOST_RACE" -DNW=2

# ---- counted wakes (counted_wake.pml; src/runtime/interrupt.c): a waker
# makes the futex_wake system call only when a waiter counted itself in ----
for mm in SC TSO WEAK; do
  check quick "counted-wake-$mm" counted_wake.pml $mm pass 22
done
check quick counted-wake-three-SC counted_wake.pml SC pass 22 -DNS=3
check quick counted-wake-mut-countfirst-SC counted_wake.pml SC fail 22 -DMUT_WAKER_COUNT_FIRST
check quick counted-wake-mut-uncounted-SC counted_wake.pml SC fail 22 -DMUT_WAITER_UNCOUNTED
check quick counted-wake-mut-futex-nocmp-SC counted_wake.pml SC fail 22 -DMUT_FUTEX_NOCMP
check quick counted-wake-mut-release-SC counted_wake.pml SC pass 22 -DMUT_WAKER_RELEASE
check quick counted-wake-mut-release-TSO counted_wake.pml TSO fail 22 -DMUT_WAKER_RELEASE

# ---- weft_suspend's wait for every worker parked (suspend_parked.pml;
# src/runtime/interrupt.c): each seat marked with the suspension's
# generation; every access seq_cst, so SC only ----
check quick suspend-parked-SC suspend_parked.pml SC pass 22
check quick suspend-parked-nospurious-SC suspend_parked.pml SC pass 22 -DSPURIOUS=0
check quick suspend-parked-three-SC suspend_parked.pml SC pass 24 -DNW=3 -DNOPS=3 -DSPURIOUS=0
check full suspend-parked-three-spurious-SC suspend_parked.pml SC pass 26 -DNW=3 -DNOPS=3
why=returned check quick suspend-parked-mut-flagfirst-SC suspend_parked.pml SC fail 22 -DMUT_FLAG_FIRST
why=returned check quick suspend-parked-mut-countparked-SC suspend_parked.pml SC fail 22 -DMUT_COUNT_PARKED
why=returned check quick suspend-parked-mut-samegen-SC suspend_parked.pml SC fail 22 -DMUT_SAME_GEN
check quick suspend-parked-mut-norecheck-SC suspend_parked.pml SC fail 22 -DMUT_NO_RECHECK
cover_checks "suspend-parked-cover-%s-SC" suspend_parked.pml "RETURNED STALE_PARK"

# ---- the gate of TOGETHER/NEWFRAME from outside while suspended (gate.pml;
# src/runtime/gate.c, interrupt.c): the resume wakes the threads counted at
# it, and the next suspend waits until they have gone in ----
for mm in SC TSO WEAK; do
  check quick "gate-$mm" gate.pml $mm pass 22
done
check quick gate-three-SC gate.pml SC pass 22 -DNG=3
check quick gate-mut-wakeparkedonly-SC gate.pml SC fail 22 -DMUT_WAKE_PARKED_ONLY
check quick gate-mut-nowordbump-SC gate.pml SC fail 22 -DMUT_NO_WORD_BUMP
check quick gate-mut-futex-nocmp-SC gate.pml SC fail 22 -DMUT_FUTEX_NOCMP
check quick gate-mut-nodrain-SC gate.pml SC fail 22 -DMUT_NO_DRAIN
check quick gate-mut-countoutatwake-SC gate.pml SC fail 22 -DMUT_COUNT_OUT_AT_WAKE

# ---- a trace track's ring, streamed (trace_ring.pml; src/observe/trace.c):
# the stream reads only what the owner wrote, every gap is marked ----
for mm in SC TSO WEAK; do
  check quick "trace-ring-$mm" trace_ring.pml $mm pass 22
done
check quick trace-ring-mut-consume-early-SC trace_ring.pml SC fail 22 -DMUT_CONSUME_EARLY
check quick trace-ring-mut-no-marker-SC trace_ring.pml SC fail 22 -DMUT_NO_MARKER
hidden_by_tso trace-ring-mut-count-relaxed trace_ring.pml -DMUT_COUNT_RELAXED
cover_checks "trace-ring-cover-%s-SC" trace_ring.pml "DROP MARKER"

# ---- two processes streaming to one trace path (output_file.pml;
# src/observe/trace_perfetto.c, src/sys/output_file.c): the file held,
# replaced under its lock, looked at again once locked ----
check quick output-file-SC output_file.pml SC pass 22
check quick output-file-mut-no-recheck-SC output_file.pml SC fail 22 -DMUT_NO_RECHECK
check quick output-file-mut-new-unlocked-SC output_file.pml SC fail 22 -DMUT_NEW_UNLOCKED
check quick output-file-mut-old-closed-first-SC output_file.pml SC fail 22 -DMUT_OLD_CLOSED_FIRST
cover_checks "output-file-cover-%s-SC" output_file.pml "RETRIED ALT"

# ---- the table of guards (guard_ranges.pml; src/runtime/memory.c): the
# SIGSEGV handler takes only whole ranges, a claim takes a free slot ----
for mm in SC TSO WEAK; do
  check quick "guard-ranges-$mm" guard_ranges.pml $mm pass 22
done
check quick guard-ranges-mut-no-odd-SC guard_ranges.pml SC fail 22 -DMUT_NO_ODD
check quick guard-ranges-mut-early-seq2-SC guard_ranges.pml SC fail 22 -DMUT_EARLY_SEQ2
check quick guard-ranges-mut-claim-store-SC guard_ranges.pml SC fail 22 -DMUT_CLAIM_STORE
hidden_by_tso guard-ranges-mut-end-relaxed guard_ranges.pml -DMUT_END_RELAXED
cover_checks "guard-ranges-cover-%s-SC" guard_ranges.pml "SKIP SECOND"

# ---- the SIGSEGV disposition (disposition.pml; src/runtime/overflow.c):
# weft's handler's SA_RESETHAND reset, the last stop and the application;
# system calls are the steps, so SC only ----
check quick disposition-SC disposition.pml SC pass 22
check quick disposition-mut-no-lock-SC disposition.pml SC fail 22 -DMUT_NO_LOCK
check quick disposition-mut-no-put-back-SC disposition.pml SC fail 22 -DMUT_NO_PUT_BACK
check quick disposition-mut-no-reset-put-back-SC disposition.pml SC fail 22 -DMUT_NO_RESET_PUT_BACK
cover_checks "disposition-cover-%s-SC" disposition.pml "STOP_FIRST PUT_BACK"

# ---- the active limit (active_limit.pml; src/runtime/sleep.c): surplus
# workers wait, at least the limit stays out, stop wakes the surplus ----
for mm in SC TSO WEAK; do
  check quick "active-limit-1-$mm" active_limit.pml $mm pass 22 -DLIMIT=1
  check quick "active-limit-2-$mm" active_limit.pml $mm pass 22 -DLIMIT=2
done
check quick active-limit-mut-stays-counted-SC active_limit.pml SC fail 22 -DLIMIT=1 -DMUT_SURPLUS_STAYS_COUNTED
check quick active-limit-mut-reason-first-SC active_limit.pml SC fail 22 -DLIMIT=1 -DMUT_SURPLUS_REASON_FIRST
# A RUN from outside wakes a surplus worker, which runs it over the limit.
for mm in SC TSO WEAK; do
  check quick "active-limit-run-1-$mm" active_limit.pml $mm pass 22 -DWITH_RUN -DLIMIT=1
  check quick "active-limit-run-2-$mm" active_limit.pml $mm pass 22 -DWITH_RUN -DLIMIT=2
done
check quick active-limit-run-mut-not-a-reason-SC active_limit.pml SC fail 22 -DWITH_RUN -DLIMIT=1 -DMUT_RUN_NOT_A_REASON
check quick active-limit-run-mut-count-first-SC active_limit.pml SC fail 22 -DWITH_RUN -DLIMIT=1 -DMUT_RUN_COUNT_FIRST
# Two RUNs queued in order, asks passed on and withdrawn
# (active_limit_runs.pml; about 41 M states, 2-3 minutes each: TSO and
# WEAK in --full only).
check quick active-limit-runs-SC active_limit_runs.pml SC pass 26
check full active-limit-runs-TSO active_limit_runs.pml TSO pass 22
check full active-limit-runs-WEAK active_limit_runs.pml WEAK pass 22
check quick active-limit-runs-mut-no-pass-on-SC active_limit_runs.pml SC fail 22 -DMUT_NO_PASS_ON
check quick active-limit-runs-mut-taker-keeps-ask-SC active_limit_runs.pml SC fail 22 -DMUT_TAKER_KEEPS_ASK
# The same with two workers, worker 0 taking from the queue too (about
# 6 M states, 10 seconds each).
for mm in SC TSO WEAK; do
  check quick "active-limit-runs-taker-$mm" active_limit_runs.pml $mm pass 22 -DACTIVE_TAKER
done
check quick active-limit-runs-taker-mut-taker-keeps-ask-SC active_limit_runs.pml SC fail 22 -DACTIVE_TAKER -DMUT_TAKER_KEEPS_ASK

# ---- the work pool: termination detection (pool_term.pml), sleeping and
# waking with termination (pool_sleep.pml; src/workpool) ----
for mm in SC TSO WEAK; do
  check quick "pool-term-2-$mm" pool_term.pml $mm pass 22 -DNITEMS=2
  check full "pool-term-3-$mm" pool_term.pml $mm pass 26 -DNITEMS=3
done
check quick pool-term-mut-noleave-SC  pool_term.pml SC fail 22 -DNITEMS=2 -DMUT_TERM_NO_LEAVE
check quick pool-term-mut-joinbusy-SC pool_term.pml SC fail 22 -DNITEMS=2 -DMUT_TERM_JOIN_BUSY
check quick pool-term-mut-nocheck-SC  pool_term.pml SC pass 22 -DNITEMS=2 -DMUT_TERM_NO_CHECK
# Bounds: P workers and NITEMS items; FENCED=1 models ABP and Chase-Lev
# (every take of the owner a wake point), FENCED=0 the other queues (a
# wake point after every FENCE_EVERY-th item, 1 here); LONG lets worker 0
# stop for good inside a process call (the run cannot end; the promise
# is what is checked).
ps_two=(-DP=2 -DNITEMS=3)     # an owner, a sleeper, pushes of two children
ps_end=(-DP=3 -DNITEMS=1)     # the end of the run against two sleepers
ps_three=(-DP=3 -DNITEMS=2)   # two sleepers and work to wake them for
for mm in SC TSO WEAK; do
  for fenced in 1 0; do
    kind=$([ $fenced = 1 ] && echo fenced || echo unfenced)
    check quick "pool-sleep-$kind-$mm" pool_sleep.pml $mm pass 22 "${ps_two[@]}" -DFENCED=$fenced
    check quick "pool-sleep-$kind-long-$mm" pool_sleep.pml $mm pass 22 "${ps_two[@]}" -DFENCED=$fenced -DLONG
    check full "pool-sleep-$kind-three-$mm" pool_sleep.pml $mm pass 25 "${ps_three[@]}" -DFENCED=$fenced
    check full "pool-sleep-$kind-three-long-$mm" pool_sleep.pml $mm pass 25 "${ps_three[@]}" -DFENCED=$fenced -DLONG
  done
  check quick "pool-sleep-end-$mm" pool_sleep.pml $mm pass 22 "${ps_end[@]}"
done
# not promised by the code: nobody asleep while a queue holds WAKE_MIN
# items at all.  Holds under SC (the push's hint and the last look are a
# Dekker pair); on TSO two buffered pushes hide from a sleeper's last look
# while the hint reads no sleeper, until the owner's next wake point.  Not
# found by the weak model: its release store waits for the older stores,
# so the first of two pushes is always visible (ARMv8's STLR does not
# stall the thread: real ARM has the TSO execution)
check quick pool-sleep-strong-SC   pool_sleep.pml SC   pass 22 "${ps_two[@]}" -DLONG -DSTRONG
check quick pool-sleep-strong-TSO  pool_sleep.pml TSO  fail 22 "${ps_two[@]}" -DLONG -DSTRONG
check quick pool-sleep-strong-WEAK pool_sleep.pml WEAK pass 22 "${ps_two[@]}" -DLONG -DSTRONG
# mutants: the wake-ups dropped, the fences removed
check quick pool-sleep-mut-finish-nowake-SC pool_sleep.pml SC fail 22 "${ps_two[@]}" -DFENCED=1 -DMUT_FINISH_NOWAKE
check quick pool-sleep-mut-finish-nowake-end-SC pool_sleep.pml SC fail 22 "${ps_end[@]}" -DMUT_FINISH_NOWAKE
check quick pool-sleep-mut-nopushwake-SC pool_sleep.pml SC pass 22 "${ps_two[@]}" -DFENCED=1 -DLONG -DMUT_NO_PUSH_WAKE
check quick pool-sleep-mut-nopushwake-strong-SC pool_sleep.pml SC fail 22 "${ps_two[@]}" -DLONG -DSTRONG -DMUT_NO_PUSH_WAKE
check quick pool-sleep-mut-nowakepoint-SC   pool_sleep.pml SC   pass 22 "${ps_two[@]}" -DFENCED=1 -DLONG -DMUT_NO_WAKE_POINT
check quick pool-sleep-mut-nowakepoint-TSO  pool_sleep.pml TSO  fail 22 "${ps_two[@]}" -DFENCED=1 -DLONG -DMUT_NO_WAKE_POINT
# (the weak model: as for pool-sleep-strong-WEAK)
check quick pool-sleep-mut-nowakepoint-WEAK pool_sleep.pml WEAK pass 22 "${ps_two[@]}" -DFENCED=1 -DLONG -DMUT_NO_WAKE_POINT
check quick pool-sleep-mut-pointnofence-SC   pool_sleep.pml SC   pass 22 "${ps_two[@]}" -DLONG -DFENCED=0 -DMUT_POINT_NOFENCE
check quick pool-sleep-mut-pointnofence-TSO  pool_sleep.pml TSO  fail 22 "${ps_two[@]}" -DLONG -DFENCED=0 -DMUT_POINT_NOFENCE
check quick pool-sleep-mut-pointnofence-WEAK pool_sleep.pml WEAK fail 22 "${ps_two[@]}" -DLONG -DFENCED=0 -DMUT_POINT_NOFENCE
# the sleeper's fence: x86's locked increment orders the last look anyway
hidden_by_tso pool-sleep-mut-sleepnofence pool_sleep.pml "${ps_two[@]}" -DFENCED=1 -DMUT_SLEEP_NOFENCE
# the old design (the claimer un-counts the sleeper): not found, the
# sleeper whose count was taken early makes its own last look after it
check full pool-sleep-mut-claimeruncounts-three-SC pool_sleep.pml SC pass 25 "${ps_three[@]}" -DFENCED=1 -DMUT_CLAIMER_UNCOUNTS
# coverage: each point is reached (reaching it is made an error)
cover_checks "pool-sleep-cover-%s-SC" pool_sleep.pml "SLEEP WITHDRAW PUSH_WAKE POINT_WAKE FINISH_WAKE LATE_LOOK" "${ps_two[@]}"
check quick pool-sleep-cover-point-catch-TSO pool_sleep.pml TSO fail 22 "${ps_two[@]}" -DCOVER_POINT_CATCH=1
check quick pool-sleep-cover-point-catch-unfenced-TSO pool_sleep.pml TSO fail 22 "${ps_two[@]}" -DFENCED=0 -DCOVER_POINT_CATCH=1

# ---- a work pool inside a fork-join task whose workers RUN back into the
# fork-join pool (pool_in_task.pml; src/runtime/external_queue.c, the
# waiting worker's sleep in src/workpool/sleep.h): the waiting worker
# against its pool's threads' RUNs (one or two) and a RUN from outside
# both pools (OUTSIDER) ----
for mm in SC TSO WEAK; do
  check quick "pool-in-task-$mm" pool_in_task.pml $mm pass 22
  check quick "pool-in-task-outsider-$mm" pool_in_task.pml $mm pass 22 -DOUTSIDER
  check quick "pool-in-task-two-outsider-$mm" pool_in_task.pml $mm pass 22 -DNP=2 -DOUTSIDER
done
# the last look without the RUNs, no wake-up for a waiting worker (the
# code before the fix), the submitter's peek before its count, the claim
# after the lock was let go (the pool and its word may be freed)
why=fwait check quick pool-in-task-mut-nolastlook-SC pool_in_task.pml SC fail 22 -DMUT_NO_LAST_LOOK
why=fwait check quick pool-in-task-mut-nowaiterwake-SC pool_in_task.pml SC fail 22 -DMUT_NO_WAITER_WAKE
why=fwait check quick pool-in-task-mut-wakefirst-SC pool_in_task.pml SC fail 22 -DMUT_WAKE_FIRST
why=freed check quick pool-in-task-mut-wakeunlocked-SC pool_in_task.pml SC fail 22 -DOUTSIDER -DMUT_WAKE_UNLOCKED
# coverage: each point is reached (reaching it is made an error)
cover_checks "pool-in-task-cover-%s-SC" pool_in_task.pml "SLEEP WITHDRAW CLAIM SERVE FAST_SKIP" -DOUTSIDER
# the wait inside an outsider's RUN it took: it takes, counts and is woken
# for the pool threads' RUNs alone
for mm in SC TSO WEAK; do
  check quick "pool-in-task-nested-$mm" pool_in_task.pml $mm pass 22 -DOUTSIDER -DNESTED
done
check quick pool-in-task-nested-two-SC pool_in_task.pml SC pass 22 -DNP=2 -DOUTSIDER -DNESTED
why='(r>=1)' check quick pool-in-task-mut-nestedtakesany-SC pool_in_task.pml SC fail 22 -DOUTSIDER -DNESTED -DMUT_NESTED_TAKES_ANY
why=fwait check quick pool-in-task-mut-fortaskuncounted-SC pool_in_task.pml SC fail 22 -DOUTSIDER -DNESTED -DMUT_FOR_TASK_UNCOUNTED
cover_checks "pool-in-task-nested-cover-%s-SC" pool_in_task.pml "SLEEP CLAIM SERVE" -DOUTSIDER -DNESTED
# an interrupt that a RUN of the pool's thread starts on another worker:
# the waiting worker takes part (its look where it serves, its last look
# before it parks, the initiator's wake-up of waiting workers)
for mm in SC TSO WEAK; do
  check quick "pool-in-task-interrupt-$mm" pool_in_task.pml $mm pass 22 -DINTERRUPT
done
why=fwait check quick pool-in-task-mut-nointerruptlook-SC pool_in_task.pml SC fail 22 -DINTERRUPT -DMUT_NO_INTERRUPT_LOOK
why=fwait check quick pool-in-task-mut-nointerruptwake-SC pool_in_task.pml SC fail 22 -DINTERRUPT -DMUT_NO_INTERRUPT_WAKE
cover_checks "pool-in-task-interrupt-cover-%s-SC" pool_in_task.pml "INTERRUPT SLEEP CLAIM" -DINTERRUPT

# ---- the distributed pool: Dijkstra-Safra termination with stealing and
# lifelines on channels (dist_term.pml; src/dist/comm.c).  Message
# passing only: no memory model, SC.
check quick dist-term-2-SC       dist_term.pml SC pass 22 -DNITEMS=2
check quick dist-term-3-last-SC  dist_term.pml SC pass 26 -DNITEMS=3 -DINIT_LAST
check full dist-term-3-SC        dist_term.pml SC pass 25 -DNITEMS=3
check full dist-term-5-last-two-SC dist_term.pml SC pass 27 -DNITEMS=5 -DINIT_LAST -DTWO_CHILDREN
# mutants: a counter not updated on send (it hangs, or without the round
# bound ends early), nor on receive; the colours; the token passed by a
# rank that still has items.  Each at the bounds of dist-term-3-last (its
# baseline), found by the assertion it names (why=): quiet_rounds, the
# bound on rounds after the last item (a run that cannot end), or
# items_in_flight, termination announced with items left
why=quiet_rounds check quick dist-term-mut-sendnocount-SC  dist_term.pml SC fail 22 -DNITEMS=3 -DINIT_LAST -DMUT_SEND_NOCOUNT
why=items_in_flight check quick dist-term-mut-sendnocount-early-SC dist_term.pml SC fail 23 -DNITEMS=3 -DINIT_LAST -DNO_ROUND_BOUND -DMUT_SEND_NOCOUNT
why=quiet_rounds check quick dist-term-mut-recvnocount-SC  dist_term.pml SC fail 22 -DNITEMS=3 -DINIT_LAST -DMUT_RECV_NOCOUNT
why=items_in_flight check quick dist-term-mut-passactive-SC   dist_term.pml SC fail 22 -DNITEMS=3 -DINIT_LAST -DMUT_PASS_ACTIVE
why=quiet_rounds check quick dist-term-mut-nowhiten-SC     dist_term.pml SC fail 22 -DNITEMS=3 -DINIT_LAST -DMUT_NO_WHITEN
why=quiet_rounds check quick dist-term-mut-initblack-SC    dist_term.pml SC fail 22 -DNITEMS=3 -DINIT_LAST -DMUT_INIT_BLACK
# the black colour matters only when a rank the token has passed gets
# items from one it has not reached yet, which then hands some back: five
# items (185 s, 67 M states)
why=items_in_flight check full dist-term-mut-noblack-SC dist_term.pml SC fail 26 -DNITEMS=5 -DINIT_LAST -DTWO_CHILDREN -DMUT_NO_BLACK
# ... in the quick set at five items with the stealing narrowed (no
# lifelines, nobody asks rank 0, which never has items here): every trace
# of the narrowed model is one of the full model's, and the trace the
# colour is for (rank 1, passed, gets an item from rank 2 and hands one
# back) is still there; its baseline passes complete (2.2 M states)
check quick dist-term-5-narrow-SC dist_term.pml SC pass 24 -DNITEMS=5 -DINIT_LAST -DTWO_CHILDREN -DNO_LIFELINES -DNO_STEAL_FROM_0
why=items_in_flight check quick dist-term-mut-passnoblacken-narrow-SC dist_term.pml SC fail 24 -DNITEMS=5 -DINIT_LAST -DTWO_CHILDREN -DNO_LIFELINES -DNO_STEAL_FROM_0 -DMUT_PASS_NOBLACKEN
why=items_in_flight check quick dist-term-mut-noblack-narrow-SC dist_term.pml SC fail 24 -DNITEMS=5 -DINIT_LAST -DTWO_CHILDREN -DNO_LIFELINES -DNO_STEAL_FROM_0 -DMUT_NO_BLACK
# no starved rank (STARVE_CHECK: a monitor asserts in every state that no
# idle rank waits on a lifeline to a buddy that holds a share but knows
# nothing of it, `starved`).  Quick: two ranks (buddies) and four items,
# the first on rank 1; full: three ranks, three items (45 M states).  The
# mutant drops a LIFELINE that finds no share instead of recording it
st2=(-DNR=2 -DNITEMS=4 -DINIT_LAST -DSTARVE_CHECK)
check quick dist-term-starve-2r-4-last-SC dist_term.pml SC pass 22 "${st2[@]}"
why=starved check quick dist-term-mut-lldrop-2r-SC dist_term.pml SC fail 22 "${st2[@]}" -DMUT_LL_DROP
check full dist-term-starve-3-last-SC dist_term.pml SC pass 26 -DNITEMS=3 -DINIT_LAST -DSTARVE_CHECK
why=starved check full dist-term-mut-lldrop-SC dist_term.pml SC fail 26 -DNITEMS=3 -DINIT_LAST -DSTARVE_CHECK -DMUT_LL_DROP

# ---- Lace's suspension in the Lace layers (lace_suspend.pml;
# src/lace/common/suspend.c): two calls from outside, three suspends or resumes ----
for mm in SC TSO WEAK; do
  check quick "lace-suspend-$mm" lace_suspend.pml $mm pass 22
done
why=running check quick lace-suspend-mut-readfirst-SC lace_suspend.pml SC fail 22 -DMUT_READ_FIRST
why=stuck check quick lace-suspend-mut-settlenocalls-SC lace_suspend.pml SC fail 22 -DMUT_SETTLE_NO_CALLS
# a plain store of "count low" passes the program's read of the calls on
# x86 too (a store buffer), so only SC hides it
check full lace-suspend-mut-lowrlx-SC lace_suspend.pml SC pass 22 -DMUT_LOW_STORE_RLX
why=stuck check quick lace-suspend-mut-lowrlx-TSO lace_suspend.pml TSO fail 22 -DMUT_LOW_STORE_RLX
why=stuck check quick lace-suspend-mut-lowrlx-WEAK lace_suspend.pml WEAK fail 22 -DMUT_LOW_STORE_RLX
check quick lace-suspend-cover-runafterpark-SC lace_suspend.pml SC fail 22 -DCOVER_RUN_AFTER_PARK
# a park tried on a pool's thread and refused (the control lock held)
for mm in SC TSO WEAK; do
  check quick "lace-suspend-refuse-$mm" lace_suspend.pml $mm pass 22 -DREFUSE
done
why=last_park_refused check quick lace-suspend-mut-refusedbelieved-SC lace_suspend.pml SC fail 22 -DREFUSE -DMUT_REFUSED_BELIEVED

# ---- one start at a time in the Lace layers (lace_start.pml;
# src/lace/common/lifecycle.h): two threads start Lace at once, and
# start it again after a stop ----
for mm in SC TSO WEAK; do
  check quick "lace-start-$mm" lace_start.pml $mm pass 22
done
check quick lace-start-three-SC lace_start.pml SC pass 22 -DNS=3
why=refused check quick lace-start-mut-noflag-SC lace_start.pml SC fail 22 -DMUT_NO_FLAG
why=refused check quick lace-start-mut-flagearly-SC lace_start.pml SC fail 22 -DMUT_FLAG_EARLY
check quick lace-start-cover-toldstarting-SC lace_start.pml SC fail 22 -DCOVER_TOLD_STARTING
check quick lace-start-cover-restarted-SC lace_start.pml SC fail 22 -DCOVER_RESTARTED

# ---- where a lazy suspension parks (lazy_park.pml; src/runtime/interrupt.c
# task_parks, src/runtime/sleep.c something_to_do): a SYNC on a stolen
# task and the thief's yield, under Lace's suspension and weft_suspend over
# it, then weft_resume ----
check quick lazy-park-SC lazy_park.pml SC pass 22
check quick lazy-park-syncover-SC lazy_park.pml SC pass 22 -DSYNC_OVER
check quick lazy-park-twice-SC lazy_park.pml SC pass 22 -DSYNC_OVER -DTWICE
why=returned check quick lazy-park-mut-exitkeepsmark-SC lazy_park.pml SC fail 22 -DSYNC_OVER -DTWICE -DMUT_EXIT_KEEPS_MARK
check quick lazy-park-mut-taskparks-SC lazy_park.pml SC fail 22 -DMUT_TASK_PARKS_LAZY
check quick lazy-park-mut-wakebeforeclear-SC lazy_park.pml SC fail 22 -DSYNC_OVER -DMUT_WAKE_BEFORE_CLEAR
check quick lazy-park-mut-nowake-SC lazy_park.pml SC fail 22 -DSYNC_OVER -DMUT_NO_WAKE
check quick lazy-park-mut-resumestayssync-SC lazy_park.pml SC fail 22 -DSYNC_OVER -DMUT_RESUME_STAYS_SYNC
check quick lazy-park-mut-parknolazyexit-SC lazy_park.pml SC fail 22 -DSYNC_OVER -DMUT_PARK_NO_LAZY_EXIT
cover_checks "lazy-park-cover-%s-SC" lazy_park.pml "SLEPT"
cover_checks "lazy-park-syncover-cover-%s-SC" lazy_park.pml "RETURNED SLEPT" -DSYNC_OVER
cover_checks "lazy-park-twice-cover-%s-SC" lazy_park.pml "RETURNED_TWICE" -DSYNC_OVER -DTWICE

# ---- exit racing weft_stop (exit_stop.pml; src/runtime/lifecycle.c:
# stop_at_exit, exit_lock, stop_locked, weft_stop): a stop, RUNs from
# other threads (one, or two; STUCK: one may never return), the exit
# handler.  SC only: every decision is under the control lock, and the
# report is a file ----
check quick exit-stop-SC exit_stop.pml SC pass 22
check quick exit-stop-stuck-SC exit_stop.pml SC pass 22 -DSTUCK
check quick exit-stop-two-stuck-SC exit_stop.pml SC pass 22 -DNU=2 -DSTUCK
# the handler before the fix, STOPPED before the report, weft_stop that
# does not know the pool was stopped at exit, the first look trusted under
# the lock, an unbounded wait
why=lost_silently check quick exit-stop-mut-nowait-SC exit_stop.pml SC fail 22 -DMUT_EXIT_NO_WAIT
why=lost_silently check quick exit-stop-mut-stoppedearly-SC exit_stop.pml SC fail 22 -DMUT_STOPPED_EARLY
why=stray_message check quick exit-stop-mut-noexitflag-SC exit_stop.pml SC fail 22 -DMUT_NO_EXIT_FLAG
why=writes check quick exit-stop-mut-stalelook-SC exit_stop.pml SC fail 22 -DMUT_EXIT_STALE_LOOK
why=hung check quick exit-stop-mut-nobound-SC exit_stop.pml SC fail 22 -DSTUCK -DMUT_EXIT_NO_BOUND
# coverage: the handler waits for the other stop's report, stops the pool
# itself, gives up while RUNs stay inside
cover_checks "exit-stop-cover-%s-SC" exit_stop.pml "WAITED EXIT_STOPS GAVE_UP"

# ---- a TOGETHER or NEWFRAME from outside against weft_stop, the pool
# suspended or not (stop_interrupt.pml; src/runtime/gate.c:
# weft__lifecycle_enter_interrupt).  SC only: the gate's own orders are
# gate.pml's ----
check quick stop-interrupt-SC stop_interrupt.pml SC pass 22
check quick stop-interrupt-running-SC stop_interrupt.pml SC pass 22 -DSUSPENDED=0
# an older version (counted in only after the resume), and a stop that
# leaves the pool suspended
why=began check quick stop-interrupt-mut-countafter-SC stop_interrupt.pml SC fail 22 -DMUT_COUNT_AFTER_WAIT
why="invalid end state" check quick stop-interrupt-mut-keepsuspended-SC stop_interrupt.pml SC fail 22 -DMUT_STOP_KEEPS_SUSPENDED
cover_checks "stop-interrupt-cover-%s-SC" stop_interrupt.pml "PASSED_STOP"

missing=0
if [ -z "$filter" ]; then
  for m in "${mutant_sigs[@]}"; do
    if [ -z "${baseline[${m#*|}]:-}" ]; then
      echo "UNEXPECTED: mutant ${m%%|*}: its bounds (${m#*|}) are not checked unmutated in this mode"
      missing=$((missing + 1))
    fi
  done
fi
if [ $dry = 1 ]; then echo "=== dry run: $missing mutants without a baseline"; [ $missing = 0 ]; exit; fi
wait
for n in "${names[@]}"; do   # a check whose job died leaves no row: say so
  [ -f "$work/$n/row" ] || printf '%-40s UNEXPECTED: died before its verdict: see %s\n' "$n" "$work/$n" > "$work/$n/row"
done
print_ready
count=${#names[@]}
for n in "${names[@]}"; do
  [ "$(cat "$work/$n/verdict" 2>/dev/null)" = OK ] || failures=$((failures + 1))
done
failures=$((failures + missing))
[ $failures = 0 ] || keep=1
echo
echo "=== $count checks ($mode, $jobs at once), $failures unexpected, $(( $(date +%s) - total_start )) s"
[ $keep = 1 ] && echo "=== work directories kept in $work"
[ $failures = 0 ]
