// SPDX-License-Identifier: Apache-2.0
/* Entering the pool and controlling it (gate.c): the lifecycle word that
 * RUNs and readers of the pool's layout hold, and the lock that start,
 * stop, suspend and resume take.  Not installed. */
#ifndef WEFT_RUNTIME_GATE_H
#define WEFT_RUNTIME_GATE_H

#include <stdbool.h>
#include <stdint.h>

/* The lifecycle word: a WEFT_RT_* state and a count of users. */
static inline uint64_t weft_lifecycle_word(uint32_t state, uint32_t users)
{
    return (uint64_t)state << 32 | users;
}

/* A non-worker thread entering the pool (RUN, TOGETHER, NEWFRAME): false
 * if the pool is not running.  Stop waits until every entry has exited. */
bool weft__lifecycle_enter(void);
void weft__lifecycle_exit(void);
/* Readers of the pool's layout (stats, weft_workers): true if the pool runs
 * and will until weft__lifecycle_release(*held).  Never blocks, so a task
 * that stop or suspend waits for may call it (on a worker, or through
 * another thread), and so may a signal handler. */
bool weft__lifecycle_hold(bool *held);
void weft__lifecycle_release(bool held);
/* weft__lifecycle_enter for a TOGETHER or NEWFRAME from outside the pool:
 * waits while the pool is suspended, and keeps weft_suspend from
 * completing until weft__lifecycle_exit_interrupt. */
bool weft__lifecycle_enter_interrupt(void);
void weft__lifecycle_exit_interrupt(void);
/* Under the control lock, by a suspend of a running pool: waits until the
 * threads the last resume let through the gate have gone in (briefly: they
 * need only a CPU), so that they are not shut out again by a suspend that
 * follows the resume at once. */
void weft__gate_drain_locked(void);
/* A stop is in progress (for messages). */
bool weft__lifecycle_stopping(void);

/* The checks every control call (start, stop, suspend, resume) makes, then
 * the control lock.  `waits`: the call waits for RUNs in progress to end.
 * 0 (locked), or EDEADLK with a message. */
int weft__control_begin(const char *what, bool waits);
void weft__control_end(void);
/* weft__control_begin without waiting and without a message: 0 (locked),
 * EBUSY (another thread holds the lock), or EDEADLK with *why saying how
 * this thread would wait for itself ("from inside a worker", ...). */
int weft__control_try_begin(bool waits, const char **why);
/* Under the lock: is the pool running?  If not, says so for `what`. */
bool weft__control_running(const char *what);
/* The same without the message. */
bool weft__control_is_running(void);
/* weft__control_begin, then weft__control_running: 0 (locked, running),
 * EDEADLK, or EINVAL (not running; unlocked again). */
int weft__control_begin_running(const char *what, bool waits);

/* The calling thread is one of the threads of a work pool whose run is
 * inside a task (src/workpool/run.c marks them): the worker running that
 * task waits for this thread, so a call that waits for every worker
 * (weft_stop, weft_suspend, TOGETHER, NEWFRAME) would wait for itself
 * here, and is refused (docs/pool.md, "A pool inside a fork-join task"). */
void weft__gate_set_waited_on(bool on);
bool weft__gate_waited_on(void);

/* In a child after fork(): the lock and this thread's counts are reset. */
void weft__gate_forget_in_child(void);

#endif
