// SPDX-License-Identifier: Apache-2.0
/* Per-worker state of the profiler (-DWEFT_PROFILE=ON) and the tracer
 * (-DWEFT_TRACE=ON), included by bits/worker.h, which places it in the
 * worker.  The hooks that use it are in bits/observe.h; what they compute
 * is explained in docs/profiling.md.  Not part of the API. */
#ifndef WEFT_BITS_OBSERVE_STATE_H
#define WEFT_BITS_OBSERVE_STATE_H

#include <weft/bits/lang.h>
#include <stdbool.h>
#include <stdint.h>

#include <weft/config.h>

#if WEFT_PROFILE
/* Task types: one record per task name, in the translation unit of its
 * WEFT_TASK_n; registered on first use (id 1 .. WEFT_PROFILE_MAX_TYPES-1;
 * the last id collects the types beyond). */
#define WEFT_PROFILE_MAX_TYPES 4096u
/* A record's id until its first body registers it: no running type has
 * it, so a body's entry finds it in its test for a change of type. */
#define WEFT__PROFILE_UNREGISTERED UINT32_MAX
typedef struct weft_profile_type {
    const char *name;
    WEFT_ATOMIC(uint32_t) id; /* WEFT__PROFILE_UNREGISTERED until registered */
} weft_profile_type;

/* Per worker and task type: strand time and bodies run.  Written by the
 * worker only (relaxed load + store), read by the reports; the running
 * type's strands are added when the type changes or a computation ends. */
typedef struct weft_profile_type_counts {
    WEFT_ATOMIC(uint64_t) work;  /* cycles */
    WEFT_ATOMIC(uint64_t) count; /* task bodies entered */
} weft_profile_type_counts;

/* One per deque slot, at the same index (a parallel array of descriptor
 * size, so a slot's record is the descriptor's address plus a constant).
 * The first line-half is the owner's: the path lengths at the SPAWN; the
 * rest is written by whoever ran the task when it was stolen, before it
 * stores DONE, and read by the owner after it saw DONE. */
typedef struct weft_profile_slot {
    WEFT_ALIGNAS(64) uint64_t spawn_span;
    uint64_t spawn_bspan;
    uint64_t child_work, child_span, child_bspan;
    uint64_t child_tasks, child_spawns;
    union {
        uint64_t child_longest; /* timed strands or counted blocks */
        uint64_t child_type;    /* counting strands (no strand has a length): its task type */
    };
} weft_profile_slot;

/* The figures of a computation, in cycles (and counts), relative to its
 * start. */
typedef struct weft_profile_figures {
    uint64_t work;  /* every strand so far */
    uint64_t span;  /* the longest path to the running strand */
    uint64_t bspan; /* the same, every SPAWN edge on it burdened */
    uint64_t tasks, spawns;
    uint64_t longest;   /* the longest single strand */
    uint32_t type;      /* the running task's type id (0: none) */
    uint32_t root_type; /* the type of the started task */
} weft_profile_figures;

/* The figures of the computation a worker runs, as its hooks keep them.
 * A strand's end adds its length to the work and to both paths alike, so
 * each path is kept as its length less the work (mod 2^64) and the end
 * adds to the work alone; and the running type's work and bodies are
 * added to its row when the type changes: the work since `type_from` and
 * the tasks since `type_tasks_from` are its.  The profiler reads them as
 * weft_profile_figures (figures_of, src/observe/profiler.c). */
typedef struct weft_profile_running {
    uint64_t work;
    uint64_t span_less_work, bspan_less_work;
    uint64_t tasks, spawns;
    uint64_t longest;
    uint64_t type_from;       /* the work when the running type's row was last added to */
    uint64_t type_tasks_from; /* the tasks then */
    uint32_t type;            /* the running task's type id (0: none) */
    uint32_t root_type;       /* the type of the started task */
} weft_profile_running;

/* Counting strands: the clock is read once in this many strands. */
#define WEFT__PROFILE_STRAND_WINDOW 1024u
/* Timing strands or counting blocks, window_end is this far ahead of
 * the work (cycles or blocks), which it never reaches. */
#define WEFT__PROFILE_NO_WINDOW ((uint64_t)1 << 62)

/* The worker's profiler state: the figures of the computation it is
 * running (the task the runtime started last, with everything it ran
 * inline).  Owner-only. */
typedef struct weft_profile_worker {
    /* ---- what the hooks read or write at every strand, first: with the
     * figures, two cache lines ---- */
    /* Profiling is off in this process (WEFT_PROFILE_OFF=1, read at its
     * first start): the fork-join core runs no hook (weft_fj_profiling),
     * the runtime's and a body's hooks return at once, and the slot
     * records are not mapped. */
    bool off;
    /* Counting strands (count.c): every strand is 1 and no clock is read
     * at its end.  The running strands are timed together in windows,
     * from `window_start` (0: none open) to the first task body's entry
     * after its WEFT__PROFILE_STRAND_WINDOW-th strand or to a pause:
     * each window's cycles and strands go to counted_cycles and
     * counted_blocks, whose ratio converts strands to time. */
    bool strands;
    /* Counting basic blocks (src/observe/count.c): strands are measured
     * in blocks when `counting`; count_start is the thread's block count
     * when the running strand began; counted_cycles and counted_blocks
     * (owner-written, relaxed load + store, read by the reports) total
     * the strands' on-CPU cycles and blocks, whose ratio converts blocks
     * to time; burden_cycles is the burden that `burden` holds in blocks. */
    bool counting;
    /* The work at which the open window of counted strands is full: a
     * strand's end adds to the work alone, and a body's entry compares
     * (weft_profile_window_full).  Where the work is saved and restored
     * around a task the runtime starts, or grows by a call's figures,
     * with the window open, window_end moves with it
     * (profiler.c's work_moved); elsewhere a pause closed the window and
     * the resume opens the next from the work as it is.
     * Timing strands it stays far ahead of the work; profiling off, the
     * work and it stay 0: a body's entry tests both at once. */
    uint64_t window_end;
    intptr_t slot_offset;            /* slot record = descriptor address + this */
    weft_profile_type_counts *types; /* [WEFT_PROFILE_MAX_TYPES] */
    uint64_t burden;                 /* cycles (blocks) charged to a SPAWN edge */
    uint64_t strand_start;           /* when the running strand began; 0: none runs */
    /* Charging on-CPU time (profile_clock.c, weft__profile_long_strand): a
     * strand or a pause longer than `long_cycles` is checked against the
     * thread's CPU clock, read last at `sync_cycles` (`sync_cpu_ns`); the
     * clock stopped (a pause) at `paused_at`. */
    uint64_t long_cycles;
    weft_profile_running f;

    /* ---- the rest ---- */
    uint64_t sync_cycles, sync_cpu_ns, paused_at;
    const void *sync_thread; /* whose CPU clock (a thread may borrow the worker) */
    /* Owner-written (relaxed load + store), read by the reports: cycles
     * taken off strands because the thread was not on a CPU, and how many
     * strands lost some. */
    WEFT_ATOMIC(uint64_t) off_cpu, off_cpu_strands;
    uint64_t count_start, burden_cycles;
    WEFT_ATOMIC(uint64_t) counted_cycles, counted_blocks;
    uint64_t window_start;
    /* Which computation runs (a number for each task the runtime starts
     * here, its caller's back when it ends): a range's mark names it. */
    uint64_t computation, computations_begun;
    struct weft_profile_worker *next; /* the profiler's list of workers (its lock) */
    /* RUNs inside tasks that this worker made, summed per task type
     * (profiler.c's calls_rec[WEFT_PROFILE_MAX_TYPES]): their rows of the
     * table without a lock on the way. */
    void *calls;
    void *slots; /* the mapping of the slot records */
} weft_profile_worker;
#endif

#if WEFT_TRACE
struct weft_trace_track;
#endif

#endif
