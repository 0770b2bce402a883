// SPDX-License-Identifier: Apache-2.0
/* weft's SIGSEGV handler and the application's handlers around it
 * (docs/configuration.md, "Stacks"):
 *  - a fault that is not weft's reaches the handler installed before
 *    weft_start as the kernel would have delivered it: SA_RESETHAND puts
 *    the default action back first (a crash reporter that returns then
 *    dies of the fault, once), sa_mask is added to the mask of the
 *    interrupted code during the call, and SIGSEGV unblocked with
 *    SA_NODEFER; SIG_IGN set with SA_SIGINFO is ignored;
 *  - a handler the application installs over weft's, passing faults on to
 *    the one it replaced, stays in front of weft's through a weft_stop and
 *    a new weft_start: a fault goes round once, not back and forth, weft's
 *    passes it on as that handler would have (a call, with its mask), and
 *    an overflow is still explained; any other handler found at a start
 *    (the one before weft's too, installed again) gets weft's in front
 *    of it again;
 *  - weft's handler put back from what sigaction returned (weft's own) is
 *    not recorded as the one before it, and the last stop puts back the
 *    one before it even when weft's start had left it behind another;
 *  - handlers that pass a fault round in a circle back to weft's get one
 *    turn each, a message, and the default action; a fault that another
 *    copy of weft's passed on in a marked copy keeps that copy's mark, and
 *    one passed on in a copy with those bytes unset gets weft's;
 *  - starts and stops with the same handler before weft's keep one record
 *    of it, and the stop puts it back with its mask as it was.
 * Each case runs in a child; the handlers say they ran on stderr, and end
 * the child with LOOPING if called more often than a fault can call them.
 * Every case checks that weft's handler is the one in front where it
 * should be, so that none passes with weft's handler never installed. */
#include "segv_actions.h"

#include <malloc.h>
#include <setjmp.h>
#include <stdint.h>
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

typedef segv_handler_fn handler_fn;

/* A handler given in sa_handler: a plain function, SIG_DFL or SIG_IGN. */
static void install_plain(void (*fn)(int), int flags)
{
    struct sigaction sa = segv_action(flags, NULL);
    sa.sa_handler = fn;
    CHECK(sigaction(SIGSEGV, &sa, NULL) == 0, "sigaction");
}

/* The test's own handlers: what is installed is weft's if it is none of
 * them and runs a function. */
static handler_fn reporter, mask_reader, passes_on, passes_on_too, tail_reader, back_to_weft;

static bool weft_in_front(void)
{
    struct sigaction now;
    CHECK(sigaction(SIGSEGV, NULL, &now) == 0, "sigaction");
    return (now.sa_flags & SA_SIGINFO) && now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN &&
           now.sa_sigaction != reporter && now.sa_sigaction != mask_reader &&
           now.sa_sigaction != passes_on && now.sa_sigaction != passes_on_too &&
           now.sa_sigaction != tail_reader && now.sa_sigaction != back_to_weft;
}

static void start_in_front(size_t stack)
{
    CHECK(weft_start(2, 0, stack) == 0, "start");
    CHECK(weft_in_front(), "weft's handler is not the one in place after weft_start");
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
    install_segv_handler(reporter, SA_RESETHAND, NULL, NULL);
    fault_page = no_access_page();
    start_in_front(0);
    WEFT_RUN(fault_in_task);
}

static void resethand_plain_child(void)
{
    install_plain(plain_reporter, SA_RESETHAND);
    fault_page = no_access_page();
    start_in_front(0);
    *(volatile char *)fault_page = 1; /* on the calling thread, the pool running */
}

/* ---- SIG_IGN given with SA_SIGINFO ---- */

static int ignored_siginfo_child(void)
{
    install_plain(SIG_IGN, SA_SIGINFO);
    start_in_front(0);
    raise(SIGSEGV);
    return weft_stop() == 0 ? 0 : 10;
}

static void test_ignored_siginfo(void)
{
    char buf[4096];
    int r = run_child(ignored_siginfo_child, NULL, 0, buf, sizeof buf);
    CHECK(r == 0, "SIG_IGN set with SA_SIGINFO, a SIGSEGV raised: the child ended with %d:\n%s", r,
          buf);
    printf("ok: SIG_IGN set with SA_SIGINFO: a SIGSEGV sent is dropped\n");
}

/* ---- the mask during the previous handler ---- */

static sigjmp_buf back;
static volatile sig_atomic_t usr1_blocked, usr2_blocked, hup_blocked, segv_blocked;

static void mask_reader(int sig, siginfo_t *info, void *uctx)
{
    (void)sig, (void)info, (void)uctx;
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    usr1_blocked = sigismember(&now, SIGUSR1) == 1;
    usr2_blocked = sigismember(&now, SIGUSR2) == 1;
    hup_blocked = sigismember(&now, SIGHUP) == 1;
    segv_blocked = sigismember(&now, SIGSEGV) == 1;
    siglongjmp(back, 1);
}

static void install_mask_reader(bool nodefer)
{
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    install_segv_handler(mask_reader, nodefer ? SA_NODEFER : 0, &usr2, NULL);
}

/* Faults on this thread with SIGHUP blocked by the code that faults;
 * false if it did not fault. */
static bool fault_with_hup_blocked(void)
{
    sigset_t hup;
    sigemptyset(&hup);
    sigaddset(&hup, SIGHUP);
    if (sigsetjmp(back, 1) == 0) {
        pthread_sigmask(SIG_BLOCK, &hup, NULL);
        *(volatile char *)fault_page = 1;
        return false;
    }
    return true;
}

static int mask_case(bool nodefer)
{
    install_mask_reader(nodefer);
    fault_page = no_access_page();
    start_in_front(0);
    if (!fault_with_hup_blocked())
        return 11;
    if (!usr2_blocked)
        return 12;
    if (segv_blocked == nodefer)
        return 13;
    if (!hup_blocked)
        return 14;
    return weft_stop() == 0 ? 0 : 15;
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
    CHECK(r != 14, "the previous handler ran without the interrupted code's mask");
    CHECK(r == 0, "mask case: result %d (stderr: %s)", r, buf);
    printf("ok: the previous handler runs with the interrupted code's mask, its sa_mask, and "
           "SIGSEGV %s (%s)\n",
           nodefer ? "unblocked" : "blocked", nodefer ? "SA_NODEFER" : "no SA_NODEFER");
}

/* ---- a handler installed over weft's, which passes faults on ---- */

static struct sigaction replaced, replaced_too;

static void pass_on(const struct sigaction *to, int sig, siginfo_t *info, void *uctx)
{
    if ((to->sa_flags & SA_SIGINFO) && to->sa_handler != SIG_DFL && to->sa_handler != SIG_IGN)
        to->sa_sigaction(sig, info, uctx);
    else
        signal(sig, SIG_DFL);
}

static void passes_on(int sig, siginfo_t *info, void *uctx)
{
    count_call("application's handler ran\n");
    pass_on(&replaced, sig, info, uctx);
}

/* A second one, installed over the first. */
static void passes_on_too(int sig, siginfo_t *info, void *uctx)
{
    count_call("second handler ran\n");
    pass_on(&replaced_too, sig, info, uctx);
}

/* weft_start, the application's handler (blocking `mask`) over weft's,
 * weft_stop, and a new weft_start with `stack` bytes per worker. */
static void restart_behind_application(size_t stack, const sigset_t *mask)
{
    start_in_front(0);
    install_segv_handler(passes_on, SA_ONSTACK, mask, &replaced);
    CHECK(weft_stop() == 0, "stop");
    CHECK(weft_start(2, 0, stack) == 0, "second start");
    CHECK(segv_handler_installed(passes_on), "the second start put weft's handler in front of the "
                                             "application's, which passes faults on to weft's");
}

static void restart_fault_child(void)
{
    signal(SIGSEGV, SIG_DFL);
    fault_page = no_access_page();
    restart_behind_application(0, NULL);
    WEFT_RUN(fault_in_task);
}

static void restart_overflow_child(void)
{
    signal(SIGSEGV, SIG_DFL);
    restart_behind_application(SMALL_STACK, NULL);
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

/* Behind the application's handler, which blocks SIGUSR1, weft's passes a
 * fault on to the handler before it as the application's would have: a
 * call, in its mask (SIGUSR1 blocked, and SIGSEGV, though the handler
 * asked for SA_NODEFER: the kernel did not deliver to it). */
static int behind_mask_child(void)
{
    install_mask_reader(true);
    fault_page = no_access_page();
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    restart_behind_application(0, &usr1);
    if (!fault_with_hup_blocked())
        return 11;
    if (!usr1_blocked)
        return 12;
    if (!segv_blocked)
        return 13;
    if (!hup_blocked)
        return 14;
    return weft_stop() == 0 ? 0 : 15;
}

static void test_behind_mask(void)
{
    char buf[4096];
    int r = run_child(behind_mask_child, NULL, 0, buf, sizeof buf);
    CHECK(r != 12, "passed on by weft's behind the application's handler, the handler before "
                   "ran without the application's handler's mask");
    CHECK(r != 13, "passed on by weft's behind the application's handler, the handler before "
                   "ran with SIGSEGV unblocked");
    CHECK(r == 0, "behind-mask case: result %d (stderr: %s)", r, buf);
    printf("ok: behind the application's handler, the handler before weft's runs in the "
           "application's handler's mask\n");
}

/* The application, after the stop, sets the default action and installs
 * a reporter that passes nothing on: the next start puts weft's in front
 * of it, and an overflow is explained. */
static void replaced_after_stop_child(void)
{
    signal(SIGSEGV, SIG_DFL);
    restart_behind_application(0, NULL);
    CHECK(weft_stop() == 0, "stop");
    signal(SIGSEGV, SIG_DFL);
    install_segv_handler(reporter, SA_RESETHAND, NULL, NULL);
    start_in_front(SMALL_STACK);
    WEFT_RUN(overflow_in_task);
}

/* The reporter that was there before weft's, installed again while the
 * pool runs (an idempotent set-up called twice): the next start puts
 * weft's in front of it, as at first, and an overflow is explained. */
static void reinstalled_previous_child(void)
{
    install_segv_handler(reporter, SA_RESETHAND, NULL, NULL);
    start_in_front(0);
    install_segv_handler(reporter, SA_RESETHAND, NULL, NULL);
    CHECK(weft_stop() == 0, "stop");
    start_in_front(SMALL_STACK);
    WEFT_RUN(overflow_in_task);
}

/* A handler installed after the stop over the application's, passing
 * faults on to it, which passes them on to weft's: weft's, in front
 * again, would get the fault back. */
static void make_circle(void)
{
    signal(SIGSEGV, SIG_DFL);
    fault_page = no_access_page();
    start_in_front(0);
    install_segv_handler(passes_on, 0, NULL, &replaced);
    CHECK(weft_stop() == 0, "stop");
    install_segv_handler(passes_on_too, 0, NULL, &replaced_too);
    start_in_front(0);
}

static void circle_child(void)
{
    make_circle();
    WEFT_RUN(fault_in_task);
}

/* The same with a SIGSEGV sent, which no instruction sends again: the
 * default action must still end the process. */
static void circle_sent_child(void)
{
    make_circle();
    raise(SIGSEGV);
}

static void test_circle(bool sent)
{
    char buf[8192];
    int status = run_child(NULL, sent ? circle_sent_child : circle_child, 0, buf, sizeof buf);
    CHECK(status != LOOPING, "handlers in a circle: called again and again:\n%s", buf);
    CHECK(status == 128 + SIGSEGV, "handlers in a circle: ended with %d, not SIGSEGV:\n%s", status,
          buf);
    CHECK(strstr(buf, "pass it round in a circle"), "handlers in a circle: no message:\n%s", buf);
    const char *a = strstr(buf, "application's handler ran\n");
    const char *b = strstr(buf, "second handler ran\n");
    CHECK(a && b && !strstr(a + 1, "application's handler ran\n") &&
              !strstr(b + 1, "second handler ran\n"),
          "handlers in a circle: not each once:\n%s", buf);
    printf("ok: handlers that pass a %s round back to weft's: each once, a message, the "
           "default action\n",
           sent ? "SIGSEGV sent" : "fault");
}

/* ---- weft's handler put back from what sigaction returned ---- */

/* The application replaces weft's handler while the pool runs; then puts
 * it back, before weft_stop (which restores the reporter) or after it
 * (the application's stays in front until then); then puts it back once
 * more, after the stop, and starts again. */
static void put_back(bool before_stop)
{
    install_segv_handler(reporter, SA_RESETHAND, NULL, NULL);
    fault_page = no_access_page();
    start_in_front(0);
    struct sigaction weft_s;
    install_segv_handler(passes_on, 0, NULL, &weft_s);
    if (before_stop)
        CHECK(sigaction(SIGSEGV, &weft_s, NULL) == 0, "sigaction");
    CHECK(weft_stop() == 0, "stop");
    if (before_stop)
        CHECK(segv_handler_installed(reporter), "stop did not put back the handler before weft's");
    CHECK(sigaction(SIGSEGV, &weft_s, NULL) == 0, "sigaction"); /* weft's, stale or not */
    start_in_front(0);
    WEFT_RUN(fault_in_task);
}

static void put_back_after_stop_child(void) { put_back(false); }
static void put_back_before_stop_child(void) { put_back(true); }

/* Behind the application's handler after a restart, the application puts
 * weft's back while the pool runs: the stop puts back the reporter. */
static int put_back_behind_child(void)
{
    install_segv_handler(reporter, SA_RESETHAND, NULL, NULL);
    start_in_front(0);
    struct sigaction weft_s;
    install_segv_handler(passes_on, 0, NULL, &weft_s);
    CHECK(weft_stop() == 0, "stop");
    CHECK(weft_start(2, 0, 0) == 0, "second start");
    CHECK(segv_handler_installed(passes_on), "weft's went in front of the application's handler");
    CHECK(sigaction(SIGSEGV, &weft_s, NULL) == 0, "sigaction");
    CHECK(weft_stop() == 0, "second stop");
    return segv_handler_installed(reporter) ? 0 : 10;
}

static void test_put_back_behind(void)
{
    char buf[4096];
    int r = run_child(put_back_behind_child, NULL, 0, buf, sizeof buf);
    CHECK(r != 10, "weft's handler, put back while it was behind the application's, was left "
                   "installed by the last stop");
    CHECK(r == 0, "put-back-behind case: result %d (stderr: %s)", r, buf);
    printf("ok: weft's handler put back while behind the application's: the last stop "
           "restores the one before it\n");
}

/* ---- a fault passed on by another copy of weft's ---- */

/* Another copy of weft's (in another shared object), in front of this
 * one, passes a fault on in a copy marked with its own mark: this copy
 * keeps that mark for the handler before it, so that the other copy sees
 * the circle if the fault comes round to it. */
enum { TAIL = sizeof(siginfo_t) - sizeof(uint64_t) };
/* Every copy's mark has the same top 32 bits (overflow.c's tag). */
#define MARK_TAG 0x7e1f5a9cu
static const uint64_t foreign_mark = (uint64_t)MARK_TAG << 32 | 0x0ddba11du;
static struct sigaction behind_foreign;
static volatile uint64_t tail_seen;

static void tail_reader(int sig, siginfo_t *info, void *uctx)
{
    (void)sig, (void)uctx;
    uint64_t tail;
    memcpy(&tail, (const char *)info + TAIL, sizeof tail);
    tail_seen = tail;
    siglongjmp(back, 1);
}

static void marks_as_another_copy(int sig, siginfo_t *info, void *uctx)
{
    siginfo_t copy = *info;
    memcpy((char *)&copy + TAIL, &foreign_mark, sizeof foreign_mark);
    behind_foreign.sa_sigaction(sig, &copy, uctx);
}

/* Each fault goes through weft's to tail_reader: first straight from the
 * kernel (weft's own mark, which is not 0), then through the other copy
 * (its mark, kept).  `n` counts the faults that reached tail_reader. */
static int faults_reaching_reader(uint64_t *tails)
{
    volatile int n = 0;
    for (volatile int i = 0; i < 2; i++) {
        if (i == 1)
            install_segv_handler(marks_as_another_copy, 0, NULL, &behind_foreign);
        tail_seen = 0;
        if (sigsetjmp(back, 1) == 0) {
            *(volatile char *)fault_page = 1;
            return n;
        }
        tails[n++] = tail_seen;
    }
    return n;
}

static int foreign_mark_child(void)
{
    install_segv_handler(tail_reader, 0, NULL, NULL);
    fault_page = no_access_page();
    start_in_front(0);
    uint64_t tails[2];
    if (faults_reaching_reader(tails) != 2)
        return 11;
    if (tails[0] == 0 || tails[0] == foreign_mark)
        return 12;
    if (tails[0] >> 32 != MARK_TAG)
        return 15;
    if (tails[1] != foreign_mark)
        return 13;
    return weft_stop() == 0 ? 0 : 14;
}

static void test_foreign_mark(void)
{
    char buf[4096];
    int r = run_child(foreign_mark_child, NULL, 0, buf, sizeof buf);
    CHECK(r != 11, "a fault did not reach the handler before weft's (stderr: %s)", buf);
    CHECK(r != 12, "weft's handler passed a fault on without its own mark");
    CHECK(r != 13, "weft's handler replaced the mark of the copy of weft's that passed the fault "
                   "on to it");
    CHECK(r != 15, "weft's mark lacks the tag that other copies of weft's keep");
    CHECK(r == 0, "foreign-mark case: result %d (stderr: %s)", r, buf);
    printf("ok: a fault passed on by another copy of weft's keeps that copy's mark\n");
}

/* ---- a siginfo copy with unset bytes, passed round ---- */

/* The application's handler in front of weft's passes a fault on in a
 * copy of its own whose last bytes it never set; the handler before
 * weft's passes it straight back to weft's handler.  weft's marks the
 * copy it passes on in place of those bytes, and sees it come back. */
static const uint64_t unset_bytes = 0x0123456789abcdefu;
static struct sigaction behind_front, weft_action;

static void front_with_unset_bytes(int sig, siginfo_t *info, void *uctx)
{
    siginfo_t copy = *info;
    memcpy((char *)&copy + TAIL, &unset_bytes, sizeof unset_bytes);
    behind_front.sa_sigaction(sig, &copy, uctx);
}

static void back_to_weft(int sig, siginfo_t *info, void *uctx)
{
    count_call("handler before weft's ran\n");
    weft_action.sa_sigaction(sig, info, uctx);
}

static void unset_bytes_child(void)
{
    signal(SIGSEGV, SIG_DFL);
    fault_page = no_access_page();
    install_segv_handler(back_to_weft, 0, NULL, NULL);
    start_in_front(0);
    CHECK(sigaction(SIGSEGV, NULL, &weft_action) == 0, "sigaction");
    install_segv_handler(front_with_unset_bytes, 0, NULL, &behind_front);
    *(volatile char *)fault_page = 1;
}

static void test_unset_bytes(void)
{
    char buf[8192];
    int status = run_child(NULL, unset_bytes_child, 0, buf, sizeof buf);
    CHECK(status != LOOPING, "a copy with unset bytes passed round: called again and again:\n%s",
          buf);
    CHECK(status == 128 + SIGSEGV, "a copy with unset bytes passed round: ended with %d:\n%s",
          status, buf);
    CHECK(strstr(buf, "pass it round in a circle"),
          "a copy with unset bytes passed round: no message:\n%s", buf);
    printf("ok: a siginfo copy whose last bytes the application left unset, passed round back "
           "to weft's: seen, a message, the default action\n");
}

/* ---- the record of the handler before weft's ---- */

/* Starts and stops with the same handler before weft's (or the default
 * action) keep one record of it, not one per start: what the C library
 * leaves in the unused bytes of a queried sa_mask differs from query to
 * query. */
/* The allocator's figure settles only after many starts where a start
 * allocates much (hwloc's topology: about 150); a record is 160 bytes,
 * so one per start would be 32,000 bytes. */
enum { WARM_UP = 200, CYCLES = 200, KEPT_BYTES_AT_MOST = 4096 };

__attribute__((noinline)) static void start_stop_at_depth(int depth)
{
    volatile char frame[64];
    frame[0] = (char)depth;
    if (depth > 0) {
        start_stop_at_depth(depth - 1);
        return;
    }
    start_in_front(0);
    CHECK(weft_stop() == 0, "stop");
    (void)frame[0];
}

static size_t bytes_in_use(void) { return mallinfo2().uordblks; }

static int records_child(bool with_handler)
{
    if (with_handler)
        install_segv_handler(reporter, SA_RESETHAND, NULL, NULL);
    for (int i = 0; i < WARM_UP; i++)
        start_stop_at_depth(i % 7);
    size_t before = bytes_in_use();
    for (int i = 0; i < CYCLES; i++)
        start_stop_at_depth(i % 7); /* a different stack below each query */
    size_t after = bytes_in_use();
    fprintf(stderr, "%zu bytes more in use after %d starts\n", after - before, CYCLES);
    return after <= before + KEPT_BYTES_AT_MOST ? 0 : 10;
}

static int records_handler_child(void) { return records_child(true); }
static int records_default_child(void) { return records_child(false); }

static void test_records(bool with_handler)
{
    char buf[4096];
    int r = run_child(with_handler ? records_handler_child : records_default_child, NULL, 0, buf,
                      sizeof buf);
    CHECK(r == 0, "%d starts and stops with %s before weft's: memory kept grows (%s)", CYCLES,
          with_handler ? "the same handler" : "the default action", buf);
    printf("ok: %d starts and stops with %s before weft's keep no record per start (%s", CYCLES,
           with_handler ? "the same handler" : "the default action", buf);
}

/* The stop puts back the handler before weft's with its mask as it was,
 * the C library's own signals (32, 33) in it too, which sigaddset
 * refuses: the mask's bytes set directly. */
static int mask_kept_child(void)
{
    struct sigaction sa = segv_action(SA_SIGINFO, NULL);
    sa.sa_sigaction = reporter;
    memset(&sa.sa_mask, 0xff, 8); /* signals 1 to 64 */
    CHECK(sigaction(SIGSEGV, &sa, NULL) == 0, "sigaction");
    struct sigaction before, after;
    CHECK(sigaction(SIGSEGV, NULL, &before) == 0, "sigaction");
    if (sigismember(&before.sa_mask, 32) != 1)
        return 11; /* the C library did not keep them: nothing to show */
    start_in_front(0);
    CHECK(weft_stop() == 0, "stop");
    CHECK(sigaction(SIGSEGV, NULL, &after) == 0, "sigaction");
    if (!(after.sa_flags & SA_SIGINFO) || after.sa_sigaction != reporter)
        return 12;
    return memcmp(&before.sa_mask, &after.sa_mask, 8) == 0 ? 0 : 13;
}

static void test_mask_kept(void)
{
    char buf[4096];
    int r = run_child(mask_kept_child, NULL, 0, buf, sizeof buf);
    CHECK(r != 11, "the C library did not keep signal 32 in an installed sa_mask (stderr: %s)",
          buf);
    CHECK(r != 12, "the stop did not put back the handler before weft's");
    CHECK(r != 13, "the stop put back the handler before weft's with another mask");
    CHECK(r == 0, "mask-kept case: result %d (stderr: %s)", r, buf);
    printf("ok: the stop puts back the handler before weft's with its mask, the C library's "
           "own signals included\n");
}

int main(void)
{
    /* The handler is on by default; the environment could turn it off. */
    unsetenv("WEFT_STACK_OVERFLOW_HANDLER");
    expect_segv_once(resethand_child, "reporter ran\n",
                     "SA_RESETHAND: the reporter runs once, then the fault kills (in a task)");
    expect_segv_once(resethand_plain_child, "reporter ran\n",
                     "SA_RESETHAND, no SA_SIGINFO: the same (calling thread)");
    test_ignored_siginfo();
    test_mask(false);
    test_mask(true);
    expect_segv_once(restart_fault_child, "application's handler ran\n",
                     "after stop and start, the application's handler stays in front; a fault "
                     "goes round once");
    test_restart_overflow();
    test_behind_mask();
    expect_death(replaced_after_stop_child, "weft: stack overflow on worker",
                 "a handler replaced after the stop: weft's goes in front again, an overflow "
                 "is explained");
    expect_death(reinstalled_previous_child, "weft: stack overflow on worker",
                 "the handler before weft's, installed again over it: weft's goes in front "
                 "again, an overflow is explained");
    test_circle(false);
    test_circle(true);
    expect_segv_once(put_back_after_stop_child, "reporter ran\n",
                     "weft's handler put back after a stop: the handler before it still gets "
                     "the fault");
    expect_segv_once(put_back_before_stop_child, "reporter ran\n",
                     "weft's handler put back before a stop, and again after it: the same");
    test_put_back_behind();
    test_foreign_mark();
    test_unset_bytes();
    test_records(true);
    test_mask_kept();
    test_records(false);
    return 0;
}
