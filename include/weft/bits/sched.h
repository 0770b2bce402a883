/* The seam between the task macros and a scheduler.  Each scheduler
 * provides four owner-side inline operations; the generated task code calls
 * only these, so every scheduler runs the same task sources unchanged.
 *
 *   weft_sched_reserve(w, t)       room for a task at t, or stop with a message
 *   weft_sched_push(w, t, wrapper) t holds the arguments; make it a task
 *   weft_sched_pop_private(w, t)   SYNC fast path: true = run t inline
 *   weft_sched_sync_slow(w, t)     otherwise: true = t was stolen and is done
 *                                  (result in t); false = run t inline
 */
#ifndef WEFT_BITS_SCHED_H
#define WEFT_BITS_SCHED_H

#include <weft/config.h>

#if WEFT_SCHED_SPLIT
#include <weft/bits/split_deque.h>
#define weft_sched_reserve weft_split_reserve
#define weft_sched_push weft_split_push
#define weft_sched_pop_private weft_split_pop_private
#define weft_sched_sync_slow weft_split_sync_slow
#else
#error "weft: no scheduler selected in weft/config.h"
#endif

#endif
