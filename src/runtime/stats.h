// SPDX-License-Identifier: Apache-2.0
/* Event counters (stats.c), per worker, summed on demand.  Not
 * installed. */
#ifndef WEFT_RUNTIME_STATS_H
#define WEFT_RUNTIME_STATS_H

#include <stdio.h>

#include <weft/weft.h>

/* weft_stats_print for stop, which holds the control lock. */
void weft__stats_print_locked(FILE *out);
/* weft_stats_get for a caller that holds the pool (the tracer). */
void weft__stats_get_locked(weft_stats *out);

#endif
