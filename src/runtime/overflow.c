// SPDX-License-Identifier: Apache-2.0
/* Explaining a stack overflow: the SIGSEGV handler and the alternate
 * signal stacks it runs on (overflow.h).
 *
 * The handler is installed at start only if asked (report_stack_overflow):
 * a fault that is not weft's goes on to the handler that was there before
 * (called as the kernel would have called it, or the default action), and
 * stop restores that handler only if ours is still the one installed; if
 * the application's is, a later start leaves it in front of ours.
 * memory.c's guards make an overflow a fault (docs/configuration.md says
 * what is and is not caught).
 */
#include "runtime/overflow.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "runtime/diagnostics.h"
#include "runtime/memory.h"
#include "runtime/state.h"

/* The handler that was in place before ours, recorded by the start that
 * put ours in front.  The handler reads it on any thread, without a lock,
 * while a later start on another thread may record another: so a record,
 * once published, is never changed or freed, and equal ones are shared
 * (as many as the distinct handlers the application had in place at a
 * start).  The first is the default action. */
typedef struct previous_record {
    struct sigaction action;
    struct previous_record *next; /* under handler_lock */
} previous_record;
static previous_record default_previous; /* all zero: SIG_DFL, no flags */
static previous_record *previous_records = &default_previous;
static _Atomic(const struct sigaction *) previous_segv = &default_previous.action;
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "a signal handler reads previous_segv");
/* The handler of the application's that the last stop found in place of
 * ours, which may pass faults on to ours (restore_previous); SIG_DFL if
 * ours was there. */
static struct sigaction displaced_by;

#define ALTSTACK_SIZE ((size_t)64 << 10)

static size_t altstack_size(void)
{
    return ALTSTACK_SIZE > (size_t)SIGSTKSZ ? ALTSTACK_SIZE : (size_t)SIGSTKSZ;
}

int weft__altstack_setup(void **mem)
{
    size_t size = altstack_size();
    void *p = weft__map(size, weft__page_size(), 0, -1);
    if (!p)
        return ENOMEM;
    stack_t ss = {.ss_sp = p, .ss_size = size, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0) {
        weft__unmap(p, size, weft__page_size(), 0);
        return errno;
    }
    *mem = p;
    return 0;
}

stack_t weft__altstack_of(void *mem)
{
    return (stack_t){.ss_sp = mem, .ss_size = altstack_size(), .ss_flags = 0};
}

/* What the handler needs beyond the kernel's signal frame: its message
 * buffer and the calls it makes (write, sigaction, abort). */
#define HANDLER_BYTES ((size_t)8 << 10)

bool weft__altstack_own_fits(stack_t *own)
{
    if (sigaltstack(NULL, own) != 0) {
        own->ss_flags = SS_DISABLE;
        return false;
    }
    if (own->ss_flags & SS_DISABLE)
        return false;
#ifdef _SC_MINSIGSTKSZ
    long frame = sysconf(_SC_MINSIGSTKSZ); /* the kernel's, for this CPU's registers */
#else
    long frame = (long)MINSIGSTKSZ;
#endif
    size_t need = (frame > 0 ? (size_t)frame : (size_t)MINSIGSTKSZ) + HANDLER_BYTES;
    return own->ss_size >= need;
}

void weft__altstack_teardown(void *mem)
{
    if (!mem)
        return;
    stack_t ss = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
    sigaltstack(&ss, NULL);
    size_t size = altstack_size();
    weft__unmap(mem, size, weft__page_size(), 0);
}

static void segv_set(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGSEGV);
}

bool weft__segv_unblock(void)
{
    sigset_t segv, old;
    segv_set(&segv);
    return pthread_sigmask(SIG_UNBLOCK, &segv, &old) == 0 && sigismember(&old, SIGSEGV) == 1;
}

void weft__segv_reblock(bool was_blocked)
{
    if (!was_blocked)
        return;
    sigset_t segv;
    segv_set(&segv);
    pthread_sigmask(SIG_BLOCK, &segv, NULL);
}

bool weft__segv_blocked(void)
{
    sigset_t now;
    return pthread_sigmask(SIG_BLOCK, NULL, &now) == 0 && sigismember(&now, SIGSEGV) == 1;
}

/* Async-signal-safe message building. */
static size_t put_str(char *buf, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    return at;
}

static size_t put_uint(char *buf, size_t at, size_t cap, unsigned long long v)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n && at + 1 < cap)
        buf[at++] = digits[--n];
    return at;
}

/* True if `a` runs a function (not the default action, not ignored).
 * sa_handler and sa_sigaction share their storage: SIG_DFL and SIG_IGN
 * read through sa_handler whatever the flags say. */
static bool runs_a_function(const struct sigaction *a)
{
    return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

static void segv_handler(int sig, siginfo_t *info, void *uctx);

static bool is_ours(const struct sigaction *a)
{
    return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == segv_handler;
}

/* The same handler: sa_handler and sa_sigaction share their storage. */
static bool same_handler(const struct sigaction *a, const struct sigaction *b)
{
    return (a->sa_flags & SA_SIGINFO) == (b->sa_flags & SA_SIGINFO) &&
           a->sa_handler == b->sa_handler;
}

static void set_default_action(int sig)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
}

/* A look at the disposition and the change that follows from it, made as
 * one step against the others': our handler's look and its SA_RESETHAND
 * reset, and a start's or a stop's look and change.  Otherwise a stop's
 * change after its look could put back a one-shot handler that our
 * handler on another thread has just reset (verification/disposition.pml).
 * A flag a signal handler can take: every signal is blocked on the thread
 * while it holds it, and it is held for a few system calls. */
static atomic_flag disposition_busy = ATOMIC_FLAG_INIT;

static void disposition_lock(sigset_t *saved)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, saved);
    /* Acquire: pairs with disposition_unlock's release, so that one
     * thread's look and change end before another's look. */
    while (atomic_flag_test_and_set_explicit(&disposition_busy, memory_order_acquire)) {
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 1000}; /* nanosleep: async-signal-safe */
        nanosleep(&pause, NULL);
    }
}

static void disposition_unlock(const sigset_t *saved)
{
    /* Release: see disposition_lock. */
    atomic_flag_clear_explicit(&disposition_busy, memory_order_release);
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

/* A fault passed on goes in a copy of its siginfo, marked in its last
 * bytes, which no SIGSEGV field uses and the kernel's copy has zero: if a
 * marked copy comes back to our handler, the handlers pass the fault
 * round in a circle.  The mark is the process's own (0: none yet); its
 * top bits are the same in every copy of weft's, so that one copy's mark
 * is told from what an application's handler left in a copy of its own. */
#define RELAY_MARK_AT (sizeof(siginfo_t) - sizeof(uint64_t))
#define RELAY_MARK_TAG ((uint64_t)0x7e1f5a9cu << 32)
#define RELAY_MARK_TAG_BITS ((uint64_t)0xffffffffu << 32)
_Static_assert(sizeof(siginfo_t) >= 64, "siginfo_t has room past its SIGSEGV fields");
static _Atomic uint64_t relay_mark;

static bool relay_marked(const siginfo_t *info)
{
    /* Relaxed: written once, before the first install of our handler;
     * a handler that reads 0 only marks and checks nothing. */
    uint64_t mark = atomic_load_explicit(&relay_mark, memory_order_relaxed);
    uint64_t seen;
    memcpy(&seen, (const char *)info + RELAY_MARK_AT, sizeof seen);
    return mark != 0 && seen == mark;
}

static void make_relay_mark(void)
{
    /* Relaxed (both): under handler_lock; see relay_marked. */
    if (atomic_load_explicit(&relay_mark, memory_order_relaxed) != 0)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t mark = (uint64_t)now.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)now.tv_sec ^
                    (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&relay_mark;
    atomic_store_explicit(&relay_mark, (mark & ~RELAY_MARK_TAG_BITS) | RELAY_MARK_TAG | 1,
                          memory_order_relaxed);
}

/* The default put back for `h`'s SA_RESETHAND, as the kernel would have
 * at the delivery (disposition lock held).  Exchanged: a handler the
 * application installed since our look stays (for an instant the default
 * was in place). */
static void reset_for_one_shot(int sig, const struct sigaction *h)
{
    struct sigaction dfl, replaced;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    if (sigaction(sig, &dfl, &replaced) == 0 && runs_a_function(&replaced) && !is_ours(&replaced) &&
        !same_handler(&replaced, h))
        sigaction(sig, &replaced, NULL);
}

/* Calls the handler `prev` with a marked copy of info, as it would have
 * been called without ours.  If ours is the handler in place (or `prev`
 * is, put back by a stop since), the kernel would have delivered the
 * signal to `prev`: the default action is put back first if it asked for
 * a reset (SA_RESETHAND), and during the call its sa_mask is added to the
 * mask, and SIGSEGV unblocked if it asked for SA_NODEFER (unless the
 * interrupted code or its sa_mask blocks it).
 * Otherwise the application's handler in front called ours, and would
 * have called `prev` itself, as a function: so does ours. */
static void call_previous(const struct sigaction *prev, int sig, siginfo_t *info, void *uctx)
{
    /* A copy: a reset, or a start on another thread, may change the
     * recorded one while the handler runs. */
    struct sigaction h = *prev;
    siginfo_t relay = *info;
    /* A mark already there is another copy of weft's (in another shared
     * object) passing the fault on: kept, so that it sees the circle.
     * Anything else there (an application's handler may pass on a copy
     * with those bytes unset) gets ours. */
    uint64_t mark;
    memcpy(&mark, (const char *)info + RELAY_MARK_AT, sizeof mark);
    if ((mark & RELAY_MARK_TAG_BITS) != RELAY_MARK_TAG) {
        /* Relaxed: see relay_marked. */
        mark = atomic_load_explicit(&relay_mark, memory_order_relaxed);
        memcpy((char *)&relay + RELAY_MARK_AT, &mark, sizeof mark);
    }
    /* Ours in place: the kernel delivered to it.  `prev` itself in place:
     * a stop on another thread has just put it back. */
    struct sigaction now;
    sigset_t during, after;
    disposition_lock(&after);
    bool delivered = sigaction(sig, NULL, &now) == 0 && (is_ours(&now) || same_handler(&now, &h));
    if (delivered && (h.sa_flags & SA_RESETHAND))
        reset_for_one_shot(sig, &h);
    disposition_unlock(&after);
    during = after;
    if (delivered) {
        sigorset(&during, &during, &h.sa_mask);
        bool held = sigismember(&h.sa_mask, sig) == 1 ||
                    (uctx && sigismember(&((const ucontext_t *)uctx)->uc_sigmask, sig) == 1);
        if ((h.sa_flags & SA_NODEFER) && !held)
            sigdelset(&during, sig);
        pthread_sigmask(SIG_SETMASK, &during, NULL);
    }
    if (h.sa_flags & SA_SIGINFO)
        h.sa_sigaction(sig, &relay, uctx);
    else
        h.sa_handler(sig);
    if (delivered)
        pthread_sigmask(SIG_SETMASK, &after, NULL);
}

/* The fault was not weft's: hand it to the handler installed before ours,
 * as if ours were not there. */
static void chain_segv(int sig, siginfo_t *info, void *uctx)
{
    /* Acquire: pairs with the release in record_previous, so that the
     * record's fields are seen as written. */
    const struct sigaction *prev = atomic_load_explicit(&previous_segv, memory_order_acquire);
    if (runs_a_function(prev)) {
        call_previous(prev, sig, info, uctx);
        return;
    }
    /* A SIGSEGV that was sent (kill, raise, sigqueue: si_code <= 0) has no
     * instruction to run again: ignored, it is dropped as it would be
     * without weft; with the default action, it is sent again below. */
    bool sent = info->si_code <= 0;
    if (sent && prev->sa_handler == SIG_IGN)
        return;
    /* Default (or ignored, which the kernel does not honour for a fault):
     * return with the default action in place; the faulting instruction
     * runs again, or the signal sent again arrives as this handler
     * returns (it is blocked until then), and the process dies of it as it
     * would without weft. */
    set_default_action(sig);
    if (sent)
        raise(sig);
}

/* A fault we passed on came back (relay_marked): every handler in the
 * circle has had it.  The default action ends it, as at the end of a
 * chain: the circle returns, and the fault (or the signal sent again)
 * kills the process. */
static void end_circle(int sig, const siginfo_t *info)
{
    static const char msg[] =
        "weft: a SIGSEGV that is not weft's came back to weft's handler from the handler it "
        "passed it to (the handlers pass it round in a circle): the default action follows\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    set_default_action(sig);
    if (info->si_code <= 0)
        raise(sig);
}

/* Stops with the explanation of an overflow of a stack of stack_bytes,
 * in the words of `api`: `who` and id name the thread, `where` says which
 * stack, `raise` how to make it larger. */
static void report_overflow(const weft__api_words *api, const char *who, unsigned id,
                            const char *where, size_t stack_bytes, const char *raise)
{
    char msg[400];
    size_t n = 0;
    n = put_str(msg, n, sizeof msg, api->prefix);
    n = put_str(msg, n, sizeof msg, ": stack overflow on ");
    n = put_str(msg, n, sizeof msg, who);
    n = put_str(msg, n, sizeof msg, " ");
    n = put_uint(msg, n, sizeof msg, id);
    n = put_str(msg, n, sizeof msg, where);
    n = put_uint(msg, n, sizeof msg, (unsigned long long)stack_bytes);
    n = put_str(msg, n, sizeof msg, " bytes). Raise it with ");
    n = put_str(msg, n, sizeof msg, raise);
    n = put_str(msg, n, sizeof msg, ", or reduce the recursion depth.\n");
    ssize_t ignored = write(STDERR_FILENO, msg, n);
    (void)ignored;
    abort();
}

__thread const weft_thread_stack *weft__tls_stack WEFT__TLS_MODEL;

static void segv_handler(int sig, siginfo_t *info, void *uctx)
{
    if (relay_marked(info)) {
        end_circle(sig, info);
        return;
    }
    if (info->si_code <= 0) { /* sent, not a fault: its si_addr means nothing */
        chain_segv(sig, info, uctx);
        return;
    }
    /* Not in a range of weft's: the thread's thread-locals are not read,
     * which could allocate (memory.c says when). */
    if (!weft__guard_holds(info->si_addr)) {
        chain_segv(sig, info, uctx);
        return;
    }
    weft_worker *w = weft__tls_worker;
    char *addr = info->si_addr;
    /* The pool's stacks are sized by the call that started it: in the
     * words of its API, also for a RUN caller on a guest stack. */
    const weft__api_words *pool = weft__pool_words();
    if (w && addr >= (char *)w->guard_lo && addr < (char *)w->stack_lo)
        report_overflow(pool, "worker", w->id, " (its stack is ",
                        (size_t)((char *)w->stack_hi - (char *)w->stack_lo), pool->stack_size);
    /* A RUN caller running as worker w, on w's guest stack (external.c). */
    weft_seat *seat = w && weft__rt.seats ? &weft__rt.seats[w->id] : NULL;
    if (seat && addr >= (char *)seat->guard_lo && addr < (char *)seat->stack_lo)
        report_overflow(pool, "worker", w->id,
                        " (in a RUN from outside the pool, on the worker's guest stack of ",
                        seat->stack_size, pool->stack_size);
    /* Any other thread on a stack of weft's (the work pool's workers). */
    const weft_thread_stack *ts = weft__tls_stack;
    if (ts && addr >= (char *)ts->guard_lo && addr < (char *)ts->lo)
        report_overflow(weft__words(), ts->who, ts->id, " (its stack is ", ts->size, ts->raise);
    char *deque_guard = w ? (char *)(w->dq - 1) + weft__deque_bytes(w->deque_slots) : NULL;
    if (w && addr >= deque_guard && addr < deque_guard + weft__page_size()) {
        static const char msg[] = "weft: write past the end of a task deque (corrupted head?)\n";
        ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)ignored;
        abort();
    }
    chain_segv(sig, info, uctx);
}

/* The handler is shared by the fork-join pool and every work pool run
 * (which may overlap, from several threads): installed by the first user,
 * removed by the last. */
static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned handler_users;

/* The recorded previous handler, read under handler_lock, where only
 * this thread may change it. */
static const struct sigaction *recorded_previous(void)
{
    /* Relaxed: only stores under handler_lock change it. */
    return atomic_load_explicit(&previous_segv, memory_order_relaxed);
}

/* A queried action's sa_mask holds the kernel's signals in its first
 * bytes (signal s at bit s - 1, as the C library keeps them), and past
 * them whatever the C library left there.  Copied bytewise: sigaddset
 * refuses the C library's own signals, which a mask may hold. */
#define KERNEL_SIGSET_BYTES (((size_t)NSIG - 1 + 7) / 8)
_Static_assert(KERNEL_SIGSET_BYTES <= sizeof(sigset_t), "the kernel's signals fit a sigset_t");

static sigset_t signals_of(const sigset_t *mask)
{
    sigset_t clean;
    memset(&clean, 0, sizeof clean);
    memcpy(&clean, mask, KERNEL_SIGSET_BYTES);
    return clean;
}

static bool same_signals(const sigset_t *a, const sigset_t *b)
{
    return memcmp(a, b, KERNEL_SIGSET_BYTES) == 0;
}

static bool same_action(const struct sigaction *a, const struct sigaction *b)
{
    return a->sa_handler == b->sa_handler && a->sa_flags == b->sa_flags &&
           same_signals(&a->sa_mask, &b->sa_mask);
}

/* Publishes `now` as the previous handler, in an equal one's record or in
 * *spare, which it then takes (under handler_lock; allocated before the
 * disposition lock, which blocks every signal).  ENOMEM if a new record is
 * needed and there is no spare. */
static int record_previous(const struct sigaction *now, previous_record **spare)
{
    previous_record *r = previous_records;
    while (r && !same_action(&r->action, now))
        r = r->next;
    if (!r) {
        r = *spare;
        if (!r)
            return ENOMEM;
        *spare = NULL;
        r->action = *now;
        r->action.sa_mask = signals_of(&now->sa_mask);
        r->next = previous_records;
        previous_records = r;
    }
    /* Release: a handler on another thread that loads this pointer sees
     * the record written above. */
    atomic_store_explicit(&previous_segv, &r->action, memory_order_release);
    return 0;
}

int weft__overflow_handler_install(void)
{
    int err = 0;
    pthread_mutex_lock(&handler_lock);
    previous_record *spare = handler_users == 0 ? malloc(sizeof *spare) : NULL;
    sigset_t saved;
    disposition_lock(&saved);
    if (handler_users == 0) {
        struct sigaction now;
        if (sigaction(SIGSEGV, NULL, &now) != 0) {
            err = errno;
        } else if (is_ours(&now)) {
            /* The application put ours back (from what its own sigaction
             * returned): the previous handler is still the one recorded;
             * recording ours would pass faults to itself. */
            memset(&displaced_by, 0, sizeof displaced_by);
        } else if (runs_a_function(&displaced_by) && same_handler(&now, &displaced_by) &&
                   !same_handler(&now, recorded_previous())) {
            /* Ours stays behind the handler that the application put in
             * its place, which may pass faults on to ours: in front of
             * it, ours would pass them back, and round again.  (The one
             * that was there before ours, installed again, goes behind
             * ours, as at first.) */
        } else {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_sigaction = segv_handler;
            sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
            sigemptyset(&sa.sa_mask);
            make_relay_mark();
            /* Recorded before ours is in place: a fault on another thread
             * finds it there at once. */
            err = record_previous(&now, &spare);
            if (!err && sigaction(SIGSEGV, &sa, NULL) != 0)
                err = errno;
            if (!err)
                memset(&displaced_by, 0, sizeof displaced_by);
        }
    }
    disposition_unlock(&saved);
    free(spare); /* not needed: an equal record was there, or none was made */
    if (!err)
        handler_users++;
    pthread_mutex_unlock(&handler_lock);
    if (err)
        weft__warn("could not install the SIGSEGV handler (%s); stack overflows will not be "
                   "explained",
                   strerror(err));
    return err;
}

/* The last user is done: put back what was there before ours, unless the
 * application installed a handler of its own since.  That one stays (it
 * may pass faults on to ours, which keeps working: with no pool it passes
 * every fault on), and the next install leaves it in front. */
static void restore_previous(void)
{
    sigset_t saved;
    disposition_lock(&saved);
    struct sigaction now;
    if (sigaction(SIGSEGV, NULL, &now) != 0) {
        disposition_unlock(&saved);
        return;
    }
    memset(&displaced_by, 0, sizeof displaced_by);
    if (is_ours(&now)) {
        /* Exchanged, not just set: the application, which does not take
         * the lock, may have replaced ours since the look; its handler
         * goes back (for an instant the previous one was in place). */
        struct sigaction replaced;
        if (sigaction(SIGSEGV, recorded_previous(), &replaced) == 0 && !is_ours(&replaced)) {
            sigaction(SIGSEGV, &replaced, NULL);
            if (runs_a_function(&replaced))
                displaced_by = replaced;
        }
    } else if (runs_a_function(&now)) {
        displaced_by = now;
    }
    disposition_unlock(&saved);
}

void weft__overflow_handler_remove(void)
{
    pthread_mutex_lock(&handler_lock);
    if (handler_users > 0 && --handler_users == 0)
        restore_previous();
    pthread_mutex_unlock(&handler_lock);
}

void weft__overflow_handler_forget(void)
{
    /* In a child after fork(): one thread, and the lock may have been held
     * by a thread that is gone. */
    pthread_mutex_init(&handler_lock, NULL);
    /* Relaxed: the child has one thread; a holder on another is gone. */
    atomic_flag_clear_explicit(&disposition_busy, memory_order_relaxed);
    if (handler_users > 0)
        restore_previous();
    handler_users = 0;
}
