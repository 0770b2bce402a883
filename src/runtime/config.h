// SPDX-License-Identifier: Apache-2.0
/* The configuration (config.c): defaults, the WEFT_* environment, and
 * the ranges weft_start accepts (docs/configuration.md lists every knob).
 * Not installed. */
#ifndef WEFT_RUNTIME_CONFIG_H
#define WEFT_RUNTIME_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include <weft/weft.h>

/* weft_start's checks and defaults: the worker count, deque slots and
 * stack bytes to use, and the CPUs the process may use (weft__cpu_budget's
 * `usable`), or EINVAL with a message. */
int weft__config_validate(const weft_config *cfg, unsigned *workers, size_t *slots, size_t *stack,
                          unsigned *cpus);
/* WEFT_STATS=1 in the environment at the last start. */
bool weft__stats_print_at_stop(void);
/* How many of `workers` may take work at a time, 0 for all of them:
 * WEFT_ACTIVE_LIMIT at the last start, by default `cpus` (the CPUs the
 * pool may use).  docs/configuration.md#at-most-as-many-at-work-as-cpus */
unsigned weft__config_active_limit(unsigned workers, unsigned cpus);

#endif
