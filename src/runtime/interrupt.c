/* Interrupts: stop-the-world operations on the whole pool.
 *
 *   TOGETHER(task)  every worker runs its own copy of the task
 *   NEWFRAME(task)  one worker runs the task, the others help by stealing
 *
 * Protocol (one interrupt at a time, described by the static `slot`):
 *   1. The initiator takes the slot, fills it, publishes its generation in
 *      weft_interrupt_pending_g and wakes every worker.
 *   2. Each worker, at its next interrupt point (idle loop, blocked SYNC,
 *      YIELD), freezes its deque: the tasks below its head become invisible
 *      to thieves and an empty frame starts at its head.  Then barrier 1.
 *      After barrier 1 nobody can steal an old task.
 *   3. The task(s) run in the new frames; participants with nothing to do
 *      steal from the frames, so the only work around is the interrupt's.
 *   4. When it is all done, barrier 2 makes sure nobody is still in a steal
 *      attempt on a frame; each worker restores its deque and leaves.
 *   5. The last to leave clears the generation, frees the slot and tells
 *      the initiator, which then returns.
 * Every worker must take part, so while a worker has not yet served
 * generation g the slot cannot move on to another interrupt: a worker that
 * read g may use the slot for g.  A worker running a long task joins only
 * when that task reaches an interrupt point; long tasks call WEFT_YIELD().
 */
#include "runtime/internal.h"

#include <limits.h>
#include <sched.h>
#include <string.h>

enum { KIND_NONE, KIND_TOGETHER, KIND_NEWFRAME };

static const char *kind_name(int kind)
{
    return kind == KIND_TOGETHER ? "TOGETHER" : "NEWFRAME";
}

static struct {
    /* Taken by an initiator (CAS 0 -> 1) for the whole interrupt. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t busy;
    /* Bumped by the last leaver: the initiator waits for it. */
    _Atomic uint32_t released;

    /* The request: written by the initiator while it holds `busy`, before
     * it publishes the generation (release); read-only afterwards. */
    int kind;
    uint64_t generation;
    weft_task *task;          /* the caller's descriptor; NEWFRAME's result lands there */
    uintptr_t wrapper;
    weft_worker *initiator;   /* NULL if a non-worker thread started it */

    _Alignas(WEFT_CACHE_LINE) _Atomic(weft_worker *) executor; /* NEWFRAME: who runs it */
    _Atomic uint32_t arrived; /* barrier 1 */
    _Atomic uint32_t copies;  /* TOGETHER: copies finished */
    _Atomic uint32_t stopped; /* barrier 2 */
    _Atomic uint32_t left;    /* workers that restored their deque */
    weft_task finished;       /* state DONE when all the work is done */
} slot;

/* Generation of the pending interrupt, 0 if none.  Read on every idle
 * round, written twice per interrupt: its own cache line. */
_Alignas(WEFT_CACHE_LINE) static _Atomic uint64_t weft_interrupt_pending_g;
/* What WEFT_YIELD polls (weft.h): WEFT_ATTN_INTERRUPT while an interrupt
 * is pending, WEFT_ATTN_SUSPEND while the pool is suspended. */
_Alignas(WEFT_CACHE_LINE) _Atomic uint32_t weft_attention_g;
static uint64_t last_generation; /* guarded by slot.busy */

/* The user barrier (weft_barrier). */
static struct {
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t count;
    _Atomic uint32_t generation;
} user_barrier;

void weft_interrupt_reset(void)
{
    /* Before the workers start; thread creation publishes these. */
    atomic_store_explicit(&weft_interrupt_pending_g, 0, memory_order_relaxed);
    atomic_store_explicit(&weft_attention_g, 0, memory_order_relaxed);
    atomic_store_explicit(&slot.busy, 0, memory_order_relaxed);
    atomic_store_explicit(&user_barrier.count, 0, memory_order_relaxed);
}

bool weft_interrupt_waiting_for(weft_worker *w)
{
    /* seq_cst: in a sleeper's last look this pairs with the initiator's
     * store before wake_all; elsewhere a stale 0 only delays joining. */
    uint64_t g = atomic_load_explicit(&weft_interrupt_pending_g, memory_order_seq_cst);
    return g != 0 && g != w->seen_interrupt;
}

bool weft_interrupt_pending(void)
{
    /* Relaxed: a hint for RUN's choice of path; a borrower serves an
     * interrupt that comes after it anyway. */
    return atomic_load_explicit(&weft_interrupt_pending_g, memory_order_relaxed) != 0;
}

/* Spin, then yield, then sleep on the word until pred(word) holds. */
static void wait_on(_Atomic uint32_t *word, bool (*pred)(uint32_t, uint32_t), uint32_t arg)
{
    for (unsigned spins = 0;; spins++) {
        /* Acquire: the waits below end on release RMWs; we then read what
         * was written before them. */
        uint32_t v = atomic_load_explicit(word, memory_order_acquire);
        if (pred(v, arg))
            return;
        if (spins < 100)
            weft_cpu_relax();
        else if (spins < 200)
            sched_yield();
        else
            weft_futex_wait(word, v);
    }
}

static bool at_least(uint32_t v, uint32_t n) { return v >= n; }
static bool differs(uint32_t v, uint32_t old) { return v != old; }

/* Counter barrier: the last arrival wakes the others. */
static void arrive_and_wait(_Atomic uint32_t *count, uint32_t n)
{
    /* acq_rel: all arrivals form one release sequence, so every worker's
     * writes before the barrier happen before every read after it. */
    if (atomic_fetch_add_explicit(count, 1, memory_order_acq_rel) + 1 == n)
        weft_futex_wake(count, INT_MAX);
    else
        wait_on(count, at_least, n);
}

/* Steals within the frames (old tasks are frozen) until all work is done. */
static void help_until_finished(weft_worker *w, weft_task *head)
{
    weft_idle idle;
    weft_idle_reset(&idle);
    /* Acquire: pairs with the release in mark_finished. */
    while (atomic_load_explicit(&slot.finished.state, memory_order_acquire) != WEFT_STATE_DONE) {
        weft_worker *v = weft_random_victim(w);
        if (v && weft_steal_and_run(w, head, v, false)) {
            weft_idle_reset(&idle);
            continue;
        }
        if (weft_idle_backoff(&idle)) {
            /* A JOIN sleep on `finished` wakes for work or for the end. */
            weft_sleep(w, WEFT_SLEEP_JOIN, &slot.finished, NULL);
            weft_idle_reset(&idle);
        }
    }
}

static void mark_finished(void)
{
    /* seq_cst: release for the helpers' acquire, and the waker's "write
     * mine" of the Dekker pairing with helpers going to sleep on it. */
    atomic_store_explicit(&slot.finished.state, WEFT_STATE_DONE, memory_order_seq_cst);
    weft_wake_all();
}

void weft_interrupt_serve(weft_worker *w, weft_task *head)
{
    /* Acquire: pairs with the initiator's publishing store; the slot's
     * request fields are visible. */
    uint64_t g = atomic_load_explicit(&weft_interrupt_pending_g, memory_order_acquire);
    if (g == 0 || g == w->seen_interrupt)
        return;
    w->seen_interrupt = g; /* the slot holds g until we have left it */
    unsigned n = weft_rt.n_workers;
    int kind = slot.kind;
    WEFT_TRACE_INTERRUPT(w, kind == KIND_NEWFRAME);
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_BARRIER);

    /* A TOGETHER copy of ours lives in our deque slot at head (untyped
     * memory like any task's, so the slots below stay non-EMPTY); the
     * interrupt's frame then starts above it, out of thieves' reach. */
    weft_task *frame = head;
    if (kind == KIND_TOGETHER) {
        weft_sched_reserve(w, head); /* the scheduler's rule for room at head */
        frame = head + 1;
    }
    weft_sched_saved saved;
    weft_sched_freeze(w, frame, &saved);
    if (kind == KIND_NEWFRAME && slot.initiator == NULL) {
        weft_worker *none = NULL;
        /* Relaxed: only elects one executor; barrier 1 orders it. */
        atomic_compare_exchange_strong_explicit(&slot.executor, &none, w, memory_order_relaxed,
                                                memory_order_relaxed);
    }
    arrive_and_wait(&slot.arrived, n); /* barrier 1 */
    WEFT_TRACE_SET(w, WEFT_TRACE_HELP);

    w->in_interrupt = kind;
    weft_task *floor = w->frame_floor;
    w->frame_floor = frame;
    if (kind == KIND_TOGETHER) {
        weft_task *copy = head;
        memcpy(copy->payload, slot.task->payload, sizeof copy->payload);
        /* Relaxed: a private slot of ours (below the frozen frame). */
        atomic_store_explicit(&copy->state, slot.wrapper, memory_order_relaxed);
        w->together_depth++;
        WEFT_TRACE_TASK(w, trace_copy_, WEFT_TRACE_BY_TOGETHER, slot.wrapper, NULL, NULL);
        WEFT_PROFILE_ROOT(w, profile_);
        weft_run_wrapper(w, frame, copy, slot.wrapper, "(a TOGETHER copy)");
        WEFT_PROFILE_RUN_DONE(w, profile_, WEFT_PROFILE_INTERRUPT);
        WEFT_TRACE_POP(w, trace_copy_);
        w->together_depth--;
        atomic_store_explicit(&copy->state, WEFT_STATE_EMPTY, memory_order_relaxed); /* as above */
        /* acq_rel: the last copy to finish sees every copy's effects. */
        if (atomic_fetch_add_explicit(&slot.copies, 1, memory_order_acq_rel) + 1 == n)
            mark_finished();
    } else if (atomic_load_explicit(&slot.executor, memory_order_relaxed) == w) {
        /* Relaxed: elected before barrier 1, which ordered it. */
        WEFT_TRACE_TASK(w, trace_task_, WEFT_TRACE_BY_NEWFRAME, slot.wrapper, NULL, NULL);
        WEFT_PROFILE_ROOT(w, profile_);
        weft_run_wrapper(w, frame, slot.task, slot.wrapper, "(run by NEWFRAME)");
        WEFT_PROFILE_RUN_DONE(w, profile_, WEFT_PROFILE_INTERRUPT);
        WEFT_TRACE_POP(w, trace_task_);
        mark_finished();
    }
    help_until_finished(w, frame);
    w->frame_floor = floor;
    w->in_interrupt = KIND_NONE;

    WEFT_TRACE_SET(w, WEFT_TRACE_BARRIER);
    arrive_and_wait(&slot.stopped, n); /* barrier 2: no steal in flight */
    weft_sched_thaw(w, &saved);
    WEFT_TRACE_POP(w, trace_);

    /* acq_rel: the last leaver sees everyone done with the slot. */
    if (atomic_fetch_add_explicit(&slot.left, 1, memory_order_acq_rel) + 1 == n) {
        /* Relaxed: the releases below order it for whoever cares. */
        atomic_store_explicit(&weft_interrupt_pending_g, 0, memory_order_relaxed);
        /* Relaxed: YIELD's hint; cleared before `busy` is released, so the
         * next initiator's setting (after it takes `busy`) comes later in
         * the word's modification order and is not lost. */
        atomic_fetch_and_explicit(&weft_attention_g, ~(uint32_t)WEFT_ATTN_INTERRUPT,
                                  memory_order_relaxed);
        /* Release: the initiator (and the next one, via busy) see the
         * finished interrupt, including NEWFRAME's result. */
        atomic_fetch_add_explicit(&slot.released, 1, memory_order_release);
        atomic_store_explicit(&slot.busy, 0, memory_order_release);
        weft_futex_wake(&slot.released, INT_MAX);
    }
}

void weft_yield_slow(weft_worker *w, weft_task *head)
{
    WEFT_PROFILE_PAUSE(w); /* an interrupt or a park is no strand of this task */
    if (weft_interrupt_waiting_for(w))
        weft_interrupt_serve(w, head);
    weft_park_if_suspended(w, head);
    WEFT_PROFILE_RESUME(w);
}

/* Runs an interrupt from any thread and returns when it is over. */
static void run_interrupt(int kind, weft_task *t, uintptr_t wrapper)
{
    weft_worker *w = weft_tls_worker;
    weft_task *head = NULL;
    if (w) {
        if (w->in_interrupt != KIND_NONE)
            weft_fatal("%s called from inside a %s: interrupts do not nest", kind_name(kind),
                       kind_name(w->in_interrupt));
        head = weft_current_head(w);
        WEFT_PROFILE_PAUSE(w); /* the interrupt is no strand of the calling task */
    } else if (!weft_lifecycle_enter_interrupt()) {
        weft_fatal("%s called while the pool is not running (call weft_start first)",
                   kind_name(kind));
    }

    for (unsigned spins = 0;; spins++) {
        uint32_t free_ = 0;
        /* Acquire: pairs with the last leaver's release of the previous
         * interrupt; we may now reuse the slot. */
        if (atomic_compare_exchange_strong_explicit(&slot.busy, &free_, 1, memory_order_acquire,
                                                    memory_order_relaxed))
            break;
        /* Another interrupt is pending: a worker must take part in it (it
         * cannot complete otherwise), then try again. */
        if (w && weft_interrupt_waiting_for(w))
            weft_interrupt_serve(w, head);
        else if (spins < 100)
            weft_cpu_relax();
        else
            sched_yield();
    }

    /* We own the slot; nobody reads it until the generation is published
     * (release, below), so these are relaxed. */
    uint32_t released = atomic_load_explicit(&slot.released, memory_order_relaxed);
    slot.kind = kind;
    slot.generation = ++last_generation;
    slot.task = t;
    slot.wrapper = wrapper;
    slot.initiator = w;
    atomic_store_explicit(&slot.executor, kind == KIND_NEWFRAME ? w : NULL, memory_order_relaxed);
    atomic_store_explicit(&slot.arrived, 0, memory_order_relaxed);
    atomic_store_explicit(&slot.copies, 0, memory_order_relaxed);
    atomic_store_explicit(&slot.stopped, 0, memory_order_relaxed);
    atomic_store_explicit(&slot.left, 0, memory_order_relaxed);
    atomic_store_explicit(&slot.finished.state, 0, memory_order_relaxed);
    /* seq_cst: release publishes the slot to servers (acquire); seq_cst is
     * the waker's "write mine" before wake_all reads the sleep words. */
    atomic_store_explicit(&weft_interrupt_pending_g, slot.generation, memory_order_seq_cst);
    /* Relaxed: YIELD's hint; a worker that sees it re-reads the generation
     * (seq_cst), and one that misses it sees it at its next YIELD. */
    atomic_fetch_or_explicit(&weft_attention_g, WEFT_ATTN_INTERRUPT, memory_order_relaxed);
    weft_wake_all();
    weft_unpark_all();

    if (w)
        weft_interrupt_serve(w, head);
    wait_on(&slot.released, differs, released);
    if (w)
        WEFT_PROFILE_RESUME(w);
    else
        weft_lifecycle_exit_interrupt();
}

void weft_together_task(weft_task *t, uintptr_t wrapper)
{
    run_interrupt(KIND_TOGETHER, t, wrapper);
}

void weft_newframe_task(weft_task *t, uintptr_t wrapper)
{
    run_interrupt(KIND_NEWFRAME, t, wrapper);
}

void weft_barrier(void)
{
    weft_worker *w = weft_tls_worker;
    if (!w || w->together_depth == 0)
        weft_fatal("weft_barrier called outside a TOGETHER copy, or from a task that a copy "
                   "spawned and another worker stole (only the copies themselves are sure to "
                   "reach it once on every worker)");
    unsigned n = weft_rt.n_workers;
    WEFT_PROFILE_PAUSE(w); /* waiting is no strand */
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_BARRIER);
    /* Acquire: the generation we wait to change (read before arriving). */
    uint32_t gen = atomic_load_explicit(&user_barrier.generation, memory_order_acquire);
    /* acq_rel: one release sequence through all arrivals. */
    if (atomic_fetch_add_explicit(&user_barrier.count, 1, memory_order_acq_rel) + 1 == n) {
        /* Relaxed: ordered before the release below. */
        atomic_store_explicit(&user_barrier.count, 0, memory_order_relaxed);
        /* Release: waiters see the reset count and all writes before the
         * barrier. */
        atomic_fetch_add_explicit(&user_barrier.generation, 1, memory_order_release);
        weft_futex_wake(&user_barrier.generation, INT_MAX);
    } else {
        wait_on(&user_barrier.generation, differs, gen);
    }
    WEFT_TRACE_POP(w, trace_);
    WEFT_PROFILE_RESUME(w);
}
