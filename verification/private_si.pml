/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the sender-initiated private-deque protocol (Acar,
 * Charguéraud and Rainey, PPoPP'13, Figure 3) as weft's private-si
 * scheduler implements it: src/sched/private-si/private_si.c (deal_attempt,
 * weft__priv_take_back, close_cell, weft__priv_after_join, weft__sched_steal,
 * weft__sched_has_work_for, weft__sched_ask_for_sleeper), src/sched/private-common/private_deque.c
 * (weft__priv_sync_slow), src/sched/private-si/owner.h (SPAWN's push
 * and SYNC's pop_private with their polls), src/runtime/steal.c (run_stolen,
 * weft__join_stolen under the default random policy) and src/runtime/sleep.c
 * (weft__sleep, claim, weft__wake_worker, weft__wake_joiner).  Every access
 * has the memory order of the C code (mm.pml).
 *
 * Worker 0 (the dealer) runs a spawn/sync SCRIPT (default P P S S) on its
 * private deque: SPAWN writes the arguments (plain) and the wrapper into
 * the state word (relaxed), then polls; SYNC of a private task stores
 * EMPTY, polls (dealing only below the task) and runs it inline; SYNC of a
 * dealt task takes it back if it still sits in a receiver's cell (relaxed
 * look at the state word, relaxed looks at the cells in worker order,
 * relaxed CAS back to the open value, count + 1) and runs it, or else
 * joins it: acquire loads of the state word; while it is STOLEN the
 * joiner's own steal opens its cell (nobody deals to worker 0 here, so
 * it is only opened and counted); it may sleep as a JOIN sleeper
 * (NJSLEEP times; woken by the receiver's DONE); after the join it closes
 * its cell (weft__priv_after_join) and reads the result.  After any
 * operation the dealer may stop for good ("a long task": it neither
 * spawns nor syncs again), so that a deal nobody takes is not rescued by
 * the take-back and shows as a lost wake-up.
 *
 * A deal may happen at any poll: the deal interval (delta, the
 * exponential draw), the countdown si_polls and the open-cell gate of the
 * polls only decide at which polls deal_attempt runs, which the model
 * leaves free (each poll deals or not, nondeterministically); the gate's
 * relaxed load is therefore not modelled (it only removes behaviours).
 * poll_slow's close_cell of the dealer's own cell is a no-op here (that
 * cell is closed outside the dealer's joins).  deal_attempt: a random
 * first worker (nondeterministic), then in worker order: a relaxed look at
 * the cell, if OPEN a seq_cst CAS to DEAL(slot), then o_top + 1, count - 1
 * and weft__wake_worker (seq_cst peek at the receiver's sleep word, claim
 * by acq_rel CAS, futex_wake).
 *
 * Workers 1 .. NR (receivers, worker_loop + weft__sched_steal) look at
 * their cell (relaxed): a DEAL is taken by CAS (acquire) to CLOSED, the
 * wrapper read (relaxed), STOLEN(self) stored (relaxed), the task run
 * (reads the arguments, writes the result, plain), DONE stored (seq_cst)
 * and the dealer woken if it sleeps as a joiner (weft__wake_joiner); a
 * CLOSED cell is opened (relaxed CAS, count + 1).  A receiver that found
 * nothing spins (tries again) or sleeps as IDLE: sleep word (seq_cst),
 * sleeping_idle + 1 (seq_cst), ask_for_sleeper (opens its cell if it is
 * neither open nor dealt), the last look at its own cell (seq_cst,
 * weft__sched_has_work_for), then the withdrawal CAS or the futex loop.  The
 * futex is exact: futex_wait blocks only if the word still holds the
 * expected value.  A receiver may also become busy (NBUSY times: an
 * external RUN with its cell still open) and, at a poll of that task,
 * close its cell (close_cell: relaxed CAS OPEN -> CLOSED, count - 1; a
 * deal that landed stays in the cell until the receiver is idle again or
 * its dealer takes it back).
 *
 * Bounds (-D): SCRIPT (at most NOPS = 6 operations, NSLOT slots live),
 * NR receivers (1 or 2), NBUSY busy phases per receiver, NJSLEEP join
 * sleeps of the dealer; defaults P P S S, 2, 1, 1.  The quick checks use
 * NR=1 with everything (P P S S, and P P S P S S for slot reuse) and NR=2
 * without busy phases and join sleeps; the defaults (9.7 M states under
 * SC) are a --full check.
 *
 * Properties:
 * - every task runs at most once (checked when it runs), with the
 *   arguments the dealer wrote, and a receiver reads the wrapper the
 *   dealer stored;
 * - a dealer that finishes its script ran every task exactly once; the
 *   join of a dealt task reads the result its receiver wrote; a task
 *   taken back is never also run by a receiver (the at-most-once check);
 * - when nothing can move (spin's `timeout`): no receiver sleeps with a
 *   deal in its cell (no lost wake-up); the dealer does not sleep at a
 *   join; every task dealt and not taken back has run (none lost); the
 *   count of open cells equals the number of open cells, and the sleeper
 *   counts the number of sleepers not claimed;
 * - Lace's order: a receiver never takes a deal while an older deal of
 *   the dealer waits untaken in another cell, so a worker's stolen tasks
 *   are its oldest (deal_attempt deals only once its last deal's state
 *   says taken: a relaxed look);
 * - no deadlock (spin's invalid end states: the dealer spinning at a join
 *   that never ends).
 * Coverage (-DCOVER_X=1 makes reaching X an assertion failure):
 *   COVER_TAKEN      a receiver takes a deal from its cell
 *   COVER_TAKEBACK   the dealer takes a deal back at its SYNC
 *   COVER_WAKE       a dealer's claim wakes a receiver blocked in futex_wait
 *                    on a deal it just made
 *   COVER_LASTLOOK   a sleeper's last look finds a deal (and withdraws)
 *   COVER_BUSY_DEAL  close_cell of a busy receiver finds a deal in its cell
 *   COVER_JOIN_WAKE  a receiver's DONE wakes the dealer from a join sleep
 *
 * Mutants (-D, one at a time):
 *   MUT_SI_TAKE_STORE      weft__sched_steal takes the deal with a plain store
 *                          of CLOSED instead of the acquire CAS: races the
 *                          take-back (the task runs twice)
 *   MUT_SI_TAKEBACK_STORE  weft__priv_take_back reopens the cell with a plain
 *                          store instead of its CAS: races the receiver's take
 *   MUT_SI_TAKEBACK_NOCOUNT  the take-back forgets count_open_cells(+1)
 *   MUT_SI_CLOSE_STORE     close_cell closes with a plain store instead of its
 *                          CAS: overwrites a deal that landed (lost task)
 *   MUT_SI_NO_WAKE         deal_attempt does not call weft__wake_worker
 *   MUT_SI_NO_LASTLOOK     the sleeper does not look at its cell after
 *                          announcing itself (weft__sched_has_work_for)
 *   MUT_SI_DEAL_RLX        the deal CAS relaxed instead of seq_cst: nothing
 *                          publishes the arguments and the wrapper (WEAK: a
 *                          stale wrapper; not TSO, where a locked RMW drains)
 *   MUT_SI_DONE_RLX        run_stolen's DONE store relaxed instead of seq_cst:
 *                          TSO and WEAK lose the joiner's wake-up (the DONE
 *                          store waits in the buffer while the receiver reads
 *                          the dealer's sleep word, store-buffer Dekker);
 *                          without join sleeps (NJSLEEP=0) WEAK shows a stale
 *                          result and TSO passes
 *   MUT_SI_ANNOUNCE_RLX    the sleeper's sleep word store and count
 *                          increment relaxed (sleep.c's "write mine")
 *   MUT_SI_PEEK_RLX        weft__wake_worker's peek at the sleep word relaxed
 *                          (not found: in mm.pml an RMW is atomic on memory
 *                          and no load is performed early, so a load after
 *                          the seq_cst CAS cannot miss the sleeper; on ARMv8
 *                          a plain load may pass the CAS's store-release, so
 *                          the code needs the seq_cst)
 *   MUT_FUTEX_NOCMP        futex_wait blocks without comparing the word
 *   MUT_SI_DEAL_UNORDERED  deal_attempt deals while its last deal waits
 *                          untaken: a younger task is taken before an older
 *                          one (Lace's order, which Sylvan's collection
 *                          relies on, broken)
 *
 * Not modelled: several dealers and receivers that deal (a receiver's
 * task is a leaf), OPEN_FROM cells (leapfrog/transitive policies: only
 * the encoding and the take-back's reopening value are kept), interrupts
 * (si_hold, freeze/thaw, and the deal floor they set: the order is kept
 * per interrupt frame; test_lace_stolen_order checks it with frames), suspension, external RUN pending counts, quit
 * and stop (receivers asleep at the end are a valid end state),
 * weft__sleepers_want_work_from/ask_for_sleeper of an awake thief after a
 * steal (loads only, and a no-op for an awake thief), the repeated
 * has_shared/ask calls of the sleeper's loops over the other workers
 * (one look at its own cell: the others only add chances to see a deal).
 */
#ifndef SCRIPT
#define SCRIPT P P S S
#endif
#ifndef NSLOT
#define NSLOT 2          /* the most tasks the script has live */
#endif
#ifndef NR
#define NR 2             /* receivers */
#endif
#ifndef NJSLEEP
#define NJSLEEP 1        /* join sleeps of the dealer */
#endif
#ifndef NBUSY
#define NBUSY 1          /* busy phases (external RUN) per receiver */
#endif
#define NOPS 6
#define NTASK NOPS
#define P_OP 1
#define S_OP 2
#define P script[k] = P_OP; k++;
#define S script[k] = S_OP; k++;

#define NT (NR + 1)
#define DEALER 0

/* si_cell (src/sched/private-si/state.h), dealer 0 only */
#define CLOSED 0
#define OPEN 1
#define OPEN_FROM0 2                 /* OPEN_FROM(0): tag 2 */
#define TAG(c) ((c) % 4)
#define TAG_DEAL 3
#define DEAL(slot, f) (3 + 4 * (f) + 8 * (slot))
#define DEAL_FROM(c) (((c) / 4) % 2)
#define DEAL_SLOT(c) ((c) / 8)
#define IS_OPEN(c) ((c) == OPEN || TAG(c) == 2)
/* the task state word (bits/worker.h): EMPTY 0, DONE 3, STOLEN(r) tag 2,
 * a wrapper tag 0 (one per task here, to catch a stale one) */
#define EMPTY 0
#define DONE 3
#define STOLEN(r) (4 * (r) + 2)
#define IS_STOLEN(s) ((s) % 4 == 2)
#define TASK(id) (16 + 4 * (id))
#define RES(id) ((id) + 64)
/* sleep words (sleep.c): kinds as accept-mask bits */
#define AWAKE 0
#define K_IDLE 1
#define K_JOIN 2
#define ANY_SLEEPER 6
#define JOINERS 4

#define L_CELL(w) (w)
#define L_SWORD(w) (NT + (w))
#define L_STATE(s) (2 * NT + (s))
#define L_ARG(s) (2 * NT + NSLOT + (s))
#define L_RES(s) (2 * NT + 2 * NSLOT + (s))
#define L_OPEN (2 * NT + 3 * NSLOT)
#define L_SL_IDLE (L_OPEN + 1)
#define L_SL_JOIN (L_OPEN + 2)
#define NLOC (L_OPEN + 3)
#ifndef BUFSZ
#define BUFSZ 3
#endif

#ifndef COVER_TAKEN
#define COVER_TAKEN 0
#endif
#ifndef COVER_TAKEBACK
#define COVER_TAKEBACK 0
#endif
#ifndef COVER_WAKE
#define COVER_WAKE 0
#endif
#ifndef COVER_LASTLOOK
#define COVER_LASTLOOK 0
#endif
#ifndef COVER_BUSY_DEAL
#define COVER_BUSY_DEAL 0
#endif
#ifndef COVER_JOIN_WAKE
#define COVER_JOIN_WAKE 0
#endif

#include "mm.pml"

byte script[NOPS];
byte slot_id[NSLOT];     /* ghost: the task id in each slot */
byte ran[NTASK + 1];     /* ghost: times each task ran */
bit dealt[NTASK + 1];    /* ghost: dealt and not taken back */
bool fwait[NT];          /* blocked in futex_wait */
bit dealing;             /* ghost: the dealer is between its deal CAS and its wake */

inline run_task(id, arg)
{
    atomic { assert(arg == id); assert(ran[id] == 0); ran[id]++ }
}

#include "futex.pml"

/* sleep.c claim(v, accept, NULL): relaxed peek, acq_rel CAS, count - 1
 * (relaxed), futex_wake */
inline claim(me, v, accept)
{
    LD(me, L_SWORD(v), cs);                        /* relaxed peek */
    if
    :: cs != AWAKE && (accept & (1 << cs)) ->
        CAS(me, L_SWORD(v), cs, AWAKE, cok);       /* acq_rel */
        if
        :: cok ->
            if
            :: cs == K_IDLE -> FADD_RLX(me, L_SL_IDLE, -1, cold)
            :: else -> FADD_RLX(me, L_SL_JOIN, -1, cold)
            fi;
            atomic {
                if
                :: fwait[v] && me == DEALER && dealing -> assert(!COVER_WAKE)
                :: fwait[v] && v == DEALER -> assert(!COVER_JOIN_WAKE)
                :: else
                fi;
                fwait[v] = 0                       /* futex_wake */
            }
        :: else
        fi
    :: else
    fi;
    cs = 0; cok = 0; cold = 0
}

/* weft__sleep's wait: acquire loads of the own word, futex_wait */
inline sleep_wait(me)
{
    do
    :: LD(me, L_SWORD(me), x);                     /* acquire */
        if
        :: x == AWAKE -> break
        :: else -> futex_wait(me, x)
        fi
    od;
    x = 0
}

/* weft__sched_ask_for_sleeper(victim, self) for the sleeper's own cell */
inline ask_for_sleeper(me)
{
    LD(me, L_SWORD(me), x);                        /* relaxed: our word */
    if
    :: x != AWAKE ->
        LD(me, L_CELL(me), c);                     /* relaxed: our cell */
        do
        :: c != OPEN && TAG(c) != TAG_DEAL ->
            x = c;
            CAS_RLX(me, L_CELL(me), c, OPEN, ok);
            if
            :: ok ->
                if
                :: x == CLOSED -> FADD_RLX(me, L_OPEN, 1, x)
                :: else
                fi;
                break
            :: else
            fi
        :: else -> break
        od
    :: else
    fi;
    c = 0; x = 0; ok = 0
}

/* close_cell(w): returns in `ok` whether a deal sits in the cell */
inline close_cell(me)
{
    LD(me, L_CELL(me), c);                         /* relaxed: our cell */
    do
    :: IS_OPEN(c) ->
#ifdef MUT_SI_CLOSE_STORE
        ST(me, L_CELL(me), CLOSED); ok = 1;
#else
        CAS_RLX(me, L_CELL(me), c, CLOSED, ok);    /* relaxed */
#endif
        if
        :: ok -> FADD_RLX(me, L_OPEN, -1, x); ok = 0; break
        :: else                                    /* a deal landed: c has it */
        fi
    :: else -> ok = (TAG(c) == TAG_DEAL); break
    od;
    c = 0; x = 0
}

/* ---------------------------------------------------------------- dealer */

/* weft__wake_worker(self, v): seq_cst peek, claim */
inline wake_worker(v)
{
#ifdef MUT_SI_PEEK_RLX
    LD(DEALER, L_SWORD(v), cs);
#else
    LD_SC(DEALER, L_SWORD(v), cs);                 /* seq_cst */
#endif
    if
    :: cs != AWAKE -> claim(DEALER, v, ANY_SLEEPER)
    :: else
    fi;
    cs = 0
}

/* deal_attempt(w, head) */
inline deal_attempt(h)
{
    if
    :: o_top < h ->
        /* One deal at a time waits to be taken (a worker's stolen tasks
         * are its oldest): a relaxed look at the last deal's state. */
        if
        :: o_top > 0 -> LD(DEALER, L_STATE(o_top - 1), c)
        :: else -> c = DONE
        fi;
        if
#ifdef MUT_SI_DEAL_UNORDERED
        :: true ->
#else
        :: IS_STOLEN(c) || c == DONE ->
#endif
            c = 0;
            if
            :: first = 1
    #if NR >= 2
            :: first = 2
    #endif
            fi;
            k = 0;
            do
            :: k < NT ->
                r = (first + k) % NT;
                k++;
                if
                :: r != DEALER ->
                    LD(DEALER, L_CELL(r), c);          /* relaxed look */
                    if
                    :: c == OPEN || c == OPEN_FROM0 ->
                        x = c;
    #ifdef MUT_SI_DEAL_RLX
                        CAS_RLX(DEALER, L_CELL(r), x, DEAL(o_top, c == OPEN_FROM0), ok);
    #else
                        CAS(DEALER, L_CELL(r), x, DEAL(o_top, c == OPEN_FROM0), ok);  /* seq_cst */
    #endif
                        if
                        :: ok ->
                            atomic { dealt[slot_id[o_top]] = 1; dealing = 1 };
                            o_top++;                   /* pop_top */
                            FADD_RLX(DEALER, L_OPEN, -1, x);
    #ifndef MUT_SI_NO_WAKE
                            wake_worker(r);
    #endif
                            dealing = 0;
                            break
                        :: else
                        fi
                    :: else
                    fi
                :: else
                fi
            :: else -> break
            od;
        :: else
        fi;
        k = 0; r = 0; c = 0; x = 0; ok = 0; first = 0
    :: else
    fi
}

/* a poll (SPAWN, SYNC): a deal attempt may be due or not */
inline poll(h)
{
    if
    :: deal_attempt(h)
    :: skip
    fi
}

/* weft__priv_take_back(w, t): ok = taken back */
inline take_back(t)
{
    ok = 0;
    LD(DEALER, L_STATE(t), s);                     /* relaxed */
    if
    :: IS_STOLEN(s) || s == DONE
    :: else ->
        k = 1;
        do
        :: k < NT ->
            LD(DEALER, L_CELL(k), c);              /* relaxed look */
            if
            :: TAG(c) == TAG_DEAL && DEAL_SLOT(c) == t ->
#ifdef MUT_SI_TAKEBACK_STORE
                ST(DEALER, L_CELL(k), (DEAL_FROM(c) -> OPEN_FROM0 : OPEN)); ok = 1;
#else
                x = c;
                CAS_RLX(DEALER, L_CELL(k), x, (DEAL_FROM(c) -> OPEN_FROM0 : OPEN), ok);
#endif
                if
                :: ok ->
                    atomic { assert(!COVER_TAKEBACK); dealt[slot_id[t]] = 0 };
#ifndef MUT_SI_TAKEBACK_NOCOUNT
                    FADD_RLX(DEALER, L_OPEN, 1, x)
#endif
                :: else
                fi;
                break
            :: else -> k++
            fi
        :: else -> break
        od
    fi;
    k = 0; c = 0; x = 0; s = 0
}

/* weft__sched_steal(w, thief, leap) by the joining dealer: nothing is ever
 * dealt to it here, so it only (re)opens its cell */
inline open_own_cell()
{
    LD(DEALER, L_CELL(DEALER), c);                 /* relaxed */
    do
    :: c == OPEN -> break
    :: else ->
        assert(TAG(c) != TAG_DEAL);
        x = c;
        CAS_RLX(DEALER, L_CELL(DEALER), c, OPEN, ok);
        if
        :: ok ->
            if
            :: x == CLOSED -> FADD_RLX(DEALER, L_OPEN, 1, x)
            :: else
            fi;
            break
        :: else
        fi
    od;
    c = 0; x = 0; ok = 0
}

/* weft__sleep(w, JOIN, t, thief) */
inline join_sleep(t)
{
    ST_SC(DEALER, L_SWORD(DEALER), K_JOIN);
    FADD(DEALER, L_SL_JOIN, 1, x);                 /* seq_cst */
    ask_for_sleeper(DEALER);                       /* leave_requests */
    /* something_to_do: the joined task (seq_cst), then its own cell */
    LD_SC(DEALER, L_STATE(t), x);
    if
    :: x != DONE -> LD_SC(DEALER, L_CELL(DEALER), x); x = (TAG(x) == TAG_DEAL)
    :: else -> x = 1
    fi;
    if
    :: x ->                                        /* withdraw unless claimed */
        cs = K_JOIN;
        CAS(DEALER, L_SWORD(DEALER), cs, AWAKE, cok);   /* acq_rel */
        if
        :: cok -> FADD_RLX(DEALER, L_SL_JOIN, -1, cold)
        :: else
        fi;
        cs = 0; cok = 0; cold = 0
    :: else -> sleep_wait(DEALER)
    fi;
    x = 0
}

/* weft__join_stolen(w, t), random policy, then weft__priv_after_join */
inline join(t)
{
    do
    :: LD(DEALER, L_STATE(t), s);                  /* acquire */
        if
        :: s == DONE -> break
        :: else ->
            if
            :: IS_STOLEN(s) -> open_own_cell()     /* the leap (and random) steal */
            :: else                                /* taken, not yet marked */
            fi;
            if
            :: jsleeps < NJSLEEP -> jsleeps++; join_sleep(t)
            :: true ->                             /* spin until done */
                atomic { LOC_DRAINED(DEALER, L_STATE(t)) && mem[L_STATE(t)] == DONE }
            fi
        fi
    od;
    s = 0;
    close_cell(DEALER);                            /* weft__priv_after_join */
    assert(!ok)
}

proctype dealer()
{
    byte _i, op, id, head, o_top, t, c, s, x, ok, r, k, first, jsleeps, cs, cok, cold;
    do
    :: op < NOPS && script[op] != 0 ->
        if
        :: script[op] == P_OP ->                   /* SPAWN */
            t = head;
            id++;
            slot_id[t] = id;
            ST(DEALER, L_ARG(t), id);              /* the arguments: plain */
            ST(DEALER, L_STATE(t), TASK(id));      /* relaxed: private slot */
            head++;
            poll(head)
        :: script[op] == S_OP ->                   /* SYNC */
            t = head - 1;
            if
            :: t >= o_top ->                       /* weft_priv_pop_private */
                ST(DEALER, L_STATE(t), EMPTY);     /* relaxed */
                poll(t);
                LD(DEALER, L_ARG(t), x);
                run_task(slot_id[t], x)
            :: else ->                             /* weft__priv_sync_slow */
                take_back(t);
                if
                :: ok ->
                    o_top = t;
                    ST(DEALER, L_STATE(t), EMPTY); /* relaxed */
                    LD(DEALER, L_ARG(t), x);
                    run_task(slot_id[t], x)
                :: else ->
                    join(t);
                    ST(DEALER, L_STATE(t), EMPTY); /* relaxed */
                    o_top = t;
                    assert(ran[slot_id[t]] == 1);
                    LD(DEALER, L_RES(t), x);       /* the result, in t */
                    assert(x == RES(slot_id[t]))
                fi
            fi;
            slot_id[t] = 0;
            head--
        fi;
        op++;
        t = 0; x = 0; ok = 0;
        if
        :: true
        :: goto long_task                          /* stops for good */
        fi
    :: else -> break
    od;
    /* the script is done: every task ran exactly once */
    k = 1;
    do
    :: k <= id -> assert(ran[k] == 1); k++
    :: else -> break
    od;
long_task:
    skip
}

/* ------------------------------------------------------------- receivers */

proctype receiver(byte me)
{
    byte _i, c, x, ok, got, sl, w, busy, cs, cok, cold;
    do
    :: /* weft__sched_steal(self, victim, false): own cell, relaxed look */
        LD(me, L_CELL(me), c);
        do
        :: TAG(c) == TAG_DEAL ->
#ifdef MUT_SI_TAKE_STORE
            ST(me, L_CELL(me), CLOSED); got = 1; break
#else
            x = c;
            CAS(me, L_CELL(me), c, CLOSED, ok);    /* acquire */
            if
            :: ok -> c = x; got = 1; break
            :: else
            fi
#endif
        :: c == OPEN -> break
        :: else ->                                 /* s[i] = null */
            x = c;
            CAS_RLX(me, L_CELL(me), c, OPEN, ok);  /* relaxed */
            if
            :: ok ->
                if
                :: x == CLOSED -> FADD_RLX(me, L_OPEN, 1, x)
                :: else
                fi;
                break
            :: else
            fi
        od;
        ok = 0; x = 0;
        if
        :: got ->                                  /* run_stolen */
            assert(!COVER_TAKEN);
            sl = DEAL_SLOT(c);
            /* Lace's order: no older deal of the dealer waits untaken in
             * a cell (deals and take-backs are RMWs on memory). */
            atomic {
                for (_i : 1 .. NR) {
                    assert(TAG(mem[L_CELL(_i)]) != TAG_DEAL || DEAL_SLOT(mem[L_CELL(_i)]) >= sl)
                };
                _i = 0
            }
            c = 0;
            LD(me, L_STATE(sl), w);                /* relaxed: the wrapper */
            assert(w == TASK(slot_id[sl]));
            ST(me, L_STATE(sl), STOLEN(me));       /* relaxed */
            LD(me, L_ARG(sl), x);
            run_task(slot_id[sl], x);
            ST(me, L_RES(sl), RES(slot_id[sl]));   /* plain */
#ifdef MUT_SI_DONE_RLX
            ST(me, L_STATE(sl), DONE);
#else
            ST_SC(me, L_STATE(sl), DONE);          /* seq_cst */
#endif
            /* weft__wake_joiner(giver) */
            LD_SC(me, L_SWORD(DEALER), cs);
            if
            :: cs == K_JOIN -> claim(me, DEALER, JOINERS)
            :: else
            fi;
            cs = 0; sl = 0; w = 0; x = 0; got = 0
        :: else ->
            c = 0;
            if
            :: skip                                /* spin: look again */
            :: busy < NBUSY ->                     /* an external RUN */
                busy++;
                if
                :: close_cell(me);                 /* at a poll of that task */
                    if
                    :: ok -> assert(!COVER_BUSY_DEAL)
                    :: else
                    fi;
                    ok = 0
                :: skip
                fi
            :: true ->                             /* weft__sleep(IDLE) */
#ifdef MUT_SI_ANNOUNCE_RLX
                ST(me, L_SWORD(me), K_IDLE);
                FADD_RLX(me, L_SL_IDLE, 1, x);
#else
                ST_SC(me, L_SWORD(me), K_IDLE);
                FADD(me, L_SL_IDLE, 1, x);         /* seq_cst */
#endif
                ask_for_sleeper(me);               /* leave_requests */
#ifdef MUT_SI_NO_LASTLOOK
                x = 0;
#else
                LD_SC(me, L_CELL(me), x);          /* weft__sched_has_work_for */
                x = (TAG(x) == TAG_DEAL);
#endif
                if
                :: x ->                            /* withdraw unless claimed */
                    assert(!COVER_LASTLOOK);
                    cs = K_IDLE;
                    CAS(me, L_SWORD(me), cs, AWAKE, cok);   /* acq_rel */
                    if
                    :: cok -> FADD_RLX(me, L_SL_IDLE, -1, cold)
                    :: else
                    fi;
                    cs = 0; cok = 0; cold = 0
                :: else -> sleep_wait(me)
                fi;
                x = 0
            fi
        fi
    od
}

/* When nothing can move. */
proctype monitor()
{
    byte k, n, ni;
    atomic {
        timeout ->
        /* no lost wake-up: no receiver asleep with a deal in its cell */
        k = 1;
        do
        :: k < NT ->
            assert(!(fwait[k] && TAG(mem[L_CELL(k)]) == TAG_DEAL));
            k++
        :: else -> break
        od;
        /* the dealer does not sleep at a join for good */
        assert(!fwait[DEALER]);
        /* no task lost */
        k = 1;
        do
        :: k <= NTASK -> assert(!dealt[k] || ran[k] == 1); k++
        :: else -> break
        od;
        /* the counts are exact */
        k = 0; n = 0; ni = 0;
        do
        :: k < NT ->
            if
            :: IS_OPEN(mem[L_CELL(k)]) -> n++
            :: else
            fi;
            if
            :: mem[L_SWORD(k)] == K_IDLE -> ni++
            :: else
            fi;
            k++
        :: else -> break
        od;
        assert(mem[L_OPEN] == n);
        assert(mem[L_SL_IDLE] == ni);
        assert(mem[L_SL_JOIN] == (mem[L_SWORD(DEALER)] == K_JOIN -> 1 : 0))
    }
}

init {
    atomic {
        byte k = 0;
        SCRIPT
        k = 0;
        run dealer();
        run receiver(1);
#if NR >= 2
        run receiver(2);
#endif
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
#if NR >= 2
        START_FLUSHER(2)
#endif
    }
}
