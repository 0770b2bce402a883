/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of weft's sleep/wake protocol (src/runtime/sleep.c, docs/sleep.md)
 * together with the split deque that publishes the work (split_ops.pml).
 *
 * Worker 0 owns a deque and runs a spawn/sync script; it may stop at any
 * point between two operations for good ("a long task": it then neither
 * spawns nor syncs again), or finish and stop the pool (quit + wake all).
 * Worker 1 is idle: it steals, and sleeps when it found nothing (kind IDLE:
 * word, sleeping_idle + 1, a request on worker 0, the last look, the
 * futex).  Worker 0 sleeps as a joiner (kind JOIN) when the task it syncs
 * was stolen; the thief wakes it after DONE.  Wakers claim a sleeper by
 * CAS of its word and futex_wake it.  The futex is modelled exactly:
 * futex_wait blocks only if the word still holds the expected value.
 *
 * No lost wake-up, checked whenever nothing can move any more (spin's
 * `timeout`): worker 1 is not asleep while worker 0 shares an unstolen task
 * (tail < split), nor while worker 0 holds private tasks without a pending
 * request (its next spawn or sync would not share them); worker 0 is not
 * asleep as a joiner while its task is DONE.  Plus every property of
 * split_deque.pml (exactly once, contents and results visible).
 *
 * Mutants:
 *   MUT_SLEEP_NO_LASTLOOK   the sleeper does not look again after announcing
 *   MUT_SLEEP_LATE_COUNT    the sleeper increments its count after the last look
 *   MUT_SLEEP_NOOP_CLEAR    grow_shared's no-op branch clears the request even
 *                           while someone sleeps
 *   MUT_SLEEP_NO_JOIN_WAKE  the thief does not wake a joiner after DONE
 *   MUT_FUTEX_NOCMP         futex_wait blocks without comparing the word
 *   MUT_PUSH_RLX            (split_ops) the push after allstolen publishes with
 *                           a relaxed store: the Dekker pair loses its store
 */
/* Three slots: the script has at most two tasks live, and the reserve
 * keeps the last slot free (split_ops.pml). */
#ifndef NSLOT
#define NSLOT 3
#endif
#ifndef SCRIPT
#define SCRIPT P P S P S S
#endif
#ifndef NJSLEEP
#define NJSLEEP 1
#endif
#define NLEAP 0
#define NOPS 8
#define NTASK (NOPS + 1)
#define P_OP 1
#define S_OP 2
#define P script[k] = P_OP; k++;
#define S script[k] = S_OP; k++;

#define NT 2
#define THIEF 1
#define L_BASE 0
#include "split_defs.pml"
/* The code's clear_splitreq is seq_cst (finding 1's fix); MUT_CLEAR_RLX
 * is the relaxed clear it replaced. */
#if !defined(MUT_CLEAR_RLX) && !defined(FIX_CLEAR_SEQCST)
#define FIX_CLEAR_SEQCST
#endif
#define L_SWORD(i) (SPLIT_LOCS + (i))
#define L_SLEEPING_IDLE (SPLIT_LOCS + 2)
#define L_SLEEPING_JOIN (SPLIT_LOCS + 3)
#define L_QUIT (SPLIT_LOCS + 4)
#define NLOC (SPLIT_LOCS + 5)
#ifndef BUFSZ
#define BUFSZ 3
#endif

#define AWAKE 0
#define K_IDLE 1
#define K_JOIN 2

#include "mm.pml"

bool fwait[NT];          /* blocked in futex_wait */

/* the owner's state, global so that the monitor can read it */
byte head, o_split, js;

#include "futex.pml"

inline futex_wake(v) { fwait[v] = 0 }

/* claim(): thread me claims worker v if it sleeps in an accepted kind. */
inline claim(me, v, accept)
{
    LD(me, L_SWORD(v), cs);                        /* relaxed peek */
    if
    :: cs != AWAKE && (accept & (1 << cs)) ->
        CAS(me, L_SWORD(v), cs, AWAKE, cok);       /* acq_rel */
        if
        :: cok ->
            if
            :: cs == K_IDLE -> FADD_RLX(me, L_SLEEPING_IDLE, -1, cold)
            :: else -> FADD_RLX(me, L_SLEEPING_JOIN, -1, cold)
            fi;
            futex_wake(v)
        :: else
        fi
    :: else
    fi;
    cs = 0; cok = 0; cold = 0
}

/* weft__sleepers_want_work_from(owner), by the owner: seq_cst loads */
#define SLEEPERS_WANT_WORK(out) \
    LD_SC(OWNER, L_SLEEPING_IDLE, wa); LD_SC(OWNER, L_SLEEPING_JOIN, wb); \
    out = (wa != 0 || wb != 0); wa = 0; wb = 0

/* weft__wake_for_work(owner): read the counts (seq_cst), claim one */
#define WAKE_FOR_WORK() wake_for_work()
inline wake_for_work()
{
    LD_SC(OWNER, L_SLEEPING_IDLE, wa);
    LD_SC(OWNER, L_SLEEPING_JOIN, wb);
    if
    :: wa != 0 || wb != 0 -> claim(OWNER, THIEF, 6)   /* IDLE or JOIN */
    :: else
    fi;
    wa = 0; wb = 0
}

/* weft__wake_joiner(victim) after DONE, by the thief */
#ifdef MUT_SLEEP_NO_JOIN_WAKE
#define WAKE_JOINER(me) skip
#else
#define WAKE_JOINER(me) \
    LD_SC(me, L_SWORD(OWNER), tw); \
    if \
    :: tw == K_JOIN -> claim(me, OWNER, 4) \
    :: else \
    fi; tw = 0
#endif

/* The joiner's sleep (kind JOIN) while its stolen task is not DONE. */
inline join_sleep(slot)
{
    ST_SC(OWNER, L_SWORD(OWNER), K_JOIN);
    FADD(OWNER, L_SLEEPING_JOIN, 1, x);
    /* the thief has no deque here: no request to leave */
    LD_SC(OWNER, L_QUIT, x);
    if
    :: x == 0 -> LD_SC(OWNER, L_STATE(slot), x); x = (x == DONE)
    :: else
    fi;
    if
    :: x ->                                        /* withdraw */
        cs = K_JOIN;
        CAS(OWNER, L_SWORD(OWNER), cs, AWAKE, cok);
        if
        :: cok -> FADD_RLX(OWNER, L_SLEEPING_JOIN, -1, cold)
        :: else
        fi;
        cs = 0; cok = 0; cold = 0
    :: else ->
        do
        :: LD(OWNER, L_SWORD(OWNER), x);           /* acquire */
            if
            :: x == AWAKE -> break
            :: else -> futex_wait(OWNER, x)
            fi
        od
    fi;
    x = 0
}
#define JOIN_SLEEP_OPTION(slot) \
    :: jsleeps < NJSLEEP && !(LOC_DRAINED(OWNER, L_STATE(slot)) && mem[L_STATE(slot)] == DONE) -> \
        jsleeps++; join_sleep(slot)

#ifdef MUT_SLEEP_NOOP_CLEAR
#undef SLEEPERS_WANT_WORK
#define SLEEPERS_WANT_WORK(out) out = 0
#endif

#include "split_ops.pml"

byte script[NOPS];
bool owner_long;         /* the owner stopped for good in a long task */

proctype owner()
{
    byte _i, new_s, t, s, x, cur, ok, all, op, id, leaps, lid, jsleeps, wa, wb, cs, cok, cold;
    o_split = END;
    lid = NOPS;
    do
    :: op < NOPS && script[op] != 0 ->
        if
        :: script[op] == P_OP -> id++; owner_push(id)
        :: script[op] == S_OP -> owner_sync()
        fi;
        op++;
        if
        :: true
        :: !owner_long -> owner_long = 1; goto long_task
        fi
    :: else -> break
    od;
    /* weft_stop: quit (seq_cst), fence, claim every sleeper */
    ST_SC(OWNER, L_QUIT, 1);
    FENCE_SC(OWNER);
    claim(OWNER, THIEF, 6);
long_task:
    skip
}

proctype idler()
{
    byte _i, tx, ttail, tsplit, tst, targ, tok, got, early, tw, cs, cok, cold, found, x;
    do
    :: LD(THIEF, L_QUIT, x);
        if
        :: x -> break
        :: else
        fi;
        steal_once(THIEF);
        if
        :: got -> skip
        :: !got -> skip                            /* spin: try again */
        :: !got ->                                 /* weft__sleep(IDLE) */
            ST_SC(THIEF, L_SWORD(THIEF), K_IDLE);
#ifndef MUT_SLEEP_LATE_COUNT
            FADD(THIEF, L_SLEEPING_IDLE, 1, x);
#endif
            LD_SC(THIEF, L_LIMIT, x);              /* leave_requests */
            if
            :: x != SPLITREQ -> ST_SC(THIEF, L_LIMIT, SPLITREQ)
            :: else
            fi;
            found = 0;
#ifndef MUT_SLEEP_NO_LASTLOOK
            LD_SC(THIEF, L_QUIT, x);               /* the last look */
            found = x;
            LD_SC(THIEF, L_TS, x);
            if
            :: TAIL(x) < SPLIT(x) -> found = 1
            :: else
            fi;
#endif
#ifdef MUT_SLEEP_LATE_COUNT
            FADD(THIEF, L_SLEEPING_IDLE, 1, x);
#endif
            if
            :: found ->                            /* withdraw unless claimed */
                cs = K_IDLE;
                CAS(THIEF, L_SWORD(THIEF), cs, AWAKE, cok);
                if
                :: cok -> FADD_RLX(THIEF, L_SLEEPING_IDLE, -1, cold)
                :: else
                fi;
                cs = 0; cok = 0; cold = 0
            :: else ->
                do
                :: LD(THIEF, L_SWORD(THIEF), x);   /* acquire */
                    if
                    :: x == AWAKE -> break
                    :: else -> futex_wait(THIEF, x)
                    fi
                od
            fi;
            found = 0
        fi;
        got = 0; x = 0
    od
}

/* When nothing can move: no sleeper is stranded. */
proctype monitor()
{
    atomic {
        timeout ->
        assert(!(fwait[THIEF] && TAIL(mem[L_TS]) < SPLIT(mem[L_TS])));
        assert(!(fwait[THIEF] && o_split != END && head > o_split && mem[L_LIMIT] != SPLITREQ));
        assert(!(fwait[OWNER] && mem[L_STATE(js)] == DONE))
    }
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
        run idler();
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1)
    }
}
