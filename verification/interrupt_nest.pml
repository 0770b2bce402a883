/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of nested interrupts (src/runtime/interrupt.c: run_interrupt,
 * weft__interrupt_serve, help_until_finished): the publication of an
 * interrupt by the work of another, under sequential consistency.
 * interrupt.pml checks one interrupt's freeze, barriers and thaw against
 * the split deque in every memory model; this model checks what nesting
 * adds: who may publish when, the unpublication at barrier 1, and the
 * records' lifetimes.
 *
 * Two workers and an external thread.  The external thread starts an
 * outermost NEWFRAME (record 0, the static `outermost`): it takes `busy`
 * (held until the last leaver of record 0), fills the record, publishes
 * generation 1 and waits for `ended` to change (`done` here).  Each worker serves a published
 * generation it has not served: it reads the record, arrives at barrier 1
 * (the last arrival unpublishes the generation, releases `nest_lock` if
 * the record is nested, and only then sets `passed`), runs the task if it
 * is the executor, helps (serving any interrupt published meanwhile) until
 * the record is finished, arrives at barrier 2, and leaves (the last
 * leaver sets `done`; of an outermost record it then wakes the sleepers
 * and frees `busy`, its last touch, after which the record may be
 * refilled; of a nested one it sets `let_go`).  Record 0's task, run by worker 0, starts a nested TOGETHER
 * (record 1): it takes `nest_lock`, publishes generation 2, serves it
 * itself and waits for it to be done.  With EXT2, a second external
 * thread starts another outermost interrupt (record 2) at any time: it
 * must wait until the whole nest is over.
 *
 * The schedulers' state that a freeze saves and a thaw restores nests
 * with the interrupts: worker 1 starts with a task received before the
 * outermost interrupt (a private deque's answer or deal, old_answer), which
 * its freeze holds out of the interrupt (held) until the matching thaw;
 * each freeze saves the worker's held flag, each thaw restores it.
 *
 * Properties: a server finds the record of the generation it read; a
 * nested publication is not lost: barrier 1 unpublishes its own
 * generation, never a later one (pending_g == gen[r] when it clears it),
 * and there is no invalid end state (every worker serves every
 * interrupt, every initiator returns); an outermost
 * initiator publishes only when no interrupt is in progress; a record is
 * not touched after its let_go (nested) or after its last leaver freed
 * `busy` (outermost); a worker helping in the outermost frame
 * never takes the old task (old_answer without held).
 *
 * Mutants (-D, one at a time):
 *   MUT_UNPUBLISH_LATE  barrier 1's last arrival sets `passed` before it
 *                       unpublishes the generation: the executor's nested
 *                       publication can be wiped (pending_g == gen[r]
 *                       fails), and the other worker never joins it
 *   MUT_BUSY_AT_B1      an outermost record frees `busy` at barrier 1 (as
 *                       a nested one frees nest_lock): a second outermost
 *                       initiator publishes while workers are still inside
 *                       the first and misses some of them (deadlock)
 *   MUT_FREE_BEFORE_WAKE the last leaver of an outermost record frees
 *                       `busy` before it wakes the sleepers (which reads
 *                       the record): touched after it may be refilled
 *   MUT_THAW_DROPS_HOLD a thaw ends the hold instead of restoring what
 *                       its freeze saved: after the nested TOGETHER,
 *                       worker 1 takes the old task inside the NEWFRAME
 */
#define N 2
#ifdef EXT2
#define EXT2_ON 1
#else
#define EXT2_ON 0
#endif

#define NREC 3

byte pending_g;      /* weft_interrupt_pending_g */
bit busy;            /* slot.busy */
bit nest_lock;       /* slot.nest_lock */
byte current = 255;  /* slot.current: a record index */
byte last_gen;

/* the records (nested ones on their initiators' stacks) */
byte gen[NREC];
bit nested[NREC];
byte executor[NREC]; /* worker index; N: none (TOGETHER) */
byte arrived[NREC];
bit passed[NREC];
bit finished[NREC];
byte copies[NREC];
byte stopped[NREC];
byte left[NREC];
bit done[NREC];
bit let_go[NREC];
bit freed[NREC];     /* the record is gone (nested: its initiator returned) */

byte seen[N];
byte in_progress;    /* outermost interrupts between publication and done */

bit old_answer[N];   /* a task received before the outermost interrupt */
bit held[N];         /* the scheduler holds it out of the interrupt */

/* weft__sched_freeze / weft__sched_thaw (private_deque.c) */
inline freeze(me, saved)
{
    saved = held[me];
    if
    :: old_answer[me] -> held[me] = 1
    :: else -> skip
    fi
}
inline thaw(me, saved)
{
#ifdef MUT_THAW_DROPS_HOLD
    held[me] = 0
#else
    held[me] = saved
#endif
}

inline touch(r) { assert(!freed[r]) }

inline publish(r, isnested, exec)
{
    touch(r);
    nested[r] = isnested;
    executor[r] = exec;
    last_gen++;
    gen[r] = last_gen;
    current = r;
    pending_g = last_gen
}

/* barrier 1 of record r (`last`: this arrival was the last) */
inline barrier1(r)
{
    touch(r);
    atomic { arrived[r]++; last = (arrived[r] == N) }; /* fetch_add's result */
    if
    :: last ->
#ifdef MUT_UNPUBLISH_LATE
        passed[r] = 1;
#endif
        atomic { assert(pending_g == gen[r]); pending_g = 0 };  /* no later publication wiped */
        if
        :: nested[r] -> nest_lock = 0
        :: else ->
#ifdef MUT_BUSY_AT_B1
            busy = 0
#else
            skip
#endif
        fi;
#ifndef MUT_UNPUBLISH_LATE
        passed[r] = 1
#endif
    :: else -> (passed[r] == 1)
    fi
}

inline leave(r)
{
    touch(r);
    stopped[r]++;
    (stopped[r] == N);
    atomic { left[r]++; last = (left[r] == N) };
    if
    :: last ->
        done[r] = 1;               /* nested: `done`; outermost: `ended` bumped */
        if
        :: !nested[r] ->
            in_progress--;
#ifdef MUT_FREE_BEFORE_WAKE
            atomic { busy = 0; freed[r] = 1 };
            touch(r)               /* the wake reads the record's sleepers */
#else
            touch(r);              /* the wake reads the record's sleepers */
#ifndef MUT_BUSY_AT_B1
            /* the last touch: the next outermost initiator may refill it */
            atomic { busy = 0; freed[r] = 1 }
#else
            skip
#endif
#endif
        :: else -> let_go[r] = 1
        fi
    :: else -> skip
    fi
}

/* Serving the nested record (no further nesting inside it).  The
 * generation is read once (the acquire load); 0 or seen: nothing to do. */
inline serve_inner(me)
{
    lg = pending_g;
    if
    :: lg == 0 || lg == seen[me] -> skip
    :: else ->
        assert(current < NREC && gen[current] == lg);
        seen[me] = lg;
        ri = current;
        freeze(me, saved_inner);
        barrier1(ri);
        if
        :: executor[ri] == N ->   /* TOGETHER: every worker runs a copy */
            atomic { copies[ri]++; last = (copies[ri] == N) };
            if
            :: last -> finished[ri] = 1
            :: else -> skip
            fi
        :: else -> skip
        fi;
        (finished[ri] == 1);
        leave(ri);
        thaw(me, saved_inner)
    fi
}

/* Record 0's task on worker 0: starts the nested TOGETHER (record 1). */
inline outer_task(me)
{
    do
    :: nest_lock == 0 -> nest_lock = 1; break
    :: pending_g != 0 && pending_g != seen[me] -> serve_inner(me)
    od;
    publish(1, 1, N);
    serve_inner(me);
    (done[1] == 1);
    (let_go[1] == 1);
    freed[1] = 1;
    finished[0] = 1
}

/* Serving an outermost record: the executor runs its task; the others
 * help until it is finished, serving what is published meanwhile. */
inline serve_outer(me)
{
    lg = pending_g;
    if
    :: lg == 0 || lg == seen[me] -> skip
    :: else ->
        assert(current < NREC && gen[current] == lg);
        seen[me] = lg;
        ro = current;
        freeze(me, saved_outer);
        barrier1(ro);
        if
        :: executor[ro] == me && ro == 0 -> outer_task(me)
        :: executor[ro] == me && ro != 0 -> finished[ro] = 1
        :: else -> skip
        fi;
        do
        :: finished[ro] == 1 -> break
        :: pending_g != 0 && pending_g != seen[me] ->
            serve_inner(me);
            /* back in the frame, whose steal attempts follow */
            assert(held[me] || !old_answer[me])
        od;
        leave(ro);
        thaw(me, saved_outer)
    fi
}

proctype worker(byte me)
{
    byte ro, ri, lg;
    bit last, saved_outer, saved_inner;
    do
    :: pending_g != 0 && pending_g != seen[me] -> serve_outer(me)
    :: done[0] == 1 && (done[2] == 1 || !EXT2_ON) -> break
    od
}

/* An outside thread's outermost interrupt: it waits for `ended`, which,
 * with the sleepers' count, is never reset and may be read after the
 * record is freed; the record itself is freed by its last leaver. */
proctype external(byte r)
{
    atomic { busy == 0 -> busy = 1 };
    assert(in_progress == 0);
    in_progress++;
    publish(r, 0, 0);
    (done[r] == 1)
}

init
{
    atomic {
        old_answer[1] = 1;
        run worker(0);
        run worker(1);
        run external(0);
#ifdef EXT2
        run external(2)
#endif
    }
}
