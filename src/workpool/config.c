// SPDX-License-Identifier: Apache-2.0
/* A pool's configuration: its defaults (weft_pool_config_init) and the
 * checks of weft_pool_run and of a hosted pool (weft__wp_pool_validate,
 * declared in hosted.h), each refusal with a message naming the field. */
#include "workpool/config.h"

#include "workpool/queues/table.h"
#include "runtime/parking.h"

#include <string.h>

#define MAX_FIXED_CAP ((size_t)1 << 31)
#define MAX_GROW_CAP ((size_t)1 << 30)
#define MAX_HALF 65536u
#define DEFAULT_STACK WEFT_DEFAULT_STACK_SIZE /* runtime/memory.h: as the fork-join pool's */
#define MIN_STACK WEFT_MIN_STACK_SIZE
#define MAX_STACK WEFT_MAX_STACK_SIZE
#define MAX_IDLE_SPIN_US WEFT_MAX_SPIN_US /* runtime/parking.h */

void weft_pool_config_init(weft_pool_config *cfg, size_t item_size)
{
    if (cfg == NULL) {
        weft__warn("weft_pool_config_init: cfg is NULL");
        return;
    }
    memset(cfg, 0, sizeof *cfg);
    cfg->workers = 0;
    cfg->queue = WEFT_QUEUE_CHASE_LEV;
    cfg->item_size = item_size;
    cfg->capacity = 0;
    cfg->steal = WEFT_POOL_STEAL_ONE;
    cfg->overflow = WEFT_POOL_OVERFLOW_SPILL;
    cfg->split = NULL;
    cfg->idempotent = false;
    cfg->steal_half_max = 512;
    cfg->idle_spin_us = 200;
    cfg->stack_size = 0;
}

/* The configuration's numbers and policies against their limits. */
static int validate_limits(const weft_pool_config *cfg, const wp_queue_ops *ops)
{
    if (cfg->workers > WEFT_POOL_MAX_WORKERS) {
        weft__warn("weft_pool_run: %u workers is more than the limit of %u", cfg->workers,
                   WEFT_POOL_MAX_WORKERS);
        return EINVAL;
    }
    if (cfg->steal != WEFT_POOL_STEAL_ONE && cfg->steal != WEFT_POOL_STEAL_HALF) {
        weft__warn("weft_pool_run: unknown steal policy %d", (int)cfg->steal);
        return EINVAL;
    }
    if (cfg->overflow != WEFT_POOL_OVERFLOW_SPILL && cfg->overflow != WEFT_POOL_OVERFLOW_FAIL) {
        weft__warn("weft_pool_run: unknown overflow policy %d", (int)cfg->overflow);
        return EINVAL;
    }
    size_t max_cap = ops->kind == WEFT_QUEUE_ABP ? MAX_FIXED_CAP : MAX_GROW_CAP;
    if (cfg->capacity > max_cap) {
        weft__warn("weft_pool_run: capacity %zu is more than the limit of %zu for queue '%s'",
                   cfg->capacity, max_cap, ops->name);
        return EINVAL;
    }
    if (cfg->steal_half_max == 0 || cfg->steal_half_max > MAX_HALF) {
        weft__warn("weft_pool_run: steal_half_max %u is out of range (1 .. %u)",
                   cfg->steal_half_max, MAX_HALF);
        return EINVAL;
    }
    if (cfg->idle_spin_us > MAX_IDLE_SPIN_US) {
        weft__warn("weft_pool_run: idle_spin_us %u is out of range (0 .. %u microseconds)",
                   cfg->idle_spin_us, MAX_IDLE_SPIN_US);
        return EINVAL;
    }
    if (cfg->stack_size != 0 && (cfg->stack_size < MIN_STACK || cfg->stack_size > MAX_STACK)) {
        weft__warn("weft_pool_run: stack_size %zu bytes is out of range (%zu .. %zu; 0: %zu)",
                   cfg->stack_size, MIN_STACK, MAX_STACK, DEFAULT_STACK);
        return EINVAL;
    }
    return 0;
}

int weft__wp_pool_validate(const weft_pool_config *cfg, const void *initial, size_t n_initial,
                           weft_pool_fn fn)
{
    if (cfg == NULL) {
        weft__warn("weft_pool_run: cfg is NULL (fill it with weft_pool_config_init)");
        return EINVAL;
    }
    if (fn == NULL) {
        weft__warn("weft_pool_run: the process function is NULL");
        return EINVAL;
    }
    if (cfg->item_size == 0 || cfg->item_size > WEFT_POOL_MAX_ITEM_SIZE) {
        weft__warn("weft_pool_run: item_size %zu is out of range (1 .. %u bytes)", cfg->item_size,
                   WEFT_POOL_MAX_ITEM_SIZE);
        return EINVAL;
    }
    const wp_queue_ops *ops = weft__wp_queue_ops_of(cfg->queue);
    if (ops == NULL) {
        weft__warn("weft_pool_run: unknown queue kind %d", (int)cfg->queue);
        return EINVAL;
    }
    int err = validate_limits(cfg, ops);
    if (err != 0)
        return err;
    if (ops->idempotent && !cfg->idempotent) {
        weft__warn("weft_pool_run: queue '%s' may process an item more than once; set "
                   "cfg.idempotent only if processing an item twice is harmless",
                   ops->name);
        return EINVAL;
    }
    if (n_initial > 0 && initial == NULL) {
        weft__warn("weft_pool_run: initial is NULL but n_initial is %zu", n_initial);
        return EINVAL;
    }
    return 0;
}
