/* Per-worker state of the Chase-Lev scheduler (src/chase_lev_deque.c).
 * Included by bits/worker.h. */
#ifndef WEFT_BITS_CHASE_LEV_DEQUE_FIELDS_H
#define WEFT_BITS_CHASE_LEV_DEQUE_FIELDS_H

/* A circular array of task pointers; grows by doubling (the old one is
 * kept until the pool stops: a thief may still read it). */
typedef struct weft_cl_array {
    struct weft_cl_array *retired; /* the array this one replaced */
    int64_t mask;                  /* size - 1, size a power of two */
    _Atomic(weft_task *) slot[];
} weft_cl_array;

#define WEFT_SCHED_OWNER_FIELDS                                                    \
    int64_t cl_bottom;          /* owner's copy of bottom */                      \
    int64_t cl_top_seen;        /* a lower bound of top: spares a load at push */ \
    weft_cl_array *cl_array;    /* owner's copy of the current array */

#define WEFT_SCHED_SHARED_FIELDS                                                   \
    /* thieves' CAS target, alone on its line */                                   \
    _Alignas(WEFT_CACHE_LINE) _Atomic int64_t cl_top;                              \
    /* written by the owner at every SPAWN and SYNC, read by thieves */            \
    _Alignas(WEFT_CACHE_LINE) _Atomic int64_t cl_bottom_shared;                    \
    _Atomic(weft_cl_array *) cl_array_shared;                                      \
    /* set by workers going to sleep (sleep.c); the owner wakes one */             \
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t cl_wake_req;

#define WEFT_SCHED_COLD_FIELDS                                                     \
    int64_t cl_keep_from; /* while frozen: the hidden tasks' lowest index */

#endif
