/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the work pool's sleeping and waking together with its
 * termination detection (src/workpool/sleep.h on src/runtime/parking.h,
 * termination.c, loop.c; docs/pool-design.md "Sleeping, and why no wake-up is
 * lost").  The sleeper's word and count are seq_cst in parking.h (the
 * runtime's wakers peek without a fence); modelled here with the weaker
 * orders the pool needs, so the model covers the code.
 *
 * P workers (2 or 3), each owning a queue abstracted to its indices: items
 * are at [top, bot); the owner pushes with a release store of bot
 * (buffered under TSO and WEAK) and every take advances top by one step
 * that no other taker can repeat (what the real queues guarantee of a
 * take; an idempotent queue's duplicates do not matter for waking).  The
 * owner's take itself has no fence here; with FENCED (ABP, Chase-Lev) it
 * is preceded by the take's seq_cst fence and followed by the wake point,
 * without it (the other queues) every FENCE_EVERY-th processed item ends
 * with a fence and the wake point.  Processing an item may push up to two
 * children (NITEMS items in all, the first in worker 0's queue); a push is
 * followed by the hint: a relaxed read of n_sleeping and, if it is not 0
 * and the queue holds WAKE_MIN items, wake one.  Thieves take with a CAS
 * of top (acq_rel).
 *
 * An idle worker: a steal round over the other queues, leaving the idle
 * set (fetch_add, acq_rel) before a steal; if it found nothing it joins
 * (fetch_add), checks termination when the count is P (scan, confirming
 * CAS; success: done with release, seq_cst fence, claim every ASLEEP
 * word), and then sleeps: sleep word ASLEEP (relaxed), n_sleeping + 1
 * (release RMW), seq_cst fence, the last look (done, every other queue),
 * withdrawal by CAS or futex_wait (futex.pml) while the word is ASLEEP,
 * and n_sleeping - 1 by the sleeper itself.  Wake one: a relaxed peek at
 * every other worker's word from a nondeterministic start, an acq_rel CAS
 * ASLEEP -> AWAKE, futex_wake.
 *
 * Properties:
 * - never early: done is set only with no item queued or in hand and
 *   every item processed (asserted at the confirmation and in every
 *   process step);
 * - never stuck: when nothing can move (spin's `timeout`), every worker
 *   has returned (a sleeper in futex_wait is a valid end state for spin,
 *   so the monitor asserts it), and nobody is asleep after done;
 * - the promise: when nothing can move, no worker is asleep while a queue
 *   still holds an item that it held at its owner's last wake point
 *   (top < mark).  With LONG, worker 0 may stop for good after any item
 *   (a long process call): the run then cannot end, and the promise is
 *   what is checked;
 * - STRONG (only with -DSTRONG; not promised by the code): no worker is
 *   asleep while any queue holds an item (top < the owner's bot in
 *   program order).  Holds under SC; under TSO and WEAK a push whose bot
 *   store is still buffered reads n_sleeping = 0 while the sleeper's last
 *   look reads the old bot (store-buffer Dekker), and the item waits for
 *   the owner's next wake point.
 *
 * Mutants (-D, one at a time):
 *   MUT_FINISH_NOWAKE    the end of the run does not claim the sleepers
 *   MUT_NO_PUSH_WAKE     no hint after a push (the wake points alone keep
 *                        the promise: found only with STRONG)
 *   MUT_NO_WAKE_POINT    the owner's wake point does not wake (the push
 *                        hint alone is a Dekker pair only under SC)
 *   MUT_POINT_NOFENCE    the periodic wake point without its fence (the
 *                        queues without FENCED): the count read may pass
 *                        the buffered bot store
 *   MUT_SLEEP_NOFENCE    the sleeper without its fence: on x86 the locked
 *                        increment orders the last look anyway; on a weak
 *                        machine the last look may be performed before the
 *                        announcement (MAY_READ_EARLY)
 *   MUT_CLAIMER_UNCOUNTS the claimer, not the sleeper, decrements
 *                        n_sleeping (expected to pass: the sleeper whose
 *                        decrement came early still makes its own last
 *                        look after its increment)
 * Coverage (-DCOVER_X=1 makes reaching X an assertion failure):
 *   COVER_SLEEP        a worker blocks in futex_wait
 *   COVER_WITHDRAW     a sleeper's last look finds work and withdraws
 *   COVER_PUSH_WAKE    a push's hint claims a sleeper
 *   COVER_POINT_WAKE   a wake point claims a sleeper
 *   COVER_POINT_CATCH  ... one whose last look missed an item that its
 *                      owner had pushed (TSO, WEAK)
 *   COVER_FINISH_WAKE  the end of the run claims a sleeper
 *   COVER_LATE_LOOK    a sleeper's last look sees done
 *
 * Bounds (-D): P workers (default 3), NITEMS (default 3), FENCED (1: ABP,
 * Chase-Lev; 0: the others), FENCE_EVERY (default 2), LONG, BUFSZ store
 * buffer entries (default 2).
 *
 * Not modelled: the spinning before a sleep (a failed round only reads;
 * pool_term.pml checks the members' re-checks of the idle word), the
 * wake-up cascade after a steal (a hint like the push's), steal-half
 * transfers and the overflow stack (items that reach a queue by a push
 * of its owner, like the ones here), item contents.
 */
#ifndef P
#define P 3
#endif
#ifndef NITEMS
#define NITEMS 3
#endif
#ifndef FENCED
#define FENCED 1
#endif
#ifndef FENCE_EVERY
#define FENCE_EVERY 1
#endif
#ifndef WAKE_MIN
#define WAKE_MIN 2
#endif
#define NT P
#define L_IDLE 0
#define L_DONE 1
#define L_NSLEEP 2
#define L_SWORD(i) (3 + (i))
#define L_BOT(i) (3 + P + 2 * (i))
#define L_TOP(i) (4 + P + 2 * (i))
#define NLOC (3 + 3 * P)
#define LEAVE 3                   /* departure (+4) and count - 1 */
#define COUNT(v) ((v) % 4)
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
#ifndef COVER_PUSH_WAKE
#define COVER_PUSH_WAKE 0
#endif
#ifndef COVER_POINT_WAKE
#define COVER_POINT_WAKE 0
#endif
#ifndef COVER_POINT_CATCH
#define COVER_POINT_CATCH 0
#endif
#ifndef COVER_FINISH_WAKE
#define COVER_FINISH_WAKE 0
#endif
#ifndef COVER_LATE_LOOK
#define COVER_LATE_LOOK 0
#endif

bool fwait[NT];               /* blocked in futex_wait */

/* ghosts */
byte created = 1, processed;
byte in_hand;                 /* items being processed */
bool gdone;
byte gbot[P];                 /* each queue's bot in its owner's program order */
byte mark[P];                 /* gbot at the owner's last wake point */
bool missed[P];               /* the sleeper's last look missed an item */
byte exited;                  /* workers that returned */
bool glong;                   /* worker 0 stopped for good */

#include "futex.pml"

/* Claims worker v if its word is ASLEEP (why: 1 push hint, 2 wake point,
 * 3 the end of the run); cok = 1 if this call did. */
inline claim(me, v, why)
{
    LD(me, L_SWORD(v), cs);                   /* relaxed peek */
    if
    :: cs == ASLEEP ->
        CAS(me, L_SWORD(v), cs, AWAKE, cok);  /* acq_rel */
        if
        :: cok ->
#ifdef MUT_CLAIMER_UNCOUNTS
            FADD_RLX(me, L_NSLEEP, -1, cold);
#endif
            atomic {
                assert(!(COVER_PUSH_WAKE && why == 1));
                assert(!(COVER_POINT_WAKE && why == 2));
                assert(!(COVER_POINT_CATCH && why == 2 && missed[v]));
                assert(!(COVER_FINISH_WAKE && why == 3 && fwait[v]));
                fwait[v] = 0                  /* futex_wake */
            }
        :: else
        fi
    :: else -> cok = 0
    fi;
    cs = 0; cold = 0
}

/* wp_wake_one: claim the first sleeper from me + 1 on (the code starts
 * at a random worker; with -DANY_START here too). */
inline wake_one(me, why)
{
#ifdef ANY_START
    if
    :: wk = 0
    :: wk = 1
#if P > 2
    :: wk = 2
#endif
    fi;
#else
    wk = (me + 1) % P;
#endif
    wn = 0;
    do
    :: wn < P ->
        if
        :: wk != me ->
            claim(me, wk, why);
            if
            :: cok -> break
            :: else
            fi
        :: else
        fi;
        wk = (wk + 1) % P;
        wn++
    :: else -> break
    od;
    wk = 0; wn = 0; cok = 0
}

/* wp_wake_for(own queue, 1) after the wake point's fence. */
inline wake_point(me)
{
    atomic { mark[me] = gbot[me] };
#ifndef MUT_NO_WAKE_POINT
    LD(me, L_NSLEEP, x);                      /* relaxed, after the fence */
    if
    :: x != 0 ->
        LD(me, L_TOP(me), tp);
        LD(me, L_BOT(me), bt);
        if
        :: tp < bt -> wake_one(me, 2)
        :: else
        fi
    :: else
    fi;
    x = 0; tp = 0; bt = 0
#endif
}

/* The owner's push: release store of bot, then the hint. */
inline push(me)
{
    LD(me, L_BOT(me), bt);
    ST_REL(me, L_BOT(me), bt + 1);
    gbot[me] = bt + 1;
#ifndef MUT_NO_PUSH_WAKE
    LD(me, L_NSLEEP, x);                      /* relaxed: a hint */
    if
    :: x != 0 ->
        LD(me, L_TOP(me), tp);
        if
        :: bt + 1 - tp >= WAKE_MIN -> wake_one(me, 1)
        :: else
        fi
    :: else
    fi;
#endif
    x = 0; tp = 0; bt = 0
}

/* Processing an item: up to two children; the periodic wake point. */
inline process(me)
{
    atomic { assert(!gdone); processed++ };
    kids = 0;
    do
    :: created < NITEMS && kids < 2 -> created++; kids++; push(me)
    :: break
    od;
    kids = 0;
#ifdef LONG
    if
    :: me == 0 && !glong -> glong = 1; goto end_long   /* the rest of fn, for good */
    :: true
    fi;
#endif
    atomic { in_hand--; assert(!gdone) };
#if !FENCED
    since++;
    if
    :: since == FENCE_EVERY ->
        since = 0;
#ifndef MUT_POINT_NOFENCE
        FENCE_SC(me);
#endif
        wake_point(me)
    :: else
    fi;
#endif
    skip
}

/* The owner's take (one step no other taker repeats; no fence of its own:
 * a FENCED queue's fence is before it). */
inline own_take(me)
{
    ok = 0;
#if FENCED
    FENCE_SC(me);
#endif
    LD(me, L_BOT(me), bt);
    atomic {
        if
        :: mem[L_TOP(me)] < bt -> mem[L_TOP(me)]++; ok = 1; in_hand++; assert(!gdone)
        :: else
        fi
    };
    bt = 0;
#if FENCED
    if
    :: ok -> wake_point(me)
    :: else
    fi
#endif
}

/* A thief's take from queue q: CAS of top. */
inline steal(me, q)
{
    ok = 0;
    LD(me, L_TOP(q), tp);
    LD(me, L_BOT(q), bt);
    if
    :: tp < bt ->
        CAS(me, L_TOP(q), tp, tp + 1, ok);
        if
        :: ok -> atomic { in_hand++; assert(!gdone) }
        :: else
        fi
    :: else
    fi;
    tp = 0; bt = 0
}

/* weft__wp_finish: done, fence, claim every sleeper. */
inline finish(me)
{
    atomic {
        assert(in_hand == 0 && processed == created);
        gdone = 1
    };
    ST_REL(me, L_DONE, 1);
#ifndef MUT_FINISH_NOWAKE
    FENCE_SC(me);
    fk = 0;
    do
    :: fk < P -> claim(me, fk, 3); fk++
    :: else -> break
    od;
    fk = 0; cok = 0
#endif
}

/* wp_idle_confirm(v): scan, then the confirming CAS; fin = 1: the end. */
inline confirm(me, v)
{
    fin = 0;
    anyw = 0;
    q = 0;
    do
    :: q < P ->
        LD(me, L_TOP(q), tp);
        LD(me, L_BOT(q), bt);
        if
        :: tp != bt -> anyw = 1
        :: else
        fi;
        q++
    :: else -> break
    od;
    q = 0; tp = 0; bt = 0;
    if
    :: !anyw ->
        x = v;
        CAS(me, L_IDLE, x, v, fin)            /* acq_rel */
    :: else
    fi;
    x = 0; anyw = 0;
    if
    :: fin -> finish(me)
    :: else
    fi
}

/* S4, the last look: done, then every other queue. */
inline last_look(me)
{
    LD(me, L_DONE, anyw);
    if
    :: anyw -> COVER(COVER_LATE_LOOK)
    :: else
    fi;
    q = 0;
    do
    :: q < P ->
        if
        :: q != me ->
            LD(me, L_TOP(q), tp);
            LD(me, L_BOT(q), bt);
            if
            :: tp < bt -> anyw = 1
            :: else
            fi;
#if COVER_POINT_CATCH
            atomic {
                if
                :: tp >= bt && tp < gbot[q] -> missed[me] = 1
                :: else
                fi
            }
#endif
        :: else
        fi;
        q++
    :: else -> break
    od;
    q = 0; tp = 0; bt = 0
}

/* wp_sleep: S1 - S6. */
inline sleep(me)
{
    missed[me] = 0;
#ifdef MUT_SLEEP_NOFENCE
    early = 0;
    if
    :: MAY_READ_EARLY -> early = 1; last_look(me)
    :: true
    fi;
#endif
    ST(me, L_SWORD(me), ASLEEP);              /* S1, relaxed */
    FADD(me, L_NSLEEP, 1, x);                 /* S2, release */
#ifndef MUT_SLEEP_NOFENCE
    FENCE_SC(me);                             /* S3 */
#else
    if
    :: !early -> last_look(me)
    :: else
    fi;
    early = 0;
#endif
#ifndef MUT_SLEEP_NOFENCE
    last_look(me);                            /* S4 */
#endif
    if
    :: anyw ->                                /* S5: withdraw */
        COVER(COVER_WITHDRAW);
        x = ASLEEP;
        CAS(me, L_SWORD(me), x, AWAKE, cok);
        cok = 0
    :: else ->
        do
        :: LD(me, L_SWORD(me), x);            /* acquire */
            if
            :: x == AWAKE -> break
            :: else -> COVER(COVER_SLEEP); futex_wait(me, x)
            fi
        od
    fi;
    anyw = 0; missed[me] = 0;
#ifndef MUT_CLAIMER_UNCOUNTS
    FADD_RLX(me, L_NSLEEP, -1, x);            /* S6 */
#endif
    x = 0
}

proctype worker(byte me)
{
    byte _i, tp, bt, ok, v, x, q, fin, anyw, d, cs, cok, cold, wk, wn, fk, kids, since;
    bool in_idle, early;
    do
    :: LD(me, L_DONE, d);                     /* acquire */
        if
        :: d -> break
        :: else
        fi;
        own_take(me);
        if
        :: ok -> process(me)
        :: else ->
            q = 0;
            do
            :: q < P && !ok ->
                if
                :: q != me ->
                    LD(me, L_TOP(q), tp);
                    LD(me, L_BOT(q), bt);
                    if
                    :: tp < bt ->
                        if
                        :: in_idle -> FADD(me, L_IDLE, LEAVE, x); in_idle = 0
                        :: else
                        fi;
                        tp = 0; bt = 0; x = 0;
                        steal(me, q)
                    :: else
                    fi
                :: else
                fi;
                q++
            :: else -> break
            od;
            q = 0; tp = 0; bt = 0;
            if
            :: ok -> process(me)
            :: else ->
                if
                :: !in_idle ->
                    in_idle = 1;
                    FADD(me, L_IDLE, 1, v);      /* join, acq_rel */
                    v = v + 1
                :: else ->
                    LD(me, L_IDLE, v)            /* acquire */
                fi;
                if
                :: COUNT(v) == P -> confirm(me, v)
                :: else -> fin = 0
                fi;
                v = 0;
                if
                :: fin -> break
                :: else -> sleep(me)
                fi
            fi
        fi;
        ok = 0; d = 0
    od;
    exited++;
#ifdef LONG
    goto end_done;
end_long:
    skip;
end_done:
    skip
#endif
}

/* When nothing can move: nobody asleep past the promise or the end, and
 * (without LONG) every worker returned. */
proctype monitor()
{
    byte k, q;
    atomic {
        timeout ->
        k = 0;
        do
        :: k < P ->
            assert(!(fwait[k] && mem[L_DONE]));
            q = 0;
            do
            :: q < P ->
#ifdef STRONG
                assert(!(fwait[k] && gbot[q] - mem[L_TOP(q)] >= WAKE_MIN));
#endif
                assert(!(fwait[k] && mem[L_TOP(q)] < mark[q]));
                q++
            :: else -> break
            od;
            k++
        :: else -> break
        od;
#ifndef LONG
        assert(exited == P)
#endif
    }
}

init {
    atomic {
        mem[L_BOT(0)] = 1;                    /* the first item */
        gbot[0] = 1;
        run worker(0);
        run worker(1);
#if P > 2
        run worker(2);
#endif
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
#if P > 2
        START_FLUSHER(2)
#endif
    }
}
