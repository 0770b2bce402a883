/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of weft's split deque (Lace Figure 4 as written in
 * src/sched/split/split_deque.c): one owner running a fork-join script, two thieves.
 *
 * Properties (assertions and end states):
 *   - every spawned task runs exactly once (run_task; the owner's final check);
 *   - a thief sees the arguments the owner wrote (run_task);
 *   - a thief that wins a steal gets a live task (state TASK);
 *   - the joiner of a stolen task sees its result (join_stolen);
 *   - no deadlock: the owner never waits for a task nobody runs (spin's
 *     invalid end states), which is also how a task lost at a shrink race
 *     would show (Figure 3).
 *
 * Bounds: NSLOT deque slots (more than the owner fills, unless a check
 * wants the full deque of finding 2 in docs/verification.md: a SPAWN that
 * finds no room ends the run as the program would, with the overflow
 * message, and is not checked further; COVER_OVERFLOW=1 shows a bound
 * reaches it); the owner's
 * script SCRIPT (P = spawn, S = sync); each thief makes at most NATT steal
 * attempts (successful or not); the owner runs at most NLEAP tasks by
 * leapfrogging while it joins.
 */
#ifndef NSLOT
#define NSLOT 5
#endif
#ifndef NATT
#define NATT 3
#endif
/* The owner's script: a sequence of P (spawn) and S (sync), at most NOPS
 * operations.  Default: spawn two, sync one, spawn, sync two, then a second
 * round of two (slots are reused; the push after allstolen runs again). */
#ifndef SCRIPT
#define SCRIPT P P S P S S P P S S
#endif
#ifndef NLEAP
#define NLEAP 1
#endif
#define NOPS 12
#define NTASK (NOPS + NLEAP)
#define P_OP 1
#define S_OP 2
#define G_OP 3
#define R_OP 4
#define Y_OP 5
#define P script[k] = P_OP; k++;
#define S script[k] = S_OP; k++;
/* With JOIN_GUARD: G, a search for the top (weft_current_head) raises the
 * join guard to head; R, the runtime-started task ends and puts it back
 * (weft_fj_copy_head, weft_guard_restore).  MUT_GUARD_NOPUBLISH: they move
 * the guard without publishing it in limit. */
#define G script[k] = G_OP; k++;
#define R script[k] = R_OP; k++;
/* Y: WEFT_YIELD in the running task (owner_poll): a request is served
 * there as at a SPAWN. */
#define Y script[k] = Y_OP; k++;
#ifdef MUT_GUARD_NOPUBLISH
#define GUARD_MOVED() skip
#else
#define GUARD_MOVED() update_limit()
#endif

#define NT 3
#define L_BASE 0
#include "split_defs.pml"
#ifdef MUT_SHRINK_NOFENCE
#define NLOC (SPLIT_LOCS + 1)
#define L_TS_SPLITONLY SPLIT_LOCS       /* a store of split's half of ts */
#define WORD(l) ((l) == L_TS_SPLITONLY -> L_TS : (l))
#define COMMIT_WRITE(loc, v) if \
    :: (loc) == L_TS_SPLITONLY -> mem[L_TS] = TAIL(mem[L_TS]) + 16 * (v) \
    :: else -> mem[loc] = v \
    fi
#else
#define NLOC SPLIT_LOCS
#endif
#ifndef BUFSZ
#define BUFSZ 3
#endif

#include "mm.pml"

/* no sleepers in this model (sleep.pml covers them) */
#define SLEEPERS_WANT_WORK(out) out = 0
#define WAKE_FOR_WORK() skip
#define WAKE_JOINER(me) skip

#ifdef MUT_SHRINK_NOFENCE
/* x86: a load of the tail half does not overlap the buffered store of the
 * split half, so it reads memory (or an older full store of ts). */
#if defined(MM_SC)
inline LD_TAIL_HALF(me, out) { out = TAIL(mem[L_TS]) }
#else
inline LD_TAIL_HALF(me, out)
{
    atomic {
        if
        :: PENDING(me, L_TS) == 0 -> out = TAIL(mem[L_TS])
        :: else ->
            _i = bn[me];
            do
            :: bloc[B(me, _i - 1)] == L_TS -> out = TAIL(bval[B(me, _i - 1)]); break
            :: else -> _i--
            od
        fi;
        _i = 0
    }
}
#endif
#endif

#ifndef COVER_OVERFLOW
#define COVER_OVERFLOW 0
#endif
bool overflowed;
/* The SPAWN stops the program: the owner ends here; the thieves too,
 * since they steal only while the owner runs. */
#define RESERVE_FULL() assert(!COVER_OVERFLOW); overflowed = 1; goto end_overflow

#include "split_ops.pml"

byte script[NOPS] = 0;
bool owner_done;

proctype owner()
{
    byte _i, head, o_split, new_s, t, s, x, cur, ok, all, op, id, leaps, lid, js, guard, lim;
    o_split = END;                  /* weft__split_init: o_allstolen */
    lid = NOPS;                     /* ids of leapfrogged tasks */
    do
    :: op < NOPS && script[op] != 0 ->
        if
        :: script[op] == P_OP -> id++; owner_push(id)
        :: script[op] == S_OP -> owner_sync()
        :: script[op] == Y_OP -> owner_poll()
        :: script[op] == G_OP ->
            if
            :: head > guard -> guard = head; GUARD_MOVED()
            :: else
            fi
        :: script[op] == R_OP ->
            if
            :: guard != 0 -> guard = 0; GUARD_MOVED()
            :: else
            fi
        fi;
        op++
    :: else -> break
    od;
    /* every task ran exactly once */
    atomic {
        _i = 1;
        do
        :: _i <= id -> assert(ran[_i] == 1); _i++
        :: else -> break
        od;
        _i = NOPS + 1;
        do
        :: _i <= lid -> assert(ran[_i] == 1); _i++
        :: else -> break
        od;
        owner_done = 1
    };
    goto finished;
end_overflow:
    owner_done = 1;
finished:
    skip
}

proctype thief(byte me)
{
    byte _i, tx, ttail, tsplit, tst, targ, tok, got, attempts, early;
    do
    :: attempts < NATT && !owner_done -> steal_once(me); attempts++
    :: else -> break
    od
}

/* Never stuck: when nothing can move any more (spin's timeout), the owner
 * has finished its script.  A SYNC left waiting for a task nobody will
 * finish fails here by name (owner_done), not only as spin's generic
 * invalid end state. */
active proctype never_stuck()
{
    atomic { timeout -> assert(owner_done) }
}

init {
    atomic {
        byte k = 0;
        SCRIPT
        k = 0;
        mem[L_TS] = TS(0, 0);
        mem[L_ALLSTOLEN] = 1;
        mem[L_LIMIT] = END;
        run owner();
        run thief(1);
        run thief(2);
        START_FLUSHER(0);
        START_FLUSHER(1);
        START_FLUSHER(2)
    }
}
