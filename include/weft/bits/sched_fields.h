/* Selects the per-worker fields of the scheduler chosen at build time
 * (weft/config.h).  Each bits/<scheduler>_fields.h defines
 *   WEFT_SCHED_OWNER_FIELDS   owner-private fields on the hot line 0
 *   WEFT_SCHED_SHARED_FIELDS  thief-visible state, each line _Alignas'd
 *   WEFT_SCHED_COLD_FIELDS    owner-private state off the fast paths
 * Included by bits/worker.h inside its definitions; not on its own. */
#ifndef WEFT_BITS_SCHED_FIELDS_H
#define WEFT_BITS_SCHED_FIELDS_H

#if WEFT_SCHED_SPLIT
#include <weft/bits/split_deque_fields.h>
#elif WEFT_SCHED_WOOL
#include <weft/bits/wool_deque_fields.h>
#elif WEFT_SCHED_PRIVATE_RI || WEFT_SCHED_PRIVATE_SI
#include <weft/bits/private_deque_fields.h>
#elif WEFT_SCHED_CHASE_LEV
#include <weft/bits/chase_lev_deque_fields.h>
#else
#error "weft: no scheduler selected in weft/config.h"
#endif

#endif
