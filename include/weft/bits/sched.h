// SPDX-License-Identifier: Apache-2.0
/* The seam between the task macros and a scheduler.  Each scheduler
 * (chosen at build time: -DWEFT_SCHEDULER=<name>, see docs/schedulers.md)
 * provides these owner-side inline operations in src/sched/<name>/owner.h,
 * which the configured weft/config.h names; the generated task code calls
 * only these, so every scheduler runs the same task sources unchanged and
 * its hot path is as lean as if it were alone.
 *
 *   weft_sched_reserve(w, t)       room for a task at t, or stop with a message
 *   weft_sched_sentinel(w)         the first slot weft_sched_reserve refuses:
 *                                  it holds WEFT_STATE_END (bits/fork_join.h)
 *   WEFT_SCHED_SPARE_SLOTS         how many slots below end the scheduler
 *                                  never fills (a deque for n tasks needs
 *                                  n + this many)
 *   WEFT_SCHED_SPLIT_POINT_OFFSET, where a scheduler with a split point keeps
 *   WEFT_SCHED_ALLSTOLEN_OFFSET    it and its thieves' "nothing to steal" hint
 *                                  in weft_worker (optional: views of the
 *                                  worker, the Lace API's, show them)
 *   weft_sched_push(w, t, wrapper) t holds the arguments; make it a task
 *   weft_sched_sync_fast(w, t)     SYNC fast path: true = run t inline
 *                                  (and t's state is now EMPTY)
 *   weft_sched_sync_slow(w, t)     otherwise: true = t was stolen and is done
 *                                  (result in t); false = run t inline
 *   weft_sched_poll(w, head)       WEFT_YIELD's check: true if the scheduler
 *                                  wants weft_sched_poll_slow(w, head) called
 *                                  (owners that hand out work only when
 *                                  they poll answer requests there)
 *   WEFT_SCHED_GUARDS_JOINS        1 if weft_sched_sync_fast fails for every
 *                                  slot below w->join_guard (optional,
 *                                  default 0).  The core then tests a
 *                                  join's order on the slow path only
 *                                  (bits/fork_join.h)
 *   weft_sched_guard_moved(w)      with WEFT_SCHED_GUARDS_JOINS: the runtime
 *                                  moved w->join_guard; honour the new one
 *
 * Invariant every scheduler keeps (weft_current_head relies on it): slots
 * below the owner's head are non-EMPTY, slots from head on are EMPTY.
 * Task states are shared by all schedulers (bits/worker.h): TASK(wrapper),
 * STOLEN(thief), DONE, so joining a stolen task (src/runtime/join.c) is
 * common.
 *
 * The thief side (stealing, sleepers' requests, interrupts' freeze/thaw)
 * is declared in src/runtime/sched.h and implemented next to each
 * scheduler's owner side.
 */
#ifndef WEFT_BITS_SCHED_H
#define WEFT_BITS_SCHED_H

#include <weft/config.h>
#include <weft/bits/worker.h>
WEFT_BEGIN_DECLS
#include WEFT_SCHED_OWNER_HEADER
WEFT_END_DECLS

#ifndef WEFT_SCHED_GUARDS_JOINS
#define WEFT_SCHED_GUARDS_JOINS 0
#endif

#endif
