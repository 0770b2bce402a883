/* The split deque of weft (src/split_deque.c, include/weft/bits/
 * split_deque.h, src/steal.c) as Promela, statement by statement, with the
 * memory order of each access as written in the C source.  Figure 4 line
 * numbers of the Lace paper are given as in the C comments.
 *
 * One owner (thread OWNER) owns the deque.  Shared locations:
 *   L_TS         tail | split << 4 (the packed 64-bit word `ts`)
 *   L_ALLSTOLEN  the thieves' hint
 *   L_LIMIT      splitreq folded with o_split (SPLITREQ or o_split)
 *   L_STATE(i)   task slot i: EMPTY, TASK, STOLEN, DONE
 *   L_ARG(i)     the task's arguments (its id)
 *   L_RES(i)     the result written into the descriptor by a thief
 * The including model defines NSLOT, the first location L_BASE, the
 * hooks SLEEPERS_WANT_WORK(out) and WAKE_FOR_WORK() (sleep.c calls), and
 * the owner's locals: head, o_split, new_s, t, s, x, cur, ok, all.
 *
 * Mutants (-D, one at a time; docs/verification.md lists what each shows):
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
#ifndef RESERVE_FULL
#define RESERVE_FULL() assert(false)
#endif

/* ghosts: which task each slot holds, how often each task ran */
byte slot_id[NSLOT];
byte ran[NTASK + 1];

/* Runs task `id` (read from the descriptor) of slot `slot`. */
inline run_task(slot, id)
{
    atomic {
        assert(id == slot_id[slot]);   /* the task's contents are visible */
        assert(ran[id] == 0);          /* exactly once: not run before */
        ran[id]++
    }
}

/* clear_splitreq(): the paper's "splitreq = 0" with o_split published;
 * relaxed in weft.  FIX_CLEAR_SEQCST: seq_cst, so that it and the sleeper
 * count read after it form a Dekker pair with a sleeper's request (see
 * docs/verification.md, finding 1). */
#ifdef FIX_CLEAR_SEQCST
#define CLEAR_SPLITREQ() ST_SC(OWNER, L_LIMIT, o_split)
#else
#define CLEAR_SPLITREQ() ST(OWNER, L_LIMIT, o_split)
#endif

/* update_limit(): publish o_split unless a request is pending. */
inline update_limit()
{
    LD(OWNER, L_LIMIT, cur);
    if
    :: cur != SPLITREQ -> CAS_RLX(OWNER, L_LIMIT, cur, o_split, ok); ok = 0
    :: else
    fi;
    cur = 0
}

/* Figure 4, lines 36-40 (weft_split_grow_shared). */
inline grow_shared(h)
{
    /* the acquire fence: orders loads only; nothing to model here */
    new_s = (o_split + h + 1) / 2;                 /* line 37 */
    assert(new_s < END);                           /* not o_allstolen (finding 2) */
    if
    :: new_s == o_split ->
        assert(!COVER_GROW_NOOP);
        ST_SC(OWNER, L_LIMIT, o_split);            /* clear, seq_cst */
        SLEEPERS_WANT_WORK(ok);                    /* then count, seq_cst */
        if
        :: ok -> ST(OWNER, L_LIMIT, SPLITREQ)      /* re-raise for sleepers */
        :: else
        fi;
        ok = 0
    :: else ->
        assert(!COVER_GROW);
#ifdef MUT_GROW_RLX
        FADD_RLX(OWNER, L_TS, 16 * (new_s - o_split), x);
#else
        FADD(OWNER, L_TS, 16 * (new_s - o_split), x);   /* line 38, seq_cst */
#endif
        o_split = new_s;                           /* line 39 */
        CLEAR_SPLITREQ();                          /* line 40 */
        WAKE_FOR_WORK()
    fi;
    new_s = 0; x = 0
}

/* Figure 4, lines 41-57 (weft_split_shrink_shared); all = the result. */
inline shrink_shared()
{
    all = 1;
#ifdef MUT_SHRINK_NOFENCE
    /* x86: a full-word load waits for an overlapping half-word store */
    atomic { LOC_DRAINED(OWNER, L_TS_SPLITONLY) };
#endif
    LD(OWNER, L_TS, x);                            /* line 42, relaxed */
    t = TAIL(x); s = SPLIT(x);
    if
    :: t != s ->                                   /* line 43 */
        new_s = (t + s) / 2;                       /* line 44 */
#ifdef MUT_SHRINK_NOFENCE
        ST(OWNER, L_TS_SPLITONLY, new_s);          /* line 45 alone */
        LD_TAIL_HALF(OWNER, t);                    /* line 48, no line 47 */
#else
        FADD_RLX(OWNER, L_TS, -16 * (s - new_s), x);   /* lines 45, 47, 48 */
        t = TAIL(x);
#endif
        o_split = new_s;                           /* line 46 */
        if
        :: t != s ->                               /* line 49 */
#ifndef MUT_SHRINK_RESPLIT
            if
            :: t > new_s ->                        /* line 50 */
                new_s = (t + s) / 2;               /* line 51 */
                assert(!COVER_LINE52);
                ST_SC(OWNER, L_TS, TS(t, new_s));  /* line 52 */
                o_split = new_s;                   /* line 53 */
                if
                :: new_s > t -> WAKE_FOR_WORK()
                :: else
                fi
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
        assert(!COVER_ALLSTOLEN);
        ST(OWNER, L_ALLSTOLEN, 1);                 /* line 55 */
        o_split = END;                             /* line 56 */
        update_limit()
    :: else
    fi;
    t = 0; s = 0; new_s = 0; x = 0
}

/* SPAWN of task `id` into slot head (weft_split_push + push_slow). */
inline owner_push(id)
{
#ifndef OLD_RESERVE
    if
    :: head + 1 >= END -> RESERVE_FULL()           /* weft_split_reserve: t + 1 >= end */
    :: else
    fi;
#endif
    slot_id[head] = id;
    ST(OWNER, L_ARG(head), id);                    /* the arguments, plain */
    ST(OWNER, L_STATE(head), TASK);                /* the wrapper, relaxed */
    head++;
    LD(OWNER, L_LIMIT, cur);
    if
    :: head - 1 < cur ->                           /* lines 14 and 20 */
        if
        :: o_split == END ->                       /* line 14 */
            assert(!COVER_PUSH_SHARED);
#ifdef MUT_PUSH_RLX
            ST(OWNER, L_TS, TS(head - 1, head));
#else
            ST_SC(OWNER, L_TS, TS(head - 1, head));    /* line 15 */
#endif
            ST(OWNER, L_ALLSTOLEN, 0);             /* line 16 */
            o_split = head;                        /* lines 18-19 */
            CLEAR_SPLITREQ();                      /* line 17 */
            WAKE_FOR_WORK()
        :: else ->
            LD(OWNER, L_LIMIT, cur);
            if
            :: cur == SPLITREQ -> grow_shared(head)   /* line 20 */
            :: else
            fi
        fi
    :: else
    fi;
    cur = 0
}

/* The joiner waits for DONE (acquire), then reads the result. */
inline wait_done(slot, id)
{
#ifdef MUT_JOIN_RLX
    /* relaxed: the result may be read before the DONE that ends the wait */
    if
    :: MAY_READ_EARLY -> LD(OWNER, L_RES(slot), x)
    :: true -> x = 255
    fi;
    atomic { LOC_DRAINED(OWNER, L_STATE(slot)) && mem[L_STATE(slot)] == DONE };
    if
    :: x == 255 -> LD(OWNER, L_RES(slot), x)
    :: else
    fi;
#else
    atomic { LOC_DRAINED(OWNER, L_STATE(slot)) && mem[L_STATE(slot)] == DONE };
    LD(OWNER, L_RES(slot), x);
#endif
    assert(x == RESULT(id));                       /* the result is visible */
    x = 0
}

/* Figure 4, lines 31-35 (weft_split_pop_stolen). */
inline pop_stolen(slot)
{
    ST(OWNER, L_STATE(slot), EMPTY);
#ifndef MUT_POPSTOLEN
    if
    :: o_split != END ->                           /* line 33 */
        assert(!COVER_POPSTOLEN);
        ST(OWNER, L_ALLSTOLEN, 1);                 /* line 34 */
        o_split = END;                             /* line 35 */
        update_limit()
    :: else
    fi
#endif
}

/* Runs the popped private task of slot head inline. */
inline run_inline()
{
    ST(OWNER, L_STATE(head), EMPTY);
    LD(OWNER, L_ARG(head), x);
    run_task(head, x);
    x = 0
}


#define SYNC_NAME owner_sync_inner
#define JOIN wait_done
#include "split_sync.pml"
#undef SYNC_NAME
#undef JOIN

/* Figure 1's wait for a stolen task (steal.c's weft_join_stolen), with
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
    :: leaps < NLEAP && !(LOC_DRAINED(OWNER, L_STATE(js)) && mem[L_STATE(js)] == DONE) ->
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

/* Figure 4, lines 1-9, and running a stolen task (steal.c's run_stolen).
 * Thread me steals from the owner; got = 1 on success.  Uses the
 * thief's locals tx, ttail, tsplit, tst, targ, tok, got. */
inline steal_once(me)
{
    got = 0;
    LD(me, L_ALLSTOLEN, tx);                       /* line 2 */
    if
    :: tx == 0 ->
#ifdef MUT_STEAL_RLX
        /* relaxed CAS: the descriptor may be read before it */
        if
        :: MAY_READ_EARLY -> early = 1
        :: true -> early = 0
        fi;
#endif
        LD(me, L_TS, tx);                          /* line 3 */
        ttail = TAIL(tx); tsplit = SPLIT(tx);
#ifdef MUT_STEAL_RLX
        if
        :: early && ttail < tsplit ->
            LD(me, L_STATE(ttail), tst); LD(me, L_ARG(ttail), targ)
        :: else
        fi;
#endif
        if
        :: ttail < tsplit ->                       /* line 4 */
#ifdef MUT_STEAL_NOCAS
            ST(me, L_TS, tx + 1); tok = 1;
#else
            CAS(me, L_TS, tx, tx + 1, tok);        /* line 5, acquire */
#endif
            if
            :: tok ->                              /* line 6 */
#ifdef MUT_STEAL_RLX
                if
                :: !early -> LD(me, L_STATE(ttail), tst); LD(me, L_ARG(ttail), targ)
                :: else
                fi;
#else
                LD(me, L_STATE(ttail), tst);       /* the wrapper */
                LD(me, L_ARG(ttail), targ);
#endif
                assert(tst == TASK);               /* a live task was stolen */
                ST(me, L_STATE(ttail), STOLEN);
                run_task(ttail, targ);
                ST(me, L_RES(ttail), RESULT(targ));
#ifdef MUT_DONE_RLX
                ST(me, L_STATE(ttail), DONE);
#else
                ST_SC(me, L_STATE(ttail), DONE);   /* release: the result */
#endif
                WAKE_JOINER(me);
                got = 1
            :: else                                /* line 7 */
            fi
        :: else ->
            LD(me, L_LIMIT, tx);                   /* line 8 */
            if
            :: tx != SPLITREQ -> ST(me, L_LIMIT, SPLITREQ)
            :: else
            fi
        fi
    :: else
    fi;
    tx = 0; ttail = 0; tsplit = 0; tst = 0; targ = 0; tok = 0
}
