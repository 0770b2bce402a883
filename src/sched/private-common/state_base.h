// SPDX-License-Identifier: Apache-2.0
/* What both private-deque schedulers keep alike: the state an interrupt
 * saves (private_deque.c's freeze and thaw) and the counters.  Included by
 * ../private-ri/state.h and ../private-si/state.h, next to which it is
 * installed. */
#ifndef WEFT_SCHED_PRIVATE_STATE_BASE_H
#define WEFT_SCHED_PRIVATE_STATE_BASE_H

/* What an interrupt's freeze keeps until its thaw. */
typedef struct weft_sched_saved {
    uint32_t top;        /* own.top's slot */
    uint32_t head;       /* the deque top below the frame */
    bool hold;           /* cold.hold before the freeze: an outer interrupt's */
    uint32_t deal_floor; /* private-si: cold.deal_floor's slot before the freeze */
} weft_sched_saved;

typedef struct weft_sched_counters {
    WEFT_ATOMIC(uint64_t) requests;  /* ri: steal requests sent; si: deal attempts */
    WEFT_ATOMIC(uint64_t) transfers; /* tasks handed to (ri) or dealt to (si) another worker */
} weft_sched_counters;

#endif
