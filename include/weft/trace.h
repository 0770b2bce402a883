// SPDX-License-Identifier: Apache-2.0
/** @file
 * weft's timeline: what every worker did, and when.
 *
 * In a build configured with -DWEFT_TRACE=ON, WEFT_TRACE=<file.json> in
 * the environment (or weft_trace_start) makes every worker record its
 * states into a buffer of its own (no locks): running a task the runtime
 * started -- a RUN, a stolen task, an interrupt's task -- together with
 * everything it runs inline (so fib records one slice per steal, not one
 * per call; each slice counts the SPAWNs made in it in a -DWEFT_STATS=ON
 * build), looking for work (with the failed steal attempts), waiting at a
 * SYNC whose task was stolen, asleep, at an interrupt's barrier, parked;
 * steals and leaps as arrows from the victim to the thief, wake-ups,
 * interrupts, and RUNs from threads outside the pool as arrows to the
 * worker that ran them.  Work pool runs (weft/pool.h) record batches of
 * items, steals and steal-half transfers, searching and sleeping.
 *
 * The file is written at weft_stop (or by weft_trace_stop / _write) in
 * the Chrome Trace Event format (the contract of a recording's start and
 * end is at weft_trace_start): open it in https://ui.perfetto.dev or
 * chrome://tracing, or draw it with scripts/trace_render.py.  Buffers
 * hold WEFT_TRACE_EVENTS events per worker (default 512K); when one is
 * full its further events are dropped and counted, and the counts are in
 * the file.  docs/timeline.md describes the events.  Without the tracer
 * every call returns ENOTSUP and costs nothing.
 */
#ifndef WEFT_TRACE_H
#define WEFT_TRACE_H

#include <stdbool.h>

#include <weft/bits/lang.h>

WEFT_BEGIN_DECLS

/** Starts recording; `path` (copied) is where weft_trace_stop and
 * weft_stop write, or NULL to write only with weft_trace_write.  Before
 * weft_start it takes effect at start.  A recording ends at
 * weft_trace_stop or at weft_stop, whichever comes first: weft_stop
 * writes the file once, with every worker's track, and stops recording
 * (the next pool is traced only after another weft_trace_start).  So
 * weft_trace_start, weft_start, ..., weft_stop, weft_trace_stop writes the
 * file once, at weft_stop.  0, EBUSY if already recording, ENOMEM,
 * ENOTSUP without the tracer. */
int weft_trace_start(const char *path);

/** Stops recording and writes the file given to weft_trace_start (or
 * WEFT_TRACE's).  0, EINVAL if not recording, an errno value if the file
 * could not be written (with a message), ENOTSUP without the tracer.
 * After a weft_stop that ended the recording it writes nothing (the file
 * is there) and returns the result of weft_stop's write: 0, or its errno
 * value; once, then EINVAL. */
int weft_trace_stop(void);

/** Writes what the recording in progress has recorded so far to `path`.
 * 0, EINVAL (with a message) for a NULL path or no recording in progress
 * (one that ended went to its file and kept nothing), an errno value if
 * the file could not be written, ENOTSUP without the tracer. */
int weft_trace_write(const char *path);

/** True while recording. */
bool weft_trace_active(void);

WEFT_END_DECLS

#endif
