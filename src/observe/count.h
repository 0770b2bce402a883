// SPDX-License-Identifier: Apache-2.0
/* Counting basic blocks (count.c; docs/profiling.md, "Counting basic
 * blocks"): the profiler's deterministic unit.  profiler.c calls these;
 * the totals they keep are protected by profiler.c's lock, which every
 * caller of the functions marked "locked" holds.  Not installed. */
#ifndef WEFT_OBSERVE_COUNT_H
#define WEFT_OBSERVE_COUNT_H

#include <weft/bits/observe.h>

#include <stdbool.h>
#include <stdint.h>

#if WEFT_PROFILE
/* WEFT_PROFILE_UNIT (time, blocks, strands or unset: automatic); EINVAL if it is
 * something else.  At the first weft_start of the process the unit is
 * chosen: the variable's, else blocks if the calling thread has run code
 * compiled with -fsanitize-coverage=trace-pc, else time. */
int weft__count_check_env(void);
/* The profiler's units, in WEFT_PROFILE_UNIT's words: time, blocks,
 * strands (docs/profiling.md, "Choosing the unit"). */
typedef enum weft__profile_unit {
    WEFT__PROFILE_UNIT_TIME,
    WEFT__PROFILE_UNIT_BLOCKS,
    WEFT__PROFILE_UNIT_STRANDS,
} weft__profile_unit;
/* The unit chosen. */
weft__profile_unit weft__count_unit(void);
/* Is it a counted unit (blocks or strands), converted to time by the
 * ratio of the cycles the counted code ran to the counts, rather than
 * time? */
bool weft__count_blocks(void);
/* How it was chosen, for the reports: "WEFT_PROFILE_UNIT" or "automatic". */
const char *weft__count_how(void);
/* A worker's counting state at weft_start: the mode, the burden of
 * burden_cycles in the unit. */
void weft__count_worker_init(weft_profile_worker *p, uint64_t burden_cycles);
/* The worker's burden in blocks again, from the ratio it measured so far
 * (called on the profiler's rare paths: long strands and pauses). */
void weft__count_update_burden(weft_profile_worker *p);
/* Locked: a stopping worker's totals are kept (folded). */
void weft__count_fold_locked(weft_profile_worker *p);
/* Locked: p's totals (NULL: the folded ones) back to zero. */
void weft__count_reset_locked(weft_profile_worker *p);
/* Locked: adds p's totals (NULL: the folded ones) to *cycles, *blocks. */
void weft__count_add_locked(const weft_profile_worker *p, uint64_t *cycles, uint64_t *blocks);
/* Nanoseconds per block from those totals, at ticks_per_ns; 0 if nothing
 * was counted. */
double weft__count_ns_per_block(uint64_t cycles, uint64_t blocks, double ticks_per_ns);
/* Counting strands, the cycles a strand is taken to cost before any was
 * timed: the burden's first conversion, and the reports' when none was
 * (a program that only runs work pool items, which are not timed). */
#define WEFT__COUNT_GUESS_CYCLES_PER_STRAND 200.0

#endif

#endif
