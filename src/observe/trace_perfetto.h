// SPDX-License-Identifier: Apache-2.0
/* The trace writer's second format (trace_perfetto.c): Perfetto's
 * protobuf trace (TracePacket / TrackEvent), written as the recorder's
 * records come, so that a long run streams to disk through bounded
 * buffers.  docs/timeline.md describes the file.  Not installed. */
#ifndef WEFT_OBSERVE_TRACE_PERFETTO_H
#define WEFT_OBSERVE_TRACE_PERFETTO_H

#include "observe/trace_record.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct weft__pf weft__pf;             /* one file being written */
typedef struct weft__pf_track weft__pf_track; /* one track's encoder */

/* A path that asks for this format: it ends in ".pftrace" or
 * ".perfetto-trace". */
bool weft__pf_path(const char *path);

/* Opens path, locked while it is open (a file another process holds so is
 * not truncated: <stem>.<pid><ending> is written instead, with a
 * message), and writes the clock's description; NULL on failure (a
 * message given, *err set). */
weft__pf *weft__pf_open(const char *path, uint64_t t0, int *err);
/* The file pf writes: `path`, or the one chosen because another process
 * held `path` (weft__pf_open says so). */
const char *weft__pf_file(const weft__pf *pf);

/* A group of tracks (the fork-join pool, a work pool run), shown as a
 * process; `group` is 0 for the fork-join pool, 1 + k for pool run k. */
void weft__pf_group(weft__pf *pf, unsigned group, const char *label);
/* The track of worker `index` of a group, whose records' count of drops
 * was `dropped_before` where the session began; NULL without memory (its
 * records are then left out). */
weft__pf_track *weft__pf_track_new(weft__pf *pf, unsigned group, unsigned index, const char *name,
                                   uint64_t dropped_before);
/* The records [from, to) of a track's ring of `cap` records (record i at
 * ring[i % cap]), oldest first. */
void weft__pf_records(weft__pf *pf, weft__pf_track *tr, const trace_event *ring, uint32_t cap,
                      uint64_t from, uint64_t to);
/* The track ends here: its open slices are closed at its last time, and
 * drops after its last record (its count of drops is `dropped`) are
 * marked there. */
void weft__pf_track_end(weft__pf *pf, weft__pf_track *tr, uint64_t dropped);
/* An outside thread's RUN, with the arrow to the worker that took it (if
 * that worker's record was written). */
void weft__pf_external(weft__pf *pf, const external_run *run);
/* A work pool run (group 1 + k) ended at ts with these counters. */
void weft__pf_pool_end(weft__pf *pf, unsigned group, uint64_t ts, const weft_trace_pool_counts *c);
/* What the file ends with: the dropped records and the runtime's
 * counters (NULL: none). */
typedef struct weft__pf_summary {
    uint64_t dropped, externals_dropped;
    unsigned pool_runs_untraced;
    const weft_stats *counters;
} weft__pf_summary;
/* Writes what is buffered: 0, or the errno of a write that failed. */
int weft__pf_flush(weft__pf *pf);
/* Closes every track, writes the summary, closes the file and frees pf:
 * 0, or errno (a message given). */
int weft__pf_close(weft__pf *pf, const weft__pf_summary *summary);

#endif
