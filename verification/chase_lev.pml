/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of weft's Chase-Lev scheduler and its sleeper handshake:
 * src/sched/chase-lev/chase_lev_deque.c (weft__cl_sync_slow, weft__cl_serve_wake_req,
 * weft__sched_steal, weft__sched_has_work_for, weft__sched_ask_for_sleeper),
 * src/sched/chase-lev/owner.h (the owner's push and its relaxed
 * read of cl_wake_req, pop_private with its fence and its read of the
 * request), src/runtime/steal.c (weft__steal_and_run's wake-up cascade and request
 * renewal, run_stolen) and src/runtime/sleep.c (weft__sleep as IDLE, claim,
 * weft__wake_for_work_of).  Every access has the memory order of the C code
 * (mm.pml): the orders of Lê et al. (PPoPP'13) for the deque.
 *
 * Worker 0 owns the deque and runs a spawn/sync SCRIPT (default P P S S).
 * SPAWN writes the arguments (plain) and the wrapper into the state word
 * (relaxed), stores the descriptor pointer into the array (relaxed) and
 * bottom + 1 (release), then reads cl_wake_req (relaxed) and serves it.
 * When b - cl_top_seen reaches the mask it takes weft__cl_push_slow: an
 * acquire re-read of top; a push that would have to grow the array ends
 * the run there (growth is not modelled).  SYNC: bottom - 1 (relaxed), the seq_cst
 * fence, top (relaxed), cl_wake_req (relaxed) and serve, then the private
 * pop (top < b), or weft__cl_sync_slow: re-read top, the seq_cst CAS for the
 * last task, bottom = b + 1 (relaxed), and if the task was stolen the join
 * (acquire poll of DONE, then the result).  serve_wake_req: relaxed top;
 * nothing to share (cl_bottom - top <= 0, where a pop's cl_bottom is still
 * the one before the pop): keep the request; else exchange it to 0
 * (seq_cst) and weft__wake_for_work (seq_cst count, claim one sleeper in
 * worker order from self + 1: relaxed peek, acq_rel CAS, count - 1,
 * futex_wake).  After any operation the owner may stop for good ("a long
 * task": no push, pop or poll again), else at the end it stops the pool
 * (quit seq_cst, fence, claim every sleeper).
 *
 * Workers 1 .. NI are idle: weft__sched_steal on worker 0 (acquire top,
 * seq_cst fence, acquire bottom, relaxed array entry, seq_cst CAS of top,
 * relaxed wrapper read, STOLEN relaxed); after a steal with more left
 * (top + 1 < bottom read) weft__wake_for_work_of(victim), after taking the
 * last one the renewal: if sleepers_want_work_from(victim) (seq_cst
 * count), ask_for_sleeper(victim); then the task runs (arguments read,
 * result written, plain) and DONE is stored seq_cst.  Once (LONG_STEAL,
 * default 1), an idle worker may instead run its stolen task for good (a
 * long task: the owner's join of it then ends the owner's run too), so
 * that a sleeper whose request was consumed by that worker's wake-up
 * depends on the renewal.  A worker that found
 * nothing (NONE) sleeps as IDLE (its spinning first is left out: a failed
 * attempt only reads, so spinning is the same as trying later; after BUSY
 * it tries again): sleep word (seq_cst),
 * sleeping_idle + 1 (seq_cst), ask_for_sleeper (seq_cst test, seq_cst
 * store of 1), the last look (quit, then has_shared: seq_cst top and
 * bottom), then the withdrawal CAS or the futex loop (exact futex).
 *
 * Properties:
 * - every task runs exactly once: never twice (checked when it runs:
 *   the last-element race between the owner's CAS and a thief's), and all
 *   of them once the script is done; a thief reads the descriptor pushed
 *   at the index it took, its wrapper (TASK, not a stale state) and its
 *   arguments; the join of a stolen task reads its result; no deadlock
 *   (spin's invalid end states: an owner waiting for a DONE that never
 *   comes);
 * - when nothing can move (spin's `timeout`):
 *   PROMISE  no sleeper is asleep while the deque still holds a task that
 *            it held at the owner's last SYNC (top < the bottom that SYNC
 *            stored): "a sleeper that missed a task is woken at the
 *            owner's next SYNC at the latest" (the code's claim);
 *   PENDING  no sleeper is asleep without a pending request (cl_wake_req
 *            = 1): the owner's next push, SYNC or poll will see it and
 *            wake someone once it has something to share (no request is
 *            lost);
 *   COUNT    sleeping_idle equals the number of sleep words still IDLE
 *            (claimed ones were decremented), and nobody is blocked in
 *            futex_wait with its word AWAKE;
 *   STRONG   (only with -DSTRONG) no sleeper is asleep while top < bottom
 *            at all: not promised by the code (the push's read of the
 *            request is relaxed and has no fence, so on TSO and weaker a
 *            sleeper can miss a task pushed right before the owner's
 *            long task); checked to show exactly that.
 *
 * Mutants (-D, one at a time):
 *   MUT_POP_NOFENCE      pop_private without the seq_cst fence: the owner
 *                        reads a stale top and a thief a stale bottom
 *                        (double execution of the last task)
 *   MUT_SERVE_CLEAR      serve_wake_req before commit f393dcf: exchange
 *                        the request to 0 first, wake only if the deque
 *                        has something (the request lost at a pop whose
 *                        task was stolen)
 *   MUT_REQ_RLX          ask_for_sleeper's store of the request relaxed
 *   MUT_LOOK_FIRST       the sleeper's last look before posting the request
 *   MUT_POP_NOREQ        the owner does not read the request at a pop
 *                        (TSO finds it with a buffer that holds two pushes'
 *                        bottom stores; WEAK does not, since mm.pml's release
 *                        store first waits for the older stores, so only the
 *                        newest push can be missed and the pop takes it)
 *   MUT_PUSH_NOREQ       the owner does not read the request at a push
 *                        (the pop alone keeps the promise)
 *   MUT_NO_RENEW         a thief that took the last task does not renew
 *                        the request for the other sleepers
 *   MUT_PUSH_RLX         the push's bottom store relaxed (nothing
 *                        publishes the slot and the arguments)
 *   MUT_STEAL_NOFENCE    the thief without the seq_cst fence between its
 *                        reads of top and bottom (not expected to be found:
 *                        mm.pml performs loads in order and the thief has no
 *                        store before them; the fence is a C11 obligation)
 * Coverage (-DCOVER_X=1 makes reaching X an assertion failure):
 *   COVER_PUSH_SERVE   a push sees a request and wakes a sleeper
 *   COVER_POP_SERVE    a pop sees a request and wakes a sleeper
 *   COVER_POP_CATCH    ... a sleeper whose last look missed a pushed task
 *   COVER_KEEP         serve keeps a request (nothing to share)
 *   COVER_OWNER_CAS    the owner wins the CAS for the last task
 *   COVER_JOIN         the owner joins a task stolen at its SYNC
 *   COVER_BUSY         a thief loses its CAS
 *   COVER_MORE         a thief steals with more left and wakes a sleeper
 *   COVER_RENEW        a thief takes the last task and renews the request
 *   COVER_SKIPREQ      a sleeper finds a request pending and skips its store
 *   COVER_MISSED       a sleeper's last look reads a bottom older than the
 *                      owner's (program order) while a task is there, and
 *                      it goes to sleep
 *   COVER_WITHDRAW     a sleeper's last look finds a task and withdraws
 *   COVER_PUSH_SLOW    a push takes the slow path (stale cl_top_seen)
 *   COVER_WRAP         a push reuses an array entry (index >= NARR)
 *
 * Bounds (-D): SCRIPT (default P P S S), NI idle workers (1 or 2), NARR
 * array entries (default 4; 2 to reuse entries and take push_slow), BUFSZ
 * store-buffer entries per thread (default 5: a whole push, 4 stores, and
 * one more, so that a push's bottom store can wait behind the previous
 * one on TSO).
 *
 * Not modelled: array growth (a push that needs it ends the run), the thieves' own deques (a stolen task is a leaf; a sleeper's
 * requests and last looks on the other idle workers' empty deques are
 * left out), JOIN sleeps of the owner at a stolen task's sync (sleep.pml
 * checks that pair: here the joiner polls until DONE) and therefore
 * sleeping_join and weft__wake_joiner, JOIN_LEAP sleepers and
 * leap_sleepers (always 0 here), leapfrogging (the thieves have no tasks),
 * WEFT_YIELD's poll, interrupts (freeze/thaw), suspension, external RUNs.
 */
#ifndef SCRIPT
#define SCRIPT P P S S
#endif
#ifndef NI
#define NI 1                /* idle workers (thieves and sleepers) */
#endif
#ifndef LONG_STEAL
#define LONG_STEAL 1        /* an idle worker may run a stolen task for good */
#endif
#ifndef NARR
#define NARR 4              /* array entries (mask NARR - 1) */
#endif
#define MASK (NARR - 1)
#define NSTACK 3            /* descriptor slots on the owner's task stack */
#define NOPS 8
#define NTASK (NOPS + 1)
#define P_OP 1
#define S_OP 2
#define P script[k] = P_OP; k++;
#define S script[k] = S_OP; k++;

#define OWNER 0
#define NT (1 + NI)

#define EMPTY 0
#define TASK 1
#define STOLEN 2
#define DONE 3
#define RESULT(id) ((id) + 64)

#define AWAKE 0
#define K_IDLE 1

#define L_TOP 0
#define L_BOT 1
#define L_REQ 2
#define L_QUIT 3
#define L_COUNT 4                          /* sleeping_idle */
#define L_SWORD(k) (5 + (k) - 1)           /* idle worker k = 1 .. NI */
#define L_ARR(i) (5 + NI + (i))
#define L_STATE(h) (5 + NI + NARR + (h))
#define L_ARG(h) (5 + NI + NARR + NSTACK + (h))
#define L_RES(h) (5 + NI + NARR + 2 * NSTACK + (h))
#define NLOC (5 + NI + NARR + 3 * NSTACK)
#ifndef BUFSZ
#define BUFSZ 5             /* a whole push (4 stores) and one more */
#endif

#include "mm.pml"

#define COVER(x) assert(!(x))
#ifndef COVER_PUSH_SERVE
#define COVER_PUSH_SERVE 0
#endif
#ifndef COVER_POP_SERVE
#define COVER_POP_SERVE 0
#endif
#ifndef COVER_POP_CATCH
#define COVER_POP_CATCH 0
#endif
#ifndef COVER_KEEP
#define COVER_KEEP 0
#endif
#ifndef COVER_OWNER_CAS
#define COVER_OWNER_CAS 0
#endif
#ifndef COVER_JOIN
#define COVER_JOIN 0
#endif
#ifndef COVER_BUSY
#define COVER_BUSY 0
#endif
#ifndef COVER_MORE
#define COVER_MORE 0
#endif
#ifndef COVER_RENEW
#define COVER_RENEW 0
#endif
#ifndef COVER_SKIPREQ
#define COVER_SKIPREQ 0
#endif
#ifndef COVER_MISSED
#define COVER_MISSED 0
#endif
#ifndef COVER_WITHDRAW
#define COVER_WITHDRAW 0
#endif
#ifndef COVER_PUSH_SLOW
#define COVER_PUSH_SLOW 0
#endif
#ifndef COVER_WRAP
#define COVER_WRAP 0
#endif

bool fwait[NT];          /* blocked in futex_wait */

/* ghosts */
byte slot_id[NSTACK];    /* the task in each descriptor slot */
byte arr_h[NARR];        /* what the owner last stored in each array entry */
byte ran[NTASK + 1];
byte mark;               /* the bottom stored by the owner's last SYNC */
byte gbot;               /* the owner's bottom in program order */
bool missed[NT];         /* the sleeper's last look missed a pushed task */
bool owner_done;         /* the script finished (the pool is stopping) */
bool idle_long;          /* an idle worker runs a stolen task for good ... */
byte long_h;             /* ... this one */

inline run_task(h, id)
{
    atomic {
        assert(id == slot_id[h]);      /* the arguments are visible */
        assert(ran[id] == 0);          /* exactly once: not run before */
        ran[id]++
    }
}

#include "futex.pml"

/* claim(v, IDLE): relaxed peek, acq_rel CAS, count - 1, futex_wake */
inline claim(me, v)
{
    LD(me, L_SWORD(v), cs);
    if
    :: cs == K_IDLE ->
        CAS(me, L_SWORD(v), cs, AWAKE, cok);
        if
        :: cok ->
            FADD_RLX(me, L_COUNT, -1, cold);
            cokw = 1;
            atomic {
                assert(!(COVER_POP_CATCH && me == OWNER && serving == 2 && missed[v]));
                assert(!(COVER_PUSH_SERVE && fwait[v] && me == OWNER && serving == 1));
                assert(!(COVER_POP_SERVE && fwait[v] && me == OWNER && serving == 2));
                assert(!(COVER_MORE && fwait[v] && me != OWNER));
                fwait[v] = 0                   /* futex_wake */
            }
        :: else
        fi
    :: else
    fi;
    cs = 0; cok = 0; cold = 0
}

/* weft__wake_for_work_of(owner 0, self): leap_sleepers and sleeping_join
 * are 0 here; the seq_cst read of sleeping_idle, then wake_one in worker
 * order from self + 1 (the owner never sleeps as IDLE: skipped). */
inline wake_for_work(me)
{
    LD_SC(me, L_COUNT, wa);
    if
    :: wa != 0 ->
        wv = 1;
        do
        :: wv > NI -> break
        :: wv <= NI ->
            wk = (me + wv - 1) % NI + 1;   /* me + 1, me + 2, ... among 1 .. NI */
            if
            :: wk != me ->
                claim(me, wk);
                if
                :: cokw -> break
                :: else
                fi
            :: else
            fi;
            wv++
        od
    :: else
    fi;
    wa = 0; wv = 0; wk = 0; cokw = 0
}

/* weft__sched_ask_for_sleeper(owner): seq_cst test, seq_cst store */
inline ask_for_sleeper(me)
{
    LD_SC(me, L_REQ, x);
    if
    :: x == 0 ->
#ifdef MUT_REQ_RLX
        ST(me, L_REQ, 1)
#else
        ST_SC(me, L_REQ, 1)
#endif
    :: else -> COVER(COVER_SKIPREQ)
    fi;
    x = 0
}

/* weft__cl_serve_wake_req, by the owner (cl_bottom = cb) */
inline serve(cb)
{
    LD(OWNER, L_TOP, st);                  /* relaxed */
#ifdef MUT_SERVE_CLEAR
    XCHG(OWNER, L_REQ, 0, x);
    if
    :: cb - st > 0 -> wake_for_work(OWNER)
    :: else -> COVER(COVER_KEEP)
    fi
#else
    if
    :: cb - st <= 0 -> COVER(COVER_KEEP)    /* keep it for a later push */
    :: else ->
        XCHG(OWNER, L_REQ, 0, x);          /* seq_cst */
        wake_for_work(OWNER)
    fi
#endif
    ; x = 0; st = 0
}

byte script[NOPS];

proctype owner()
{
    byte _i, op, id, h, b, t, st, x, ok, r, top_seen, cb;
    byte wa, wv, wk, cokw, cs, cok, cold, serving;
    do
    :: op < NOPS && script[op] != 0 ->
        if
        :: script[op] == P_OP ->                       /* SPAWN: weft_cl_push */
            id++;
            slot_id[h] = id;
            ST(OWNER, L_ARG(h), id);                   /* the arguments */
            ST(OWNER, L_STATE(h), TASK);               /* the wrapper, relaxed */
            b = cb;
            if
            :: b - top_seen >= MASK ->                 /* weft__cl_push_slow */
                COVER(COVER_PUSH_SLOW);
                LD(OWNER, L_TOP, t);                   /* acquire */
                top_seen = t;
                if
                :: b - t >= MASK -> goto long_task     /* growth: not modelled, the run ends */
                :: else
                fi;
                t = 0
            :: else
            fi;
            if
            :: b >= NARR -> COVER(COVER_WRAP)
            :: else
            fi;
            atomic { ST(OWNER, L_ARR(b & MASK), h + 1); arr_h[b & MASK] = h + 1 };
            atomic {
#ifdef MUT_PUSH_RLX
                ST(OWNER, L_BOT, b + 1);
#else
                ST_REL(OWNER, L_BOT, b + 1);
#endif
                gbot = b + 1
            };
            cb = b + 1;
#ifndef MUT_PUSH_NOREQ
            LD(OWNER, L_REQ, r);                       /* relaxed */
            if
            :: r -> serving = 1; serve(cb); serving = 0
            :: else
            fi;
#endif
            h++; b = 0; r = 0
        :: script[op] == S_OP ->                       /* SYNC: weft_cl_pop_private */
            h--;
            b = cb - 1;
            atomic { ST(OWNER, L_BOT, b); gbot = b };  /* relaxed */
#ifndef MUT_POP_NOFENCE
            FENCE_SC(OWNER);
#endif
            mark = b;
            LD(OWNER, L_TOP, t);                       /* relaxed */
#ifndef MUT_POP_NOREQ
            LD(OWNER, L_REQ, r);                       /* relaxed */
            if
            :: r -> serving = 2; serve(cb); serving = 0 /* cl_bottom not yet b */
            :: else
            fi;
#endif
            r = 0;
            if
            :: t < b ->                                /* private: run it inline */
                cb = b; top_seen = t;
                ST(OWNER, L_STATE(h), EMPTY);
                run_task(h, slot_id[h])
            :: else ->                                 /* weft__cl_sync_slow */
                LD(OWNER, L_TOP, t);                   /* relaxed */
                ok = 0;
                if
                :: t == b -> CAS(OWNER, L_TOP, t, b + 1, ok)   /* seq_cst */
                :: else
                fi;
                atomic { ST(OWNER, L_BOT, b + 1); gbot = b + 1 };  /* relaxed */
                cb = b + 1; top_seen = b + 1;
                if
                :: ok -> COVER(COVER_OWNER_CAS); run_task(h, slot_id[h])
                :: else ->                             /* stolen: weft__join_stolen */
                    COVER(COVER_JOIN);
                    if
                    :: atomic { LOC_DRAINED(OWNER, L_STATE(h)) && mem[L_STATE(h)] == DONE }
                    :: atomic { idle_long && long_h == h } -> goto long_task  /* joins it for good */
                    fi;
                    LD(OWNER, L_STATE(h), x);          /* acquire: DONE */
                    assert(x == DONE);
                    LD(OWNER, L_RES(h), x);
                    assert(x == RESULT(slot_id[h]))
                fi;
                ST(OWNER, L_STATE(h), EMPTY);          /* relaxed */
                ok = 0
            fi;
            t = 0; x = 0
        fi;
        op++;
        if
        :: true
        :: true -> goto long_task                      /* stops for good */
        fi
    :: else -> break
    od;
    /* the script is done: every task ran once */
    atomic {
        x = 1;
        do
        :: x <= id -> assert(ran[x] == 1); x++
        :: else -> break
        od;
        x = 0;
        owner_done = 1
    };
    /* weft_stop: quit (seq_cst), fence, claim every sleeper */
    ST_SC(OWNER, L_QUIT, 1);
    FENCE_SC(OWNER);
    wv = 1;
    do
    :: wv <= NI -> claim(OWNER, wv); wv++
    :: else -> break
    od;
    wv = 0;
long_task:
    skip
}

proctype idler(byte me)
{
    byte _i, x, t, b, p, h, a, ok, more, found;
    byte wa, wv, wk, cokw, cs, cok, cold, serving;
    do
    :: LD(me, L_QUIT, x);                              /* acquire */
        if
        :: x -> break
        :: else
        fi;
        /* weft__sched_steal(me, owner) */
        LD(me, L_TOP, t);                              /* acquire */
#ifndef MUT_STEAL_NOFENCE
        FENCE_SC(me);
#endif
        LD(me, L_BOT, b);                              /* acquire */
        if
        :: t < b ->
            LD(me, L_ARR(t & MASK), p);                /* relaxed */
            CAS(me, L_TOP, t, t + 1, ok);              /* seq_cst */
            if
            :: ok ->
                assert(p != 0 && p == arr_h[t & MASK]);  /* the entry pushed at t */
                h = p - 1;
                LD(me, L_STATE(h), x);                 /* relaxed: the wrapper */
                assert(x == TASK);
                ST(me, L_STATE(h), STOLEN);            /* relaxed */
                more = (t + 1 < b);
                if
                :: more ->                             /* OK_MORE: cascade */
                    wake_for_work(me)
                :: else ->                             /* OK: renew for the sleepers */
#ifndef MUT_NO_RENEW
                    LD_SC(me, L_COUNT, x);
                    if
                    :: x != 0 -> COVER(COVER_RENEW); ask_for_sleeper(me)
                    :: else
                    fi;
#endif
                    x = 0
                fi;
                /* run_stolen (or, once, a stolen task that runs for good) */
                if
                :: true
                :: atomic { LONG_STEAL && !idle_long -> idle_long = 1; long_h = h }; goto long_run
                fi;
                LD(me, L_ARG(h), a);
                run_task(h, a);
                ST(me, L_RES(h), RESULT(a));
                ST_SC(me, L_STATE(h), DONE);           /* seq_cst */
                /* weft__wake_joiner: the owner never sleeps here */
                more = 0; a = 0; h = 0; p = 0; ok = 0
            :: else -> COVER(COVER_BUSY); p = 0         /* BUSY */
            fi
        :: else ->                                     /* NONE */
            /* weft__idle_backoff's spinning is not modelled: a failed
             * attempt changes nothing shared, so trying again later is
             * the same as trying later; after NONE the worker sleeps. */
            if
            :: true ->                                 /* weft__sleep(IDLE) */
                ST_SC(me, L_SWORD(me), K_IDLE);
                FADD(me, L_COUNT, 1, x);               /* seq_cst */
                found = 0;
#ifdef MUT_LOOK_FIRST
                LD_SC(me, L_QUIT, x); found = x;
                LD_SC(me, L_TOP, t); LD_SC(me, L_BOT, b);
                found = found || t < b;
#endif
                ask_for_sleeper(me);                   /* leave_requests */
#ifndef MUT_LOOK_FIRST
                LD_SC(me, L_QUIT, x); found = x;       /* the last look */
                LD_SC(me, L_TOP, t);                   /* has_shared */
                atomic { LD_SC(me, L_BOT, b); missed[me] = (b < gbot && t < gbot) };
                found = found || t < b;
#endif
                if
                :: found ->                            /* withdraw unless claimed */
                    COVER(COVER_WITHDRAW);
                    cs = K_IDLE;
                    CAS(me, L_SWORD(me), cs, AWAKE, cok);   /* acq_rel */
                    if
                    :: cok -> FADD_RLX(me, L_COUNT, -1, cold)
                    :: else
                    fi;
                    cs = 0; cok = 0; cold = 0; missed[me] = 0
                :: else ->
                    if
                    :: missed[me] -> COVER(COVER_MISSED)
                    :: else
                    fi;
                    do
                    :: LD(me, L_SWORD(me), x);         /* acquire */
                        if
                        :: x == AWAKE -> break
                        :: else -> futex_wait(me, x)
                        fi
                    od;
                    missed[me] = 0
                fi;
                found = 0
            fi
        fi;
        x = 0; t = 0; b = 0
    od;
long_run:
    skip
}

/* When nothing can move: no sleeper is stranded. */
proctype monitor()
{
    byte k, n;
    atomic {
        timeout ->
        n = 0;
        k = 1;
        do
        :: k <= NI ->
            assert(!(fwait[k] && mem[L_TOP] < mark));            /* PROMISE */
            assert(!fwait[k] || mem[L_REQ] == 1);                 /* PENDING */
            assert(!fwait[k] || mem[L_SWORD(k)] == K_IDLE);       /* COUNT */
#ifdef STRONG
            assert(!(fwait[k] && mem[L_TOP] < mem[L_BOT]));       /* STRONG */
#endif
            if
            :: mem[L_SWORD(k)] == K_IDLE -> n++
            :: else
            fi;
            k++
        :: else -> break
        od;
        assert(mem[L_COUNT] == n)                                 /* COUNT */
    }
}

init {
    atomic {
        byte k = 0;
        SCRIPT
        k = 1;
        run owner();
        do
        :: k <= NI -> run idler(k); k++
        :: else -> break
        od;
        run monitor();
        k = 0;
        do
        :: k < NT -> START_FLUSHER(k); k++
        :: else -> break
        od
    }
}
