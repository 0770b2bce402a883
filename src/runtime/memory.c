/* Memory for deques and stacks, and explaining a stack overflow.
 *
 * Deques and stacks are reserved with mmap: address space is cheap, and
 * the kernel supplies real pages only where they are touched, so a 64 MiB
 * stack or a million-task deque costs what the computation uses.  Each
 * region has PROT_NONE guard pages: below a stack (it grows down) and
 * above a deque.  The deque never reaches its guard (SPAWN checks the
 * bound and stops with a message); the stack guard turns an overflow into
 * a SIGSEGV, which the handler below explains before aborting.
 *
 * A stack's guard is as large as the stack (weft_stack_guard), so a frame
 * can only jump over it into whatever lies below by being larger than the
 * whole stack; and weft and its users compile with -fstack-clash-protection
 * where the compiler has it (the CMake target and pkg-config export it),
 * which probes every page of a large frame, so such code always hits the
 * guard.  docs/configuration.md says what is and is not caught.
 *
 * The SIGSEGV handler is installed at start only if asked
 * (report_stack_overflow): a fault that is not weft's goes on to the
 * handler that was there before (called, or the default action), and stop
 * restores that handler only if ours is still the one installed.
 */
#include "runtime/internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

size_t weft_page_size(void)
{
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

void *weft_map(size_t bytes, size_t guard_below, size_t guard_above, int placement)
{
    size_t page = weft_page_size();
    bytes = round_up(bytes, page);
    guard_below = round_up(guard_below, page);
    guard_above = round_up(guard_above, page);
    size_t total = guard_below + bytes + guard_above;
    char *base = mmap(NULL, total, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return NULL;
    if ((guard_below && mprotect(base, guard_below, PROT_NONE) != 0) ||
        (guard_above && mprotect(base + guard_below + bytes, guard_above, PROT_NONE) != 0)) {
        munmap(base, total);
        return NULL;
    }
    weft_topology_bind_area(base + guard_below, bytes, placement);
    return base + guard_below;
}

void weft_unmap(void *usable, size_t bytes, size_t guard_below, size_t guard_above)
{
    size_t page = weft_page_size();
    bytes = round_up(bytes, page);
    guard_below = round_up(guard_below, page);
    guard_above = round_up(guard_above, page);
    munmap((char *)usable - guard_below, guard_below + bytes + guard_above);
}

/* ------------------------------------------------------------------------
 * Stack overflow reporting
 * ------------------------------------------------------------------------ */

static struct sigaction previous_segv;
static bool handler_installed;

size_t weft_stack_guard(size_t stack_size)
{
    size_t guard = stack_size;
    if (guard < WEFT_MIN_STACK_GUARD)
        guard = WEFT_MIN_STACK_GUARD;
    if (guard > WEFT_MAX_STACK_GUARD)
        guard = WEFT_MAX_STACK_GUARD;
    return round_up(guard, weft_page_size());
}

#define ALTSTACK_SIZE ((size_t)64 << 10)

int weft_altstack_setup(void **mem)
{
    size_t size = ALTSTACK_SIZE > (size_t)SIGSTKSZ ? ALTSTACK_SIZE : (size_t)SIGSTKSZ;
    void *p = weft_map(size, weft_page_size(), 0, -1);
    if (!p)
        return ENOMEM;
    stack_t ss = {.ss_sp = p, .ss_size = size, .ss_flags = 0};
    if (sigaltstack(&ss, NULL) != 0) {
        weft_unmap(p, size, weft_page_size(), 0);
        return errno;
    }
    *mem = p;
    return 0;
}

void weft_altstack_teardown(void *mem)
{
    if (!mem)
        return;
    stack_t ss = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
    sigaltstack(&ss, NULL);
    size_t size = ALTSTACK_SIZE > (size_t)SIGSTKSZ ? ALTSTACK_SIZE : (size_t)SIGSTKSZ;
    weft_unmap(mem, size, weft_page_size(), 0);
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

/* The fault was not weft's: hand it to the handler installed before ours,
 * as if ours were not there. */
static void chain_segv(int sig, siginfo_t *info, void *uctx)
{
    const struct sigaction *prev = &previous_segv;
    if ((prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction) {
        prev->sa_sigaction(sig, info, uctx);
        return;
    }
    if (!(prev->sa_flags & SA_SIGINFO) && prev->sa_handler != SIG_DFL &&
        prev->sa_handler != SIG_IGN) {
        prev->sa_handler(sig);
        return;
    }
    /* Default (or ignored, which the kernel does not honour for a fault):
     * return with the default action in place; the faulting instruction
     * runs again and the process dies of it as it would without weft. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
}

/* Stops with the explanation of an overflow of a stack of stack_bytes:
 * `who` and id name the thread, `where` says which stack, `raise` how to
 * make it larger. */
static void report_overflow(const char *who, unsigned id, const char *where, size_t stack_bytes,
                            const char *raise)
{
    char msg[400];
    size_t n = 0;
    n = put_str(msg, n, sizeof msg, "weft: stack overflow on ");
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

__thread const weft_thread_stack *weft_tls_stack __attribute__((tls_model("initial-exec")));

static void segv_handler(int sig, siginfo_t *info, void *uctx)
{
    weft_worker *w = weft_tls_worker;
    char *addr = info->si_addr;
    static const char fork_join_raise[] = "weft_start's stack_size or WEFT_STACK_SIZE";
    if (w && addr >= (char *)w->guard_lo && addr < (char *)w->stack_lo)
        report_overflow("worker", w->id, " (its stack is ",
                        (size_t)((char *)w->stack_hi - (char *)w->stack_lo), fork_join_raise);
    /* A RUN caller running as worker w, on w's guest stack (external.c). */
    weft_seat *seat = w && weft_rt.seats ? &weft_rt.seats[w->id] : NULL;
    if (seat && addr >= (char *)seat->guard_lo && addr < (char *)seat->stack_lo)
        report_overflow("worker", w->id,
                        " (in a RUN from outside the pool, on the worker's guest stack of ",
                        seat->stack_size, fork_join_raise);
    /* Any other thread on a stack of weft's (the work pool's workers). */
    const weft_thread_stack *ts = weft_tls_stack;
    if (ts && addr >= (char *)ts->guard_lo && addr < (char *)ts->lo)
        report_overflow(ts->who, ts->id, " (its stack is ", ts->size, ts->raise);
    char *deque_guard = w ? (char *)w->dq + weft_deque_bytes(w->deque_slots) : NULL;
    if (w && addr >= deque_guard && addr < deque_guard + weft_page_size()) {
        static const char msg[] = "weft: write past the end of a task deque (corrupted head?)\n";
        ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)ignored;
        abort();
    }
    chain_segv(sig, info, uctx);
}

size_t weft_deque_bytes(size_t slots)
{
    /* One slot more than usable: `end` stays EMPTY, so a task running at
     * a full deque's top can check its slot (weft_check_return). */
    return round_up((slots + 1) * sizeof(weft_task), weft_page_size());
}

/* The handler is shared by the fork-join pool and every work pool run
 * (which may overlap, from several threads): installed by the first user,
 * removed by the last. */
static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned handler_users;

int weft_overflow_handler_install(void)
{
    int err = 0;
    pthread_mutex_lock(&handler_lock);
    if (handler_users == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = segv_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSEGV, &sa, &previous_segv) != 0)
            err = errno;
        else
            handler_installed = true;
    }
    if (!err)
        handler_users++;
    pthread_mutex_unlock(&handler_lock);
    return err;
}

/* Put back what was there before, unless the application installed a
 * handler of its own since: that one stays (it may chain to ours, which
 * keeps working: with no pool it passes every fault on). */
static void restore_previous(void)
{
    struct sigaction now;
    if (sigaction(SIGSEGV, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) &&
        now.sa_sigaction == segv_handler)
        sigaction(SIGSEGV, &previous_segv, NULL);
    handler_installed = false;
}

void weft_overflow_handler_remove(void)
{
    pthread_mutex_lock(&handler_lock);
    if (handler_users > 0 && --handler_users == 0 && handler_installed)
        restore_previous();
    pthread_mutex_unlock(&handler_lock);
}

void weft_overflow_handler_forget(void)
{
    /* In a child after fork(): one thread, and the lock may have been held
     * by a thread that is gone. */
    pthread_mutex_init(&handler_lock, NULL);
    if (handler_installed)
        restore_previous();
    handler_users = 0;
}
