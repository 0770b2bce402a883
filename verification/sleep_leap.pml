/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of leapfrogging joiners that sleep (src/runtime/sleep.c's
 * WEFT_SLEEP_JOIN_LEAP and `leap_sleepers`, src/runtime/steal.c's
 * weft__join_stolen and weft__steal_and_run, docs/sleep.md) with the split
 * deque that creates the work (split_ops.pml), under the leapfrog steal
 * policy.  Three workers:
 *
 *   A  (thread 1) spawned a task T that B stole; A is blocked at T's SYNC
 *      (weft__join_stolen): it polls T's state, and once T names its thief
 *      (STOLEN(B)) it may only steal from B (leapfrogging, steal_once on
 *      B's deque; a stolen task is a leaf and runs on top of the join).
 *      After backing off it sleeps as JOIN_LEAP(B): sleep word naming B,
 *      counted in B->leap_sleepers, its request posted only on B (seq_cst
 *      ask_for_sleeper), its last look only at quit, T's DONE and
 *      has_shared(B).  When T is DONE it stops the pool (quit, seq_cst
 *      fence, claim every sleeper) or goes on with a long task (so that a
 *      stranded sleeper shows at the end).
 *   B  (thread 0, the deque owner OWNER of split_ops.pml) runs T: writes
 *      STOLEN(B) into T (relaxed), runs T's body, the script SCRIPT of
 *      spawns and syncs on its own split deque (the push after allstolen,
 *      grow_shared on a request and its no-op branch, shrink_shared, joins
 *      of stolen children), then stores T's DONE (seq_cst) and calls
 *      weft__wake_joiner(A).  Every share is followed by
 *      weft__wake_for_work_of(B, B): B->leap_sleepers first (seq_cst), a
 *      claim only of a JOIN_LEAP sleeper whose word names B, then the
 *      pool-wide counts and wake_one.  B may stop for good after any
 *      operation ("a long task").  A child of B stolen by A or C is joined
 *      by B the same way: B's leapfrog attempt on that thief finds its
 *      deque all stolen (the relaxed allstolen hint: no steal, no ask), so
 *      B polls, or sleeps as JOIN_LEAP(thief) in the thief's
 *      leap_sleepers, woken by the thief's DONE (weft__wake_joiner).
 *   C  (thread 2) is idle: it steals from B (weft__steal_and_run with its
 *      OK_MORE wake-up and its OK request renewal), may spin, or sleeps as
 *      IDLE (sleep word, sleeping_idle + 1 seq_cst, a request on B, the
 *      last look at quit and has_shared(B), the withdrawal CAS or the
 *      futex loop).  C may stop looking for work for good (C_LONG: a long
 *      task of its own), so that work only A could take shows as a
 *      stranded A rather than being taken by C.
 *
 * Wakers claim a sleeper by CAS of its word (acq_rel) and decrement the
 * count sleep_counter(word) names (relaxed), then futex_wake; the futex is
 * exact (futex_wait blocks only if the word still holds the value).
 *
 * Properties:
 *   - no lost wake-up, checked when nothing can move any more (spin's
 *     `timeout`): A is not asleep while T is DONE, nor while B shares an
 *     unstolen task (tail < split), nor while B holds private tasks
 *     without a pending request (its next spawn or sync would not share
 *     them); C likewise for B's shared and private tasks; B is not asleep
 *     at a join whose task is DONE;
 *   - each sleep is claimed at most once (by a waker's CAS or by the
 *     sleeper's own withdrawal);
 *   - the counts (sleeping_idle, sleeping_join, each worker's
 *     leap_sleepers) follow the sleepers exactly, up to the two windows
 *     the code allows: at every change, count = announced - (announced,
 *     not yet incremented) + (claimed, not yet decremented), where
 *     "announced" counts the unclaimed sleeps whose word names that
 *     count.  So a count is low (wrapped below 0, 0xFFFFFFFF in C) only
 *     while a sleeper that was claimed before its increment has not
 *     incremented yet (sleep.c's "briefly one low"), at most one per
 *     sleeper, and high only while a claimer has not decremented yet;
 *     when nothing can move, every count equals the number of sleepers
 *     whose word names it (0 when nobody sleeps, as at the end);
 *   - plus split_deque.pml's: every task runs exactly once with its
 *     arguments, a joiner reads the result; no invalid end state.
 *
 * Abstractions (the model's bounds; docs/verification.md lists them):
 *   - A's own deque is not modelled: T is its only task, already taken by
 *     B's CAS (B writes STOLEN(B) into it at the start); A's and C's
 *     deques are all stolen or empty throughout, so a steal from them
 *     fails at the allstolen hint, has_shared of them is false, and a
 *     request left on them (C's and B's leave_requests) is never read.
 *     Only A and C steal, only from B; the tasks they steal are leaves.
 *   - Relaxed peeks that cannot match are left out: only A can sleep as
 *     JOIN_LEAP(B), only C as IDLE, nobody as JOIN (no random stealing),
 *     so the loops over workers reduce to those claims; weft_stop's wake
 *     of B is left out (B cannot sleep once T is DONE).
 *   - Not modelled: interrupts, suspension, external RUNs, the steal of
 *     T itself and its OK-path request on A, T's result, spurious futex
 *     wake-ups, the random and transitive policies.
 *
 * Mutants (each must be found):
 *   MUT_LEAP_POOLCOUNT     sleep_counter() puts a JOIN_LEAP sleeper in the
 *                          pool-wide sleeping_join instead of its thief's
 *                          leap_sleepers (consistently for sleeper and
 *                          claimer): wake_for_work_of sees it only in the
 *                          pool count, whose wake_one does not take
 *                          JOIN_LEAP sleepers
 *   MUT_LEAP_NO_LOOK       weft__wake_for_work_of skips leap_sleepers
 *   MUT_LEAP_NO_ASK        a JOIN_LEAP sleeper posts its request on nobody
 *   MUT_LEAP_NO_SHARED     its last look ignores has_shared(thief)
 *   MUT_JOINER_MASK        weft__wake_joiner accepts JOIN sleepers only
 *                          (JOIN_LEAP forgotten in the mask)
 *   MUT_CLAIM_STORE        claim() takes the sleeper by a plain store after
 *                          its peek, not by CAS
 * Weakened orders, not found at the bounds checked (not in run.sh):
 *   MUT_LEAP_WAKE_RLX      the waker's read of leap_sleepers relaxed: in
 *                          every share path a seq_cst store or RMW drains
 *                          the published work before it, except the clear
 *                          of limit, whose window closes at the next
 *                          seq_cst load of sleeping_idle; no error within
 *                          200 s of WEAK search at P P S S (not exhausted)
 *   MUT_LEAP_INC_RLX       the sleeper's increment relaxed: mm.pml performs
 *                          an RMW at once, so it cannot be found here
 *
 * Bounds: SCRIPT (B's spawns and syncs of T's body, default P S), NSLOT
 * (3), B_SLEEPS (B may sleep at a join), C_SLEEPS, C_LONG, STOLEN_LATE (A
 * may poll T before B wrote STOLEN(B); off by default: its only effect is
 * a yield).
 *
 * Coverage: -DCOVER_X=1 makes reaching point X an error (see the COVER_
 * list below).
 */
#ifndef NSLOT
#define NSLOT 3
#endif
#ifndef SCRIPT
#define SCRIPT P S
#endif
#define NLEAP 0
#ifndef B_SLEEPS
#define B_SLEEPS 1       /* B may sleep at the join of a stolen child */
#endif
#ifndef STOLEN_LATE
#define STOLEN_LATE 0    /* A may poll T before B wrote STOLEN(B) into it */
#endif
#ifndef C_LONG
#define C_LONG 1         /* C may stop looking for work for good */
#endif
#ifndef C_SLEEPS
#define C_SLEEPS 1
#endif
#define NOPS 6
#define NTASK (NOPS + 1)
#define P_OP 1
#define S_OP 2
#define P script[k] = P_OP; k++;
#define S script[k] = S_OP; k++;

/* the code as written: clear_splitreq is seq_cst (finding 1's fix) */
#define FIX_CLEAR_SEQCST

/* threads (= worker ids here): B owns the modelled deque */
#define NT 3
#define W_B OWNER
#define W_A 1
#define W_C 2
#define NONE 255

#define L_BASE 0
#include "split_defs.pml"
#define L_SWORD(w) (SPLIT_LOCS + (w))
#define CNT_BASE (SPLIT_LOCS + 3)
#define L_SLEEPING_IDLE (CNT_BASE + 0)
#define L_SLEEPING_JOIN (CNT_BASE + 1)
#define L_LEAP(w) (CNT_BASE + 2 + (w))       /* worker w's leap_sleepers */
#define NCNT 5
#define L_QUIT (CNT_BASE + NCNT)
#define L_TSTATE (CNT_BASE + NCNT + 1)       /* T's state word (A's deque) */
#define NLOC (CNT_BASE + NCNT + 2)
#ifndef BUFSZ
#define BUFSZ 3
#endif

/* sleep words (src/runtime/internal.h): kind in the low two bits, the thief's
 * id + 1 above them for JOIN_LEAP */
#define AWAKE 0
#define K_IDLE 1
#define K_JOIN 2
#define K_JOIN_LEAP 3
#define KIND(w) ((w) % 4)
#define JL(th) (K_JOIN_LEAP + 4 * ((th) + 1))
#define JOINERS ((1 << K_JOIN) | (1 << K_JOIN_LEAP))
#define ANY_SLEEPER ((1 << K_IDLE) | JOINERS)
/* sleep_counter(word): IDLE -> sleeping_idle, JOIN -> sleeping_join,
 * JOIN_LEAP(th) -> th's leap_sleepers */
#ifdef MUT_LEAP_POOLCOUNT
#define COUNTER(w) (CNT_BASE + (KIND(w) != K_IDLE))
#else
#define COUNTER(w) (CNT_BASE + (KIND(w) == K_JOIN_LEAP -> 1 + (w) / 4 : KIND(w) - 1))
#endif

/* sleeping_join: no worker sleeps as JOIN under the leapfrog policy, so
 * its loads (always 0) are left out, except where a mutant puts the
 * JOIN_LEAP sleepers there */
#ifdef MUT_LEAP_POOLCOUNT
#define JOIN_COUNT_LOAD(me, out) LD_SC(me, L_SLEEPING_JOIN, out)
#else
#define JOIN_COUNT_LOAD(me, out) out = 0
#endif

/* coverage points */
#ifndef COVER_LEAP_SLEEP
#define COVER_LEAP_SLEEP 0       /* A waits on its futex as JOIN_LEAP(B) */
#endif
#ifndef COVER_LEAP_WITHDRAW
#define COVER_LEAP_WITHDRAW 0    /* A's last look finds something, A withdraws */
#endif
#ifndef COVER_LEAP_STEAL
#define COVER_LEAP_STEAL 0       /* A leapfrogs: runs a task of B */
#endif
#ifndef COVER_WAKE_LEAP_OWNER
#define COVER_WAKE_LEAP_OWNER 0  /* B's share claims A through leap_sleepers */
#endif
#ifndef COVER_WAKE_LEAP_THIEF
#define COVER_WAKE_LEAP_THIEF 0  /* C's OK_MORE claims A through leap_sleepers */
#endif
#ifndef COVER_WAKE_DONE
#define COVER_WAKE_DONE 0        /* T's DONE claims A (weft__wake_joiner) */
#endif
#ifndef COVER_CLAIM_RACE
#define COVER_CLAIM_RACE 0       /* a claimer's CAS on A's JOIN_LEAP word fails: another claimed first */
#endif
#ifndef COVER_WAKE_IDLE
#define COVER_WAKE_IDLE 0        /* wake_one claims C */
#endif
#ifndef COVER_RENEW
#define COVER_RENEW 0            /* a thief took B's last shared task while someone sleeps: asks B again */
#endif
#ifndef COVER_NOOP_RAISE
#define COVER_NOOP_RAISE 0       /* grow_shared's no-op branch re-raises the request */
#endif
#ifndef COVER_B_SLEEP
#define COVER_B_SLEEP 0          /* B waits on its futex as JOIN_LEAP(thief) */
#endif
#ifndef COVER_B_WAKE
#define COVER_B_WAKE 0           /* a thief's DONE claims B */
#endif
#ifndef COVER_COUNT_LOW
#define COVER_COUNT_LOW 0        /* a count below 0: claimed before the increment */
#endif
#ifndef COVER_COUNT_HIGH
#define COVER_COUNT_HIGH 0       /* a count above its announced sleepers (a claimer not yet decremented) */
#endif

#include "mm.pml"

bool fwait[NT];          /* blocked in futex_wait */

/* B's deque state (split_ops.pml), global so that the monitor can read it */
byte head, o_split, js;

/* ghosts: per count (index loc - CNT_BASE), the unclaimed sleeps whose
 * word names it (ann), those not yet incremented (pinc), the claims not
 * yet decremented (pdec); per worker, whether this sleep was claimed;
 * per slot of B's deque, the thief that won it */
byte ann[NCNT], pinc[NCNT], pdec[NCNT];
bool claimed[NT];
byte stolen_by[NSLOT];

#define SIGNED(v) ((v) >= 128 -> (v) - 256 : (v))
#define CHECK_COUNT(X) \
    assert(SIGNED(mem[X]) == ann[(X) - CNT_BASE] - pinc[(X) - CNT_BASE] + pdec[(X) - CNT_BASE]); \
    assert(!(COVER_COUNT_LOW && SIGNED(mem[X]) < 0)); \
    assert(!(COVER_COUNT_HIGH && SIGNED(mem[X]) > ann[(X) - CNT_BASE]))

/* the sleeper's increment (seq_cst) */
inline count_inc(me, X)
{
    atomic {
#ifdef MUT_LEAP_INC_RLX
        if
        :: KIND(sw) == K_JOIN_LEAP -> FADD_RLX(me, X, 1, cold)
        :: else -> FADD(me, X, 1, cold)
        fi;
#else
        FADD(me, X, 1, cold);
#endif
        pinc[(X) - CNT_BASE]--;
        CHECK_COUNT(X)
    };
    cold = 0
}

/* a claimer's or a withdrawing sleeper's decrement (relaxed) */
inline count_dec(me, X, wake)
{
    atomic {
        FADD_RLX(me, X, -1, cold);
        pdec[(X) - CNT_BASE]--;
        CHECK_COUNT(X);
        /* a claimer's futex_wake, in the same step: until it the sleeper
         * cannot move, so no other step can tell the two apart */
        if
        :: wake != NONE -> fwait[wake] = 0
        :: else
        fi
    };
    cold = 0
}

/* a successful claim of v's sleep with word w (inside the CAS's atomic) */
inline claim_ghost(v, w)
{
    assert(!claimed[v]);                     /* at most once per sleep */
    claimed[v] = 1;
    assert(ann[COUNTER(w) - CNT_BASE] > 0);
    ann[COUNTER(w) - CNT_BASE]--;
    pdec[COUNTER(w) - CNT_BASE]++
}

#include "futex.pml"

/* claim(v, accept, owner) by thread me: cl = 1 if me claimed v.  With
 * owner != NONE, only a JOIN_LEAP sleeper whose word names owner. */
inline claim(me, v, accept, owner)
{
    cl = 0;
    LD(me, L_SWORD(v), cs);                          /* relaxed peek */
    if
    :: (owner != NONE && cs == JL(owner)) ||
       (owner == NONE && cs != AWAKE && (accept & (1 << KIND(cs)))) ->
#ifdef MUT_CLAIM_STORE
        atomic { ST(me, L_SWORD(v), AWAKE); cok = 1; claim_ghost(v, cs) };
#else
        atomic {
            CAS(me, L_SWORD(v), cs, AWAKE, cok);     /* acq_rel */
            if
            :: cok -> claim_ghost(v, cs)
            :: else
            fi
        };
#endif
        if
        :: cok ->
            count_dec(me, COUNTER(cs), v);           /* relaxed; futex_wake */
            cl = 1
        :: else ->
            assert(!(COVER_CLAIM_RACE && v == W_A))
        fi
    :: else
    fi;
    cs = 0; cok = 0
}

/* weft__sleepers_want_work_from(B), by thread me: seq_cst loads, in order,
 * until one is nonzero */
inline sleepers_want_work(me, out)
{
    LD_SC(me, L_SLEEPING_IDLE, out);
    if
    :: out == 0 ->
        JOIN_COUNT_LOAD(me, out);
        if
        :: out == 0 -> LD_SC(me, L_LEAP(W_B), out)
        :: else
        fi
    :: else
    fi;
    out = (out != 0)
}
#if COVER_NOOP_RAISE
#define SLEEPERS_WANT_WORK(out) sleepers_want_work(OWNER, out); assert(!out)
#else
#define SLEEPERS_WANT_WORK(out) sleepers_want_work(OWNER, out)
#endif

/* weft__sched_ask_for_sleeper(B) by thread me: seq_cst load, store */
inline ask_for_sleeper(me)
{
    LD_SC(me, L_LIMIT, wb);
    if
    :: wb != SPLITREQ -> ST_SC(me, L_LIMIT, SPLITREQ)
    :: else
    fi;
    wb = 0
}

/* weft__wake_for_work_of(B, me) */
inline wake_for_work_of(me)
{
    cl = 0;
#ifndef MUT_LEAP_NO_LOOK
#ifdef MUT_LEAP_WAKE_RLX
    LD(me, L_LEAP(W_B), wa);
#else
    LD_SC(me, L_LEAP(W_B), wa);
#endif
    if
    :: wa != 0 && me != W_A ->
        /* the workers but me: only A can sleep as JOIN_LEAP(B) */
        claim(me, W_A, 0, W_B);
        if
        :: cl ->
            assert(!(COVER_WAKE_LEAP_OWNER && me == W_B));
            assert(!(COVER_WAKE_LEAP_THIEF && me == W_C))
        :: else
        fi
    :: else
    fi;
#endif
    if
    :: cl -> skip
    :: else ->
        LD_SC(me, L_SLEEPING_IDLE, wa);
        if
        :: wa == 0 -> JOIN_COUNT_LOAD(me, wa)
        :: else
        fi;
        if
        :: wa != 0 && me != W_C ->
            /* wake_one(me, IDLE | JOIN): only C can sleep so */
            claim(me, W_C, (1 << K_IDLE) | (1 << K_JOIN), NONE);
            assert(!(COVER_WAKE_IDLE && cl))
        :: else
        fi
    fi;
    wa = 0; cl = 0
}
#define WAKE_FOR_WORK() wake_for_work_of(OWNER)

/* weft__wake_joiner(v) by thread me, after a seq_cst DONE */
#ifdef MUT_JOINER_MASK
#define JOINER_MASK (1 << K_JOIN)
#else
#define JOINER_MASK JOINERS
#endif
inline wake_joiner(me, v)
{
    LD_SC(me, L_SWORD(v), tw);                       /* seq_cst peek */
    if
    :: tw != AWAKE && (JOINER_MASK & (1 << KIND(tw))) ->
        claim(me, v, JOINER_MASK, NONE);
        assert(!(COVER_WAKE_DONE && cl && v == W_A));
        assert(!(COVER_B_WAKE && cl && v == W_B))
    :: else
    fi;
    tw = 0; cl = 0
}
#define WAKE_JOINER(me) wake_joiner(me, W_B)

/* weft__steal_and_run after a won steal (split_ops.pml's hooks): the
 * thief's name in the task, then OK_MORE wakes another sleeper, OK asks B
 * again for the sleepers */
#define STEAL_WON_HOOK(me) stolen_by[ttail] = me;
#define STEAL_TAKEN_HOOK(me) after_steal(me);
inline after_steal(me)
{
    if
    :: ttail + 1 < tsplit -> wake_for_work_of(me)   /* WEFT_STEAL_OK_MORE */
    :: else ->                                       /* WEFT_STEAL_OK */
        sleepers_want_work(me, wa);
        if
        :: wa -> assert(!COVER_RENEW); ask_for_sleeper(me)
        :: else
        fi;
        wa = 0
    fi;
    assert(!(COVER_LEAP_STEAL && me == W_A))
}

/* weft__sleep(me, kind, joined, th): sw, found and wc are the sleeper's */
inline weft__sleep(me, kind, jloc, th)
{
    if
    :: kind == K_JOIN_LEAP -> sw = JL(th)
    :: else -> sw = kind
    fi;
    /* announce: the word (seq_cst), then the count (seq_cst) */
    atomic {
        ST_SC(me, L_SWORD(me), sw);
        claimed[me] = 0;
        ann[COUNTER(sw) - CNT_BASE]++;
        pinc[COUNTER(sw) - CNT_BASE]++
    };
    count_inc(me, COUNTER(sw));
    /* leave_requests */
    if
    :: kind == K_JOIN_LEAP ->
#ifndef MUT_LEAP_NO_ASK
        if
        :: th == W_B -> ask_for_sleeper(me)
        :: else                       /* A's and C's limit: not modelled */
        fi
#else
        skip
#endif
    :: else -> ask_for_sleeper(me)    /* C: on B (and A: not modelled) */
    fi;
    /* something_to_do: seq_cst reads, until one finds something */
    if
    :: kind == K_IDLE -> LD_SC(me, L_QUIT, wc); found = wc
    :: else         /* A sets quit after T's DONE; B sleeps only before it: 0 */
    fi;
    if
    :: !found && kind != K_IDLE -> LD_SC(me, jloc, wc); found = (wc == DONE)
    :: else
    fi;
    if
    :: !found && th == W_B ->           /* JOIN_LEAP(B), or IDLE (every v != me: B) */
#ifdef MUT_LEAP_NO_SHARED
        if
        :: kind == K_IDLE -> LD_SC(me, L_TS, wc); found = (TAIL(wc) < SPLIT(wc))
        :: else
        fi
#else
        LD_SC(me, L_TS, wc); found = (TAIL(wc) < SPLIT(wc))
#endif
    :: else
    fi;
    if
    :: found ->                       /* withdraw, unless claimed first */
        assert(!(COVER_LEAP_WITHDRAW && me == W_A));
        wc = sw;
        atomic {
            CAS(me, L_SWORD(me), wc, AWAKE, cok);    /* acq_rel */
            if
            :: cok -> claim_ghost(me, sw)
            :: else
            fi
        };
        if
        :: cok -> count_dec(me, COUNTER(sw), NONE)
        :: else
        fi;
        cok = 0
    :: else ->
        assert(!(COVER_LEAP_SLEEP && me == W_A));
        assert(!(COVER_B_SLEEP && me == W_B));
        do
        :: LD(me, L_SWORD(me), wc);                   /* acquire */
            if
            :: wc == AWAKE -> break
            :: else -> futex_wait(me, wc)
            fi
        od
    fi;
    claimed[me] = 0;      /* the sleep is over: no claim can succeed on AWAKE */
    sw = 0; found = 0; wc = 0
}

/* B at the SYNC of its stolen child (split_ops.pml's join_stolen): a poll
 * (acquire); once the child names its thief, a leapfrog attempt on the
 * thief (its deque is all stolen: nothing), then sleep as JOIN_LEAP(thief) */
inline b_join_round(slot)
{
    LD(OWNER, L_STATE(slot), wa);
    if
    :: wa == STOLEN ->
        th = stolen_by[slot];
        assert(th == W_A || th == W_C);
        weft__sleep(OWNER, K_JOIN_LEAP, L_STATE(slot), th)
    :: else                        /* not yet STOLEN(thief): yield; DONE: done */
    fi;
    wa = 0; th = 0
}
#if B_SLEEPS
#define JOIN_SLEEP_OPTION(slot) \
    :: !(LOC_DRAINED(OWNER, L_STATE(slot)) && mem[L_STATE(slot)] == DONE) -> \
        b_join_round(slot)
#endif

#include "split_ops.pml"

byte script[NOPS];
bool b_long;             /* B stopped for good in a long task */

/* B: runs T (stolen from A) */
proctype thief_b()
{
    byte _i, new_s, t, s, x, cur, ok, all, op, id, leaps, lid, wa, wb, cs, cok, cold, cl, tw, sw, found, wc, th;
    o_split = END;
    lid = NOPS;
#if STOLEN_LATE
    ST(OWNER, L_TSTATE, STOLEN);                     /* STOLEN(B), relaxed */
#endif
    do
    :: op < NOPS && script[op] != 0 ->
        if
        :: script[op] == P_OP -> id++; owner_push(id)
        :: script[op] == S_OP ->
            owner_sync();
            stolen_by[head] = NONE   /* ghost: the slot is free again */
        fi;
        op++;
        if
        :: true
        :: !b_long -> b_long = 1; goto long_task
        fi
    :: else -> break
    od;
    ST_SC(OWNER, L_TSTATE, DONE);                    /* run_stolen: seq_cst */
    wake_joiner(OWNER, W_A);
long_task:
    skip
}

/* A: blocked at T's SYNC (weft__join_stolen, leapfrog policy) */
proctype joiner_a()
{
    byte _i, tx, ttail, tsplit, tst, targ, tok, got, early, tw, wa, wb, cs, cok, cold, cl, sw, found, wc, x;
    do
    :: LD(W_A, L_TSTATE, x);                           /* acquire */
        if
        :: x == DONE -> break
        :: x == STOLEN ->                            /* the thief is B */
            steal_once(W_A);                           /* leapfrog */
            if
            :: got -> skip
            :: !got -> skip                          /* back off: poll again */
            :: !got -> weft__sleep(W_A, K_JOIN_LEAP, L_TSTATE, W_B)
            fi
        :: else                                      /* no thief yet: yield */
        fi;
        x = 0; got = 0
    od;
    x = 0;
    if
    :: ST_SC(W_A, L_QUIT, 1);                          /* weft_stop */
        FENCE_SC(W_A);
        claim(W_A, W_C, ANY_SLEEPER, NONE)
    :: skip                                          /* a long task */
    fi
}

/* C: idle, steals from B */
proctype idler_c()
{
    byte _i, tx, ttail, tsplit, tst, targ, tok, got, early, tw, wa, wb, cs, cok, cold, cl, sw, found, wc, x;
    do
    :: LD(W_C, L_QUIT, x);
        if
        :: x -> break
        :: else
        fi;
        if
        :: true
        :: C_LONG -> break        /* C stops for good: a long task of its own */
        fi;
        steal_once(W_C);
        if
        :: got -> skip
        :: !got -> skip                              /* spin: try again */
        :: !got && C_SLEEPS -> weft__sleep(W_C, K_IDLE, 0, W_B)       /* B: the victims with a deque */
        fi;
        got = 0; x = 0
    od
}

#define B_SHARES (TAIL(mem[L_TS]) < SPLIT(mem[L_TS]))
#define B_PRIVATE_UNASKED (o_split != END && head > o_split && mem[L_LIMIT] != SPLITREQ)

/* When nothing can move: no sleeper is stranded; the counts are exact. */
proctype monitor()
{
    byte v, n[NCNT];
    atomic {
        timeout ->
        assert(!(fwait[W_A] && mem[L_TSTATE] == DONE));
        assert(!(fwait[W_A] && B_SHARES));
        assert(!(fwait[W_A] && B_PRIVATE_UNASKED));
        assert(!(fwait[W_C] && B_SHARES));
        assert(!(fwait[W_C] && B_PRIVATE_UNASKED));
        assert(!(fwait[W_B] && mem[L_STATE(js)] == DONE));
        /* each count = the sleepers whose word names it */
        do
        :: v < NT ->
            if
            :: mem[L_SWORD(v)] != AWAKE -> n[COUNTER(mem[L_SWORD(v)]) - CNT_BASE]++
            :: else
            fi;
            v++
        :: else -> break
        od;
        v = 0;
        do
        :: v < NCNT -> assert(mem[CNT_BASE + v] == n[v]); v++
        :: else -> break
        od
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
#if STOLEN_LATE
        mem[L_TSTATE] = TASK;
#else
        mem[L_TSTATE] = STOLEN;
#endif
        do
        :: k < NSLOT -> stolen_by[k] = NONE; k++
        :: else -> break
        od;
        k = 0;
        run thief_b();
        run joiner_a();
        run idler_c();
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
        START_FLUSHER(2)
    }
}
