// SPDX-License-Identifier: Apache-2.0
/* The run's counters, summed after the threads are joined (counters.c).
 * Not installed. */
#ifndef WEFT_WORKPOOL_COUNTERS_H
#define WEFT_WORKPOOL_COUNTERS_H

#include "workpool/types.h"

/* The workers' counters summed into *out (initial: the run's initial
 * items). */
void weft__wp_stats_sum(wp_pool *p, uint64_t initial, weft_pool_stats *out);

#endif
