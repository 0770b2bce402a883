// SPDX-License-Identifier: Apache-2.0
/* Prints the worker counts weft chooses by default, through the public
 * API: "start N" (weft_config_init, so $WEFT_WORKERS applies, then
 * weft_start_config) and "pool N" (a work pool of the default count);
 * tests/cgroup/check.sh runs it inside cgroups with CPU quotas. */
#include <weft/pool.h>
#include <weft/weft.h>

#include <stdio.h>

static void visit(weft_pool_ctx *ctx, void *item, void *arg) { (void)ctx, (void)item, (void)arg; }

int main(void)
{
    weft_config cfg;
    if (weft_config_init(&cfg) != 0 || weft_start_config(&cfg) != 0)
        return 1;
    printf("start %u\n", weft_workers());
    if (weft_stop() != 0)
        return 1;
    weft_pool_config pool;
    weft_pool_config_init(&pool, sizeof(int));
    int item = 0;
    weft_pool_stats stats;
    if (weft_pool_run(&pool, &item, 1, visit, NULL, &stats) != 0)
        return 1;
    printf("pool %u\n", stats.workers);
    return 0;
}
