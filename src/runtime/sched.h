// SPDX-License-Identifier: Apache-2.0
/* The seam between the runtime and a scheduler, thief side: what every
 * scheduler in src/sched/<name>/ implements besides its owner-side fast
 * paths (include/weft/bits/sched.h).  The rest of the runtime (stealing
 * loop, sleep, interrupts, lifecycle, counters) calls only these.  Not
 * installed.
 *
 * Roles: "owner" functions run on the worker that owns the deque;
 * "thief" functions on any other worker; "sleeper" ones on a worker about
 * to sleep (src/runtime/sleep.c).
 */
#ifndef WEFT_RUNTIME_SCHED_H
#define WEFT_RUNTIME_SCHED_H

#include <weft/weft.h>

typedef enum weft_steal_result {
    WEFT_STEAL_NONE,    /* nothing to steal (a request may be left for the owner) */
    WEFT_STEAL_BUSY,    /* lost a race with another thief or the owner */
    WEFT_STEAL_OK,      /* got a task; none left that the victim shares */
    WEFT_STEAL_OK_MORE, /* got a task and the victim still shares more */
} weft_steal_result;

/* Owner, before the worker's thread starts (its fields are zero, end, dq,
 * id and deque_slots are set).  Also sets w->frame_floor. */
void weft__sched_init(weft_worker *w);
/* At stop, once no thread uses w's deque: frees what init and growth
 * allocated.  Safe on a worker whose init never ran (all zero). */
void weft__sched_destroy(weft_worker *w);

/* Thief: one attempt to take a task from `victim` (leap: at a blocked
 * SYNC, victim is the joined task's thief).  On OK/OK_MORE *out is the
 * descriptor, its state already STOLEN(thief), and *wrapper the function
 * to run it; the caller runs it and stores DONE. */
weft_steal_result weft__sched_steal(weft_worker *thief, weft_worker *victim, bool leap,
                                    weft_task **out, uintptr_t *wrapper);
/* Thief, after a successful steal from victim: whose task it took (the
 * worker to wake when it is done).  victim, except where any worker may
 * hand tasks over (private-si's deals). */
weft_worker *weft__sched_giver(weft_worker *thief, weft_worker *victim);

/* Sleeper: work has appeared that `sleeper` could take from `victim`
 * (its last look before sleeping; seq_cst reads, see docs/sleep.md). */
bool weft__sched_has_work_for(weft_worker *sleeper, weft_worker *victim);
/* Sleeper: it is going to sleep wanting work from victim; make sure the
 * scheduler (seq_cst) lets victim's owner learn it, so that when work
 * appears there it shares and wakes someone.  Also called by an awake
 * thief that took victim's last shared task while others sleep. */
void weft__sched_ask_for_sleeper(weft_worker *victim, weft_worker *sleeper);

/* Owner: w is at top level with an empty deque and runs no task code until
 * it finds work again (a RUN caller gives back the identity it borrowed,
 * external.c): a scheduler whose owners answer thieves only while they
 * run task code makes sure nobody waits for w (private-ri answers "no"
 * and blocks its request cell); the others have nothing to do. */
void weft__sched_idle(weft_worker *w);

/* Owner, at an interrupt (interrupt.c): hide the tasks below `frame` from
 * thieves and start an empty frame there; `saved` keeps what thaw needs. */
void weft__sched_freeze(weft_worker *w, weft_task *frame, weft_sched_saved *saved);
/* Owner, after the interrupt's last barrier: bring them back. */
void weft__sched_thaw(weft_worker *w, const weft_sched_saved *saved);

/* Does an owner hand tasks to a worker of its choice, which must take them
 * (private-ri's answers, private-si's deals)?  Then every worker keeps
 * looking for work: no active limit (lifecycle.c). */
extern const bool weft__sched_hands_out_tasks;

/* The scheduler's own counters (weft_sched_counters), by name, for the
 * reports (src/runtime/stats.c): where each lives in weft_sched_counters,
 * and the weft_stats field it fills (WEFT_STATS_NO_FIELD: none; the
 * report and weft_stats_counters list it by its name alone). */
#define WEFT_STATS_NO_FIELD ((size_t)-1)
typedef struct weft_sched_counter_name {
    const char *name;
    size_t offset;       /* offsetof(weft_sched_counters, ...) */
    size_t stats_offset; /* offsetof(weft_stats, ...), or WEFT_STATS_NO_FIELD */
} weft_sched_counter_name;
extern const weft_sched_counter_name weft__sched_counter_names[];
extern const unsigned weft__sched_counter_count;

#endif
