/* Per-worker state of the split deque (Lace Figure 4); see
 * src/split_deque.c for the protocol.  Included by bits/worker.h. */
#ifndef WEFT_BITS_SPLIT_DEQUE_FIELDS_H
#define WEFT_BITS_SPLIT_DEQUE_FIELDS_H

/* weft_worker.limit when a thief has asked the owner to share: above every
 * slot address, so SPAWN's and SYNC's single comparison fails. */
#define WEFT_SPLITREQ UINTPTR_MAX

/* Line 0: the owner's copy of split (paper: o_split).  While all tasks are
 * stolen (paper: o_allstolen) it is parked at `end`. */
#define WEFT_SCHED_OWNER_FIELDS weft_task *o_split;

#define WEFT_SCHED_SHARED_FIELDS                                                              \
    /* ---- line 1: thief-visible deque state ----                                           \
     * tail in the low 32 bits, split in the high 32 bits: one CAS moves tail                \
     * while checking split, one RMW moves split without losing a tail. */                   \
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t ts;                                            \
    _Atomic uint8_t allstolen; /* hint for thieves: nothing to steal */                       \
    weft_task *dq_shared;      /* == dq; a copy on this line so thieves never read line 0 */  \
    /* ---- line 2: the paper's splitreq, folded with o_split ----                           \
     * WEFT_SPLITREQ when a thief asks for more shared tasks; otherwise the                  \
     * owner's o_split (== end while o_allstolen).  SPAWN and SYNC compare                   \
     * their slot with this one word; see src/split_deque.c. */                              \
    _Alignas(WEFT_CACHE_LINE) _Atomic uintptr_t limit;

#define WEFT_SCHED_COLD_FIELDS

#endif
