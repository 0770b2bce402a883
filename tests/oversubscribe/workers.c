// SPDX-License-Identifier: Apache-2.0
/* Starts workers the way its arguments say, runs a little work on them and
 * prints the answer; tests/oversubscribe/check.sh reads what it prints on
 * stderr under various CPU masks and environments.
 * Usage: workers start|pool|config N   (N workers; 0: the default count)
 *   start   weft_start(N, 0, 0), fib(20) by RUN
 *   config  weft_config_init (so $WEFT_WORKERS applies), then workers = N
 *           if N > 0, weft_start_config, fib(20) by RUN
 *   pool    weft_pool_run with N workers over 100 items */
#include <weft/pool.h>
#include <weft/weft.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fib_task.h"

static _Atomic long visited;

static void visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx, (void)item, (void)arg;
    /* Relaxed: a count, read after the run. */
    atomic_fetch_add_explicit(&visited, 1, memory_order_relaxed);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: workers start|pool|config N\n");
        return 2;
    }
    unsigned n = (unsigned)strtoul(argv[2], NULL, 10);
    if (strcmp(argv[1], "pool") == 0) {
        weft_pool_config cfg;
        weft_pool_config_init(&cfg, sizeof(long));
        cfg.workers = n;
        long items[100];
        for (int i = 0; i < 100; i++)
            items[i] = i;
        if (weft_pool_run(&cfg, items, 100, visit, NULL, NULL) != 0)
            return 1;
        /* Relaxed: the run is over. */
        printf("visited %ld\n", atomic_load_explicit(&visited, memory_order_relaxed));
        return 0;
    }
    int err;
    if (strcmp(argv[1], "config") == 0) {
        weft_config cfg;
        if (weft_config_init(&cfg) != 0)
            return 1;
        if (n)
            cfg.workers = n;
        err = weft_start_config(&cfg);
    } else {
        err = weft_start(n, 0, 0);
    }
    if (err != 0)
        return 1;
    printf("fib(20) = %ld\n", WEFT_RUN(pfib, 20));
    weft_stop();
    return 0;
}
