/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the active limit (src/runtime/sleep.c, weft__active_enter,
 * surplus_wait, weft__wake_all; docs/sleep.md, "More workers than CPUs").
 *
 * NW workers (3) and a stopper.  A worker at the top level, ROUNDS times:
 * reads the active count (relaxed); if it is LIMIT or more, it becomes a
 * surplus worker and waits (surplus_wait: a seq_cst read of the surplus
 * word, then of the reason (quit), then futex_wait on the word) until the
 * reason is there; otherwise it counts itself in (relaxed fetch_add),
 * looks for work and runs it, and counts itself out.  The stopper is
 * weft__wake_all after stop's seq_cst store of quit: a seq_cst bump of the
 * surplus word, then a futex_wake of every waiter.  The count is one
 * location, whose coherence every memory model keeps: relaxed is enough
 * for the limit.
 *
 * Properties:
 *   - at every surplus wait, at most NW - LIMIT workers wait (so at least
 *     LIMIT workers are left to take the work: a surplus worker is woken
 *     for no work);
 *   - when nothing can move (spin's `timeout`): nobody is blocked in
 *     futex_wait (no lost wake-up), every worker returned, the count is 0.
 *
 * With -DWITH_RUN, a RUN from outside: worker 0 is counted in and runs a
 * task that waits until the RUN has run (a RUN that waits for another, or
 * a task that waits for a RUN); the outside caller (run_from_outside)
 * increments the pending count (seq_cst) and, after any delay (in the
 * code: 1 ms asleep with the RUN untaken; weft__surplus_ask), increments
 * the count of asks (seq_cst), reads the surplus count (seq_cst) and, if
 * a worker waits, bumps the word and wakes one.  A surplus worker counts
 * itself into that count (seq_cst) before its reads, takes an ask with a
 * pending RUN as a reason to stop waiting, and runs the RUN counted in
 * over the limit (worker_loop).  When the RUN has run, the caller stops
 * the pool.  Properties as above, and at the end the RUN was taken.
 *
 * Mutants (-D, one at a time):
 *   MUT_SURPLUS_STAYS_COUNTED  a worker counts itself in first and checks
 *                              the old value after, and a surplus worker
 *                              stays counted until it is woken: the count
 *                              then includes waiting workers, and every
 *                              worker may end up waiting (found under SC)
 *   MUT_SURPLUS_REASON_FIRST   surplus_wait reads the reason before the
 *                              word: a stop between the two is missed and
 *                              the worker sleeps on (found under SC)
 *   MUT_RUN_NOT_A_REASON       (WITH_RUN) a queued RUN does not end the
 *                              surplus wait: the RUN waits for worker 0,
 *                              which waits for it (found under SC)
 *   MUT_RUN_COUNT_FIRST        (WITH_RUN) the caller reads the surplus
 *                              count before it increments the count of
 *                              asks: a worker that begins to wait in
 *                              between is not woken (found under SC)
 */
#ifndef NW
#define NW 3
#endif
#ifndef LIMIT
#define LIMIT 1
#endif
#ifndef ROUNDS
#define ROUNDS 2
#endif
#define NT (NW + 1)
#define L_ACTIVE 0
#define L_WORD 1
#define L_QUIT 2
#define L_SWORD(i) L_WORD /* futex.pml: every surplus worker waits on one word */
#ifdef WITH_RUN
#define L_EXT 3    /* RUNs from outside queued (weft__external_queued) */
#define L_SCOUNT 4 /* surplus workers waiting (the runtime's count) */
#define L_DONE 5   /* the RUN has run */
#define L_ASK 6    /* RUN callers asking the surplus workers */
#define NLOC 7
#else
#define NLOC 3
#endif
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bool fwait[NT];  /* blocked in futex_wait */
byte returned;   /* workers that returned */
byte surplus;    /* ghost: workers in surplus_wait */

#include "futex.pml"

inline surplus_wait(me)
{
    surplus++;
    assert(surplus <= NW - LIMIT);
#ifdef WITH_RUN
    FADD(me, L_SCOUNT, 1, x);      /* seq_cst: before the reads */
#endif
    do
    ::
#ifdef MUT_SURPLUS_REASON_FIRST
        LD_SC(me, L_QUIT, q);
        LD_SC(me, L_WORD, seen);
#else
        LD_SC(me, L_WORD, seen);   /* the word first, */
        LD_SC(me, L_QUIT, q);      /* then the reasons */
#endif
#if defined(WITH_RUN) && !defined(MUT_RUN_NOT_A_REASON)
        LD_SC(me, L_ASK, k);
        LD_SC(me, L_EXT, e);
        q = q || (k && e);
#endif
        if
        :: q -> break
        :: else -> futex_wait(me, seen)
        fi
    od;
#ifdef WITH_RUN
    FADD_RLX(me, L_SCOUNT, -1, x);
#endif
    surplus--
}

#ifdef WITH_RUN
/* weft__external_take_and_run: takes the RUN if it is still queued (the
 * queue's mutex: one atomic step), runs it, stores DONE. */
inline take_run(me)
{
    atomic {
        if
        :: mem[L_EXT] > 0 -> mem[L_EXT] = mem[L_EXT] - 1; took = 1
        :: else -> took = 0
        fi
    };
    if
    :: took -> ST_REL(me, L_DONE, 1)
    :: else                                  /* taken already, or none */
    fi
}

/* Worker 0, counted in: its task waits until the RUN has run. */
proctype holder(byte me)
{
    byte _i, x;
    atomic { mem[L_DONE] == 1 };
    FADD_RLX(me, L_ACTIVE, -1, x);
    returned++
}

/* A worker at the top level until stop. */
proctype worker(byte me)
{
    byte _i, x, a, seen, q, e, k, took;
    do
    :: LD_SC(me, L_QUIT, q);
        if
        :: q -> break
        :: else
        fi;
        LD(me, L_ACTIVE, a);                     /* relaxed */
        if
        :: a >= LIMIT ->
            surplus_wait(me);
            LD(me, L_ASK, k);                    /* weft__surplus_asked */
            LD_SC(me, L_EXT, e);                 /* weft_external_pending */
            if
            :: k && e ->
                FADD_RLX(me, L_ACTIVE, 1, x);    /* over the limit */
                take_run(me);
                FADD_RLX(me, L_ACTIVE, -1, x)
            :: else
            fi
        :: else ->
            FADD_RLX(me, L_ACTIVE, 1, x);        /* weft__active_enter */
            take_run(me);                        /* or nothing: looks again */
            FADD_RLX(me, L_ACTIVE, -1, x)        /* weft__active_leave */
        fi
    od;
    returned++
}

/* The outside caller: queues the RUN, wakes a surplus worker, waits for
 * the result, then stops the pool (weft__wake_all). */
proctype caller(byte me)
{
    byte _i, x, s, k;
    FADD(me, L_EXT, 1, x);                   /* seq_cst: the pending count */
#ifdef MUT_RUN_COUNT_FIRST
    LD_SC(me, L_SCOUNT, s);
    FADD(me, L_ASK, 1, x);
#else
    FADD(me, L_ASK, 1, x);                   /* later, seq_cst: the ask */
    LD_SC(me, L_SCOUNT, s);                  /* then the surplus count */
#endif
    if
    :: s > 0 ->
        FADD(me, L_WORD, 1, x);              /* the bump (seq_cst) */
        if                                   /* futex_wake(1) */
        :: fwait[1] -> fwait[1] = 0
        :: NW > 2 && fwait[2] -> fwait[2] = 0
        :: else
        fi
    :: else
    fi;
    atomic { mem[L_DONE] == 1 };
    FADD_RLX(me, L_ASK, -1, x);              /* weft__surplus_unask */
    ST_SC(me, L_QUIT, 1);                    /* stop */
    FADD(me, L_WORD, 1, x);
    k = 0;
    do
    :: k < NW -> fwait[k] = 0; k++
    :: else -> break
    od
}
#else
proctype worker(byte me)
{
    byte _i, x, a, seen, q, r;
    do
    :: r < ROUNDS ->
        r++;
#ifdef MUT_SURPLUS_STAYS_COUNTED
        FADD_RLX(me, L_ACTIVE, 1, a);
        if
        :: a >= LIMIT -> surplus_wait(me); FADD_RLX(me, L_ACTIVE, -1, x); break
        :: else -> FADD_RLX(me, L_ACTIVE, -1, x)
        fi
#else
        LD(me, L_ACTIVE, a);                 /* relaxed */
        if
        :: a >= LIMIT -> surplus_wait(me); break
        :: else ->
            FADD_RLX(me, L_ACTIVE, 1, x);    /* weft__active_enter */
            /* looks for work and runs it */
            FADD_RLX(me, L_ACTIVE, -1, x)    /* weft__active_leave */
        fi
#endif
    :: else -> break
    od;
    returned++
}

proctype stopper(byte me)
{
    byte _i, x, k;
    ST_SC(me, L_QUIT, 1);                    /* stop: quit (seq_cst) */
    FADD(me, L_WORD, 1, x);                  /* wake_all: the bump (seq_cst) */
    k = 0;
    do                                       /* futex_wake(INT_MAX) */
    :: k < NW -> fwait[k] = 0; k++
    :: else -> break
    od
}

#endif

proctype monitor()
{
    byte k;
    atomic {
        timeout ->
        k = 0;
        do
        :: k < NW -> assert(!fwait[k]); k++
        :: else -> break
        od;
        assert(returned == NW);
#ifdef WITH_RUN
        assert(mem[L_EXT] == 0);
#endif
        assert(mem[L_ACTIVE] == 0)
    }
}

init {
    byte k;
    atomic {
#ifdef WITH_RUN
        mem[L_ACTIVE] = 1;   /* worker 0 is at work, in its task */
        run holder(0);
        START_FLUSHER(0);
        k = 1;
#else
        k = 0;
#endif
        do
        :: k < NW -> run worker(k); START_FLUSHER(k); k++
        :: else -> break
        od;
#ifdef WITH_RUN
        run caller(NW);
#else
        run stopper(NW);
#endif
        START_FLUSHER(NW);
        run monitor()
    }
}
