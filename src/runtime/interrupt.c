// SPDX-License-Identifier: Apache-2.0
/* Stop-the-world operations on the whole pool: interrupts, and
 * suspension (weft_suspend parks every worker until weft_resume).
 *
 *   TOGETHER(task)  every worker runs its own copy of the task
 *   NEWFRAME(task)  one worker runs the task, the others help by stealing
 *
 * Protocol (one interrupt published at a time; interrupts nest):
 *   1. The initiator takes `busy` (`nest_lock` if nested), fills the
 *      request record (`outermost`; a nested one's on its own stack),
 *      points `current` at it, publishes its generation in
 *      weft__interrupt_generation and wakes every worker.
 *   2. Each worker, at its next interrupt point (idle loop, blocked SYNC,
 *      YIELD, or waiting inside an interrupt it already serves), freezes
 *      its deque: the tasks below its head become invisible to thieves and
 *      an empty frame starts at its head.  Then barrier 1.  After barrier 1
 *      nobody can steal an old task, and every worker has read the record:
 *      the last to arrive unpublishes the generation (and frees
 *      `nest_lock` if nested), so a task of this interrupt may start
 *      another one (nesting, as Lace
 *      allows: a NEWFRAME task that calls TOGETHER, a TOGETHER copy that
 *      calls NEWFRAME, ...).
 *   3. The task(s) run in the new frames; participants with nothing to do
 *      steal from the frames, so the only work around is the interrupt's,
 *      and serve any interrupt nested in it.
 *   4. When it is all done, barrier 2 makes sure nobody is still in a steal
 *      attempt on a frame; each worker restores its deque and leaves.
 *   5. A worker initiator of an outermost interrupt returns once it has
 *      left itself, as the others go back to their work (as in Lace, where
 *      all pass the last barrier together).  The last to leave ends the
 *      interrupt for an outside initiator (`ended`) and frees `busy`, its
 *      last touch of the record.  A nested initiator waits until the last
 *      leaver lets go of its record.
 * Every worker must take part, so while a worker has not yet served
 * generation g the record cannot change: a worker that read g may use it.
 * A worker running a long task joins only when that task reaches an
 * interrupt point; long tasks call WEFT_YIELD().
 *
 * weft_barrier: each TOGETHER has its own barrier, in its record, so that
 * a nested TOGETHER's copies, which may call it while copies of the
 * TOGETHER around it wait at theirs, do not count towards the outer one.
 * A copy waiting at a barrier is at an interrupt point: another copy may
 * start a nested interrupt (which needs every worker) before it reaches
 * the barrier.  The waiter serves it at its head and waits on; asleep, it
 * is woken by the nested interrupt's publication as by the release
 * (barrier_waiters; verification/barrier.pml).
 */
#include "runtime/interrupt.h"

#include <weft/weft.h>

#include "observe/hooks.h"
#include "runtime/diagnostics.h"
#include "runtime/external_queue.h"
#include "runtime/gate.h"
#include "runtime/parking.h"
#include "runtime/perturb.h"
#include "runtime/sched.h"
#include "runtime/sleep.h"
#include "runtime/state.h"
#include "runtime/steal.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/futex.h"


#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <string.h>

enum { KIND_NONE, KIND_TOGETHER, KIND_NEWFRAME };

static const char *kind_name(int kind) { return kind == KIND_TOGETHER ? "TOGETHER" : "NEWFRAME"; }

/* One interrupt: an outermost one in `outermost` (below) until its last
 * leaver frees `busy`, a nested one on its initiator's stack until the
 * initiator returns. */
typedef struct weft_interrupt {
    /* The request: written by the initiator before it publishes the
     * generation (release); read-only afterwards. */
    int kind;
    weft_task *task; /* the caller's descriptor; NEWFRAME's result lands there */
    uintptr_t wrapper;
    weft_worker *initiator; /* NULL if a non-worker thread started it */
    bool nested;            /* started by the work of another interrupt */

    _Alignas(WEFT_CACHE_LINE) _Atomic(weft_worker *) executor; /* NEWFRAME: who runs it */
    _Atomic uint32_t arrived;                                  /* barrier 1 */
    _Atomic uint32_t passed;  /* 1: barrier 1 passed and the record unpublished */
    _Atomic uint32_t copies;  /* TOGETHER: copies finished */
    _Atomic uint32_t stopped; /* barrier 2 */
    _Atomic uint32_t left;    /* workers that restored their deque */
    _Atomic uint32_t done;    /* nested: 1 when all left; the initiator may return */
    _Atomic uint32_t let_go;  /* nested: 1 when the last leaver no longer touches it */
    /* Outermost (the one static record): bumped when all left, never
     * reset, so that an outside initiator waits for its own interrupt's
     * end even if the next one has begun. */
    _Atomic uint32_t ended;
    /* Asleep on passed, stopped, done or ended (wake_sleepers).  Not reset
     * by an outermost initiator: an outside initiator woken from `ended`
     * may still count itself out while the next interrupt runs. */
    _Atomic uint32_t sleepers;
    weft_task finished; /* state DONE when all the work is done */

    /* TOGETHER: its copies' weft_barrier.  Asleep there, they wait on
     * barrier_waiters.word. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t bar_count; /* arrivals at the open barrier */
    _Atomic uint32_t bar_generation;                      /* barriers passed */
} interrupt_rec;

static struct {
    /* Taken (CAS 0 -> 1) by the initiator of an outermost interrupt for
     * the whole interrupt, nested ones included. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t busy;
    /* Taken (CAS 0 -> 1) by the initiator of a nested interrupt from
     * filling `current` until barrier 1 of its interrupt is passed.  Only
     * the work of an interrupt in progress starts a nested one: every
     * worker is then inside that interrupt, between its barriers 1 and 2,
     * and serves the nested one from wherever it waits in it. */
    _Atomic uint32_t nest_lock;
    /* The published interrupt's record: written while holding `busy`,
     * before the generation is published (release). */
    interrupt_rec *current;
} slot;

/* The outermost interrupts' record, filled by whoever holds `busy`.  It is
 * not on the initiator's stack, so that a worker initiator returns when it
 * has itself left (as every other worker goes back to its work after
 * barrier 2), without waiting for the slowest to leave: under
 * oversubscription that wait is a time slice, in which the others run on
 * (a Lace program's GC that retries its allocation once would find the
 * table it just grew filled again).  The last leaver frees `busy` as its
 * last touch of the record.  A nested interrupt's record stays on its
 * initiator's stack: nested ones may overlap (nest_lock is freed at
 * barrier 1), and their initiator waits for every worker anyway. */
static interrupt_rec outermost;

static _Atomic uint64_t last_generation; /* bumped by initiators */

/* Where copies waiting at weft_barrier sleep, whichever TOGETHER's barrier
 * it is: two events end their wait, their barrier's release and the
 * publication of an interrupt nested in their TOGETHER (which they must
 * serve), and both bump `word` (wake_barrier_waiters). */
static struct {
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t word;
    _Atomic uint32_t sleepers; /* asleep on word */
} barrier_waiters;

void weft__interrupt_reset(void)
{
    /* Before the workers start; thread creation publishes these. */
    atomic_store_explicit(&weft__interrupt_generation, 0, memory_order_relaxed);
    atomic_store_explicit(&weft__attention_g, 0, memory_order_relaxed);
    atomic_store_explicit(&slot.busy, 0, memory_order_relaxed);
    atomic_store_explicit(&slot.nest_lock, 0, memory_order_relaxed);
    atomic_store_explicit(&barrier_waiters.sleepers, 0, memory_order_relaxed);
    atomic_store_explicit(&outermost.sleepers, 0, memory_order_relaxed);
    /* A worker waiting in a work pool's run takes part through this. */
    weft__waiting_set_interrupt_server(weft__interrupt_serve);
}

/* A word that threads wait on, with the count of those asleep on it (or
 * on another word that shares the count): a waker makes the system call
 * only when someone sleeps.  The waiter counts itself in before its last
 * look at the word and the waker changes the word before it reads the
 * count, both seq_cst: of the two, the later sees the earlier, so either
 * the waiter sees the change and does not sleep, or the waker sees the
 * sleeper and wakes it (verification/counted_wake.pml). */
static void wake_sleepers(_Atomic uint32_t *word, _Atomic uint32_t *sleepers)
{
    /* seq_cst: after the caller's seq_cst change of the word (the Dekker
     * pair of the sleeper's count-in, then look). */
    if (atomic_load_explicit(sleepers, memory_order_seq_cst) != 0)
        weft__futex_wake(word, INT_MAX);
}

/* After the caller's seq_cst change that ends barrier waits (a barrier's
 * release, an interrupt's publication): the counted wake above, on a word
 * that is not itself the reason.  So the word changes too: a waiter reads
 * it before its last look and sleeps only while it is unchanged, and one
 * that reads the new value sees the reason (barrier_wait). */
static void wake_barrier_waiters(void)
{
    /* seq_cst: release, a waiter that reads the new word sees the caller's
     * change; after that change and before our read of the count in the
     * single order, so that a waiter counted in later sees the change in
     * its last look. */
    atomic_fetch_add_explicit(&barrier_waiters.word, 1, memory_order_seq_cst);
    /* seq_cst: the Dekker pair of the waiter's count-in, then its look. */
    if (atomic_load_explicit(&barrier_waiters.sleepers, memory_order_seq_cst) != 0)
        weft__futex_wake(&barrier_waiters.word, INT_MAX);
}

/* Spin, then yield, then sleep on the word until pred(word) holds; the
 * changes of the word that end the wait are seq_cst and followed by
 * wake_sleepers(word, sleepers). */
static void wait_on(_Atomic uint32_t *word, bool (*pred)(uint32_t, uint32_t), uint32_t arg,
                    _Atomic uint32_t *sleepers)
{
    uint64_t since_ns = 0;
    for (unsigned spins = 0;; spins++) {
        /* Acquire: the waits below end on changes at least release; we
         * then read what was written before them. */
        uint32_t v = atomic_load_explicit(word, memory_order_acquire);
        if (pred(v, arg))
            return;
        /* A few microseconds of pauses (the others are usually that
         * close), then as an idle worker waits for work: a worker
         * descheduled for another program's time slice is best waited for
         * asleep, where the wake-up puts us back on a CPU at once, and one
         * descheduled for ours by a yield. */
        if (spins < 100)
            weft_cpu_relax();
        else if (weft__park_hold_or_yield(&since_ns, weft__rt.idle_spin_us,
                                          weft__rt.idle_hold_ns)) {
            /* seq_cst: counted in before the last look (wake_sleepers). */
            atomic_fetch_add_explicit(sleepers, 1, memory_order_seq_cst);
            /* seq_cst: the look after the count-in; acquire as above. */
            v = atomic_load_explicit(word, memory_order_seq_cst);
            if (!pred(v, arg))
                weft__futex_wait(word, v);
            /* Relaxed: a waker that still counts us makes one spare wake. */
            atomic_fetch_sub_explicit(sleepers, 1, memory_order_relaxed);
        }
    }
}

static bool at_least(uint32_t v, uint32_t n) { return v >= n; }
static bool differs(uint32_t v, uint32_t n) { return v != n; }

/* Counter barrier: the last arrival wakes the others. */
static void arrive_and_wait(_Atomic uint32_t *count, uint32_t n, _Atomic uint32_t *sleepers)
{
    /* seq_cst: all arrivals form one release sequence, so every worker's
     * writes before the barrier happen before every read after it; and
     * the last one is the change wake_sleepers follows. */
    if (atomic_fetch_add_explicit(count, 1, memory_order_seq_cst) + 1 == n)
        wake_sleepers(count, sleepers);
    else
        wait_on(count, at_least, n, sleepers);
}

/* Steals within the frames (old tasks are frozen) until all work of rec is
 * done, serving the interrupts that the work starts meanwhile. */
static void help_until_finished(weft_worker *w, weft_task *head, interrupt_rec *rec)
{
    weft_idle idle;
    weft__idle_reset(&idle);
    /* Acquire: pairs with the release in mark_finished. */
    while (atomic_load_explicit(&rec->finished.state, memory_order_acquire) != WEFT_STATE_DONE) {
        if (weft_interrupt_waiting_for(w)) { /* nested in this one */
            weft__interrupt_serve(w, head);
            weft__idle_reset(&idle);
            continue;
        }
        weft_worker *v = weft__random_victim(w);
        if (v && weft__steal_and_run(w, head, v, false)) {
            weft__idle_reset(&idle);
            continue;
        }
        if (weft__idle_backoff(&idle)) {
            /* A JOIN sleep on `finished` wakes for work, for the end, or
             * for a new interrupt. */
            weft__sleep(w, WEFT_SLEEP_JOIN, &rec->finished, NULL);
            weft__idle_reset(&idle);
        }
    }
}

static void mark_finished(interrupt_rec *rec)
{
    /* seq_cst: release for the helpers' acquire, and the waker's "write
     * mine" of the Dekker pairing with helpers going to sleep on it. */
    atomic_store_explicit(&rec->finished.state, WEFT_STATE_DONE, memory_order_seq_cst);
    weft__wake_all();
}

/* The frame an interrupt runs in on w: above head, or for TOGETHER above
 * our copy's slot at head; the frame below it frozen into *saved. */
static weft_task *freeze_below_frame(weft_worker *w, weft_task *head, interrupt_rec *rec,
                                     weft_sched_saved *saved)
{
    /* A TOGETHER copy of ours lives in our deque slot at head (untyped
     * memory like any task's, so the slots below stay non-EMPTY); the
     * interrupt's frame then starts above it, out of thieves' reach. */
    weft_task *frame = head;
    if (rec->kind == KIND_TOGETHER) {
        weft_sched_reserve(w, head); /* the scheduler's rule for room at head */
        frame = head + 1;
    }
    weft__sched_freeze(w, frame, saved);
    if (rec->kind == KIND_NEWFRAME && rec->initiator == NULL) {
        weft_worker *none = NULL;
        /* Relaxed: only elects one executor; barrier 1 orders it. */
        atomic_compare_exchange_strong_explicit(&rec->executor, &none, w, memory_order_relaxed,
                                                memory_order_relaxed);
    }
    return frame;
}

/* Barrier 1: every worker has read the record; the last to arrive
 * unpublishes it and lets the others pass. */
static void pass_barrier_1(interrupt_rec *rec, unsigned n)
{
    /* acq_rel: one release sequence through all arrivals. */
    if (atomic_fetch_add_explicit(&rec->arrived, 1, memory_order_acq_rel) + 1 != n) {
        wait_on(&rec->passed, at_least, 1, &rec->sleepers);
        return;
    }
    /* Everyone has read the record: unpublish it, before anyone runs work
     * of this interrupt that could publish another.  Relaxed: ordered
     * before the releases of `passed` and the lock. */
    atomic_store_explicit(&weft__interrupt_generation, 0, memory_order_relaxed);
    /* Relaxed: YIELD's hint; cleared before `busy` is released, so the
     * next initiator's setting (after it takes `busy`) comes later in the
     * word's modification order and is not lost. */
    atomic_fetch_and_explicit(&weft__attention_g, ~(uint32_t)WEFT_ATTN_INTERRUPT,
                              memory_order_relaxed);
    /* Release: the next nested initiator sees the two stores above. */
    if (rec->nested)
        atomic_store_explicit(&slot.nest_lock, 0, memory_order_release);
    /* seq_cst: release, the others pass barrier 1 after the stores above;
     * and the change wake_sleepers follows. */
    atomic_store_explicit(&rec->passed, 1, memory_order_seq_cst);
    wake_sleepers(&rec->passed, &rec->sleepers);
}

/* Our TOGETHER copy, at head below the frame; the last copy to finish
 * marks the interrupt finished. */
static void run_together_copy(weft_worker *w, weft_task *frame, weft_task *copy, interrupt_rec *rec,
                              unsigned n)
{
    memcpy(copy->payload, rec->task->payload, sizeof copy->payload);
    /* Relaxed: a private slot of ours (below the frozen frame). */
    atomic_store_explicit(&copy->state, rec->wrapper, memory_order_relaxed);
    w->together = rec; /* its weft_barrier is rec's */
    WEFT_OBSERVE_ROOT(w, copy, WEFT_TRACE_BY_TOGETHER, rec->wrapper, NULL, NULL);
    weft_run_wrapper(w, frame, copy, rec->wrapper, "(a TOGETHER copy)");
    weft_stop_if_forked(); /* a child the copy forked: the other copies are not there */
    WEFT_OBSERVE_ROOT_DONE(w, copy, WEFT_PROFILE_INTERRUPT);
    w->together = NULL;
    /* Relaxed: as above.  DONE, not EMPTY: the slot stays non-EMPTY while
     * we help above it, so that weft_current_head (a RUN from a task we
     * steal meanwhile) finds the head above the frame. */
    atomic_store_explicit(&copy->state, WEFT_STATE_DONE, memory_order_relaxed);
    /* seq_cst: acq_rel, the last copy to finish sees every copy's
     * effects; and the change a copy waiting at this TOGETHER's barrier
     * looks for last (barrier_wait: a copy that returned reaches no
     * barrier again), before the wake-up's bump. */
    if (atomic_fetch_add_explicit(&rec->copies, 1, memory_order_seq_cst) + 1 == n)
        mark_finished(rec);
    else
        wake_barrier_waiters();
}

/* Our part of the interrupt in its frame: our TOGETHER copy, or the
 * NEWFRAME task if we were elected; then helping until it is finished. */
static void take_part(weft_worker *w, weft_task *head, weft_task *frame, interrupt_rec *rec,
                      unsigned n)
{
    int outer_kind = w->in_interrupt;
    w->in_interrupt = rec->kind;
    weft_task *floor = w->frame_floor;
    weft_task *guard = w->join_guard; /* copies of the top made in it end with it */
    uint64_t root = w->root_serial;
    w->frame_floor = frame;
    w->root_serial = ++w->roots_begun;
    /* A NEWFRAME's task is no copy, even run inside one: only a TOGETHER
     * copy has a barrier that every worker reaches once. */
    interrupt_rec *together = w->together;
    w->together = NULL;
    weft_task *copy = rec->kind == KIND_TOGETHER ? head : NULL;
    if (copy) {
        run_together_copy(w, frame, copy, rec, n);
    } else if (atomic_load_explicit(&rec->executor, memory_order_relaxed) == w) {
        /* Relaxed: elected before barrier 1, which ordered it. */
        WEFT_OBSERVE_ROOT(w, task, WEFT_TRACE_BY_NEWFRAME, rec->wrapper, NULL, NULL);
        weft_run_wrapper(w, frame, rec->task, rec->wrapper, "(run by NEWFRAME)");
        weft_stop_if_forked(); /* a child the task forked: the pool is not there */
        WEFT_OBSERVE_ROOT_DONE(w, task, WEFT_PROFILE_INTERRUPT);
        mark_finished(rec);
    }
    help_until_finished(w, frame, rec);
    if (copy) /* Relaxed: as above; the frame above it is empty now. */
        atomic_store_explicit(&copy->state, WEFT_STATE_EMPTY, memory_order_relaxed);
    w->frame_floor = floor;
    w->root_serial = root;
    weft_guard_restore(w, guard);
    w->together = together;
    w->in_interrupt = outer_kind;
}

/* Leaves the record; the last to leave ends the interrupt for an
 * initiator that waits for it and lets the record go. */
static void leave(interrupt_rec *rec, unsigned n)
{
    /* acq_rel: the last leaver sees everyone done with the record. */
    if (atomic_fetch_add_explicit(&rec->left, 1, memory_order_acq_rel) + 1 != n)
        return;
    if (!rec->nested) {
        /* seq_cst: release, an outside initiator sees the finished
         * interrupt, including NEWFRAME's result; and the change
         * wake_sleepers follows. */
        atomic_fetch_add_explicit(&rec->ended, 1, memory_order_seq_cst);
        wake_sleepers(&rec->ended, &rec->sleepers);
        /* Release: our last touch of the record; the next outermost
         * initiator, which refills it after taking `busy` (acquire), sees
         * this one over. */
        atomic_store_explicit(&slot.busy, 0, memory_order_release);
        return;
    }
    /* seq_cst: release, the initiator sees the finished interrupt,
     * including NEWFRAME's result; and the change wake_sleepers follows. */
    atomic_store_explicit(&rec->done, 1, memory_order_seq_cst);
    wake_sleepers(&rec->done, &rec->sleepers);
    /* Release: our last touch of the record; the initiator's stack frame
     * (which holds it) may go after this. */
    atomic_store_explicit(&rec->let_go, 1, memory_order_release);
}

void weft__interrupt_serve(weft_worker *w, weft_task *head)
{
    /* Acquire: pairs with the initiator's publishing store; the record
     * and its fields are visible. */
    uint64_t g = atomic_load_explicit(&weft__interrupt_generation, memory_order_acquire);
    if (g == 0 || g == w->seen_interrupt)
        return;
    w->seen_interrupt = g; /* `current` holds g's record until we arrive */
    interrupt_rec *rec = slot.current;
    unsigned n = weft__rt.n_workers;
    WEFT_TRACE_INTERRUPT(w, rec->kind == KIND_NEWFRAME);
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_BARRIER);
    weft_sched_saved saved;
    weft_task *frame = freeze_below_frame(w, head, rec, &saved);
    pass_barrier_1(rec, n);
    WEFT_TRACE_SET(w, WEFT_TRACE_HELP);
    take_part(w, head, frame, rec, n);
    WEFT_TRACE_SET(w, WEFT_TRACE_BARRIER);
    arrive_and_wait(&rec->stopped, n, &rec->sleepers); /* barrier 2: no steal in flight */
    weft__sched_thaw(w, &saved);
    WEFT_TRACE_POP(w, trace_);
    WEFT_RACE_POINT(WEFT_RP_INTERRUPT_LEAVE);
    leave(rec, n);
}

/* Does a task's YIELD or blocked SYNC on w park now?  Only for a
 * suspension that waits for every worker (weft_suspend). */
static bool task_parks(const weft_worker *w)
{
    weft_runtime *p = &weft__rt;
    /* Relaxed (both): as weft__park_if_suspended's look; a stale pair
     * only delays parking to the next check (a weft_suspend over a lazy
     * suspension clears the hint before it wakes the sleepers and waits)
     * or sends the task into park, whose own reads decide. */
    return w->in_interrupt == 0 && atomic_load_explicit(&p->suspended, memory_order_relaxed) &&
           !atomic_load_explicit(&p->suspend_lazy, memory_order_relaxed);
}

void weft__yield_slow(weft_worker *w, weft_task *head)
{
    /* An interrupt's task runs, and a parked worker serves interrupts, at
     * the head the yield holds: it must be the top.  A head read before
     * another API spawned in a block nested in this task body is below
     * that task, still pending; the interrupt's tasks would meet it. */
    if ((weft_interrupt_waiting_for(w) || task_parks(w)) && !weft_fj_head_is_top(head))
        weft__fj_run_at_refused(w, head, "a yield (YIELD_NEWFRAME, lace_yield, WEFT_YIELD)");
    WEFT_PROFILE_PAUSE(w); /* an interrupt or a park is no strand of this task */
    if (weft_interrupt_waiting_for(w))
        weft__interrupt_serve(w, head);
    weft__park_task_if_suspended(w, head);
    WEFT_PROFILE_RESUME(w);
}

/* Takes the interrupt slot's lock (the outermost interrupts' or the
 * nested ones'); a worker serves the interrupt in progress meanwhile. */
static void take_slot(weft_worker *w, weft_task *head, _Atomic uint32_t *lock)
{
    for (unsigned spins = 0;; spins++) {
        uint32_t free_ = 0;
        /* Acquire: pairs with the release of the lock by the previous
         * interrupt (its last leaver, or its barrier 1 if nested). */
        if (atomic_compare_exchange_strong_explicit(lock, &free_, 1, memory_order_acquire,
                                                    memory_order_relaxed))
            return;
        /* Another interrupt is in progress: a worker must take part in it
         * (it cannot complete otherwise), then try again. */
        if (w && weft_interrupt_waiting_for(w))
            weft__interrupt_serve(w, head);
        else if (spins < 100)
            weft_cpu_relax();
        else
            sched_yield();
    }
}

/* Runs an interrupt from any thread and returns when it is over. */
static void run_interrupt(int kind, weft_task *t, uintptr_t wrapper)
{
    weft_worker *w = weft__tls_worker;
    weft_task *head = NULL;
    /* Also as a borrowed worker: every worker must take part, the one
     * that runs the pool's task too, and it waits for this thread. */
    if (weft__gate_waited_on())
        weft__fatal("%s called on a thread of a work pool that runs inside a task: it would wait "
                    "for the worker running the task, which waits for this thread (docs/pool.md, "
                    "\"A pool inside a fork-join task\")",
                    kind_name(kind));
    if (w) {
        head = weft_current_head(w);
        WEFT_PROFILE_PAUSE(w); /* the interrupt is no strand of the calling task */
    } else if (!weft__lifecycle_enter_interrupt()) {
        (void)weft__speak_as_caller(); /* WEFT_NEWFRAME's, or a front-end's for its user */
        if (weft__lifecycle_stopping())
            weft__fatal("%s called while the pool is stopping (%s is in progress: call it "
                        "before the stop)",
                        kind_name(kind), weft__words()->stop);
        weft__fatal("%s called while the pool is not running (%s)", kind_name(kind),
                    weft__words()->start_first);
    }

    interrupt_rec nested_rec;
    bool nested = w != NULL && w->in_interrupt != KIND_NONE;
    take_slot(w, head, nested ? &slot.nest_lock : &slot.busy);
    interrupt_rec *rec = nested ? &nested_rec : &outermost;

    /* Nobody reads the record until the generation is published (release,
     * below), so these are relaxed.  (The outermost record's last leaver
     * freed `busy` after its last touch, and we took it with acquire.) */
    rec->nested = nested;
    rec->kind = kind;
    rec->task = t;
    rec->wrapper = wrapper;
    rec->initiator = w;
    atomic_store_explicit(&rec->executor, kind == KIND_NEWFRAME ? w : NULL, memory_order_relaxed);
    atomic_store_explicit(&rec->arrived, 0, memory_order_relaxed);
    atomic_store_explicit(&rec->passed, 0, memory_order_relaxed);
    atomic_store_explicit(&rec->copies, 0, memory_order_relaxed);
    atomic_store_explicit(&rec->stopped, 0, memory_order_relaxed);
    atomic_store_explicit(&rec->left, 0, memory_order_relaxed);
    atomic_store_explicit(&rec->finished.state, 0, memory_order_relaxed);
    atomic_store_explicit(&rec->bar_count, 0, memory_order_relaxed);
    atomic_store_explicit(&rec->bar_generation, 0, memory_order_relaxed);
    /* Relaxed: written only by the last leaver, which freed `busy` after
     * (an outside initiator's count; unused by the others). */
    uint32_t ended_before = atomic_load_explicit(&outermost.ended, memory_order_relaxed);
    if (nested) {
        atomic_store_explicit(&rec->done, 0, memory_order_relaxed);
        atomic_store_explicit(&rec->let_go, 0, memory_order_relaxed);
        atomic_store_explicit(&rec->sleepers, 0, memory_order_relaxed);
    }
    slot.current = rec;
    /* seq_cst: release publishes the record to servers (acquire); seq_cst
     * is the waker's "write mine" before wake_all reads the sleep words. */
    /* Relaxed: only makes the generation unique. */
    uint64_t g = atomic_fetch_add_explicit(&last_generation, 1, memory_order_relaxed) + 1;
    atomic_store_explicit(&weft__interrupt_generation, g, memory_order_seq_cst);
    /* Relaxed: YIELD's hint; a worker that sees it re-reads the generation
     * (seq_cst), and one that misses it sees it at its next YIELD. */
    atomic_fetch_or_explicit(&weft__attention_g, WEFT_ATTN_INTERRUPT, memory_order_relaxed);
    weft__wake_all();
    weft__unpark_all();
    weft__waiting_wake_all(); /* a worker waiting in a work pool's run, asleep on its word */
    /* Copies of the TOGETHER we are nested in may be asleep at its barrier
     * (an outermost interrupt has none: it waits for `busy` until every
     * interrupt, and so every copy, is over). */
    if (nested)
        wake_barrier_waiters();

    if (w)
        weft__interrupt_serve(w, head);
    if (nested) {
        wait_on(&rec->done, at_least, 1, &rec->sleepers);
        /* Acquire: pairs with the last leaver's final store; then the
         * record (our stack) is ours again.  The wait is that leaver's
         * futex wake. */
        while (atomic_load_explicit(&rec->let_go, memory_order_acquire) == 0)
            weft_cpu_relax();
    } else if (!w) {
        /* An outside thread returns when every worker has left, so that
         * a stop after it finds them back in their loops. */
        wait_on(&outermost.ended, differs, ended_before, &outermost.sleepers);
    }
    /* A worker initiator of an outermost interrupt returns once it has
     * left itself: it passed barrier 2, after which the interrupt's work,
     * NEWFRAME's result included, is done and no one reads `t`. */
    if (w)
        WEFT_PROFILE_RESUME(w);
    else
        weft__lifecycle_exit_interrupt();
}

void weft__together_task(weft_task *t, uintptr_t wrapper)
{
    run_interrupt(KIND_TOGETHER, t, wrapper);
}

void weft__newframe_task(weft_task *t, uintptr_t wrapper)
{
    run_interrupt(KIND_NEWFRAME, t, wrapper);
}

/* A copy of rec's TOGETHER returned while this barrier waits: it reaches
 * no barrier again, so this one can never pass (the copies called it a
 * different number of times).  Acquire (both): the copy counted itself
 * after it passed every barrier it reached, so the generation, read
 * after the count, shows whether it passed this one. */
static bool barrier_unreachable(interrupt_rec *rec, uint32_t gen)
{
    return atomic_load_explicit(&rec->copies, memory_order_acquire) != 0 &&
           atomic_load_explicit(&rec->bar_generation, memory_order_acquire) == gen;
}

/* A copy at its TOGETHER's barrier (rec) waits until the barrier passes
 * generation gen.  Meanwhile another copy may start an interrupt, nested
 * in this TOGETHER, before it reaches the barrier: it needs every worker,
 * so we serve it at our head, as a blocked SYNC would, and wait on.  As
 * wait_on, but asleep on barrier_waiters.word, which a release and such a
 * publication both bump. */
static void barrier_wait(weft_worker *w, interrupt_rec *rec, uint32_t gen)
{
    weft_task *head = NULL; /* found when first needed */
    uint64_t since_ns = 0;
    for (unsigned spins = 0;; spins++) {
        /* Acquire: pairs with the release (seq_cst) by the last arrival;
         * every copy's writes before the barrier are visible after it. */
        if (atomic_load_explicit(&rec->bar_generation, memory_order_acquire) != gen)
            return;
        if (barrier_unreachable(rec, gen)) {
            (void)weft__speak_as_caller(); /* weft's barrier, or a front-end's */
            weft__fatal("%s on worker %u waits for a %s copy that returned without reaching it: "
                        "every copy must call it the same number of times (it would wait for "
                        "ever)",
                        weft__words()->barrier, w->id, weft__words()->together);
        }
        if (weft_interrupt_waiting_for(w)) {
            if (head == NULL)
                head = weft_current_head(w);
            weft__interrupt_serve(w, head);
            spins = 0;
            since_ns = 0;
            continue;
        }
        if (spins < 100) {
            weft_cpu_relax();
        } else if (weft__park_hold_or_yield(&since_ns, weft__rt.idle_spin_us,
                                            weft__rt.idle_hold_ns)) {
            /* Acquire: read before the last look.  If it is the bumped
             * value, the bump's release shows its reason to that look;
             * if not, futex_wait does not block once the bump is there. */
            uint32_t word = atomic_load_explicit(&barrier_waiters.word, memory_order_acquire);
            /* seq_cst: counted in before the last look (wake_barrier_waiters). */
            atomic_fetch_add_explicit(&barrier_waiters.sleepers, 1, memory_order_seq_cst);
            /* seq_cst: the last look, after the count-in (the generation;
             * weft_interrupt_waiting_for's load is seq_cst too). */
            if (atomic_load_explicit(&rec->bar_generation, memory_order_seq_cst) == gen &&
                !weft_interrupt_waiting_for(w) &&
                /* seq_cst: a copy's count as it returned (see above). */
                atomic_load_explicit(&rec->copies, memory_order_seq_cst) == 0)
                weft__futex_wait(&barrier_waiters.word, word);
            /* Relaxed: a waker that still counts us makes one spare wake. */
            atomic_fetch_sub_explicit(&barrier_waiters.sleepers, 1, memory_order_relaxed);
        }
    }
}

void weft_barrier(void)
{
    weft_stop_if_forked(); /* a child a copy forked: the other copies are not there */
    weft_worker *w = weft__tls_worker;
    interrupt_rec *rec = w ? w->together : NULL;
    if (rec == NULL) {
        (void)weft__speak_as_caller(); /* weft's barrier, or a front-end's (lace_barrier) */
        weft__fatal("%s called outside a %s copy, or from a task that a copy spawned and "
                    "another worker stole (only the copies themselves are sure to reach it once "
                    "on every worker)",
                    weft__words()->barrier, weft__words()->together);
    }
    unsigned n = weft__rt.n_workers;
    WEFT_PROFILE_PAUSE(w); /* waiting is no strand */
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_BARRIER);
    /* Acquire: the generation we wait to change (read before arriving, so
     * it cannot be the one our arrival completes). */
    uint32_t gen = atomic_load_explicit(&rec->bar_generation, memory_order_acquire);
    /* acq_rel: one release sequence through all arrivals; the last one
     * sees every copy's writes before the barrier. */
    if (atomic_fetch_add_explicit(&rec->bar_count, 1, memory_order_acq_rel) + 1 == n) {
        /* Relaxed: ordered before the release below. */
        atomic_store_explicit(&rec->bar_count, 0, memory_order_relaxed);
        /* seq_cst: release, waiters see the reset count and all writes
         * before the barrier; and the change wake_barrier_waiters follows. */
        atomic_fetch_add_explicit(&rec->bar_generation, 1, memory_order_seq_cst);
        wake_barrier_waiters();
    } else {
        barrier_wait(w, rec, gen);
    }
    WEFT_TRACE_POP(w, trace_);
    WEFT_PROFILE_RESUME(w);
}

/* ------------------------------------------------------------------------
 * Suspension
 * ------------------------------------------------------------------------ */

/* Suspended: wait for resume or stop; a task's park (in_task: at a yield
 * or a blocked SYNC) also ends when only lazy holds remain.  An interrupt
 * started meanwhile (by a task still running elsewhere) is served, or it
 * could never finish. */
static void park(weft_worker *w, weft_task *head, bool in_task)
{
    weft_runtime *p = &weft__rt;
    /* A lazy suspension (a front-end's, between its program's operations)
     * is often over within microseconds: an idle worker spins and yields
     * as it does before it sleeps, uncounted, and parks only after that.
     * Relaxed (all): hints; the counted park below decides, and a worker
     * still spinning is not parked for weft_suspend's wait (a sync
     * suspend clears the flag first). */
    if (!in_task && atomic_load_explicit(&p->suspend_lazy, memory_order_relaxed)) {
        weft_idle idle;
        weft__idle_reset(&idle);
        while (atomic_load_explicit(&p->suspended, memory_order_relaxed) &&
               atomic_load_explicit(&p->suspend_lazy, memory_order_relaxed) &&
               !atomic_load_explicit(&p->quit, memory_order_relaxed) &&
               !weft_interrupt_waiting_for(w) && !weft__idle_backoff(&idle)) {
        }
    }
    /* Acquire: read the word before re-checking the conditions, so a change
     * in between bumps it and the futex wait returns at once. */
    uint32_t word = atomic_load_explicit(&p->suspend_word, memory_order_acquire);
    _Atomic uint32_t *mark = &p->seats[w->id].parked_in;
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_PARKED);
    /* seq_cst: our count-in before the looks below, the Dekker pair of
     * weft__unpark_all's bump then count read. */
    atomic_fetch_add_explicit(&p->parked, 1, memory_order_seq_cst);
    for (;;) {
        /* seq_cst (generation, flag): read in the order suspend stores
         * them, so a mark is made only for a suspension seen in force, also
         * after a futex wait that returned for nothing (read the other way
         * round it is not: verification/suspend_parked.pml).  seq_cst
         * (quit): after the count-in, the Dekker pair of the stop's
         * weft__unpark_all. */
        uint32_t gen = atomic_load_explicit(&p->suspend_gen, memory_order_seq_cst);
        if (!atomic_load_explicit(&p->suspended, memory_order_seq_cst) ||
            atomic_load_explicit(&p->quit, memory_order_seq_cst))
            break;
        /* Relaxed: a resume that leaves only lazy holds stores the hint
         * before the flag (seq_cst, read above) and bumps the word after
         * both, so a look that misses it is followed by a futex wait that
         * returns at once. */
        if (in_task && atomic_load_explicit(&p->suspend_lazy, memory_order_relaxed)) {
            /* A task leaves: its mark goes first, then it looks again, for
             * a weft_suspend over the lazy suspension keeps the generation
             * and would count the mark of a task on its way out.  seq_cst
             * (mark, flag): the Dekker pair of that suspend's store of the
             * flag, then its poll of the marks; relaxed (hint): as above. */
            atomic_store_explicit(mark, 0, memory_order_seq_cst);
            if (!atomic_load_explicit(&p->suspended, memory_order_seq_cst) ||
                atomic_load_explicit(&p->suspend_lazy, memory_order_relaxed))
                break;
        }
        if (weft_interrupt_waiting_for(w)) {
            /* seq_cst: suspend must not take a worker serving an interrupt
             * for parked. */
            atomic_store_explicit(mark, 0, memory_order_seq_cst);
            weft__interrupt_serve(w, head);
        } else {
            /* seq_cst: after this round's looks at the generation and the
             * flag, so suspend's poll (after its store of the flag) sees a
             * mark only for a suspension we saw in force; its release
             * shows the caller of weft_suspend what the worker wrote
             * before it parked. */
            atomic_store_explicit(mark, gen, memory_order_seq_cst);
            /* A suspension that began between our two looks waits for a
             * mark of its generation: look again instead of sleeping.
             * seq_cst: as the first look. */
            if (atomic_load_explicit(&p->suspend_gen, memory_order_seq_cst) == gen)
                weft__futex_wait(&p->suspend_word, word);
        }
        word = atomic_load_explicit(&p->suspend_word, memory_order_acquire); /* as above */
    }
    /* seq_cst: not needed for suspend's wait (a later suspension has a new
     * generation; a task that leaves for a lazy suspension cleared its
     * mark above), but it keeps a mark meaning a worker in park, also
     * after the generation wraps. */
    atomic_store_explicit(mark, 0, memory_order_seq_cst);
    atomic_fetch_sub_explicit(&p->parked, 1, memory_order_seq_cst); /* see the count-in */
    WEFT_TRACE_POP(w, trace_);
}

/* Is every worker parked in the suspension of generation gen? */
static bool all_parked_in(const weft_runtime *p, uint32_t gen)
{
    for (unsigned i = 0; i < p->n_workers; i++)
        /* seq_cst: after our store of the flag (park's looks); its
         * acquire shows us what the worker wrote before it parked. */
        if (atomic_load_explicit(&p->seats[i].parked_in, memory_order_seq_cst) != gen)
            return false;
    return true;
}

void weft__park_if_suspended(weft_worker *w, weft_task *head)
{
    /* Relaxed: a stale 0 only delays parking to the next check; suspend
     * waits for every worker to park.  Inside an interrupt a worker does
     * not park: suspend waits for the interrupt to end. */
    if (w->in_interrupt == 0 && atomic_load_explicit(&weft__rt.suspended, memory_order_relaxed))
        park(w, head, false);
}

void weft__park_task_if_suspended(weft_worker *w, weft_task *head)
{
    if (task_parks(w))
        park(w, head, true);
}

/* Wakes parked workers so they re-check (resume, stop, interrupts), and
 * the threads outside the pool waiting for a resume; with none of either,
 * no system call: a worker that parks later counts itself in `parked`
 * (seq_cst) before it looks at the reasons (seq_cst), so it sees the
 * caller's reason, stored seq_cst before this; an outside thread counts
 * itself in `gate_waiters` (seq_cst) before it looks at `suspended`. */
void weft__unpark_all(void)
{
    weft_runtime *p = &weft__rt;
    /* seq_cst: after the caller's seq_cst store of its reason. */
    atomic_fetch_add_explicit(&p->suspend_word, 1, memory_order_seq_cst);
    /* seq_cst (both): the Dekker pairs of park's and the gate's count-in,
     * then their looks (gate.c). */
    if (atomic_load_explicit(&p->parked, memory_order_seq_cst) != 0 ||
        atomic_load_explicit(&p->gate_waiters, memory_order_seq_cst) != 0)
        weft__futex_wake(&p->suspend_word, INT_MAX);
}

int weft__resume_locked(void)
{
    weft_runtime *p = &weft__rt;
    /* Relaxed: the lazy hint, read (task_parks, park, the sleepers' last
     * look) only while the flag below is set. */
    atomic_store_explicit(&p->suspend_lazy, false, memory_order_relaxed);
    p->suspend_lazy_holds = 0;
    /* Relaxed: a warning's hint (external.c), written under the lock. */
    atomic_store_explicit(&p->suspend_sync_holds, 0, memory_order_relaxed);
    /* seq_cst: parked workers re-check it after the word changes. */
    atomic_store_explicit(&p->suspended, 0, memory_order_seq_cst);
    /* Relaxed: YIELD's hint only; the flag above decides. */
    atomic_fetch_and_explicit(&weft__attention_g, ~(uint32_t)WEFT_ATTN_SUSPEND,
                              memory_order_relaxed);
    weft__unpark_all();
    return 0;
}

/* weft_suspend and weft_resume speak as their caller (weft_start).  A lazy
 * suspension (weft__suspend_lazy) neither wakes the idle sleepers nor waits:
 * idle workers park when they next look, after a spin, sleepers sleep on,
 * and tasks run on to their end (task_parks). */
static int suspend(bool lazy)
{
    weft_runtime *p = &weft__rt;
    /* A lazy suspension is a front-end's, which may settle its count after
     * the pool stopped (a call from outside that ended during the stop):
     * nothing to suspend, and nothing to say. */
    int err;
    if (lazy && weft__gate_waited_on()) {
        /* A thread of a work pool inside a task may not wait for the lock:
         * its holder (a stop) may wait for that task, which waits for this
         * thread.  A lazy suspension waits for nothing else, so it tries
         * the lock, and a held one refuses it quietly (EBUSY): the
         * front-end settles its count again at its next call. */
        const char *why;
        err = weft__control_try_begin(false, &why);
    } else {
        err = lazy ? weft__control_begin("weft_suspend", true)
                   : weft__control_begin_running("weft_suspend", true);
    }
    if (err)
        return err;
    if (lazy && !weft__control_is_running()) {
        weft__control_end();
        return EINVAL;
    }
    uint32_t depth =
        atomic_load_explicit(&p->suspended, memory_order_relaxed); /* written under the lock */
    /* Relaxed: written under the lock (ours). */
    bool was_lazy = depth != 0 && atomic_load_explicit(&p->suspend_lazy, memory_order_relaxed);
    /* Relaxed (both): a warning's hint (external.c), written under the lock. */
    if (!lazy)
        atomic_store_explicit(&p->suspend_sync_holds,
                              atomic_load_explicit(&p->suspend_sync_holds, memory_order_relaxed) +
                                  1,
                              memory_order_relaxed);
    if (depth != 0 && (lazy || !was_lazy)) {
        p->suspend_lazy_holds += lazy;
        /* seq_cst: it stays nonzero, but a worker that reads this value and
         * then the lazy hint (relaxed: park, task_parks) must see the hint
         * this suspension left, which a relaxed store would not carry. */
        atomic_store_explicit(&p->suspended, depth + 1, memory_order_seq_cst); /* nested */
        weft__control_end();
        return 0;
    }
    if (depth == 0)
        weft__gate_drain_locked();
    /* A new generation for a new suspension: a worker of an earlier one
     * still on its way out of park, or one that looked at the flag before
     * the last resume, carries an older mark (or none), so the wait below
     * counts only workers that saw this suspension in force.  A sync
     * suspension over a lazy one keeps its generation: the workers parked
     * in it stay parked.  Relaxed load: written under the lock (ours);
     * seq_cst store: before the flag's (park's two looks). */
    uint32_t gen = atomic_load_explicit(&p->suspend_gen, memory_order_relaxed);
    if (depth == 0) {
        gen = gen + 1 == 0 ? 1 : gen + 1;
        atomic_store_explicit(&p->suspend_gen, gen, memory_order_seq_cst);
    }
    /* Relaxed: the lazy hint (task_parks, park, the sleepers' last look),
     * read after the flag, whose seq_cst store below orders it; a sync
     * suspend over a lazy one clears it before it wakes and waits, so
     * tasks park and spinners count themselves parked. */
    atomic_store_explicit(&p->suspend_lazy, lazy, memory_order_relaxed);
    p->suspend_lazy_holds += lazy;
    /* seq_cst: the waker's "write mine" before wake_all. */
    atomic_store_explicit(&p->suspended, depth + 1, memory_order_seq_cst);
    if (lazy) {
        /* No YIELD hint: a task's yield does not park for it. */
        weft__control_end();
        return 0;
    }
    /* Relaxed: YIELD's hint; the flag above is what parking checks. */
    atomic_fetch_or_explicit(&weft__attention_g, WEFT_ATTN_SUSPEND, memory_order_relaxed);
    weft__wake_all();
    /* Wait until every worker is parked: tasks reach a YIELD, a blocked
     * SYNC or their end first, and interrupts in progress (also those that
     * threads outside the pool started before this) finish.  seq_cst: the
     * marks and the count of outside interrupts are updated seq_cst. */
    while (!all_parked_in(p, gen) ||
           atomic_load_explicit(&p->interrupts_from_outside, memory_order_seq_cst) != 0)
        weft_sleep_ns(50000);
    weft__control_end();
    return 0;
}

static int resume(bool quiet)
{
    weft_runtime *p = &weft__rt;
    /* A quiet resume is a front-end's undoing its lazy suspension, which a
     * stop (or another API's resume) may have undone first: nothing to
     * resume, and nothing to say. */
    int err = quiet ? weft__control_begin("weft_resume", false)
                    : weft__control_begin_running("weft_resume", false);
    if (err)
        return err;
    if (quiet && !weft__control_is_running()) {
        weft__control_end();
        return EINVAL;
    }
    uint32_t depth =
        atomic_load_explicit(&p->suspended, memory_order_relaxed); /* written under the lock */
    if (depth == 0) {
        weft__control_end();
        if (!quiet)
            weft__warn("weft_resume: the pool is not suspended");
        return EINVAL;
    }
    /* The hold that ends: a quiet resume's is the front-end's lazy one
     * (none left: a stop ended it first); weft_resume's is a
     * weft_suspend's, and with none in force it is refused: a front-end's
     * suspension is its own to end, by the count it keeps of it. */
    uint32_t lazy_holds = p->suspend_lazy_holds;
    if (quiet && lazy_holds == 0) {
        weft__control_end();
        return EINVAL;
    }
    if (!quiet && lazy_holds == depth) {
        weft__control_end();
        weft__warn("weft_resume: no weft_suspend is in force: the pool is suspended only by "
                   "lace_suspend, which lace_resume ends");
        return EINVAL;
    }
    if (quiet)
        p->suspend_lazy_holds = --lazy_holds;
    else /* Relaxed (both): a warning's hint (external.c), written under the lock. */
        atomic_store_explicit(&p->suspend_sync_holds,
                              atomic_load_explicit(&p->suspend_sync_holds, memory_order_relaxed) -
                                  1,
                              memory_order_relaxed);
    if (depth > 1) {
        /* Only lazy holds remain: the suspension is lazy again, and the
         * tasks parked at their yields and blocked SYNCs go on (park).
         * Relaxed (hint read, under the lock; hint store and YIELD's bit):
         * ordered by the flag's seq_cst store after them and the word's
         * bump in unpark_all. */
        bool turns_lazy = lazy_holds == depth - 1 &&
                          !atomic_load_explicit(&p->suspend_lazy, memory_order_relaxed);
        if (turns_lazy) {
            atomic_store_explicit(&p->suspend_lazy, true, memory_order_relaxed);
            atomic_fetch_and_explicit(&weft__attention_g, ~(uint32_t)WEFT_ATTN_SUSPEND,
                                      memory_order_relaxed);
        }
        /* seq_cst: it stays nonzero, but a worker that reads this value and
         * then the hint must see the hint as it is now. */
        atomic_store_explicit(&p->suspended, depth - 1, memory_order_seq_cst);
        if (turns_lazy)
            weft__unpark_all();
        weft__control_end();
        return 0;
    }
    int r = weft__resume_locked();
    weft__control_end();
    return r;
}

int weft_suspend(void)
{
    const weft__api_words *was = weft__speak_as_caller();
    int err = suspend(false);
    (void)weft__speak_as(was);
    return err;
}

int weft__suspend_lazy(void)
{
    const weft__api_words *was = weft__speak_as_caller();
    int err = suspend(true);
    (void)weft__speak_as(was);
    return err;
}

int weft_resume(void)
{
    const weft__api_words *was = weft__speak_as_caller();
    int err = resume(false);
    (void)weft__speak_as(was);
    return err;
}

int weft__resume_quiet(void)
{
    const weft__api_words *was = weft__speak_as_caller();
    int err = resume(true);
    (void)weft__speak_as(was);
    return err;
}
