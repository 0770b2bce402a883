// SPDX-License-Identifier: Apache-2.0
/* The profiler's reports (profile_report.c): a snapshot of the figures as
 * a table for people or as JSON.  The snapshot is the recorder's
 * (profiler.c); the formats know nothing else of it.  Not installed. */
#ifndef WEFT_OBSERVE_PROFILE_REPORT_H
#define WEFT_OBSERVE_PROFILE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <weft/profile.h>

/* What a report shows: the regions and the task types, copied. */
typedef struct weft__profile_snapshot {
    weft_profile_region *r;
    size_t n;
    weft_profile_task_type *t;
    size_t nt;
    double off_cpu_ns; /* taken off strands: their thread was off the CPU */
    uint64_t off_cpu_strands;
    uint64_t off_cpu_threads;       /* the threads off_cpu_ns is summed over */
    double off_cpu_max_thread_ns;   /* the most of it on one thread: at most the wall time */
    bool blocks;                    /* counting mode: figures were basic blocks or strands */
    bool strands;                   /* ... strands (WEFT_PROFILE_UNIT=strands) */
    double ns_per_block;            /* their conversion (0: nothing was counted) */
    uint64_t counted;               /* the blocks counted (strands sampled) for it */
    double burden_ns;               /* the steal cost charged per SPAWN edge */
    uint64_t runs_in_other_regions; /* runs of regions past the names kept: in the other rows */
    unsigned names_kept;            /* region names a profile keeps */
    const char *note; /* a front-end's note (weft__profile_set_frontend_note), or NULL */
} weft__profile_snapshot;

/* The table for people (WEFT_PROFILE=1). */
void weft__profile_print_table(FILE *out, const weft__profile_snapshot *sn);
/* The JSON for programs (WEFT_PROFILE_JSON). */
void weft__profile_print_json(FILE *out, const weft__profile_snapshot *sn);

#endif
