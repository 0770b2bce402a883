// SPDX-License-Identifier: Apache-2.0
/* Counting basic blocks: the profiler's deterministic unit (count.h;
 * docs/profiling.md, "Counting basic blocks").
 *
 * Code compiled with -fsanitize-coverage=trace-pc (GCC >= 6, clang; the
 * CMake target weft::weft_profile adds it) calls __sanitizer_cov_trace_pc
 * at the start of every basic block it runs.  Here that call adds one to
 * a thread-local count; the inline hooks (bits/observe.h) read the count
 * wherever they read the clock, and in counting mode a strand's length is
 * the blocks it ran, not its time: a page fault, a preemption or a
 * hypervisor's interruption adds nothing to it.  The cycles of the same
 * strands (on-CPU cycles: profile_clock.c's long-strand check) are totalled
 * beside the blocks, and the reports convert blocks to time with that
 * ratio: the run's on-CPU time per block.
 *
 * This file itself must not be instrumented (the callback would call
 * itself): the library is built without the flag, and the attribute
 * below keeps it so in a build that adds the flag everywhere. */
#include "observe/count.h"

#include "sys/tls.h" /* WEFT__TLS_MODEL */

#include "runtime/diagnostics.h"
#include "runtime/env.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if WEFT_PROFILE

#if defined(__has_attribute)
#if __has_attribute(no_sanitize_coverage)
#define NOT_COUNTED __attribute__((no_sanitize_coverage))
#elif __has_attribute(no_sanitize)
#define NOT_COUNTED __attribute__((no_sanitize("coverage")))
#endif
#endif
#ifndef NOT_COUNTED
#define NOT_COUNTED
#endif

/* Exported (a shared libweft hides everything else): instrumented code in
 * the program and its other libraries calls the callback, and the inline
 * hooks read the count. */
__attribute__((visibility("default"))) __thread uint64_t weft__profile_blocks WEFT__TLS_MODEL;

/* Weak: a coverage runtime the program links (libFuzzer, -fsanitize=fuzzer)
 * defines the same callback, and its definition then wins instead of
 * clashing with this one at link time; the count stays 0 and the profile
 * measures time (docs/profiling.md, "Counting basic blocks"). */
__attribute__((visibility("default"), weak)) void __sanitizer_cov_trace_pc(void);

/* One add to a thread-local at a fixed offset from the thread pointer:
 * nothing else, as it runs at every basic block. */
NOT_COUNTED __attribute__((visibility("default"), weak)) void __sanitizer_cov_trace_pc(void)
{
    weft__profile_blocks++;
}

/* The unit: chosen once per process, at the first weft_start (under
 * `unit_lock`), so that every figure of the process has the same. */
static pthread_mutex_t unit_lock = PTHREAD_MUTEX_INITIALIZER;
static bool unit_chosen, unit_forced;
static weft__profile_unit unit_chosen_as = WEFT__PROFILE_UNIT_TIME;

/* Totals of workers that stopped (profiler.c's lock). */
static uint64_t folded_cycles, folded_blocks;

int weft__count_check_env(void)
{
    /* In the order of weft__profile_unit. */
    static const char *const units[] = {"time", "blocks", "strands"};
    int unit = -1;
    int err = weft__env_choice("WEFT_PROFILE_UNIT", units, 3, &unit);
    pthread_mutex_lock(&unit_lock);
    if (!unit_chosen && !err) {
        unit_chosen = true;
        unit_forced = unit >= 0;
        if (unit >= 0)
            unit_chosen_as = (weft__profile_unit)unit;
        else
            unit_chosen_as =
                weft__profile_blocks != 0 ? WEFT__PROFILE_UNIT_BLOCKS : WEFT__PROFILE_UNIT_TIME;
    }
    pthread_mutex_unlock(&unit_lock);
    return err;
}

weft__profile_unit weft__count_unit(void)
{
    pthread_mutex_lock(&unit_lock);
    weft__profile_unit u = unit_chosen_as;
    pthread_mutex_unlock(&unit_lock);
    return u;
}

bool weft__count_blocks(void) { return weft__count_unit() != WEFT__PROFILE_UNIT_TIME; }

const char *weft__count_how(void)
{
    pthread_mutex_lock(&unit_lock);
    bool forced = unit_forced;
    pthread_mutex_unlock(&unit_lock);
    return forced ? "WEFT_PROFILE_UNIT" : "automatic";
}

/* Units per cycle to start with, before a worker has measured its own:
 * the last ratio any worker measured in this process, else 1/4 for blocks
 * (a block of a few instructions and its callback's call) and 1/200 for
 * strands (a fine-grained task's strand). */
static _Atomic double last_blocks_per_cycle = 0.25;
static _Atomic double last_strands_per_cycle = 1.0 / WEFT__COUNT_GUESS_CYCLES_PER_STRAND;

void weft__count_worker_init(weft_profile_worker *p, uint64_t burden_cycles)
{
    p->counting = weft__count_blocks();
    p->strands = weft__count_unit() == WEFT__PROFILE_UNIT_STRANDS;
    p->burden_cycles = burden_cycles;
    p->count_start = weft__profile_blocks;
    p->window_end = weft_profile_figure(&p->f.work) +
                    (p->strands ? WEFT__PROFILE_STRAND_WINDOW : WEFT__PROFILE_NO_WINDOW);
    p->window_start = 0;
    /* Relaxed: any recent estimate will do. */
    double upc = atomic_load_explicit(p->strands ? &last_strands_per_cycle : &last_blocks_per_cycle,
                                      memory_order_relaxed);
    if (p->counting)
        p->burden = (uint64_t)((double)burden_cycles * upc + 0.5);
}

/* Re-estimated once the worker has counted this many blocks (timed this
 * many strands). */
#define MIN_BLOCKS_FOR_RATIO 100000u
#define MIN_STRANDS_FOR_RATIO 1024u

void weft__count_update_burden(weft_profile_worker *p)
{
    if (!p->counting)
        return;
    /* Relaxed: this worker's own counters. */
    uint64_t c = atomic_load_explicit(&p->counted_cycles, memory_order_relaxed);
    uint64_t b = atomic_load_explicit(&p->counted_blocks, memory_order_relaxed);
    if (b < (p->strands ? MIN_STRANDS_FOR_RATIO : MIN_BLOCKS_FOR_RATIO) || c == 0)
        return;
    double upc = (double)b / (double)c;
    p->burden = (uint64_t)((double)p->burden_cycles * upc + 0.5);
    /* Relaxed: a hint for workers that start later. */
    atomic_store_explicit(p->strands ? &last_strands_per_cycle : &last_blocks_per_cycle, upc,
                          memory_order_relaxed);
}

/* A window of counted strands ends at `now`: its time, less what the
 * thread spent off the CPU in a long one, and its strands go to the
 * conversion. */
static void window_add(weft_profile_worker *p, uint64_t now, uint64_t strands)
{
    uint64_t d = now - p->window_start;
    if (d > p->long_cycles)
        d = weft__profile_long_strand(p, now, d);
    /* Relaxed: this worker's own counter. */
    uint64_t before = atomic_load_explicit(&p->counted_blocks, memory_order_relaxed);
    weft_profile_owner_add(&p->counted_cycles, d);
    weft_profile_owner_add(&p->counted_blocks, strands);
    /* Now and then (once in 64 full windows' strands), the burden in
     * strands from what was timed so far. */
    uint64_t every = 64 * (uint64_t)WEFT__PROFILE_STRAND_WINDOW;
    if (before / every != (before + strands) / every)
        weft__count_update_burden(p);
}

/* The strands of the open window: its full count, less those to go, or
 * more those past its end (which waits for a body's entry). */
static uint64_t window_strands(const weft_profile_worker *p)
{
    return WEFT__PROFILE_STRAND_WINDOW + (weft_profile_figure(&p->f.work) - p->window_end);
}

void weft__profile_strand_window(weft_profile_worker *p)
{
    if (!p->strands) { /* (not reached: the end stays far ahead) */
        p->window_end = weft_profile_figure(&p->f.work) + WEFT__PROFILE_NO_WINDOW;
        return;
    }
    uint64_t now = weft_cycles();
    if (p->window_start != 0) /* (0: the window opens here) */
        window_add(p, now, window_strands(p));
    p->window_start = now;
    p->window_end = weft_profile_figure(&p->f.work) + WEFT__PROFILE_STRAND_WINDOW;
}

void weft__profile_window_close(weft_profile_worker *p, uint64_t now)
{
    if (p->window_start != 0)
        window_add(p, now, window_strands(p));
    p->window_start = 0;
}

void weft__count_fold_locked(weft_profile_worker *p)
{
    weft__count_add_locked(p, &folded_cycles, &folded_blocks);
}

void weft__count_reset_locked(weft_profile_worker *p)
{
    if (!p) {
        folded_cycles = folded_blocks = 0;
        return;
    }
    /* Relaxed: a running worker's concurrent addition may survive (as
     * profiler.c's reset of the per-type counts). */
    atomic_store_explicit(&p->counted_cycles, 0, memory_order_relaxed);
    atomic_store_explicit(&p->counted_blocks, 0, memory_order_relaxed);
}

void weft__count_add_locked(const weft_profile_worker *p, uint64_t *cycles, uint64_t *blocks)
{
    if (!p) {
        *cycles += folded_cycles;
        *blocks += folded_blocks;
        return;
    }
    /* Relaxed: recent values of counters their worker writes. */
    *cycles += atomic_load_explicit(&p->counted_cycles, memory_order_relaxed);
    *blocks += atomic_load_explicit(&p->counted_blocks, memory_order_relaxed);
}

double weft__count_ns_per_block(uint64_t cycles, uint64_t blocks, double ticks_per_ns)
{
    if (blocks == 0 || cycles == 0 || !(ticks_per_ns > 0.0))
        return 0.0;
    return (double)cycles / ticks_per_ns / (double)blocks;
}

#endif
