/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of a work pool run inside a fork-join task whose workers
 * RUN back into the fork-join pool (src/runtime/external_queue.c: the
 * waiting workers; src/workpool/run.c, loop.c find_work, sleep.h
 * wp_sleep; src/runtime/external.c run_from_outside; docs/pool.md, "A
 * pool inside a fork-join task").
 *
 * Threads:
 *   W   worker 0 of the work pool, on a fork-join worker's thread: the
 *       waiting worker.  It registers (weft__waiting_begin: under the
 *       queue's lock, the waiting count + 1 seq_cst), then loops: the end
 *       of the run (done, acquire) ends the loop; a RUN queued (seq_cst
 *       look at the count) is taken under the lock and run
 *       (weft__waiting_serve); else it sleeps through the parking protocol
 *       on its pool sleep word (word ASLEEP seq_cst, the pool's sleeper
 *       count + 1, fence; last look: done, and a RUN queued; withdraw by
 *       CAS, or futex_wait until AWAKE; the sleeper un-counts itself).
 *       Once the pool's threads are joined it unregisters (under the lock)
 *       and the pool, its sleep word with it, is freed.
 *   T   the pool's other worker(s) (NP: 1 or 2), created after W
 *       registered; each holds an item whose process function RUNs from
 *       outside: queues its request and counts it (under the lock, seq_cst
 *       increment), finds no idle fork-join worker (every other one is
 *       joined on the task: weft__wake_for_external wakes nobody), wakes
 *       a waiting worker (weft__waiting_wake: the waiting count seq_cst;
 *       under the lock a seq_cst peek at each waiter's word, a claim by
 *       CAS, futex_wake) and waits for its request's done word.  The last
 *       one to finish its item ends the run (weft__wp_finish: done,
 *       release; fence; peek at the pool's sleep words and claim).
 *   O   with -DOUTSIDER: a thread outside both pools that RUNs at any
 *       time, also before W registers; its RUN may stay queued once W's
 *       wait is over (the fork-join pool's other workers take it then).
 *       With -DNESTED as well, W's wait is inside a RUN of such a thread
 *       that W took while waiting (takes_plain false): W takes only the
 *       RUNs of threads that work for a task (the pool's), looks at their
 *       own count (seq_cst increment by those submitters, beside the
 *       count of all) in its serve and its last look, and the outsider's
 *       wake skips it.
 *   I   with -DINTERRUPT (NP 1, no OUTSIDER): the pool's thread's RUN is
 *       taken by another fork-join worker, whose task starts an
 *       interrupt (NEWFRAME or TOGETHER): I stores the interrupt's
 *       generation (seq_cst), wakes every waiting worker asleep on its
 *       word (weft__waiting_wake_all: the waiting count seq_cst, then as
 *       weft__waiting_wake) and waits until W took part; the pool's
 *       thread's item waits for the interrupt's end.  W takes part where
 *       it serves RUNs (weft__waiting_serve: a seq_cst look at the
 *       generation) and its last look before it parks counts an
 *       interrupt not yet served (weft_waiting_wanted).
 * A taker runs a request by storing its done word (release) and waking
 * its caller.
 *
 * Properties:
 *   - a waker touches a waiter's word only while the pool that owns it
 *     is alive (assert !freed);
 *   - (NESTED) W never runs the outsider's RUN (assert in serve_one);
 *   - when nothing can move (spin's `timeout`): W is not asleep in
 *     futex_wait, the pool's threads' RUNs were run and every thread of
 *     the pool returned, and the pool's sleeper count is 0.
 *
 * Mutants (-D, one at a time):
 *   MUT_NO_LAST_LOOK    the waiter's last look before it parks does not
 *                       count the RUNs queued (wp_sleep without
 *                       weft_waiting_wanted): it sleeps through a RUN
 *                       whose submitter peeked before the announcement
 *   MUT_NO_WAITER_WAKE  the submitter that woke no idle worker does not
 *                       wake a waiting one (the code before the fix:
 *                       run_from_outside woke idle workers only)
 *   MUT_WAKE_FIRST      the submitter looks for sleeping waiters before
 *                       it counts its RUN: its "read theirs" before
 *                       "write mine"
 *   MUT_WAKE_UNLOCKED   the waker reads the list under the lock but lets
 *                       the lock go before it peeks and claims: the wait
 *                       may end and its pool be freed in between
 *   MUT_NO_INTERRUPT_LOOK  (INTERRUPT) the waiter's last look does not
 *                       count the interrupt: it sleeps through one whose
 *                       initiator peeked before the announcement (the
 *                       code before: the pool and the interrupt waited for
 *                       each other)
 *   MUT_NO_INTERRUPT_WAKE  (INTERRUPT) the initiator wakes no waiting
 *                       worker
 *   MUT_NESTED_TAKES_ANY   (NESTED) W takes the oldest RUN, the
 *                       outsider's too
 *   MUT_FOR_TASK_UNCOUNTED (NESTED) a pool thread's RUN is counted only
 *                       among all: W, which looks at the RUNs for a task
 *                       alone, sleeps through it
 * Coverage (-DCOVER_X=1 makes reaching X an assertion failure):
 *   COVER_SLEEP     the waiter blocks in futex_wait
 *   COVER_WITHDRAW  its last look sees a RUN (or the end) and withdraws
 *   COVER_CLAIM     a submitter claims the sleeping waiter
 *   COVER_SERVE     the waiter runs a queued RUN
 *   COVER_FAST_SKIP a submitter reads no waiter and skips the lock
 *   COVER_INTERRUPT (INTERRUPT) the waiter takes part in the interrupt
 */
#ifndef NP
#define NP 1
#endif
#define W 0
#define T0 1
#ifdef OUTSIDER
#define OUT (NP + 1)
#define NT (NP + 2)
#elif defined(INTERRUPT)
#define INI (NP + 1)
#define NT (NP + 2)
#else
#define NT (NP + 1)
#endif
#define L_QUEUED 0      /* weft__external_queued */
#define L_NWAIT 1       /* waiting workers registered */
#define L_WORD 2        /* W's pool sleep word */
#define L_NSLEEP 3      /* the pool's n_sleeping */
#define L_DONE 4        /* the pool's done */
#define L_RDONE(i) (5 + (i) - 1)  /* thread i's request: done word */
#define L_SWORD(i) ((i) == W -> L_WORD : L_RDONE(i))
#ifdef INTERRUPT
#define L_GEN (5 + NT - 1) /* weft__interrupt_generation */
#define NLOC (5 + NT)
#elif defined(NESTED)
#define L_QTASK (5 + NT - 1) /* ext.queued_for_task */
#define NLOC (5 + NT)
#else
#define NLOC (5 + NT - 1)
#endif
#if defined(NESTED) && !defined(OUTSIDER)
#error "NESTED needs OUTSIDER"
#endif
/* Which count W looks at: all RUNs, or (NESTED) those for a task. */
#ifdef NESTED
#define L_WLOOK L_QTASK
#else
#define L_WLOOK L_QUEUED
#endif
#define FOR_TASK(id) ((id) >= T0 && (id) < T0 + NP)
#define AWAKE 0
#define ASLEEP 1
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

#define COVER(x) assert(!(x))
#ifndef COVER_SLEEP
#define COVER_SLEEP 0
#endif
#ifndef COVER_WITHDRAW
#define COVER_WITHDRAW 0
#endif
#ifndef COVER_CLAIM
#define COVER_CLAIM 0
#endif
#ifndef COVER_SERVE
#define COVER_SERVE 0
#endif
#ifndef COVER_FAST_SKIP
#define COVER_FAST_SKIP 0
#endif
#ifndef COVER_INTERRUPT
#define COVER_INTERRUPT 0
#endif

bool fwait[NT];
bool registered;     /* W is in the list of waiting workers (the lock's) */
bool started;        /* the pool's threads exist (after W registered) */
bool freed;          /* the pool, W's sleep word with it, is freed */
byte pool_returned;  /* pool threads (T) that returned */
byte items_left = NP;
bool w_returned;
byte q[NT];          /* the queue: submitters' ids, oldest first */
byte qlen;
bool served;         /* INTERRUPT: W took part in the interrupt */
bool interrupt_over;

#include "futex.pml"

/* weft__external_submit: under the lock (a full barrier on entry), the
 * request queued and counted with a seq_cst increment. */
inline submit(me)
{
    atomic {
        DRAINED(me) ->
        q[qlen] = me;
        qlen++;
        mem[L_QUEUED] = mem[L_QUEUED] + 1;
#if defined(NESTED) && !defined(MUT_FOR_TASK_UNCOUNTED)
        if
        :: FOR_TASK(me) -> mem[L_QTASK] = mem[L_QTASK] + 1
        :: else
        fi
#else
        skip
#endif
    }
}

/* The lock section of weft__waiting_wake: the list, a seq_cst peek at the
 * word, the claim, the futex_wake. */
inline claim_waiter(me)
{
    atomic {
        DRAINED(me) ->
        if
        :: registered ->
            assert(!freed);                   /* the word is alive */
            if
#ifdef NESTED
            :: !FOR_TASK(me) -> skip          /* W takes no such RUN */
#endif
            :: mem[L_WORD] == ASLEEP ->
                COVER(COVER_CLAIM);
                mem[L_WORD] = AWAKE;
                fwait[W] = 0
            :: else
            fi
        :: else
        fi
    }
}

/* weft__waiting_wake: the count without the lock, then the list. */
inline wake_waiter(me)
{
    LD_SC(me, L_NWAIT, n);
    if
    :: n > 0 ->
#ifdef MUT_WAKE_UNLOCKED
        atomic { DRAINED(me) -> seen_reg = registered };
        if
        :: seen_reg ->
            atomic {
                assert(!freed);               /* the word is alive */
                if
                :: mem[L_WORD] == ASLEEP ->
                    mem[L_WORD] = AWAKE;
                    fwait[W] = 0
                :: else
                fi
            }
        :: else
        fi
#else
        claim_waiter(me)
#endif
    :: else -> COVER(COVER_FAST_SKIP)
    fi
}

/* run_from_outside, handed over: queue, wake, wait for done. */
inline run_from_outside(me)
{
#ifdef MUT_WAKE_FIRST
    wake_waiter(me);
    submit(me);
#else
    submit(me);
#ifndef MUT_NO_WAITER_WAKE
    wake_waiter(me);
#endif
#endif
}

inline wait_done(me)
{
    do
    :: LD(me, L_RDONE(me), x);                /* acquire */
        if
        :: x == 1 -> break
        :: else -> futex_wait(me, 0)
        fi
    od
}

/* weft__waiting_serve's take by the waiter: the oldest queued RUN it
 * takes (NESTED: the oldest for a task) under the lock, then its task
 * "runs": done (release), the caller woken. */
inline serve_one(me)
{
    atomic {
        DRAINED(me) ->
        j = 0;
#if defined(NESTED) && !defined(MUT_NESTED_TAKES_ANY)
        do
        :: j < qlen && !FOR_TASK(q[j]) -> j++
        :: else -> break
        od;
#endif
        if
        :: j < qlen ->
            r = q[j];
            k = j;
            do
            :: k + 1 < qlen -> q[k] = q[k + 1]; k++
            :: else -> break
            od;
            qlen--;
            k = 0;
            mem[L_QUEUED] = mem[L_QUEUED] - 1;
#ifdef NESTED
            if
            :: FOR_TASK(r) && mem[L_QTASK] > 0 -> mem[L_QTASK] = mem[L_QTASK] - 1
            :: else
            fi;
            assert(FOR_TASK(r))               /* never the outsider's */
#endif
        :: else -> r = 255
        fi;
        j = 0
    };
    if
    :: r != 255 ->
        COVER(COVER_SERVE);
        ST_REL(me, L_RDONE(r), 1);
        atomic { DRAINED(me) -> fwait[r] = 0 }  /* futex_wake after the store */
    :: else
    fi
}

proctype waiter(byte me)
{
    byte _i, x, n, d, r, k, j, ok, g, seen_gen;
    /* weft__waiting_begin (under the lock; seq_cst increment) */
    atomic {
        DRAINED(me) ->
        registered = 1;
        mem[L_NWAIT] = mem[L_NWAIT] + 1
    };
    started = 1;                              /* pthread_create of the others */
    do
    :: LD(me, L_DONE, d);                     /* acquire */
        if
        :: d -> break
        :: else
        fi;
#ifdef INTERRUPT
        LD_SC(me, L_GEN, g);                  /* weft__waiting_serve: an interrupt */
        if
        :: g != seen_gen ->
            COVER(COVER_INTERRUPT);
            seen_gen = g;
            atomic { DRAINED(me) -> served = 1 }  /* takes part (its barrier) */
        :: else
        fi;
#endif
        LD_SC(me, L_WLOOK, n);                /* weft__waiting_serve's look */
        if
        :: n > 0 -> serve_one(me)
        :: else ->
            /* wp_sleep */
            ST_SC(me, L_WORD, ASLEEP);        /* weft__park_announce */
            FADD(me, L_NSLEEP, 1, x);
            FENCE_SC(me);
            LD(me, L_DONE, d);                /* wp_work_in_sight, after F_S */
#ifndef MUT_NO_LAST_LOOK
            LD_SC(me, L_WLOOK, n);            /* weft_waiting_wanted */
#else
            n = 0;
#endif
#if defined(INTERRUPT) && !defined(MUT_NO_INTERRUPT_LOOK)
            LD_SC(me, L_GEN, g);              /* weft_waiting_wanted: an interrupt */
            if
            :: g != seen_gen -> n = n + 1
            :: else
            fi;
#endif
            if
            :: d || n > 0 ->
                COVER(COVER_WITHDRAW);
                x = ASLEEP;
                CAS(me, L_WORD, x, AWAKE, ok) /* weft__park_withdraw */
            :: else ->
                do                            /* weft__park_wait */
                :: LD(me, L_WORD, x);
                    if
                    :: x == AWAKE -> break
                    :: else -> COVER(COVER_SLEEP); futex_wait(me, x)
                    fi
                od
            fi;
            FADD_RLX(me, L_NSLEEP, -1, x)     /* the pool's rule: the sleeper */
        fi
    od;
    atomic { pool_returned == NP };           /* the threads joined */
    /* weft__waiting_end (under the lock), then the pool is freed */
    atomic {
        DRAINED(me) ->
        registered = 0;
        mem[L_NWAIT] = mem[L_NWAIT] - 1
    };
    freed = 1;
    w_returned = 1
}

/* weft__wp_finish by the worker whose item was the last: done, fence,
 * claim the pool's sleepers (W: the only one that may sleep here). */
inline finish(me)
{
    ST_REL(me, L_DONE, 1);
    FENCE_SC(me);
    LD(me, L_WORD, x);                        /* relaxed peek after F_W */
    if
    :: x == ASLEEP ->
        x = ASLEEP;
        CAS(me, L_WORD, x, AWAKE, ok);
        if
        :: ok -> fwait[W] = 0
        :: else
        fi
    :: else
    fi
}

proctype pool_thread(byte me)
{
    byte _i, x, n, ok, last;
    bool seen_reg;
    atomic { started };
#ifdef INTERRUPT
    atomic { interrupt_over };                /* its RUN's task: the interrupt */
#else
    run_from_outside(me);
    wait_done(me);
#endif
    atomic { items_left--; last = items_left == 0 };
    if
    :: last -> finish(me)
    :: else
    fi;
    pool_returned++
}

#ifdef OUTSIDER
proctype outsider(byte me)
{
    byte _i, x, n, ok;
    bool seen_reg;
    run_from_outside(me)
}
#endif

#ifdef INTERRUPT
/* Another fork-join worker runs the pool thread's RUN, whose task starts
 * an interrupt: the generation, the waiting workers woken, then the wait
 * for every worker (W) to take part. */
proctype initiator(byte me)
{
    byte _i, x, n, ok;
    bool seen_reg;
    atomic { started };
    ST_SC(me, L_GEN, 1);                      /* the generation (seq_cst) */
#ifndef MUT_NO_INTERRUPT_WAKE
    wake_waiter(me);                          /* weft__waiting_wake_all (one waiter) */
#endif
    atomic { served };                        /* barrier 1: W is there */
    interrupt_over = 1
}
#endif

/* When nothing can move: the waiter is not stranded asleep, the pool's
 * RUNs ran and the pool ended, the pool's sleeper count is back to 0. */
proctype monitor()
{
    atomic {
        timeout ->
        assert(!fwait[W]);
        assert(w_returned);
        assert(pool_returned == NP);
        assert(mem[L_NSLEEP] == 0);
#ifdef INTERRUPT
        assert(interrupt_over);
#endif
        skip
    }
}

init {
    atomic {
        run waiter(W);
        run pool_thread(T0);
#if NP > 1
        run pool_thread(T0 + 1);
#endif
#ifdef OUTSIDER
        run outsider(OUT);
#endif
#ifdef INTERRUPT
        run initiator(INI);
#endif
        run monitor();
        START_FLUSHER(W);
        START_FLUSHER(T0);
#if NP > 1
        START_FLUSHER(T0 + 1);
#endif
#ifdef OUTSIDER
        START_FLUSHER(OUT)
#endif
#ifdef INTERRUPT
        START_FLUSHER(INI)
#endif
    }
}
