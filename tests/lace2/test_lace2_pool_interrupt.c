// SPDX-License-Identifier: Apache-2.0
/* A work pool run inside a Lace task, whose items call a Lace task from
 * the pool's threads (a call from outside, which Lace's rule hands to a
 * worker), and that task starts an interrupt (NAME_NEWFRAME or
 * NAME_TOGETHER).  The interrupt waits for every worker, the one waiting
 * in the pool's run too, which takes part while it waits (docs/pool.md,
 * "A pool inside a fork-join task"); before, the two waited for each
 * other (a hang in most runs at 2 to 4 workers).  At 1, 2, 3 and 4
 * workers, pools of 2 and 3 workers, 5 rounds each: the results against
 * the sequential ones, and each TOGETHER run by every worker. */
#include <lace.h>

#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <weft/pool.h>

#include "check.h"

static long fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

TASK(long, fib, int, n)
long fib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    fib_SPAWN(lw, n - 1);
    long b = fib_CALL(lw, n - 2);
    return fib_SYNC(lw) + b;
}

static atomic_long copies;

TASK(void, counts_copy)
void counts_copy_CALL(lace_worker *lw)
{
    (void)lw;
    atomic_fetch_add(&copies, 1);
    lace_barrier();
}

static bool use_together;

TASK(long, starts_interrupt, int, n)
long starts_interrupt_CALL(lace_worker *lw, int n)
{
    (void)lw;
    if (use_together) {
        counts_copy_TOGETHER();
        return n;
    }
    return fib_NEWFRAME(n);
}

static atomic_long sum;

static void process(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx;
    (void)arg;
    int n;
    memcpy(&n, item, sizeof n);
    atomic_fetch_add(&sum, starts_interrupt(n));
}

#define ITEMS 6

TASK(int, runs_pool, int, pool_workers)
int runs_pool_CALL(lace_worker *lw, int pool_workers)
{
    (void)lw;
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = (unsigned)pool_workers;
    int init[ITEMS] = {10, 11, 12, 13, 14, 15};
    return weft_pool_run(&cfg, init, ITEMS, process, NULL, NULL);
}

static void hung(int sig)
{
    (void)sig;
    static const char msg[] = "test_lace2_pool_interrupt: no end after 120 s (a hang)\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

int main(void)
{
    signal(SIGALRM, hung);
    alarm(120);
    long want_newframe = 0, want_together = 0;
    for (int n = 10; n < 10 + ITEMS; n++) {
        want_newframe += fib_seq(n);
        want_together += n;
    }
    for (unsigned workers = 1; workers <= 4; workers++) {
        lace_start(workers, 0, 0);
        for (int pool_workers = 2; pool_workers <= 3; pool_workers++) {
            for (int together = 0; together < 2; together++) {
                use_together = together;
                for (int round = 0; round < 5; round++) {
                    atomic_store(&sum, 0);
                    atomic_store(&copies, 0);
                    CHECK(runs_pool(pool_workers) == 0, "the pool's run");
                    long got = atomic_load(&sum);
                    CHECK(got == (together ? want_together : want_newframe),
                          "%u workers, a pool of %d, %s: %ld", workers, pool_workers,
                          together ? "TOGETHER" : "NEWFRAME", got);
                    if (together)
                        CHECK_EQ_U64(atomic_load(&copies), (unsigned long long)ITEMS * workers);
                }
            }
        }
        lace_stop();
    }
    printf("ok: NEWFRAME and TOGETHER from Lace tasks that a work pool's threads call, the pool "
           "inside a task (1 to 4 workers, pools of 2 and 3)\n");
    return 0;
}
