// SPDX-License-Identifier: Apache-2.0
/* A task frame larger than the guard below a worker's stack must not jump
 * over it into other memory: it must stop with weft's stack-overflow
 * message.  Built twice: with -fstack-clash-protection (which a program
 * adds to its own flags; weft does not pass it on) and with
 * -fno-stack-clash-protection (test_stack_guard_noclash), where only the
 * guard's size stands between a large frame and the memory below.  With
 * report_stack_overflow off the same fault is a plain SIGSEGV,
 * unexplained.  Each case runs in a child. */
#include "check.h"

#include <pthread.h>
#include <weft/weft.h>

enum { SMALL_STACK = 64 << 10 };

/* A frame of `bytes` that writes its lowest byte first, as a function with
 * a large local array may (the write that would land below the guard). */
#define BIG_FRAME(NAME, BYTES) \
    __attribute__((noinline)) static long NAME(void) \
    { \
        volatile char b[BYTES]; \
        b[0] = 1; \
        return b[0]; \
    }

BIG_FRAME(frame_340k, 340 << 10)
#if WEFT_TEST_CLASH_PROTECTION
BIG_FRAME(frame_8m, 8 << 20)
#endif

WEFT_TASK_1(long, big_task, int, which)
{
#if WEFT_TEST_CLASH_PROTECTION
    if (which == 1)
        return frame_8m();
#endif
    (void)which;
    return frame_340k();
}

static void run_big(int which)
{
    CHECK(weft_start(2, 0, SMALL_STACK) == 0, "start");
    long r = WEFT_RUN(big_task, which);
    printf("the frame did not fault: %ld\n", r);
    weft_stop();
}

/* The reproducer: 340 KiB on a 64 KiB stack (its guard: 1 MiB). */
static void frame_340k_child(void) { run_big(0); }
#if WEFT_TEST_CLASH_PROTECTION
/* 8 MiB, far more than the guard: only the probes catch it. */
static void frame_8m_child(void) { run_big(1); }
#endif

/* weft_config.report_stack_overflow = false: weft installs no SIGSEGV
 * handler, so the same overflow ends the child by the plain signal,
 * without weft's explanation. */
static void frame_340k_unreported_child(void)
{
    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "config");
    cfg.workers = 2;
    cfg.stack_size = SMALL_STACK;
    cfg.report_stack_overflow = false;
    CHECK(weft_start_config(&cfg) == 0, "start");
    long r = WEFT_RUN(big_task, 0);
    printf("the frame did not fault: %ld\n", r);
    weft_stop();
}

/* The program blocked every signal before it started weft (as one does
 * before starting a thread that takes signals with sigwait): the workers
 * inherit that mask, and a fault with SIGSEGV blocked kills the process
 * before any handler runs.  The workers unblock it.  The frame is made by
 * worker 1's copy of a TOGETHER, on its own thread (a RUN from outside may
 * run on the caller's thread instead, as a borrowed worker). */
WEFT_VOID_TASK_0(big_frame_on_worker_1)
{
    if (weft_worker_id(weft_w) == 1)
        (void)frame_340k();
}

static void frame_340k_signals_blocked_child(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    CHECK(weft_start(2, 0, SMALL_STACK) == 0, "start");
    WEFT_TOGETHER(big_frame_on_worker_1);
    printf("the frame did not fault\n");
    weft_stop();
}

static void expect_unreported_overflow(void)
{
    char buf[8192];
    int st = run_child(NULL, frame_340k_unreported_child, 0, buf, sizeof buf);
    CHECK(st == 128 + SIGSEGV || st == 128 + SIGBUS,
          "report_stack_overflow = false: the child ended with status %d, not by SIGSEGV "
          "(stderr: %s)",
          st, buf);
    CHECK(strstr(buf, "stack overflow") == NULL,
          "report_stack_overflow = false: weft explained the fault anyway:\n%s", buf);
    printf("ok: report_stack_overflow = false: a plain SIGSEGV, no message\n");
}

int main(void)
{
    expect_unreported_overflow();
    expect_death(frame_340k_child, "weft: stack overflow on worker",
                 "a 340 KiB frame on a 64 KiB worker stack");
    expect_death(frame_340k_signals_blocked_child, "stack overflow on worker 1 (its stack is",
                 "a 340 KiB frame on a 64 KiB worker stack, every signal blocked before start");
#if WEFT_TEST_CLASH_PROTECTION
    expect_death(frame_8m_child, "weft: stack overflow on worker",
                 "an 8 MiB frame on a 64 KiB worker stack (stack clash protection)");
#endif
    return 0;
}
