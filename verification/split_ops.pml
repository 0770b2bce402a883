/* SPDX-License-Identifier: Apache-2.0 */
/* The split deque of weft (src/sched/split/split_deque.c, include/weft/bits/
 * split_deque.h, src/runtime/steal.c) as Promela, statement by statement, with the
 * memory order of each access as written in the C source.  Figure 4 line
 * numbers of the Lace paper are given as in the C comments.
 *
 * Thread OWNER owns deque OWNER (split_defs.pml); a thief steals from
 * deque VICTIM.  Shared locations of deque d:
 *   DQ_TS(d)        tail | split << 4 (the packed 64-bit word `ts`)
 *   DQ_ALLSTOLEN(d) the thieves' hint
 *   DQ_LIMIT(d)     splitreq folded with o_split (SPLITREQ or o_split)
 *   DQ_STATE(d, i)  task slot i: EMPTY, TASK, STOLEN, DONE
 *   DQ_ARG(d, i)    the task's arguments (its id)
 *   DQ_RES(d, i)    the result written into the descriptor by a thief
 * (L_TS, L_ALLSTOLEN, ... in the one-deque models.)  The including model
 * defines NSLOT, the first location L_BASE, the hooks
 * SLEEPERS_WANT_WORK(out), WAKE_FOR_WORK() and WAKE_JOINER(me) (sleep.c
 * calls; not with NO_SLEEP), and the owner's locals: head, o_split,
 * new_s, t, s, x, cur, ok, all.
 *
 * For a model with one deque per worker (interrupt.pml) the including
 * model may define, before including this file:
 *   OWNER, DQ_*     (split_defs.pml) the owner and the layout
 *   STEAL_PARAMS, VICTIM  steal_once's parameters and the victim's deque
 *                   among them (default: steal_once(me) from deque OWNER)
 *   RUN_TASK(d, slot, id, stolen)  runs task id of deque d's slot, inline
 *                   (stolen = 0) or by a thief (1); with it the model
 *                   declares its own ghosts and SLOT_ID(d, i), the ghost
 *                   task id of deque d's slot i (default: run_task below,
 *                   slot_id[i])
 *   NO_SLEEP        no sleep protocol: grow_shared's no-op only clears the
 *                   request (no sleeper to count, none to re-raise it
 *                   for), nothing wakes anyone (WAKE_FOR_WORK and
 *                   WAKE_JOINER are not used) and the thief does not
 *                   report its outcome in `got` (only a sleeper needs it)
 *   NO_RESULTS      results are not modelled: the thief writes none
 *   OWN_SYNC        the model has its own joins and includes
 *                   split_sync.pml itself: no wait_done, join_stolen,
 *                   owner_sync_inner, owner_sync here
 *   RESERVE_NEVER_FULL  the model's bounds never reach the last slot: the
 *                   reserve is the assertion alone (fewer states than the
 *                   branch to RESERVE_FULL)
 *   NO_SPLIT_COVER  the coverage points below are not checked
 *   STEAL_READ_HOOK(me, vic), STEAL_CAS(me, vic)  see steal_once
 *
 * Mutants (-D, one at a time; docs/results/model-checks.md lists what each shows):
 *   MUT_SHRINK_NOFENCE  lines 45-48 as two accesses without the fence:
 *                       store split alone, then load tail (the paper
 *                       without line 47)
 *   MUT_SHRINK_RESPLIT  drop lines 50-53 (Figure 3's re-adjustment)
 *   MUT_GROW_RLX        grow_shared's split RMW relaxed instead of seq_cst
 *   MUT_PUSH_RLX        the push after allstolen stores ts relaxed
 *   MUT_STEAL_RLX       the thief's CAS relaxed instead of acquire
 *   MUT_STEAL_NOCAS     the thief moves tail with load + store, no CAS
 *   MUT_DONE_RLX        the thief's DONE store relaxed instead of seq_cst
 *   MUT_JOIN_RLX        the joiner's DONE load relaxed instead of acquire
 *   MUT_POPSTOLEN       pop_stolen forgets o_allstolen (lines 33-35)
 *   MUT_POLL_ABOVE      the poll grows as if the head were one slot higher
 *                       (a stale head: it shares a slot nobody pushed)
 *   OLD_RESERVE         the reserve rule before fix 2: a push may use the
 *                       last slot, so head can reach END (finding 2)
 *
 * The reserve (weft_split_reserve): a SPAWN into slot t with t + 1 >= END
 * stops the program with "task deque overflow".  The including model
 * defines RESERVE_FULL() for that exit; without it, the bounds must never
 * reach the last slot (an assertion).  Either way grow_shared asserts the
 * invariant the rule keeps: a new split stays below END, which is
 * o_allstolen's encoding.
 */
/* Coverage: -DCOVER_X=1 makes reaching point X an error, so a "failing"
 * run proves the model reaches it (run.sh's cover-* checks). */
#ifndef COVER_GROW
#define COVER_GROW 0
#endif
#ifndef COVER_GROW_NOOP
#define COVER_GROW_NOOP 0
#endif
#ifndef COVER_LINE52
#define COVER_LINE52 0
#endif
#ifndef COVER_ALLSTOLEN
#define COVER_ALLSTOLEN 0
#endif
#ifndef COVER_PUSH_SHARED
#define COVER_PUSH_SHARED 0
#endif
#ifndef COVER_POPSTOLEN
#define COVER_POPSTOLEN 0
#endif
#ifndef COVER_POLL_GROW
#define COVER_POLL_GROW 0
#endif
/* SPLIT_COVER(X): the assertion at point X, ending in `;`.  NO_SPLIT_COVER:
 * none, for a model that checks none of these points (interrupt.pml; an
 * assertion of a constant can still cost states). */
#ifdef NO_SPLIT_COVER
#define SPLIT_COVER(x)
#else
#define SPLIT_COVER(x) assert(!x);
#endif
#ifndef RESERVE_FULL
#define RESERVE_FULL() assert(false)
#endif
/* Hooks around a won steal, for a model whose thieves do more there
 * (sleep_leap.pml: the name of the thief, steal.c's OK / OK_MORE
 * wake-ups).  Empty here, so the other models are unchanged.  Each
 * expands to statements ending in `;`, or to nothing. */
#ifndef STEAL_WON_HOOK
#define STEAL_WON_HOOK(me)
#endif
#ifndef STEAL_TAKEN_HOOK
#define STEAL_TAKEN_HOOK(me)
#endif

#ifndef RUN_TASK
/* ghosts: which task each slot holds, how often each task ran */
byte slot_id[NSLOT];
byte ran[NTASK + 1];
#define SLOT_ID(d, i) slot_id[i]

/* Runs task `id` (read from the descriptor) of slot `slot`. */
inline run_task(slot, id)
{
    atomic {
        assert(id == slot_id[slot]);   /* the task's contents are visible */
        assert(ran[id] == 0);          /* exactly once: not run before */
        ran[id]++
    }
}
#define RUN_TASK(d, slot, id, stolen) run_task(slot, id)
#endif

/* clear_splitreq(): the paper's "splitreq = 0" with o_split published;
 * relaxed in weft before finding 1's fix (src/sched/split/split_deque.c now has the
 * fix; sleep.pml defines FIX_CLEAR_SEQCST unless MUT_CLEAR_RLX, the mutant
 * that reverts it; split_deque.pml keeps the weaker relaxed store;
 * interrupt.pml defines it).  FIX_CLEAR_SEQCST: seq_cst, so that it and the sleeper
 * count read after it form a Dekker pair with a sleeper's request (see
 * docs/verification.md, finding 1). */
/* What the owner publishes in limit when no thief asks (owner_limit):
 * o_split, or with JOIN_GUARD the owner's local `guard` where it is higher
 * (w->join_guard: every SYNC below it takes the slow path).
 * MUT_GUARD_CLEAR: clearing a request publishes o_split alone. */
#ifdef JOIN_GUARD
/* (the owner's local lim; spin takes no conditional expression as an
 * inline's argument) */
#define SET_LIM() if :: o_split > guard -> lim = o_split :: else -> lim = guard fi
#define OWNER_LIMIT lim
#else
#define SET_LIM() skip
#define OWNER_LIMIT o_split
#endif
#ifdef MUT_GUARD_CLEAR
#define CLEARED_LIMIT o_split
#else
#define CLEARED_LIMIT OWNER_LIMIT
#endif
#ifdef FIX_CLEAR_SEQCST
#define CLEAR_SPLITREQ() SET_LIM(); ST_SC(OWNER, DQ_LIMIT(OWNER), CLEARED_LIMIT)
#else
#define CLEAR_SPLITREQ() SET_LIM(); ST(OWNER, DQ_LIMIT(OWNER), CLEARED_LIMIT)
#endif

/* update_limit(): publish owner_limit unless a request is pending. */
inline update_limit()
{
    LD(OWNER, DQ_LIMIT(OWNER), cur);
    if
    :: cur != SPLITREQ -> SET_LIM(); CAS_RLX(OWNER, DQ_LIMIT(OWNER), cur, OWNER_LIMIT, ok); ok = 0
    :: else
    fi;
    cur = 0
}

/* Figure 4, lines 36-40 (weft__split_grow_shared). */
inline grow_shared(h)
{
    /* the acquire fence: orders loads only; nothing to model here */
    new_s = (o_split + h + 1) / 2;                 /* line 37 */
    assert(new_s < END);                           /* not o_allstolen (finding 2) */
    if
    :: new_s == o_split ->
        SPLIT_COVER(COVER_GROW_NOOP)
        SET_LIM();
#ifdef NO_SLEEP
        ST_SC(OWNER, DQ_LIMIT(OWNER), CLEARED_LIMIT)     /* clear, seq_cst */
#else
        ST_SC(OWNER, DQ_LIMIT(OWNER), CLEARED_LIMIT);    /* clear, seq_cst */
        SLEEPERS_WANT_WORK(ok);                    /* then count, seq_cst */
        if
        :: ok -> ST(OWNER, DQ_LIMIT(OWNER), SPLITREQ)   /* re-raise for sleepers */
        :: else
        fi;
        ok = 0
#endif
    :: else ->
        SPLIT_COVER(COVER_GROW)
#ifdef MUT_GROW_RLX
        FADD_RLX(OWNER, DQ_TS(OWNER), 16 * (new_s - o_split), x);
#else
        FADD(OWNER, DQ_TS(OWNER), 16 * (new_s - o_split), x);   /* line 38, seq_cst */
#endif
        o_split = new_s;                           /* line 39 */
#ifdef NO_SLEEP
        CLEAR_SPLITREQ()                           /* line 40 */
#else
        CLEAR_SPLITREQ();                          /* line 40 */
        WAKE_FOR_WORK()
#endif
    fi;
    new_s = 0; x = 0
}

/* WEFT_YIELD's poll (weft_sched_poll, weft__split_poll_slow): a request
 * pending while private tasks wait is served here as at a SPAWN (line 20),
 * so a task that runs long without spawning shares them.  With every task
 * stolen there is nothing private: the request stays for the next push
 * (line 14).  Not in the paper. */
inline owner_poll()
{
    LD(OWNER, DQ_LIMIT(OWNER), cur);
    if
    :: cur == SPLITREQ && o_split != END ->
        SPLIT_COVER(COVER_POLL_GROW)
#ifdef MUT_POLL_ABOVE
        grow_shared(head + 1)
#else
        grow_shared(head)
#endif
    :: else
    fi
}

/* Figure 4, lines 41-57 (weft__split_shrink_shared); all = the result. */
inline shrink_shared()
{
    all = 1;
#ifdef MUT_SHRINK_NOFENCE
    /* x86: a full-word load waits for an overlapping half-word store */
    atomic { LOC_DRAINED(OWNER, L_TS_SPLITONLY) };
#endif
    LD(OWNER, DQ_TS(OWNER), x);                    /* line 42, relaxed */
    t = TAIL(x); s = SPLIT(x);
    if
    :: t != s ->                                   /* line 43 */
        new_s = (t + s) / 2;                       /* line 44 */
#ifdef MUT_SHRINK_NOFENCE
        ST(OWNER, L_TS_SPLITONLY, new_s);          /* line 45 alone */
        LD_TAIL_HALF(OWNER, t);                    /* line 48, no line 47 */
#else
        FADD_RLX(OWNER, DQ_TS(OWNER), -16 * (s - new_s), x);   /* lines 45, 47, 48 */
        t = TAIL(x);
#endif
        o_split = new_s;                           /* line 46 */
        if
        :: t != s ->                               /* line 49 */
#ifndef MUT_SHRINK_RESPLIT
            if
            :: t > new_s ->                        /* line 50 */
                new_s = (t + s) / 2;               /* line 51 */
                SPLIT_COVER(COVER_LINE52)
                ST_SC(OWNER, DQ_TS(OWNER), TS(t, new_s));   /* line 52 */
#ifdef NO_SLEEP
                o_split = new_s                    /* line 53 */
#else
                o_split = new_s;                   /* line 53 */
                if
                :: new_s > t -> WAKE_FOR_WORK()
                :: else
                fi
#endif
            :: else
            fi;
#endif
            update_limit();
            all = 0                                /* line 54 */
        :: else
        fi
    :: else
    fi;
    if
    :: all ->
        SPLIT_COVER(COVER_ALLSTOLEN)
        ST(OWNER, DQ_ALLSTOLEN(OWNER), 1);         /* line 55 */
        o_split = END;                             /* line 56 */
        update_limit()
    :: else
    fi;
    t = 0; s = 0; new_s = 0; x = 0
}

/* SPAWN of task `id` into slot head (weft_split_push + push_slow). */
inline owner_push(id)
{
#if defined(RESERVE_NEVER_FULL)
    assert(head + 1 < END);                        /* the bounds never overflow */
#elif !defined(OLD_RESERVE)
    if
    :: head + 1 >= END -> RESERVE_FULL()           /* weft_split_reserve: t + 1 >= end */
    :: else
    fi;
#endif
    SLOT_ID(OWNER, head) = id;
    ST(OWNER, DQ_ARG(OWNER, head), id);            /* the arguments, plain */
    ST(OWNER, DQ_STATE(OWNER, head), TASK);        /* the wrapper, relaxed */
    head++;
    LD(OWNER, DQ_LIMIT(OWNER), cur);
    if
    :: head - 1 < cur ->                           /* lines 14 and 20 */
        if
        :: o_split == END ->                       /* line 14 */
            SPLIT_COVER(COVER_PUSH_SHARED)
#ifdef MUT_PUSH_RLX
            ST(OWNER, DQ_TS(OWNER), TS(head - 1, head));
#else
            ST_SC(OWNER, DQ_TS(OWNER), TS(head - 1, head));   /* line 15 */
#endif
            ST(OWNER, DQ_ALLSTOLEN(OWNER), 0);     /* line 16 */
            o_split = head;                        /* lines 18-19 */
#ifdef NO_SLEEP
            CLEAR_SPLITREQ()                       /* line 17 */
#else
            CLEAR_SPLITREQ();                      /* line 17 */
            WAKE_FOR_WORK()
#endif
        :: else ->
            LD(OWNER, DQ_LIMIT(OWNER), cur);
            if
            :: cur == SPLITREQ -> grow_shared(head)   /* line 20 */
            :: else
            fi
        fi
    :: else
    fi;
    cur = 0
}

#ifndef OWN_SYNC
/* The joiner waits for DONE (acquire), then reads the result. */
inline wait_done(slot, id)
{
#ifdef MUT_JOIN_RLX
    /* relaxed: the result may be read before the DONE that ends the wait */
    if
    :: MAY_READ_EARLY -> LD(OWNER, DQ_RES(OWNER, slot), x)
    :: true -> x = 255
    fi;
    atomic { LOC_DRAINED(OWNER, DQ_STATE(OWNER, slot)) && mem[DQ_STATE(OWNER, slot)] == DONE };
    if
    :: x == 255 -> LD(OWNER, DQ_RES(OWNER, slot), x)
    :: else
    fi;
#else
    atomic { LOC_DRAINED(OWNER, DQ_STATE(OWNER, slot)) && mem[DQ_STATE(OWNER, slot)] == DONE };
    LD(OWNER, DQ_RES(OWNER, slot), x);
#endif
    assert(x == RESULT(id));                       /* the result is visible */
    x = 0
}
#endif

/* Figure 4, lines 31-35 (weft__split_pop_stolen). */
inline pop_stolen(slot)
{
    ST(OWNER, DQ_STATE(OWNER, slot), EMPTY);
#ifndef MUT_POPSTOLEN
    if
    :: o_split != END ->                           /* line 33 */
        SPLIT_COVER(COVER_POPSTOLEN)
        ST(OWNER, DQ_ALLSTOLEN(OWNER), 1);         /* line 34 */
        o_split = END;                             /* line 35 */
        update_limit()
    :: else
    fi
#endif
}

/* Runs the popped private task of slot head inline. */
inline run_inline()
{
    ST(OWNER, DQ_STATE(OWNER, head), EMPTY);
    LD(OWNER, DQ_ARG(OWNER, head), x);
    RUN_TASK(OWNER, head, x, 0);
    x = 0
}

#ifndef OWN_SYNC
#define SYNC_NAME owner_sync_inner
#define JOIN wait_done
#include "split_sync.pml"
#undef SYNC_NAME
#undef JOIN

/* Figure 1's wait for a stolen task (steal.c's weft__join_stolen), with
 * leapfrogging: until DONE, the joiner may run a task it steals back from
 * the thief on top of the joined slot; that task spawns one child and
 * syncs it (the thief's deque itself is not modelled).  At most NLEAP such
 * tasks per run; their own syncs wait without leapfrogging. */
#ifndef JOIN_SLEEP_OPTION
#define JOIN_SLEEP_OPTION(slot)
#endif
inline join_stolen(slot, id)
{
    js = slot;
    do
    :: leaps < NLEAP && !(LOC_DRAINED(OWNER, DQ_STATE(OWNER, js)) && mem[DQ_STATE(OWNER, js)] == DONE) ->
        leaps++;
        head++;                   /* the stolen-back task's frame */
        lid++;
        owner_push(lid);
        owner_sync_inner();
        head--
    JOIN_SLEEP_OPTION(js)         /* sleep.pml: the joiner may go to sleep */
    :: true -> break
    od;
    js = 0;
    wait_done(slot, id)
}

#define SYNC_NAME owner_sync
#define JOIN join_stolen
#include "split_sync.pml"
#undef SYNC_NAME
#undef JOIN
#endif /* OWN_SYNC */

/* Figure 4, lines 1-9, and running a stolen task (steal.c's run_stolen).
 * Thread me steals from deque VICTIM; got = 1 on success.  Uses the
 * thief's locals tx, ttail, tsplit, tst, targ, tok, got.  Hooks, for a
 * model that checks ghost state at the steal (interrupt.pml: nothing below
 * a frozen head is stolen):
 *   STEAL_READ_HOOK(me, vic)  before line 3 (statements ending in `;`)
 *   STEAL_CAS(me, vic)        replaces line 5's CAS of (tail,split) from
 *                             tx to tx + 1 (acquire; tok = success), to
 *                             check ghost state in the same atomic step */
#ifndef STEAL_PARAMS
#define STEAL_PARAMS me
#define VICTIM OWNER
#endif
#ifndef STEAL_READ_HOOK
#define STEAL_READ_HOOK(me, vic)
#endif
inline steal_once(STEAL_PARAMS)
{
#ifndef NO_SLEEP
    got = 0;
#endif
    LD(me, DQ_ALLSTOLEN(VICTIM), tx);              /* line 2 */
    if
    :: tx == 0 ->
#ifdef MUT_STEAL_RLX
        /* relaxed CAS: the descriptor may be read before it */
        if
        :: MAY_READ_EARLY -> early = 1
        :: true -> early = 0
        fi;
#endif
        STEAL_READ_HOOK(me, VICTIM)
        LD(me, DQ_TS(VICTIM), tx);                 /* line 3 */
        ttail = TAIL(tx); tsplit = SPLIT(tx);
#ifdef MUT_STEAL_RLX
        if
        :: early && ttail < tsplit ->
            LD(me, DQ_STATE(VICTIM, ttail), tst); LD(me, DQ_ARG(VICTIM, ttail), targ)
        :: else
        fi;
#endif
        if
        :: ttail < tsplit ->                       /* line 4 */
#if defined(MUT_STEAL_NOCAS)
            ST(me, DQ_TS(VICTIM), tx + 1); tok = 1;
#elif defined(STEAL_CAS)
            STEAL_CAS(me, VICTIM);                 /* line 5, acquire */
#else
            CAS(me, DQ_TS(VICTIM), tx, tx + 1, tok);   /* line 5, acquire */
#endif
            if
            :: tok ->                              /* line 6 */
                STEAL_WON_HOOK(me)
#ifdef MUT_STEAL_RLX
                if
                :: !early -> LD(me, DQ_STATE(VICTIM, ttail), tst); LD(me, DQ_ARG(VICTIM, ttail), targ)
                :: else
                fi;
#else
                LD(me, DQ_STATE(VICTIM, ttail), tst);   /* the wrapper */
                LD(me, DQ_ARG(VICTIM, ttail), targ);
#endif
                assert(tst == TASK);               /* a live task was stolen */
                ST(me, DQ_STATE(VICTIM, ttail), STOLEN);
                STEAL_TAKEN_HOOK(me)
                RUN_TASK(VICTIM, ttail, targ, 1);
#ifndef NO_RESULTS
                ST(me, DQ_RES(VICTIM, ttail), RESULT(targ));
#endif
#ifdef MUT_DONE_RLX
                ST(me, DQ_STATE(VICTIM, ttail), DONE);
#elif defined(NO_SLEEP)
                ST_SC(me, DQ_STATE(VICTIM, ttail), DONE)   /* release: the result */
#else
                ST_SC(me, DQ_STATE(VICTIM, ttail), DONE);   /* release: the result */
#endif
#ifndef NO_SLEEP
                WAKE_JOINER(me);
                got = 1
#endif
            :: else                                /* line 7 */
            fi
        :: else ->
            LD(me, DQ_LIMIT(VICTIM), tx);          /* line 8 */
            if
            :: tx != SPLITREQ -> ST(me, DQ_LIMIT(VICTIM), SPLITREQ)
            :: else
            fi
        fi
    :: else
    fi;
    tx = 0; ttail = 0; tsplit = 0; tst = 0; targ = 0; tok = 0
}
