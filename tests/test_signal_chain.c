// SPDX-License-Identifier: Apache-2.0
/* weft's SIGSEGV handler and the application's handlers around it
 * (docs/configuration.md, "Stack overflows"):
 *  - a fault that is not weft's reaches the handler installed before
 *    weft_start as the kernel would have delivered it: SA_RESETHAND puts
 *    the default action back first (a crash reporter that returns then
 *    dies of the fault, once), sa_mask is blocked during the call, and
 *    SIGSEGV too unless SA_NODEFER;
 *  - a handler the application installs over weft's, passing faults on to
 *    the one it replaced, stays in front of weft's through a weft_stop and
 *    a new weft_start: a fault goes round once, not back and forth, and an
 *    overflow is still explained;
 *  - a handler put back over weft's from what sigaction returned (weft's
 *    own) is not recorded as the one before weft's.
 * Each case runs in a child; the handlers say they ran on stderr, and end
 * the child with LOOPING if called more often than a fault can call
 * them. */
#include "check.h"

#include <setjmp.h>
#include <sys/mman.h>
#include <weft/weft.h>

enum { LOOPING = 42, MAX_CALLS = 3, SMALL_STACK = 64 << 10 };

static void say(const char *line) { (void)!write(STDERR_FILENO, line, strlen(line)); }

static volatile sig_atomic_t calls;

static void count_call(const char *line)
{
    say(line);
    if (++calls > MAX_CALLS)
        _exit(LOOPING);
}

static char *no_access_page(void)
{
    char *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED, "mmap");
    return p;
}

static char *volatile fault_page;

WEFT_TASK_0(long, fault_in_task) { return *(volatile char *)(fault_page + 8); }

/* A frame far larger than a SMALL_STACK worker stack, its lowest byte
 * written first: it lands in the guard. */
__attribute__((noinline)) static long frame_340k(void)
{
    volatile char b[340 << 10];
    b[0] = 1;
    return b[0];
}

WEFT_TASK_0(long, overflow_in_task) { return frame_340k(); }

static void install(void (*fn)(int, siginfo_t *, void *), int flags, const sigset_t *mask,
                    struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | flags;
    if (mask)
        sa.sa_mask = *mask;
    else
        sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGSEGV, &sa, old) == 0, "sigaction");
}

static bool installed_now(void (*fn)(int, siginfo_t *, void *))
{
    struct sigaction now;
    CHECK(sigaction(SIGSEGV, NULL, &now) == 0, "sigaction");
    return (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == fn;
}

/* Runs child in a process of its own; it must die of SIGSEGV with `line`
 * on its stderr exactly once. */
static void expect_segv_once(void (*child)(void), const char *line, const char *what)
{
    char buf[8192];
    int status = run_child(NULL, child, 0, buf, sizeof buf);
    CHECK(status != LOOPING, "%s: a handler was called again and again:\n%s", what, buf);
    CHECK(status == 128 + SIGSEGV, "%s: the child ended with %d, not by SIGSEGV:\n%s", what, status,
          buf);
    const char *first = strstr(buf, line);
    CHECK(first && !strstr(first + 1, line), "%s: \"%s\" not exactly once on stderr:\n%s", what,
          line, buf);
    printf("ok: %s\n", what);
}

/* ---- SA_RESETHAND: a crash reporter that returns ---- */

static void reporter(int sig, siginfo_t *info, void *uctx)
{
    (void)sig, (void)info, (void)uctx;
    count_call("reporter ran\n");
}

static void plain_reporter(int sig)
{
    (void)sig;
    count_call("reporter ran\n");
}

static void resethand_child(void)
{
    install(reporter, SA_RESETHAND, NULL, NULL);
    fault_page = no_access_page();
    CHECK(weft_start(2, 0, 0) == 0, "start");
    WEFT_RUN(fault_in_task);
}

static void resethand_plain_child(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = plain_reporter;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGSEGV, &sa, NULL) == 0, "sigaction");
    fault_page = no_access_page();
    CHECK(weft_start(2, 0, 0) == 0, "start");
    *(volatile char *)fault_page = 1; /* on the calling thread, the pool running */
}

/* ---- sa_mask and SA_NODEFER ---- */

static sigjmp_buf back;
static volatile sig_atomic_t usr2_blocked, segv_blocked;

static void mask_reader(int sig, siginfo_t *info, void *uctx)
{
    (void)sig, (void)info, (void)uctx;
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    usr2_blocked = sigismember(&now, SIGUSR2) == 1;
    segv_blocked = sigismember(&now, SIGSEGV) == 1;
    siglongjmp(back, 1);
}

static int mask_case(bool nodefer)
{
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    install(mask_reader, nodefer ? SA_NODEFER : 0, &usr2, NULL);
    fault_page = no_access_page();
    if (weft_start(2, 0, 0) != 0)
        return 10;
    if (sigsetjmp(back, 1) == 0) {
        *(volatile char *)fault_page = 1;
        return 11; /* did not fault */
    }
    if (!usr2_blocked)
        return 12;
    if (segv_blocked == nodefer)
        return 13;
    return weft_stop() == 0 ? 0 : 14;
}

static int mask_child(void) { return mask_case(false); }
static int nodefer_child(void) { return mask_case(true); }

static void test_mask(bool nodefer)
{
    char buf[4096];
    int r = run_child(nodefer ? nodefer_child : mask_child, NULL, 0, buf, sizeof buf);
    CHECK(r != 12, "the previous handler ran without its sa_mask blocked");
    CHECK(r != 13, "the previous handler ran with SIGSEGV %s, though its flags %s SA_NODEFER",
          nodefer ? "blocked" : "unblocked", nodefer ? "have" : "lack");
    CHECK(r == 0, "mask case: result %d (stderr: %s)", r, buf);
    printf("ok: the previous handler runs with its sa_mask blocked, and SIGSEGV %s (%s)\n",
           nodefer ? "unblocked" : "blocked", nodefer ? "SA_NODEFER" : "no SA_NODEFER");
}

/* ---- a handler installed over weft's, which passes faults on ---- */

static struct sigaction replaced;

static void passes_on(int sig, siginfo_t *info, void *uctx)
{
    count_call("application's handler ran\n");
    if ((replaced.sa_flags & SA_SIGINFO) && replaced.sa_sigaction)
        replaced.sa_sigaction(sig, info, uctx);
    else
        signal(sig, SIG_DFL);
}

/* weft_start, the application's handler over weft's, weft_stop, and a new
 * weft_start with `stack` bytes per worker. */
static void restart_behind_application(size_t stack)
{
    signal(SIGSEGV, SIG_DFL);
    CHECK(weft_start(2, 0, 0) == 0, "start");
    install(passes_on, SA_ONSTACK, NULL, &replaced);
    CHECK(weft_stop() == 0, "stop");
    CHECK(weft_start(2, 0, stack) == 0, "second start");
    CHECK(installed_now(passes_on), "the second start put weft's handler in front of the "
                                    "application's, which passes faults on to weft's");
}

static void restart_fault_child(void)
{
    fault_page = no_access_page();
    restart_behind_application(0);
    WEFT_RUN(fault_in_task);
}

static void restart_overflow_child(void)
{
    restart_behind_application(SMALL_STACK);
    WEFT_RUN(overflow_in_task);
}

static void test_restart_overflow(void)
{
    char buf[8192];
    int status = run_child(NULL, restart_overflow_child, 0, buf, sizeof buf);
    CHECK(status != LOOPING, "overflow behind the application's handler: looped:\n%s", buf);
    CHECK(strstr(buf, "weft: stack overflow on worker"),
          "an overflow after the restart was not explained (status %d):\n%s", status, buf);
    const char *first = strstr(buf, "application's handler ran\n");
    CHECK(first && !strstr(first + 1, "application's handler ran\n"),
          "the application's handler did not run exactly once before weft's:\n%s", buf);
    printf("ok: behind the application's handler, after a restart, an overflow is explained\n");
}

/* ---- weft's handler put back from what sigaction returned ---- */

/* The application replaces weft's handler while the pool runs; then puts
 * it back, before weft_stop (which restores the reporter) or after it
 * (the application's stays in front until then); then puts it back once
 * more, after the stop, and starts again. */
static void put_back(bool before_stop)
{
    install(reporter, SA_RESETHAND, NULL, NULL);
    fault_page = no_access_page();
    CHECK(weft_start(2, 0, 0) == 0, "start");
    struct sigaction weft_s;
    install(passes_on, 0, NULL, &weft_s);
    if (before_stop)
        CHECK(sigaction(SIGSEGV, &weft_s, NULL) == 0, "sigaction");
    CHECK(weft_stop() == 0, "stop");
    if (before_stop)
        CHECK(installed_now(reporter), "stop did not put back the handler before weft's");
    CHECK(sigaction(SIGSEGV, &weft_s, NULL) == 0, "sigaction"); /* weft's, stale or not */
    CHECK(weft_start(2, 0, 0) == 0, "second start");
    WEFT_RUN(fault_in_task);
}

static void put_back_after_stop_child(void) { put_back(false); }
static void put_back_before_stop_child(void) { put_back(true); }

int main(void)
{
    expect_segv_once(resethand_child, "reporter ran\n",
                     "SA_RESETHAND: the reporter runs once, then the fault kills (in a task)");
    expect_segv_once(resethand_plain_child, "reporter ran\n",
                     "SA_RESETHAND, no SA_SIGINFO: the same (calling thread)");
    test_mask(false);
    test_mask(true);
    expect_segv_once(restart_fault_child, "application's handler ran\n",
                     "after stop and start, the application's handler stays in front; a fault "
                     "goes round once");
    test_restart_overflow();
    expect_segv_once(put_back_after_stop_child, "reporter ran\n",
                     "weft's handler put back after a stop: the handler before it still gets "
                     "the fault");
    expect_segv_once(put_back_before_stop_child, "reporter ran\n",
                     "weft's handler put back before a stop, and again after it: the same");
    return 0;
}
