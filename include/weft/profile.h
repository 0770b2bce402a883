// SPDX-License-Identifier: Apache-2.0
/** @file
 * weft's work/span profiler: how much parallelism a computation has.
 *
 * In a build configured with -DWEFT_PROFILE=ON every strand (the code of a
 * task between two SPAWNs, SYNCs or calls of another task type) is timed
 * with the cycle counter, and the strands are combined along the
 * SPAWN/SYNC graph as Cilkscale does:
 *
 *   work                  the time of all strands: T_1 without scheduling
 *   span                  the longest path through the graph: T_infinity
 *   parallelism           work / span: the most workers that can help
 *   burdened span         the span with one steal's cost added on every
 *                         SPAWN edge of the path (a thief takes the
 *                         spawned child; its path pays the steal and the
 *                         join of a stolen task)
 *   burdened parallelism  work / burdened span
 *
 * for every RUN (a "region" named by its task; NEWFRAME and TOGETHER
 * copies too; a RUN inside a task is a row of its own kind, read per
 * call, whose work its caller's region holds), for regions the program
 * brackets with weft_profile_begin /
 * weft_profile_end, for work pool runs (docs/profiling.md, "Work pool
 * runs": a region per queue kind, its tasks the items), and per task type
 * (work and count).  The figures do
 * not depend on the worker count or on which tasks were stolen.
 *
 * With WEFT_PROFILE=1 in the environment the table is printed on stderr
 * at weft_stop; WEFT_PROFILE_JSON=\<file\> writes it as JSON there; the
 * cost charged per steal is WEFT_PROFILE_BURDEN_NS (docs/profiling.md
 * has the default and how to measure it).  In other builds, and in a
 * process that ran its first weft_start (or work pool run) with
 * WEFT_PROFILE_OFF=1 (a profiling build that does not profile,
 * docs/profiling.md), every call below returns ENOTSUP or nothing.
 *
 * Threading: the reading calls may be made from any thread at any time
 * (they see the regions that have finished); begin/end from any thread.
 */
#ifndef WEFT_PROFILE_H
#define WEFT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <weft/bits/lang.h>

WEFT_BEGIN_DECLS

/** What a region is (weft_profile_region.kind), and so how its rows add
 * up (docs/profiling.md, "Nested RUNs"). */
enum {
    /** RUNs from outside the pool, NEWFRAME and TOGETHER, work pool runs:
     * they never contain each other, so their work adds up to the
     * program's. */
    WEFT_PROFILE_REGION_RUN = 0,
    /** RUNs made inside a task (a library whose every operation is a RUN,
     * called from tasks, as Sylvan's): each is a call of the task that
     * made it, whose region counts its work too; read per call. */
    WEFT_PROFILE_REGION_INSIDE_TASK = 1,
    /** A range marked with weft_profile_begin / weft_profile_end: it may
     * hold RUNs of the other kinds, whose work it counts again. */
    WEFT_PROFILE_REGION_NAMED = 2
};

/** The figures of one region: the sums over its runs. */
typedef struct weft_profile_region {
    const char *name;        /**< the RUN's task, or the name given to weft_profile_end */
    uint64_t runs;           /**< how many times it ran */
    double work_ns;          /**< work: the time of every strand, summed */
    double span_ns;          /**< span: the longest path of strands through the SPAWN/SYNC graph */
    double burdened_span_ns; /**< span with the steal cost charged per SPAWN edge */
    double parallelism;      /**< work / span */
    double burdened_parallelism; /**< work / burdened span */
    double longest_strand_ns;    /**< the longest single strand (of any run): when the span is
                                  * not much more, one strand makes it (a serial piece of the
                                  * program, or on a busy machine a strand that lost its CPU) */
    uint64_t tasks;              /**< task bodies run (every SPAWNed, CALLed and started task) */
    uint64_t spawns;             /**< SPAWNs (each joined by a SYNC or DROP) */
    uint64_t strands;            /**< tasks + 2 * spawns: a body is cut at every SPAWN and SYNC */
    int kind;                    /**< WEFT_PROFILE_REGION_RUN, _INSIDE_TASK or _NAMED */
    double longest_run_span_ns;  /**< the largest span of one run (span_ns sums the runs') */
} weft_profile_region;

/** Work and count of one task type (task name), over all regions. */
typedef struct weft_profile_task_type {
    const char *name; /**< the task's name */
    uint64_t count;   /**< bodies run */
    double work_ns;   /**< time of its own strands (not of the tasks it runs) */
} weft_profile_task_type;

/** The regions so far, in the order they first finished: writes up to max
 * to out and returns how many there are (0 in a build without the
 * profiler), so weft_profile_regions(NULL, 0) sizes the array.  Names
 * stay valid until weft_profile_reset. */
size_t weft_profile_regions(weft_profile_region *out, size_t max);
/** The task types, likewise, in the order they first ran.  Each call
 * converts to time at the rate measured then, so a region's work and its
 * types' read by two calls may differ by the rate's drift between them;
 * the reports (weft_profile_print, weft_profile_write_json) convert both at
 * one rate. */
size_t weft_profile_task_types(weft_profile_task_type *out, size_t max);

/** The speedup on P workers the figures allow: at most min(P, parallelism)
 * (work and span laws); burdened: the estimate work / (work/P + burdened
 * span), the greedy bound with every steal paid (Cilkview's lower
 * estimate).  0 for P == 0 or a region without work. */
double weft_profile_speedup_bound(const weft_profile_region *r, unsigned workers);
/** @copydoc weft_profile_speedup_bound */
double weft_profile_burdened_speedup(const weft_profile_region *r, unsigned workers);

/** A region of the program's own: weft_profile_end(&mark, name) records
 * what ran since weft_profile_begin() as a run of region `name` (copied;
 * up to 63 bytes kept).  Inside a task: the work and span of what the
 * task did in between (join what it spawned in between, and nothing it
 * spawned before).  On a thread outside the pool: the RUNs that finished
 * in between, one after the other (their work and spans add up).
 * weft_profile_end returns 0, ENOTSUP without the profiler (or with
 * profiling off), EINVAL (with
 * a message) for a NULL mark or name, a mark from another thread or from
 * another task (one the runtime started) on the same worker, or the
 * name "(other ranges)" (the profiler's own row of the ranges past the
 * names it keeps). */
typedef struct weft_profile_mark {
    /** @{ */
    /** The figures when the mark was taken (the profiler's own). */
    uint64_t work, span, bspan, tasks, spawns, longest;
    /** @} */
    uintptr_t where;      /**< the worker, or the thread outside the pool */
    uint64_t computation; /**< on a worker: the task the runtime started that took it */
} weft_profile_mark;
/** The mark a region starts at (see weft_profile_mark). */
weft_profile_mark weft_profile_begin(void);
/** Records the region since mark as a run of region `name` (see
 * weft_profile_mark). */
int weft_profile_end(const weft_profile_mark *mark, const char *name);
/** Declares weft_profile_mark `mark` and takes it (weft_profile_begin). */
#define WEFT_PROFILE_BEGIN(mark) weft_profile_mark mark = weft_profile_begin()
/** weft_profile_end for the mark of WEFT_PROFILE_BEGIN. */
#define WEFT_PROFILE_END(mark, name) weft_profile_end(&(mark), (name))

/** The cost charged per SPAWN edge for the burdened span, in nanoseconds
 * (default: WEFT_PROFILE_BURDEN_NS, or docs/profiling.md's value).  Takes
 * effect at the next weft_start.  EINVAL for a negative or absurd value
 * (over one second), ENOTSUP without the profiler. */
int weft_profile_set_burden_ns(double ns);
/** The cost charged per SPAWN edge now, in nanoseconds. */
double weft_profile_burden_ns(void);

/** The table (regions, speedup bounds for 1..64 workers, task types) on
 * out, or a note that the profiler is compiled out or off; the same as
 * JSON (docs/profiling.md describes the fields).  0, ENOTSUP without the
 * profiler or with profiling off, EINVAL for a NULL out, EIO if writing failed. */
int weft_profile_print(FILE *out);
/** @copydoc weft_profile_print */
int weft_profile_write_json(FILE *out);

/** Forgets every region and task type's figures (their names stay). */
void weft_profile_reset(void);

WEFT_END_DECLS

#endif
