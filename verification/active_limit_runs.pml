/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of RUNs from outside asking surplus workers for help, with
 * two RUNs queued in order (src/runtime/external.c run_from_outside and
 * weft__external_take_and_run; src/runtime/sleep.c weft__surplus_ask,
 * weft__surplus_pass_on, surplus_wait; worker_loop in lifecycle.c;
 * docs/sleep.md, "More workers than CPUs").  active_limit.pml checks the
 * limit itself and one RUN; this model the queue order and the asks.
 *
 * Limit 1.  Worker 0 is counted in and runs a task that waits until X has
 * run.  Workers 1 and 2 wait as surplus workers (surplus_wait: count
 * themselves in seq_cst, read the word, quit, the asks and the pending
 * count seq_cst, futex_wait on the word).  Two outside callers queue Y,
 * then X (the queue is FIFO: the first take gets Y); Y's task also waits
 * until X has run.  Each caller, at some later point, asks unless it sees
 * its RUN taken (it may ask after the take too: its look is a hint): it increments the asks (seq_cst), reads the surplus
 * count (seq_cst) and, if a worker waits, bumps the word and wakes one;
 * then it marks its request asked (CAS 0 -> 1), or withdraws its own ask
 * if the request was taken meanwhile.  A taker marks the request taken
 * (exchange to 2) and withdraws an ask it finds.  A surplus worker that
 * leaves its wait for an ask with a RUN pending first passes the wake on
 * if more than one RUN is queued, then takes the queue's head over the
 * limit and runs it.  A worker under the limit that finds nothing sleeps
 * as idle until a RUN is queued or the pool stops (the idle sleep and its
 * wake-up for a RUN are sleep.pml's).  When X has run, X's caller stops
 * the pool.
 *
 * Properties: when nothing can move (spin's `timeout`): nobody is blocked
 * in futex_wait, every worker returned, both RUNs were taken and no ask
 * stands.
 *
 * With -DACTIVE_TAKER there are two workers, and worker 0 is not held in a
 * task: counted in, it takes the queue's head under the limit at any point
 * of the others' steps (Y or X, before or after an ask, between the
 * surplus worker's checks and its take, or nothing), runs it and goes on
 * as a worker, so it may wait as a surplus worker itself.  Three workers
 * with such a taker do not fit the checker's memory (past 180 million
 * states); two do (about 6 million).
 *
 * Mutants (-D, one at a time):
 *   MUT_NO_PASS_ON        the surplus worker takes the head without
 *                         waking another: X's ask takes Y, and Y's
 *                         caller, its RUN taken, does not ask (found;
 *                         not with -DACTIVE_TAKER, which has no second
 *                         surplus worker to pass the wake on to)
 *   MUT_TAKER_KEEPS_ASK   the taker does not withdraw the ask it finds:
 *                         an ask stands at the end (found)
 */
#ifdef ACTIVE_TAKER
#define NW 2
#else
#define NW 3
#endif
#define LIMIT 1
#define NT (NW + 2)
#define C_Y NW           /* Y's caller */
#define C_X (NW + 1)     /* X's caller */
#define L_ACTIVE 0
#define L_WORD 1
#define L_QUIT 2
#define L_EXT 3          /* RUNs queued */
#define L_SCOUNT 4       /* surplus workers waiting */
#define L_ASK 5          /* asks standing */
#define L_XDONE 6        /* X has run */
#define L_SWORD(i) L_WORD
#define NLOC 7
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bool fwait[NT];
byte returned;
byte qhead;          /* requests taken so far: 0 Y next, 1 X next, 2 none */
byte ask_state[2];   /* per request (0 Y, 1 X): 0 none, 1 asked, 2 taken */

#include "futex.pml"

/* The taker's side of weft__external_take_and_run: the queue's mutex
 * makes the dequeue one step; then the exchange on the request's ask. */
inline take_head(me, took)
{
    atomic {
        if
        :: mem[L_EXT] > 0 -> mem[L_EXT] = mem[L_EXT] - 1; took = qhead; qhead++
        :: else -> took = 2
        fi
    };
    if
    :: took < 2 ->
        atomic {
            old = ask_state[took];
            ask_state[took] = 2
        };
#ifndef MUT_TAKER_KEEPS_ASK
        if
        :: old == 1 -> FADD_RLX(me, L_ASK, -1, x)
        :: else
        fi
#endif
    :: else
    fi
}

/* Runs the request taken: Y waits for X, X sets its flag. */
inline run_taken(me, took)
{
    if
    :: took == 0 -> atomic { mem[L_XDONE] == 1 }
    :: took == 1 -> ST_REL(me, L_XDONE, 1)
    :: else
    fi
}

inline wake_one_surplus(me)
{
    LD_SC(me, L_SCOUNT, s);
    if
    :: s > 0 ->
        FADD(me, L_WORD, 1, x);
        if                                   /* futex_wake(1) */
        :: fwait[0] -> fwait[0] = 0
        :: fwait[1] -> fwait[1] = 0
#if NW > 2
        :: fwait[2] -> fwait[2] = 0
#endif
        :: else
        fi
    :: else
    fi
}

proctype holder(byte me)
{
    byte _i, x;
    atomic { mem[L_XDONE] == 1 };
    FADD_RLX(me, L_ACTIVE, -1, x);
    returned++
}

proctype worker(byte me; bool at_work)
{
    byte _i, x, a, s, seen, q, k, e, took, old;
    if
    :: at_work -> goto take                  /* counted in, at the top level */
    :: else
    fi;
    do
    :: LD_SC(me, L_QUIT, q);
        if
        :: q -> break
        :: else
        fi;
        LD(me, L_ACTIVE, a);
        if
        :: a >= LIMIT ->
            FADD(me, L_SCOUNT, 1, x);        /* surplus_wait */
            do
            ::  LD_SC(me, L_WORD, seen);
                LD_SC(me, L_QUIT, q);
                LD_SC(me, L_ASK, k);
                LD_SC(me, L_EXT, e);
                if
                :: q || (k && e) -> break
                :: else -> futex_wait(me, seen)
                fi
            od;
            FADD_RLX(me, L_SCOUNT, -1, x);
            LD(me, L_ASK, k);                /* worker_loop */
            LD_SC(me, L_EXT, e);
            if
            :: k && e ->
#ifndef MUT_NO_PASS_ON
                LD_SC(me, L_EXT, e);         /* weft__surplus_pass_on */
                if
                :: e > 1 -> wake_one_surplus(me)
                :: else
                fi;
#endif
                FADD_RLX(me, L_ACTIVE, 1, x);
                take_head(me, took);
                run_taken(me, took);
                FADD_RLX(me, L_ACTIVE, -1, x)
            :: else
            fi
        :: else ->
            FADD_RLX(me, L_ACTIVE, 1, x);
take:
            take_head(me, took);
            run_taken(me, took);
            FADD_RLX(me, L_ACTIVE, -1, x);
            if
            :: took == 2 ->                  /* nothing: sleeps as idle until a */
                atomic { mem[L_EXT] > 0 || mem[L_QUIT] }  /* RUN or stop (sleep.pml) */
            :: else
            fi
        fi
    od;
    returned++
}

/* A RUN's caller: queues request r (0 Y, 1 X), may ask while it is not
 * taken, waits for it; X's caller then stops the pool. */
proctype caller(byte me; byte r)
{
    byte _i, x, s, k, old;
    if
    :: r == 1 -> atomic { qhead > 0 || mem[L_EXT] > 0 }   /* X after Y */
    :: else
    fi;
    FADD(me, L_EXT, 1, x);                   /* seq_cst: the pending count */
    if
    :: true ->                               /* started_ns read 0 (maybe stale) */
        FADD(me, L_ASK, 1, x);               /* weft__surplus_ask */
        wake_one_surplus(me);
        atomic {
            old = ask_state[r];
            if
            :: old == 0 -> ask_state[r] = 1
            :: else
            fi
        };
        if
        :: old != 0 -> FADD_RLX(me, L_ASK, -1, x)  /* taken meanwhile */
        :: else
        fi
    :: qhead > r                             /* seen taken: no ask */
    fi;
    if
    :: r == 1 ->
        atomic { mem[L_XDONE] == 1 };
        ST_SC(me, L_QUIT, 1);                /* stop: wake_all */
        FADD(me, L_WORD, 1, x);
        k = 0;
        do
        :: k < NW -> fwait[k] = 0; k++
        :: else -> break
        od
    :: else
    fi
}

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
        assert(qhead == 2);
        assert(mem[L_ASK] == 0)
    }
}

init {
    atomic {
        mem[L_ACTIVE] = 1;                   /* worker 0 at work: */
#ifdef ACTIVE_TAKER
        run worker(0, true);                 /* at the top level */
#else
        run holder(0);                       /* in its task */
#endif
        START_FLUSHER(0);
        run worker(1, false);
        START_FLUSHER(1);
#if NW > 2
        run worker(2, false);
        START_FLUSHER(2);
#endif
        run caller(C_Y, 0);
        START_FLUSHER(C_Y);
        run caller(C_X, 1);
        START_FLUSHER(C_X);
        run monitor()
    }
}
