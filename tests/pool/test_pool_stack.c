// SPDX-License-Identifier: Apache-2.0
/* Work pool workers run on stacks of weft's, not the process's: a process
 * function with a 2 MiB frame works whatever `ulimit -s` says (ctest runs
 * this test under `ulimit -s 1024`), on every worker including the calling
 * thread, and an overflow stops with a message naming the knob. */
#include "check.h"
#include "small_altstack.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <weft/pool.h>

static atomic_long processed;

/* A frame of `bytes`, its lowest byte written first. */
__attribute__((noinline)) static long big_frame_2m(long x)
{
    volatile char b[2 << 20];
    b[0] = (char)x;
    b[sizeof b - 1] = 1;
    return b[0] + b[sizeof b - 1];
}

static void process_big(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    long depth = *(long *)item;
    big_frame_2m(depth);
    atomic_fetch_add(&processed, 1);
    if (depth > 0) {
        long child = depth - 1;
        weft_pool_push(ctx, &child);
        weft_pool_push(ctx, &child);
    }
}

static void test_big_frames(unsigned workers)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(long));
    cfg.workers = workers;
    atomic_store(&processed, 0);
    long root = 5; /* 63 items */
    CHECK(weft_pool_run(&cfg, &root, 1, process_big, NULL, NULL) == 0, "run");
    CHECK(atomic_load(&processed) == 63, "%u workers: %ld items processed, want 63", workers,
          atomic_load(&processed));
}

static void process_overflow(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx, (void)item, (void)arg;
    big_frame_2m(1);
}

static void overflow_child_at(unsigned workers)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(long));
    cfg.workers = workers;
    cfg.stack_size = 256 << 10; /* a 2 MiB frame cannot fit */
    long items[2] = {1, 2};
    weft_pool_run(&cfg, items, workers, process_overflow, NULL, NULL);
}

static void overflow_child(void) { overflow_child_at(2); }

/* The caller blocked every signal before the run: its threads inherit
 * that mask, and the caller runs as worker 0; a fault with SIGSEGV
 * blocked kills the process before any handler runs. */
static void overflow_signals_blocked_child(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    overflow_child();
}

/* The caller has an alternate signal stack of its own, too small for the
 * report (small_altstack.h): weft's is installed for the run, and the
 * caller's put back. */
static void overflow_small_altstack_child(void)
{
    set_small_altstack();
    overflow_child_at(1); /* on the caller's thread */
}

static void test_small_altstack_kept(void)
{
    stack_t before;
    CHECK(sigaltstack(NULL, &before) == 0, "sigaltstack");
    set_small_altstack();
    test_big_frames(2);
    check_small_altstack_kept("a run");
    before.ss_flags &= ~SS_ONSTACK;
    CHECK(sigaltstack(&before, NULL) == 0, "sigaltstack back");
    printf("ok: a run keeps its caller's alternate signal stack\n");
}

int main(void)
{
    struct rlimit rl;
    CHECK(getrlimit(RLIMIT_STACK, &rl) == 0, "getrlimit");
    printf("ulimit -s: %llu KiB\n", (unsigned long long)rl.rlim_cur / 1024);
    for (size_t i = 0; i < N_TEST_WORKER_COUNTS; i++)
        test_big_frames(test_worker_counts[i]);
    printf("ok: 2 MiB frames in process functions at 1 to 32 workers\n");
    /* The caller's mask is its own again after a run. */
    sigset_t segv, now;
    sigemptyset(&segv);
    sigaddset(&segv, SIGSEGV);
    CHECK(pthread_sigmask(SIG_BLOCK, &segv, NULL) == 0, "sigmask");
    test_big_frames(2);
    CHECK(pthread_sigmask(SIG_UNBLOCK, &segv, &now) == 0 && sigismember(&now, SIGSEGV) == 1,
          "a run left SIGSEGV unblocked on its caller");
    printf("ok: a run keeps its caller's signal mask\n");
    test_small_altstack_kept();
    expect_death(overflow_child, "weft: stack overflow on work pool worker",
                 "a frame larger than the pool's stack");
    expect_death(overflow_child, "weft_pool_config.stack_size", "the message names the knob");
    expect_death(overflow_signals_blocked_child, "weft: stack overflow on work pool worker",
                 "a frame larger than the pool's stack, every signal blocked");
    expect_death(overflow_small_altstack_child, "weft: stack overflow on work pool worker",
                 "a frame larger than the pool's stack, the caller's alternate signal stack "
                 "2 KiB");
    return 0;
}
