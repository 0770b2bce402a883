/* Declarations shared by the runtime's source files and the schedulers.
 * Not installed. */
#ifndef WEFT_RUNTIME_INTERNAL_H
#define WEFT_RUNTIME_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <weft/weft.h>

/* Race points: WEFT_RACE_POINT(id) marks a racy step by its role; no code
 * at all unless the build has WEFT_PERTURB on (perturb.h). */
#include "runtime/perturb.h"

#include "runtime/diagnostics.h"
#include "runtime/memory.h"
#include "runtime/observe.h"
#include "runtime/sched.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/futex.h"
#include "sys/rng.h"

/* Below 2^31 slots every slot index fits in 32 bits (the split deque packs
 * two of them in one word). */
#define WEFT_MAX_DEQUE_SLOTS (((size_t)1 << 31) - 1)
#define WEFT_MAX_WORKERS 4096u

/* ---- steal.c: finding work and joining stolen tasks ---- */
weft_worker *weft_random_victim(weft_worker *w);
/* Tries one steal from victim; if it gets a task, runs it at head. */
bool weft_steal_and_run(weft_worker *w, weft_task *head, weft_worker *victim, bool leap);
/* Figure 1 lines 5-8: wait for the stolen task t, stealing meanwhile. */
void weft_join_stolen(weft_worker *w, weft_task *t);

/* ---- sleep.c ---- */
enum {
    WEFT_AWAKE = 0,
    WEFT_SLEEP_IDLE = 1,      /* idle at top level: any work, external RUNs */
    WEFT_SLEEP_JOIN = 2,      /* blocked at a SYNC, accepts any stolen work */
    WEFT_SLEEP_JOIN_LEAP = 3, /* blocked at a SYNC, leapfrog only */
};
/* A sleep word holds the kind in its low two bits and, for JOIN_LEAP, the
 * thief's id + 1 above them: one CAS then checks both, and the claimer
 * knows whose count the sleeper is in. */
#define WEFT_SLEEP_KIND(word) ((int)((word) & 3u))
#define WEFT_SLEEP_WORD(kind, thief) ((uint32_t)(kind) | ((thief) ? ((thief)->id + 1u) << 2 : 0u))
/* More words for lending an idle worker's identity to a thread that
 * calls RUN (docs/sleep.md, "RUN on the calling thread"):
 *   IDLE_LENDABLE  an IDLE sleeper past its last look, in its futex wait:
 *                  a waker claims it like IDLE, a RUN caller may borrow it
 *   LENT           borrowed and awake: no waker claims it (its kind bits
 *                  are AWAKE's, which no claim accepts); the borrower acts
 *                  as the worker until it puts it back to sleep
 *   kind | GUEST   the borrower sleeps as the worker (a JOIN kind): a
 *                  claim makes the word LENT again, not AWAKE, so AWAKE
 *                  only ever ends a sleep of the worker's own */
#define WEFT_SLEEP_IDLE_LENDABLE ((uint32_t)WEFT_SLEEP_IDLE | 4u)
#define WEFT_SLEEP_LENT ((uint32_t)WEFT_AWAKE | 4u)
#define WEFT_SLEEP_GUEST ((uint32_t)1 << 31)
/* The word that ends a sleep: LENT for a borrower's, else AWAKE. */
#define WEFT_SLEEP_WOKEN(word) (((word) & WEFT_SLEEP_GUEST) ? WEFT_SLEEP_LENT : (uint32_t)WEFT_AWAKE)
/* True on a thread running a RUN as a borrowed worker (external.c). */
extern __thread bool weft_tls_guest;
typedef struct weft_idle {
    unsigned rounds;
    uint64_t since_ns;
} weft_idle;
void weft_idle_reset(weft_idle *idle);
/* One failed search round: backs off; returns true when it is time to sleep. */
bool weft_idle_backoff(weft_idle *idle);
/* Sleeps in `state` until woken.  `joined` (JOIN states) is the stolen task
 * being waited for, `thief` its thief (JOIN_LEAP).  Returns at once if the
 * last check finds something to do. */
void weft_sleep(weft_worker *w, int state, weft_task *joined, weft_worker *thief);
/* After making tasks stealable: wake one sleeper if there is any. */
void weft_wake_for_work(weft_worker *self);
/* The same when self saw shared tasks left on owner's deque. */
void weft_wake_for_work_of(weft_worker *owner, weft_worker *self);
/* Is any worker asleep that could take work from owner? (seq_cst) */
bool weft_sleepers_want_work_from(weft_worker *owner);
/* After queueing an external RUN: wake one idle sleeper if there is any. */
void weft_wake_for_external(void);
/* A thread outside the pool borrows the identity of a worker asleep in
 * IDLE_LENDABLE (trying first the worker `hint`): NULL if none.  The
 * borrower then is that worker until weft_sleep_lent_return. */
weft_worker *weft_borrow_idle(unsigned hint);
/* The borrower, done: puts the worker back to sleep as the worker would
 * (announce, requests, last look), waking it if the last look finds
 * something to do. */
void weft_sleep_lent_return(weft_worker *w);
/* After completing a stolen task of `victim`: wake it if it sleeps on it. */
void weft_wake_joiner(weft_worker *victim);
/* After giving v work directly (published seq_cst): wake v if it sleeps. */
void weft_wake_worker(weft_worker *self, weft_worker *v);
void weft_wake_all(void);

/* ---- external.c: RUN from non-worker threads ---- */
bool weft_external_pending(void);
bool weft_external_take_and_run(weft_worker *w, weft_task *head);
void weft_external_init(void);

/* ---- interrupt.c ---- */
bool weft_interrupt_waiting_for(weft_worker *w);
/* Is an interrupt in progress?  A relaxed hint. */
bool weft_interrupt_pending(void);
void weft_interrupt_serve(weft_worker *w, weft_task *head);
void weft_interrupt_reset(void);

/* ---- config.c ---- */
/* weft_start's checks and defaults: the worker count, deque slots and
 * stack bytes to use, or EINVAL with a message. */
int weft_config_validate(const weft_config *cfg, unsigned *workers, size_t *slots, size_t *stack);
/* WEFT_STATS=1 in the environment at the last start. */
bool weft_stats_print_at_stop(void);
/* config.c's parsers for the variables other files read (profile.c,
 * trace.c): a number in [min, max] (size: with K, M or G), a 0/1 flag;
 * unset leaves *out alone; EINVAL with a message naming the variable. */
int weft_config_env_number(const char *name, bool size, uint64_t min, uint64_t max,
                           const char *unit, uint64_t *out);
int weft_config_env_flag(const char *name, bool *out);

/* ---- lifecycle.c ---- */
/* A non-worker thread entering the pool (RUN, TOGETHER, NEWFRAME): false
 * if the pool is not running.  Stop waits until every entry has exited. */
bool weft_lifecycle_enter(void);
void weft_lifecycle_exit(void);
void weft_unpark_all(void);
/* Readers of the pool's layout (stats, weft_workers): true if the pool runs
 * and will until weft_lifecycle_release(*held).  Never blocks, so a task
 * that stop or suspend waits for may call it (on a worker, or through
 * another thread), and so may a signal handler. */
bool weft_lifecycle_hold(bool *held);
void weft_lifecycle_release(bool held);
/* weft_lifecycle_enter for a TOGETHER or NEWFRAME from outside the pool:
 * waits while the pool is suspended, and keeps weft_suspend from
 * completing until weft_lifecycle_exit_interrupt. */
bool weft_lifecycle_enter_interrupt(void);
void weft_lifecycle_exit_interrupt(void);
/* If the pool is being suspended, parks w at head (inside a task: at a
 * YIELD or a blocked SYNC) until resume; not inside an interrupt. */
void weft_park_if_suspended(weft_worker *w, weft_task *head);

/* ---- stats.c ---- */
/* weft_stats_print for stop, which holds the lifecycle lock. */
void weft_stats_print_locked(FILE *out);
/* weft_stats_get for a caller that holds the pool (the tracer). */
void weft_stats_get_locked(weft_stats *out);

/* ---- memory.c: runtime/memory.h ---- */

/* ---- topology.c ---- */
int weft_topology_init(unsigned workers, int pin);
void weft_topology_pin_self(unsigned worker);
int weft_topology_placement(unsigned worker);
/* The CPU worker is pinned to, or -1. */
int weft_topology_worker_cpu(unsigned worker);
void weft_topology_bind_area(void *addr, size_t bytes, int placement);
void weft_topology_destroy(void);

/* ---- the pool (lifecycle.c) ---- */

/* What a worker needs to lend its identity to RUN callers (external.c,
 * sleep.c): a count of the borrowers using it and a stack for them. */
typedef struct weft_seat {
    /* Borrowers holding the worker or still putting it back, times 2; bit
     * 0: the worker's own thread waits on this word for them to finish. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t loans;
    /* The guest stack: address space only until touched, with a guard
     * below like a worker stack (memory.c). */
    void *stack_lo;
    size_t stack_size;
    void *guard_lo;
} weft_seat;
#define WEFT_LOAN 2u
#define WEFT_LOAN_WAITER 1u
enum { WEFT_RT_STOPPED = 0, WEFT_RT_RUNNING = 1, WEFT_RT_STOPPING = 2 };

typedef struct weft_runtime {
    /* Read-mostly after start. */
    unsigned n_workers;
    weft_worker **workers;
    weft_seat *seats; /* one per worker, by id */
    weft_steal_policy policy;
    unsigned idle_spin_us;
    size_t deque_slots;
    size_t stack_size;
    bool report_stack_overflow;
    pthread_t *threads;

    /* Lifecycle: state in the high half, external users (RUNs from
     * non-worker threads in progress) in the low half. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t lifecycle;
    _Atomic uint32_t quit;

    /* Sleepers, by kind (sleep.c). */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t sleeping_idle;
    _Atomic uint32_t sleeping_join;

    /* Suspension (lifecycle.c). */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t suspended;
    _Atomic uint32_t suspend_word; /* futex: bumped by weft_resume */
    _Atomic uint32_t parked;
    /* TOGETHER/NEWFRAME from threads outside the pool in progress: suspend
     * waits for them (weft_lifecycle_enter_interrupt). */
    _Atomic uint32_t interrupts_from_outside;
} weft_runtime;

extern weft_runtime weft_rt;

/* The calling thread's worker (NULL outside the pool).  Initial-exec TLS:
 * read from the SIGSEGV handler, which must not allocate. */
extern __thread weft_worker *weft_tls_worker __attribute__((tls_model("initial-exec")));


/* Runs the task in descriptor t at head on w, as the runtime does for a
 * RUN, a stolen task or an interrupt's task, and checks that it joined
 * every SPAWN (`what` names it in the message). */
static inline void weft_run_wrapper(weft_worker *w, weft_task *head, weft_task *t,
                                    uintptr_t wrapper, const char *what)
{
    ((weft_wrapper_fn)wrapper)(w, head, t);
    weft_check_return(w, head, what);
}

/* Every scheduler's SYNC slow path starts here: a SYNC or DROP with
 * nothing to join below the running frame, or on an EMPTY slot (joined
 * twice), stops with a message instead of joining someone else's task. */
static inline void weft_sync_slot_check(weft_worker *w, weft_task *t)
{
    if (WEFT_UNLIKELY(t < w->frame_floor))
        weft_fatal("SYNC or DROP without a matching SPAWN on worker %u "
                   "(nothing is spawned in this task)", w->id);
    /* Relaxed: our own slot; thieves only change it between non-EMPTY values. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&t->state, memory_order_relaxed) == WEFT_STATE_EMPTY))
        weft_fatal("SYNC or DROP without a matching SPAWN on worker %u "
                   "(slot %zu is empty: joined twice?)", w->id, (size_t)(t - w->dq));
}

#endif
