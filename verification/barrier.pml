/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of weft_barrier inside interrupts (src/runtime/interrupt.c:
 * weft_barrier, barrier_wait, wake_barrier_waiters, and run_interrupt's
 * wake of barrier waiters): a TOGETHER copy starts a nested interrupt and
 * then calls weft_barrier, while the other copies wait at theirs.
 *
 * NW workers (2, or 3), each running its copy of an outer TOGETHER
 * (record 0; how it was published is interrupt_nest.pml's business).  The
 * copy on worker 0 starts a nested interrupt (record 1): a TOGETHER, whose
 * copies each call weft_barrier NB1 times, or with NEST_NEWFRAME a
 * NEWFRAME (worker 0 runs its task; the others help until it is
 * finished).  Then every outer copy calls weft_barrier NB0 times.
 *
 * Each TOGETHER record has its barrier: a count and a generation.  A copy
 * reads the generation (acquire), arrives (fetch_add acq_rel); the last
 * arrival resets the count (relaxed), bumps the generation (seq_cst) and
 * wakes the barrier waiters; the others wait (barrier_wait): the
 * generation changed (acquire): passed; an interrupt pending that the
 * worker has not served (seq_cst load of the published generation):
 * serve it, then wait on; otherwise sleep: read barrier_waiters.word
 * (acquire), count in (seq_cst fetch_add), look at both again (seq_cst)
 * and futex_wait on the word with the value read (futex.pml), count out
 * (relaxed).  Spinning and yielding only add iterations and are left
 * out.  A waker (the last arrival, and the initiator of a nested
 * interrupt after its seq_cst publication) bumps the word (seq_cst
 * fetch_add), reads the count (seq_cst) and, if it is not 0, wakes every
 * thread blocked on it.
 *
 * The nested interrupt's own protocol is abstracted (interrupt.pml and
 * interrupt_nest.pml check it): serving it is barrier 1 (the last arrival
 * unpublishes the generation, relaxed, before the seq_cst store that lets
 * the others pass), the copy or the help, barrier 2 and the last leaver's
 * `done`, as blocking waits on plain variables.
 *
 * Bounds: NW workers (2), NB0 outer barriers (2), NB1 barriers of the
 * nested TOGETHER (1).  Coverage points (COVER_*=1 makes reaching one an
 * error): a waker finds a waiter counted in; an outer copy that went to
 * sleep at its barrier serves the nested interrupt; a nested copy sleeps
 * at its own barrier.
 *
 * A copy that returns counts itself in its record's `copies` (seq_cst)
 * and, if it is not the last, wakes the barrier waiters: a copy waiting
 * at a barrier that a returned copy never reached would wait for ever,
 * and stops the program instead (barrier_unreachable: the count, then
 * the generation again, both acquire; and the count in its last look,
 * seq_cst).  With -DMISUSE worker 1's copy calls the outer barrier once
 * less than worker 0's.
 *
 * Properties: a copy passes a barrier only when every copy of its
 * TOGETHER has arrived at it (all_arrived, checked at each pass); when
 * nothing can move, every worker finished its copy (returned == NW: no
 * worker waits at a barrier for a copy that waits for it, nor sleeps
 * through the event that ends its wait); a correct program's barrier is
 * never taken for one that cannot pass; with MISUSE, when nothing can
 * move, the waiting copy has found that its barrier cannot pass (no
 * silent hang).
 *
 * Mutants (-D, one at a time):
 *   MUT_NO_SERVE          the waiter does not serve interrupts (the
 *                         earlier code): the nested interrupt waits for
 *                         the workers at the barrier, the barrier for its
 *                         initiator (returned)
 *   MUT_NO_INTR_WAKE      the nested interrupt's initiator does not wake
 *                         barrier waiters: one asleep sleeps on (returned)
 *   MUT_ONE_BARRIER       one barrier for every TOGETHER (the earlier
 *                         code): the nested copies' arrivals release
 *                         the outer barrier, or the outer ones the nested
 *                         barrier (all_arrived)
 *   MUT_LOOK_NO_INTR      the waiter's last look checks its barrier only,
 *                         not the interrupt: it read the word after the
 *                         publication's bump and sleeps through it
 *                         (returned)
 *   MUT_WORD_LATE         the waiter reads the word after its last look
 *                         (returned)
 *   MUT_BUMP_FIRST        the waker bumps the word before its change (the
 *                         release, the publication): a waiter reads the
 *                         bumped word, misses the change, and sleeps
 *                         after the wake-up (returned).  (The count read
 *                         before the bump, after the change, is no bug:
 *                         the change, not the bump, is the reason the
 *                         last look pairs with.)
 *   MUT_FUTEX_NOCMP       futex_wait without its compare (futex.pml;
 *                         returned)
 *   MUT_NO_RELOOK         barrier_unreachable takes a returned copy for
 *                         a barrier that cannot pass without reading the
 *                         generation again: the copy that released the
 *                         barrier and returned is seen before the release
 *                         (a correct program stopped)
 *   MUT_FINISH_NO_WAKE    (MISUSE) a returning copy wakes no barrier
 *                         waiter: the one asleep sleeps on (silent hang)
 *   MUT_LOOK_NO_COPIES    (MISUSE) the waiter's last look does not count
 *                         the returned copies: it sleeps through the
 *                         wake-up (silent hang)
 *   MUT_WAKE_RLX          the waker's bump and its read of the count
 *                         relaxed: on the weak model the read passes the
 *                         buffered publication (returned; not on TSO,
 *                         where the publication's XCHG drains first)
 */
#ifndef NW
#define NW 2
#endif
#ifndef NB0
#define NB0 2
#endif
#ifndef NB1
#define NB1 1
#endif
#define NT NW
/* coverage points (run.sh's cover_checks): reaching one is an error */
#ifndef COVER_WAKE_CALL
#define COVER_WAKE_CALL 0         /* a waker finds a waiter counted in */
#endif
#ifndef COVER_SERVE_AFTER_SLEEP
#define COVER_SERVE_AFTER_SLEEP 0 /* an outer copy that slept at its barrier serves */
#endif
#ifndef COVER_NESTED_SLEEP
#define COVER_NESTED_SLEEP 0      /* a nested copy sleeps at its own barrier */
#endif
#define L_GEN 0      /* weft__interrupt_generation: 0, or 1 (the nested record's) */
#define L_WORD 1     /* barrier_waiters.word */
#define L_SLEEP 2    /* barrier_waiters.sleepers */
#define L_CNT0 3     /* record 0's bar_count */
#define L_BG0 4      /* record 0's bar_generation */
#ifdef MUT_ONE_BARRIER
#define L_CNT1 L_CNT0
#define L_BG1 L_BG0
#else
#define L_CNT1 5
#define L_BG1 6
#endif
#define L_COP0 7     /* record 0's copies (returned) */
#define NLOC 8
#define L_SWORD(i) L_WORD /* futex.pml: barrier waiters block on the word */
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bool fwait[NT];   /* blocked in futex_wait */

#include "futex.pml"

byte seen[NW];    /* the generation each worker served last */
byte returned;    /* workers whose outer copy returned */
bit detected;     /* a copy found its barrier cannot pass (the program stops) */
bit wrongly_refused; /* ghost: a barrier that could pass was taken for one that cannot */
byte arrivals[2]; /* ghost: arrivals at each record's barriers so far */

/* the nested record's abstract protocol */
byte arrived1, copies1, stopped1, left1;
bit passed1, finished1, done1;

/* wake_barrier_waiters: the bump, then the count and the wake-up; the
 * caller makes its seq_cst change before (MUT_BUMP_FIRST: between the
 * two) */
inline bump(me)
{
#ifdef MUT_WAKE_RLX
    FADD_RLX(me, L_WORD, 1, x)
#else
    FADD(me, L_WORD, 1, x)                    /* seq_cst */
#endif
}
inline count_and_wake(me)
{
#ifdef MUT_WAKE_RLX
    LD(me, L_SLEEP, n);
#else
    LD_SC(me, L_SLEEP, n);                    /* seq_cst */
#endif
    if
    :: n != 0 ->
        assert(!COVER_WAKE_CALL);
        atomic {
            DRAINED(me) ->                    /* a system call */
            k = 0;
            do
            :: k < NW -> fwait[k] = 0; k++
            :: else -> k = 0; break
            od
        }
    :: else
    fi
}
#ifdef MUT_BUMP_FIRST
#define BUMP_BEFORE(me) bump(me)
#define WAKE_AFTER(me) count_and_wake(me)
#else
#define BUMP_BEFORE(me) skip
#define WAKE_AFTER(me) bump(me); count_and_wake(me)
#endif

/* The sleep of barrier_wait at a barrier (generation location bg) that
 * has not passed generation gv. */
inline sleep_once(me, bg, gv)
{
#ifndef MUT_WORD_LATE
    LD(me, L_WORD, e);                        /* acquire */
#endif
    FADD(me, L_SLEEP, 1, x);                  /* count in, seq_cst */
    LD_SC(me, bg, v);                         /* the last look, seq_cst */
#if defined(MUT_LOOK_NO_INTR) || defined(MUT_NO_SERVE)
    ig = 0;
#else
    LD_SC(me, L_GEN, ig);
#endif
#ifdef MUT_WORD_LATE
    LD(me, L_WORD, e);
#endif
#ifndef MUT_LOOK_NO_COPIES
    if
    :: bg == L_BG0 -> LD_SC(me, L_COP0, cc)   /* copies returned, seq_cst */
    :: else -> cc = 0
    fi;
#else
    cc = 0;
#endif
    if
    :: v == gv && (ig == 0 || ig == seen[me]) && cc == 0 -> slept = 1; futex_wait(me, e)
    :: else
    fi;
    FADD_RLX(me, L_SLEEP, -1, x)              /* count out, relaxed */
}

/* Arrival at record r's barrier (count cnt, generation bg): gv gets the
 * generation read before, lastv whether this arrival released it. */
inline arrive(me, r, cnt, bg, gv, lastv)
{
    LD(me, bg, gv);                           /* acquire */
    arrivals[r]++;                            /* ghost */
    FADD(me, cnt, 1, c);                      /* acq_rel */
    lastv = (c + 1 == NW);
    if
    :: lastv ->
        ST(me, cnt, 0);                       /* relaxed */
        BUMP_BEFORE(me);
        FADD(me, bg, 1, x);                   /* the release, seq_cst */
        WAKE_AFTER(me)
    :: else
    fi
}

/* After passing barrier `pass` (1, 2, ...) of record r: every copy of
 * its TOGETHER arrived at it. */
inline passed_check(r, pass)
{
    all_arrived = (arrivals[r] >= pass * NW);
    assert(all_arrived)
}

/* A nested TOGETHER copy's barrier: nothing to serve at it (no further
 * interrupt), but the same wait. */
inline inner_barrier(me, pass)
{
    arrive(me, 1, L_CNT1, L_BG1, g1, last1);
    slept = 0;
    do
    :: last1 -> break
    :: else ->
        LD(me, L_BG1, v);                     /* acquire */
        if
        :: v != g1 -> break
        :: else ->
            LD_SC(me, L_GEN, ig);
            assert(ig == 0 || ig == seen[me]);
            sleep_once(me, L_BG1, g1);
            assert(!(COVER_NESTED_SLEEP && slept))
        fi
    od;
    passed_check(1, pass)
}

/* Serving the nested interrupt (weft__interrupt_serve) */
inline serve(me)
{
    seen[me] = 1;
    /* barrier 1 */
    atomic { arrived1++; last1 = (arrived1 == NW) };
    if
    :: last1 ->
        ST(me, L_GEN, 0);                     /* unpublish, relaxed */
        atomic { DRAINED(me) -> passed1 = 1 } /* seq_cst store of passed */
    :: else -> (passed1 == 1)
    fi;
#ifdef NEST_NEWFRAME
    if
    :: me == 0 -> finished1 = 1               /* the executor: the initiator */
    :: else
    fi;
#else
    p1 = 1;
    do
    :: p1 <= NB1 -> inner_barrier(me, p1); p1++
    :: else -> break
    od;
    atomic { copies1++; if :: copies1 == NW -> finished1 = 1 :: else fi };
#endif
    (finished1 == 1);                         /* help_until_finished */
    stopped1++;                               /* barrier 2 */
    (stopped1 == NW);
    atomic { left1++; if :: left1 == NW -> done1 = 1 :: else fi }
}

/* An outer copy's barrier: serves the nested interrupt while it waits. */
inline outer_barrier(me, pass)
{
    arrive(me, 0, L_CNT0, L_BG0, g0, last0);
    slept = 0;
    do
    :: last0 -> break
    :: else ->
        LD(me, L_BG0, v);                     /* acquire */
        if
        :: v != g0 -> break
        :: else ->
            LD(me, L_COP0, cc);               /* barrier_unreachable: acquire */
#ifndef MUT_NO_RELOOK
            if
            :: cc != 0 -> LD(me, L_BG0, v)    /* the generation again, acquire */
            :: else
            fi;
#endif
            if
            :: cc != 0 && v == g0 ->
#ifdef MISUSE
                unreach = 1;
                break
#else
                wrongly_refused = 1;          /* a correct program's barrier refused */
                assert(!wrongly_refused)
#endif
            :: else
            fi;
#ifdef MUT_NO_SERVE
            ig = 0;
#else
            LD_SC(me, L_GEN, ig);             /* weft_interrupt_waiting_for */
#endif
            if
            :: ig != 0 && ig != seen[me] ->
                assert(!(COVER_SERVE_AFTER_SLEEP && slept));
                serve(me)
            :: else -> sleep_once(me, L_BG0, g0)
            fi
        fi
    od;
    if
    :: !unreach -> passed_check(0, pass)
    :: else
    fi
}

proctype worker(byte me)
{
    byte _i, g0, g1, c, v, ig, e, x, n, k, p0, p1, cc, nb;
    bit last0, last1, all_arrived, slept, unreach;
    if
    :: me == 0 ->
        /* run_interrupt: publish (seq_cst), wake, serve, wait for done */
#ifndef MUT_NO_INTR_WAKE
        BUMP_BEFORE(me);
#endif
        ST_SC(me, L_GEN, 1);
#ifndef MUT_NO_INTR_WAKE
        WAKE_AFTER(me);
#endif
        serve(me);
        (done1 == 1)
    :: else
    fi;
    nb = NB0;
#ifdef MISUSE
    if
    :: me == 1 -> nb = NB0 - 1                /* one barrier less */
    :: else
    fi;
#endif
    p0 = 1;
    do
    :: p0 <= nb ->
        outer_barrier(me, p0);
        if
        :: unreach -> break
        :: else -> p0++
        fi
    :: else -> break
    od;
    if
    :: unreach -> detected = 1                /* the message, and the program stops */
    :: else ->
        FADD(me, L_COP0, 1, x);               /* the copy returned, seq_cst */
#ifndef MUT_FINISH_NO_WAKE
        if
        :: x + 1 != NW -> bump(me); count_and_wake(me)  /* wake_barrier_waiters */
        :: else
        fi;
#endif
        returned++
    fi
}

proctype monitor()
{
    atomic {
        timeout ->
#ifdef MISUSE
        assert(detected && returned == NW - 1)
#else
        assert(returned == NW)
#endif
    }
}

init
{
    atomic {
        run worker(0);
        run worker(1);
#if NW > 2
        run worker(2);
#endif
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
#if NW > 2
        START_FLUSHER(2)
#endif
    }
}
