/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of weft's interrupts (src/runtime/interrupt.c: run_interrupt,
 * weft__interrupt_serve, the two barriers, help_until_finished, the last
 * leaver) with the split deque as the scheduler (src/sched/split/split_deque.c:
 * weft__sched_freeze / weft__sched_thaw, the thief's steal, the owner's
 * push and sync paths as in split_ops.pml).  Every access has the memory
 * order of the C code (mm.pml).  Only NEWFRAME is modelled (TOGETHER
 * differs in who runs what inside the frames, not in the freeze, the
 * barriers or the slot).
 *
 * Worker 0 owns a deque and runs a SCRIPT: P = spawn an old task, S = sync
 * one (its wait for a stolen task is an interrupt point: weft__join_stolen
 * serves with head = t + 1), Y = WEFT_YIELD (an interrupt point), N =
 * NEWFRAME called from a task on worker 0 (worker 0 is the initiator and
 * the executor; the frame starts above the old tasks).  After the script
 * it is idle (worker_loop: serves interrupts).  Worker 1 is idle: it
 * makes up to NATT steal attempts on worker 0's old tasks (the thief's
 * read of (tail,split) and its CAS are separate steps, so a steal is in
 * flight when the interrupt arrives), runs what it steals as a leaf in
 * two steps (begin, end: a long old task), serves interrupts, and with
 * W1_INIT=1 calls NEWFRAME itself once from its idle loop.  NEXT external
 * threads (0, 1 or 2) each call NEWFRAME once (executor: the first worker
 * to arrive, elected by CAS).  A NEWFRAME task spawns one child into its
 * executor's frame and syncs it; the other worker, helping, may steal the
 * child (help_until_finished) and the executor then waits for it.
 *
 * The interrupt: the initiator takes the slot (CAS busy 0 -> 1, acquire;
 * a worker initiator that finds it busy serves the pending interrupt
 * meanwhile), reads `released`, bumps last_generation, fills the slot
 * (initiator, executor, the counters and `finished`: relaxed stores) and
 * publishes the generation (seq_cst); a worker then serves and returns
 * once it has left itself, an external thread waits for `released`
 * (the C code's `ended`) to change (acquire).  A server reads the generation
 * (acquire), freezes its deque (saved o_split and allstolen hint; one
 * seq_cst exchange of (tail,split) to (head,head); allstolen = 1;
 * o_allstolen; update_limit), elects itself executor if the initiator is
 * not a worker (relaxed CAS), barrier 1 (fetch_add acq_rel; the last
 * arrival clears the generation, relaxed, then stores `passed`, release,
 * which the others wait for), runs the task if it is the executor and marks `finished`
 * (seq_cst), helps until `finished` (acquire loads; steals from the other
 * worker), barrier 2, thaws (seq_cst store of the saved word, allstolen,
 * o_split, update_limit), and leaves (fetch_add acq_rel on `left`); the
 * last leaver bumps `released` (release: `ended`) and frees the slot
 * (release store), its last touch of the one record that every outermost
 * interrupt fills in turn.  Nested interrupts: interrupt_nest.pml.
 *
 * Abstractions: waits are blocking guards on memory (spinning and futex
 * sleeps only add iterations; the exact futex of the other models): the
 * barriers, the initiator's wait for `released`, an initiator waiting for
 * the slot, an idle worker waiting for an interrupt (wake_all and
 * unpark_all exact), a joiner waiting for DONE, and a helper with nothing
 * to steal, which waits until `finished` or until its victim shows a
 * shared task (a JOIN sleep on `finished` woken exactly; sleep.pml checks
 * that protocol).  A helper that stops waiting still makes the steal
 * attempt it was in (it read `finished` before).  A worker's idle loop
 * may take a steal attempt although an interrupt is pending (as if its
 * look at the generation was just before the publication).  Stolen
 * tasks' results, leapfrogging (the thieves' deques hold no tasks: old
 * tasks are leaves) and the sleep protocol are not modelled (split_deque.pml,
 * sleep.pml).
 *
 * Properties (assertions, end states):
 *   - no task below a frozen head is stolen (checked in the thief's CAS
 *     step), and a worker inside an interrupt (frozen) steals no old task,
 *     a worker outside none of the interrupt's tasks;
 *   - stop-the-world: the NEWFRAME task starts only when every worker has
 *     frozen and no old task is running; no old task starts while the
 *     interrupt's work runs;
 *   - every task (old ones, the NEWFRAME tasks and their children) runs
 *     exactly once; the thief reads the owner's arguments and a live task;
 *   - the interrupt's task and child have run before anyone leaves, and
 *     the frame is empty at thaw;
 *   - generations do not mix: a worker serving g finds the slot holding
 *     g; an initiator takes the slot (and refills the record) only when
 *     nobody is inside an interrupt; an external initiator returns only
 *     after every worker left its interrupt, a worker initiator after it
 *     left and the interrupt's work is done;
 *   - at the end the slot is free and the generation is 0;
 *   - a worker initiator waiting for the slot serves what is published
 *     meanwhile: when nothing can move, no worker waits for the slot while
 *     a generation is published (waits_for_slot);
 *   - no deadlock: when nothing can move, every initiator returned and
 *     worker 0 finished its script (an initiator waiting for `released`
 *     forever, a worker stuck at a barrier).
 *
 * Mutants (-D, one at a time):
 *   MUT_NO_BARRIER1   no barrier 1: the executor starts before others froze
 *   MUT_NO_BARRIER2   no barrier 2: a worker thaws while another is still
 *                     in a steal attempt on the frames
 *   MUT_FREEZE_NOHIDE the freeze saves (tail,split) but does not move it
 *                     (old shared tasks stay stealable)
 *   MUT_FREEZE_STORE  the freeze by load + store instead of the exchange
 *                     (a steal in between is undone by the thaw)
 *   MUT_EARLY_FREE    the first leaver (not the last) clears the
 *                     generation, bumps `released` and frees the slot
 *   MUT_FREE_ORDER    the last leaver frees the slot before it bumps
 *                     `released`: the next external initiator reads the
 *                     old count and returns before its interrupt ends
 *   MUT_LEAVE_RLX     the last leaver's `released` bump and busy store
 *                     relaxed (no longer found: the generation is cleared
 *                     at barrier 1 now; run.sh does not run it)
 *   MUT_PASS_EARLY    barrier 1's last arrival lets the others pass before
 *                     it unpublishes the generation (found only where an
 *                     interrupt nests: interrupt_nest.pml's
 *                     MUT_UNPUBLISH_LATE)
 *   MUT_PUBLISH_RLX   the generation published with a relaxed store (weak
 *                     model: the slot's reset counters arrive late)
 *   MUT_INIT_NOSERVE  a worker initiator waiting for the slot does not
 *                     serve the pending interrupt (waits_for_slot)
 *   MUT_INIT_FREES    the initiator frees the slot when it returns, not
 *                     the last leaver: a worker initiator returns before
 *                     the other worker left, and the record is refilled
 *                     while it is still inside
 */
#ifndef NSLOT
#define NSLOT 4
#endif
#ifndef NATT
#define NATT 1
#endif
#ifndef NEXT
#define NEXT 1                    /* external initiator threads */
#endif
#ifndef W1_INIT
#define W1_INIT 0                 /* worker 1 calls NEWFRAME once */
#endif
#ifndef SCRIPT
#define SCRIPT P P Y S S
#endif
#define NOPS 6
#define NOLD 3                    /* at most three old tasks (ids 1..3) */
#define P_OP 1
#define S_OP 2
#define Y_OP 3
#define N_OP 4
#define P script[k] = P_OP; k++;
#define S script[k] = S_OP; k++;
#define Y script[k] = Y_OP; k++;
#define N script[k] = N_OP; k++; ninit++;

#define NW 2                      /* workers */
#define NT (NW + NEXT)
#define NONE 255                  /* a NULL worker pointer */

#define OWNER self                /* split_ops.pml's owner: worker self, deque self */
/* Two deques, worker d's at d * DQL (split_defs.pml's DQ_*; no result
 * slots: results are not modelled). */
#define DQL (3 + 2 * NSLOT)
#define DQ_TS(d) ((d) * DQL + 0)
#define DQ_ALLSTOLEN(d) ((d) * DQL + 1)
#define DQ_LIMIT(d) ((d) * DQL + 2)
#define DQ_STATE(d, i) ((d) * DQL + 3 + (i))
#define DQ_ARG(d, i) ((d) * DQL + 3 + NSLOT + (i))
#include "split_defs.pml"
/* The interrupt slot (static `slot`, weft_interrupt_pending_g,
 * last_generation). */
#define IB (NW * DQL)
#define L_BUSY (IB + 0)
#define L_REL (IB + 1)
#define L_PG (IB + 2)
#define L_INITR (IB + 3)
#define L_EXEC (IB + 4)
#define L_ARR (IB + 5)
#define L_STOP (IB + 6)
#define L_LEFT (IB + 7)
#define L_FIN (IB + 8)
#define L_LASTG (IB + 9)
#define L_PASS (IB + 10)          /* the record's `passed` */
#define NLOC (IB + 11)
#ifndef BUFSZ
#define BUFSZ 3
#endif

#include "mm.pml"

/* Coverage: -DCOVER_X=1 makes reaching point X an error. */
#ifndef COVER_FREEZE_SHARED
#define COVER_FREEZE_SHARED 0     /* a freeze hides shared, unstolen old tasks */
#endif
#ifndef COVER_STALE_CAS
#define COVER_STALE_CAS 0         /* a thief's CAS fails: the victim froze after its read */
#endif
#ifndef COVER_FREEZE_REQ
#define COVER_FREEZE_REQ 0        /* a thief's request is pending at the freeze */
#endif
#ifndef COVER_HELP_STEAL
#define COVER_HELP_STEAL 0        /* a helper steals the child from a frame */
#endif
#ifndef COVER_FRAME_JOIN
#define COVER_FRAME_JOIN 0        /* the executor waits for a stolen child */
#endif
#ifndef COVER_JOIN_SERVE
#define COVER_JOIN_SERVE 0        /* a blocked SYNC serves the interrupt */
#endif
#ifndef COVER_STEAL_AFTER
#define COVER_STEAL_AFTER 0       /* an old task stolen after the thaw */
#endif
#ifndef COVER_SLOT_BUSY
#define COVER_SLOT_BUSY 0         /* an initiator finds the slot taken */
#endif
#ifndef COVER_INIT_SERVES
#define COVER_INIT_SERVES 0       /* ... and, a worker, serves the other one meanwhile */
#endif
#ifndef COVER_EXEC_W1
#define COVER_EXEC_W1 0           /* an external NEWFRAME runs on worker 1 */
#endif

/* ---- ghosts ---- */
#define NTASK (NOLD + 2 * 3 + 1)
#define OLD(id) ((id) >= 1 && (id) <= NOLD)
#define ID_X(g) (NOLD + 2 * (g) - 1)     /* generation g's NEWFRAME task */
#define ID_C(g) (NOLD + 2 * (g))         /* ... and its child */
byte sid[NW * NSLOT];     /* the task in each slot */
byte ran[NTASK + 1];      /* how often each task ran */
bit frozen[NW];           /* between the freeze and the thaw */
byte fhead[NW];           /* the frozen head (the frame's start) */
byte nfreeze[NW];         /* freezes so far */
byte nthaw[NW];           /* thaws so far */
bit inside[NW];           /* between reading g and leaving (left + 1) */
byte nleft[4];            /* per generation: workers that left */
byte slot_gen;            /* the generation the slot holds */
byte work;                /* interrupt work running (task or stolen child) */
byte old_running;         /* old tasks running on a thief */
byte ndone;               /* initiators that returned */
bool w0_done;
byte script[NOPS];
byte ninit;               /* initiators expected (set in init) */
bit waits_for_slot[NW];   /* a worker initiator waits for the slot to be free */

/* ---- the split deque: split_ops.pml for worker self's deque (owner
 * side: the owner's locals head, o_split, new_s, t, s, x, cur, ok, all)
 * and, as a thief, for a victim's (tx, ttail, tsplit, tst, targ, tok) ---- */

/* Task id runs on worker self (inline, or stolen: `stolen`).  Old tasks
 * run on a thief in two steps (a long task); the interrupt's child too. */
inline run_task(id, slotid, stolen)
{
    atomic {
        assert(id == slotid);                      /* the arguments are visible */
        assert(ran[id] == 0);                      /* exactly once */
        ran[id]++;
        if
        :: OLD(id) ->
            assert(work == 0);                     /* no old task beside the interrupt */
            if
            :: stolen -> old_running++
            :: else
            fi
        :: else ->
            assert(frozen[self]);                    /* interrupt work inside the interrupt */
            work++
        fi
    };
    atomic {
        if
        :: OLD(id) && stolen -> old_running--
        :: OLD(id) && !stolen
        :: else -> work--
        fi
    }
}
#define RUN_TASK(d, slot, id, stolen) run_task(id, SLOT_ID(d, slot), stolen)
#define SLOT_ID(d, i) sid[(d) * NSLOT + (i)]

/* The thief's CAS (line 5, acquire) with the checks of the frozen head in
 * the same step.  (A failed CAS leaves tx: it is not read again.) */
inline steal_cas(me, vic)
{
    atomic {
        RMW_GUARD(me, DQ_TS(vic)) ->
        if
        :: mem[DQ_TS(vic)] == tx ->
            mem[DQ_TS(vic)] = tx + 1; tok = 1;
            /* nothing below a frozen head */
            assert(!frozen[vic] || ttail >= fhead[vic]);
            /* inside an interrupt only its tasks, outside only old ones */
            assert(frozen[me] == !OLD(SLOT_ID(vic, ttail)));
            if
            :: OLD(SLOT_ID(vic, ttail)) && nthaw[vic] > 0 -> assert(!COVER_STEAL_AFTER)
            :: else
            fi
        :: else ->
            tok = 0;
            if
            :: nfreeze[vic] != tfz -> assert(!COVER_STALE_CAS)
            :: else
            fi
        fi
    }
}

/* split_ops.pml's switches and hooks (see its header) */
#define FIX_CLEAR_SEQCST          /* clear_splitreq is seq_cst in the C code */
#define NO_SLEEP                  /* nobody sleeps in this model */
#define NO_RESULTS                /* stolen tasks' results are not modelled */
#define OWN_SYNC                  /* the joins are interrupt points: below */
#define RESERVE_NEVER_FULL        /* NSLOT leaves the last slot free */
#define NO_SPLIT_COVER            /* its coverage points are its own */
#define STEAL_PARAMS me, vic      /* steal_once(thief, victim's deque) */
#define VICTIM vic
/* the victim's freezes so far when the thief reads (tail,split) */
#define STEAL_READ_HOOK(me, vic) tfz = nfreeze[vic];
#define STEAL_CAS(me, vic) steal_cas(me, vic)
#define STEAL_TAKEN_HOOK(me) \
    if \
    :: !OLD(targ) -> assert(!COVER_HELP_STEAL) \
    :: else \
    fi;
#include "split_ops.pml"

/* The thief side: worker self steals from deque vic. */
inline steal_from(vic)
{
    steal_once(self, vic);
    tfz = 0
}

/* The joiner's wait for DONE (acquire) inside the interrupt: worker self has
 * served this generation, so weft__join_stolen's interrupt check is false. */
inline join_frame(slot)
{
    assert(!COVER_FRAME_JOIN);
    atomic { LOC_DRAINED(self, DQ_STATE(self, slot)) && mem[DQ_STATE(self, slot)] == DONE }
}

/* weft__join_stolen of an old task: an interrupt point (head = t + 1). */
inline join_old(slot)
{
    do
    :: atomic { LOC_DRAINED(self, DQ_STATE(self, slot)) && mem[DQ_STATE(self, slot)] == DONE } -> break
    :: atomic { mem[L_PG] != 0 && mem[L_PG] != seen } ->
        assert(!COVER_JOIN_SERVE);
        head++;
        serve();
        head--
    od
}

/* ---- the interrupt ---- */

/* weft__sched_freeze(w, head = fr) */
inline freeze()
{
    sv_os = o_split;
    LD(self, DQ_ALLSTOLEN(self), sv_as);           /* our own hint */
#if defined(MUT_FREEZE_STORE)
    LD(self, DQ_TS(self), sv_ts);
    atomic { ST_SC(self, DQ_TS(self), TS(fr, fr)); frozen[self] = 1; fhead[self] = fr; nfreeze[self]++ };
#elif defined(MUT_FREEZE_NOHIDE)
    atomic { LD(self, DQ_TS(self), sv_ts); frozen[self] = 1; fhead[self] = fr; nfreeze[self]++ };
#else
    atomic { XCHG(self, DQ_TS(self), TS(fr, fr), sv_ts); frozen[self] = 1; fhead[self] = fr; nfreeze[self]++ };
#endif
    if
    :: TAIL(sv_ts) < SPLIT(sv_ts) -> assert(!COVER_FREEZE_SHARED)
    :: else
    fi;
    ST(self, DQ_ALLSTOLEN(self), 1);               /* hint */
    o_split = END;                                 /* o_allstolen */
    LD(self, DQ_LIMIT(self), cur);                 /* update_limit */
    if
    :: cur != SPLITREQ -> CAS_RLX(self, DQ_LIMIT(self), cur, o_split, ok); ok = 0
    :: else -> assert(!COVER_FREEZE_REQ)
    fi;
    cur = 0
}

/* weft__sched_thaw(w, saved) */
inline thaw()
{
    atomic { ST_SC(self, DQ_TS(self), sv_ts); frozen[self] = 0; nthaw[self]++ };
    ST(self, DQ_ALLSTOLEN(self), sv_as);
    o_split = sv_os;
    update_limit();
    sv_ts = 0; sv_os = 0; sv_as = 0
}

/* A barrier: fetch_add acq_rel, the last arrival goes on, the others wait
 * (acquire) until the count reaches NW. */
inline arrive_and_wait(loc)
{
    FADD(self, loc, 1, x);
    if
    :: x + 1 != NW -> atomic { mem[loc] >= NW }
    :: else
    fi;
    x = 0
}

/* The NEWFRAME task of generation g on its executor: spawn the child into
 * the frame, sync it. */
inline newframe_task()
{
    atomic {
        assert(frozen[0] && frozen[1]);            /* every worker stopped */
        assert(old_running == 0);                  /* no old task running */
        assert(ran[ID_X(g)] == 0);
        ran[ID_X(g)]++;
        work++
    };
    owner_push(ID_C(g));
    sync_frame();
    work--
}

/* help_until_finished: steal from the other worker's frame until done. */
inline help()
{
    do
    :: LD(self, L_FIN, x);                           /* acquire */
        if
        :: x == DONE -> break
        :: else ->
            /* nothing to steal: a JOIN sleep on `finished`, woken for work
             * or for the end (exact) */
            atomic { mem[L_FIN] == DONE || TAIL(mem[DQ_TS(1 - self)]) < SPLIT(mem[DQ_TS(1 - self)]) };
            steal_from((1 - self))
        fi
    od;
    x = 0
}

/* weft__interrupt_serve(w, head) */
inline serve()
{
    LD(self, L_PG, g);                               /* acquire */
    if
    :: g == 0 || g == seen -> skip
    :: else ->
        seen = g;
        atomic { assert(g == slot_gen); inside[self] = 1 };  /* the slot holds g */
        fr = head;
        freeze();
        LD(self, L_INITR, x);                        /* plain */
        if
        :: x == NONE ->                            /* elect an executor */
            x = NONE;
            CAS_RLX(self, L_EXEC, x, self, ok);
            if
            :: ok && self == 1 -> assert(!COVER_EXEC_W1)
            :: else
            fi;
            ok = 0
        :: else
        fi;
        x = 0;
#ifndef MUT_NO_BARRIER1
        /* barrier 1: the last arrival unpublishes the generation, then
         * lets the others pass */
        FADD(self, L_ARR, 1, x);                     /* acq_rel */
        if
        :: x + 1 == NW ->
#ifdef MUT_PASS_EARLY
            ST_REL(self, L_PASS, 1);
            ST(self, L_PG, 0);
#else
            ST(self, L_PG, 0);                       /* relaxed */
            ST_REL(self, L_PASS, 1);                 /* release */
#endif
        :: else -> atomic { mem[L_PASS] == 1 }
        fi;
        x = 0;
#endif
        LD(self, L_EXEC, x);                         /* relaxed */
        if
        :: x == self ->
            x = 0;
            newframe_task();
            ST_SC(self, L_FIN, DONE)                 /* mark_finished */
        :: else -> x = 0
        fi;
        help();
#ifndef MUT_NO_BARRIER2
        arrive_and_wait(L_STOP);                   /* barrier 2 */
#endif
        assert(head == fr);                        /* the frame is empty */
        assert(ran[ID_X(g)] == 1 && ran[ID_C(g)] == 1);   /* its work is done */
        thaw();
        atomic {
            FADD(self, L_LEFT, 1, x);                /* acq_rel */
            assert(slot_gen == g);
            inside[self] = 0;
            nleft[g]++
        };
#ifdef MUT_EARLY_FREE
        if
        :: x == 0 ->
#else
        if
        :: x + 1 == NW ->                          /* the last leaver */
#endif
#ifdef MUT_FREE_ORDER
            ST_REL(self, L_BUSY, 0);
            FADD(self, L_REL, 1, x);
#elif defined(MUT_LEAVE_RLX)
            FADD_RLX(self, L_REL, 1, x);
            ST(self, L_BUSY, 0);
#elif defined(MUT_INIT_FREES)
            FADD(self, L_REL, 1, x);
#else
            FADD(self, L_REL, 1, x);                 /* release: `ended` */
            ST_REL(self, L_BUSY, 0);                 /* release */
#endif
        :: else
        fi;
        x = 0
    fi;
    g = 0
}

/* run_interrupt after the slot is taken: fill it, publish; who = the
 * initiating worker or NONE. */
inline fill_and_publish(who)
{
    LD(self, L_REL, rel);                            /* relaxed */
    LD(self, L_LASTG, mg);                           /* plain, guarded by busy */
    mg++;
    ST(self, L_LASTG, mg);
    atomic {
        assert(!inside[0] && !inside[1]);          /* nobody still in the last one */
        slot_gen = mg
    };
    /* relaxed stores (no load in between: one step to enqueue them) */
    atomic {
        ST(self, L_INITR, who);
        ST(self, L_EXEC, who);                       /* NEWFRAME: the initiator, or NULL */
        ST(self, L_ARR, 0);
        ST(self, L_PASS, 0);
        ST(self, L_STOP, 0);
        ST(self, L_LEFT, 0);
        ST(self, L_FIN, 0)
    };
#ifdef MUT_PUBLISH_RLX
    ST(self, L_PG, mg)
#else
    ST_SC(self, L_PG, mg)                            /* seq_cst; then wake_all */
#endif
}

inline wait_released()
{
    atomic { LOC_DRAINED(self, L_REL) && mem[L_REL] != rel };   /* acquire */
#ifdef MUT_INIT_FREES
    ST_REL(self, L_BUSY, 0);
#endif
    atomic {
        assert(nleft[mg] == NW);                   /* everyone left it */
        ndone++
    };
    rel = 0; mg = 0
}

/* run_interrupt from worker self */
inline run_interrupt()
{
    do
    :: x = 0;
        CAS(self, L_BUSY, x, 1, ok);                 /* acquire */
        if
        :: ok -> break
        :: else ->
            assert(!COVER_SLOT_BUSY);
#ifndef MUT_INIT_NOSERVE
            LD_SC(self, L_PG, x);                    /* weft_interrupt_waiting_for */
            if
            :: x != 0 && x != seen ->
                assert(!COVER_INIT_SERVES);
                serve()
            :: else ->
                atomic {
                    waits_for_slot[self] = 1;
                    (mem[L_BUSY] == 0 || (mem[L_PG] != 0 && mem[L_PG] != seen)) ->
                    waits_for_slot[self] = 0
                }
            fi
#else
            /* waits like a non-worker */
            atomic { waits_for_slot[self] = 1; mem[L_BUSY] == 0 -> waits_for_slot[self] = 0 }
#endif
        fi
    od;
    ok = 0; x = 0;
    fill_and_publish(self);
    serve();
    /* an outermost worker initiator returns once it has left itself */
#ifdef MUT_INIT_FREES
    ST_REL(self, L_BUSY, 0);
#endif
    atomic {
        assert(!inside[self]);                     /* it left */
        assert(ran[ID_X(mg)] == 1 && ran[ID_C(mg)] == 1);   /* its work is done */
        ndone++
    };
    rel = 0; mg = 0
}

inline do_yield()
{
    LD_SC(self, L_PG, x);                            /* weft_interrupt_waiting_for */
    if
    :: x != 0 && x != seen -> x = 0; serve()
    :: else -> x = 0
    fi
}

/* SYNC of the top task; two copies (inlines do not recurse): the old
 * tasks' (an interrupt point while waiting) and the frame's. */
#define SYNC_NAME sync_old_inner
#define JOIN(slot, id) join_old(slot)
#include "split_sync.pml"
#undef SYNC_NAME
#undef JOIN
#define SYNC_NAME sync_frame
#define JOIN(slot, id) join_frame(slot)
#include "split_sync.pml"
#undef SYNC_NAME
#undef JOIN

#define WORKER_LOCALS \
    byte _i, head, o_split, new_s, t, s, x, cur, ok, all; \
    byte tx, ttail, tsplit, tst, targ, tok, tfz; \
    byte g, seen, fr, sv_ts, sv_os, sv_as, rel, mg

proctype worker0()
{
    byte self = 0;
    WORKER_LOCALS;
    byte op, id;
    o_split = END;
    do
    :: op < NOPS && script[op] != 0 ->
        if
        :: script[op] == P_OP -> id++; owner_push(id)
        :: script[op] == S_OP -> sync_old_inner()
        :: script[op] == Y_OP -> do_yield()
        :: script[op] == N_OP -> run_interrupt()
        fi;
        op++
    :: else -> break
    od;
    atomic {
        _i = 1;
        do
        :: _i <= id -> assert(ran[_i] == 1); _i++
        :: else -> break
        od;
        _i = 0;
        w0_done = 1
    };
    /* worker_loop: idle, serves interrupts (its deque is empty) */
end_idle:
    do
    :: atomic { mem[L_PG] != 0 && mem[L_PG] != seen } -> serve()
    od
}

proctype worker1()
{
    byte self = 1;
    WORKER_LOCALS;
    byte attempts;
    bool inited;
    o_split = END;
end_idle:
    do
    :: atomic { mem[L_PG] != 0 && mem[L_PG] != seen } -> serve()
    :: attempts < NATT && !w0_done -> attempts++; steal_from(0)
    :: W1_INIT && !inited -> inited = 1; run_interrupt()
    od
}

/* an external thread calling NEWFRAME once */
proctype external(byte self)
{
    byte _i, x, ok, rel, mg;
    do
    :: x = 0;
        CAS(self, L_BUSY, x, 1, ok);                 /* acquire */
        if
        :: ok -> break
        :: else ->
            assert(!COVER_SLOT_BUSY);
            atomic { mem[L_BUSY] == 0 }
        fi
    od;
    ok = 0; x = 0;
    fill_and_publish(NONE);
    wait_released()
}

/* The end: nothing can move any more (the stores drained).  No worker
 * waits for the slot while a generation is published (it would have to
 * serve it), every initiator returned and worker 0 finished its script
 * (else a deadlock); then the end state is clean. */
proctype checker()
{
    byte _i;
    atomic {
        timeout ->
        _i = 0;
        do
        :: _i < NW -> assert(!(waits_for_slot[_i] && mem[L_PG] != 0)); _i++
        :: else -> break
        od;
        assert(ndone == ninit && w0_done);         /* no deadlock */
        assert(mem[L_BUSY] == 0);                  /* the slot is free */
        assert(mem[L_PG] == 0);                    /* the generation cleared */
        assert(!inside[0] && !inside[1] && !frozen[0] && !frozen[1]);
        _i = 1;
        do
        :: _i <= ninit -> assert(ran[ID_X(_i)] == 1 && ran[ID_C(_i)] == 1); _i++
        :: else -> break
        od
    }
}

init {
    atomic {
        byte k = 0;
        SCRIPT
        k = 0;
        ninit = ninit + NEXT + W1_INIT;
        mem[DQ_TS(0)] = TS(0, 0);
        mem[DQ_ALLSTOLEN(0)] = 1;
        mem[DQ_LIMIT(0)] = END;
        mem[DQ_TS(1)] = TS(0, 0);
        mem[DQ_ALLSTOLEN(1)] = 1;
        mem[DQ_LIMIT(1)] = END;
        run worker0();
        run worker1();
        k = 0;
        do
        :: k < NEXT -> run external(NW + k); k++
        :: else -> break
        od;
        run checker();
        k = 0;
        do
        :: k < NT -> START_FLUSHER(k); k++
        :: else -> break
        od
    }
}
