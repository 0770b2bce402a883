// SPDX-License-Identifier: Apache-2.0
/* Event counters: per worker, summed on demand.  Compiled in with
 * -DWEFT_STATS=ON; each counter is written by its worker only (relaxed
 * load + store, no RMW) and read here with relaxed loads.
 *
 * A build counts the runtime's events (below) and its scheduler's own
 * (weft_sched_counters, named by the scheduler in weft__sched_counter_names):
 * reports list them by name, so each scheduler shows what it has. */
#include "runtime/stats.h"

#include <weft/weft.h>

#include "runtime/diagnostics.h"
#include "runtime/gate.h"
#include "runtime/sched.h"
#include "runtime/state.h"

#include <errno.h>
#include <string.h>

/* The runtime's counters, in the order reported: X(field, name), each a
 * field of weft_counters and of weft_stats.  peak_depth, the last, is a
 * maximum; the others are sums. */
#define WEFT_RUNTIME_COUNTERS(X) \
    X(tasks, "tasks") \
    X(steals, "steals") \
    X(steal_fails, "steal_fails") \
    X(leaps, "leaps") \
    X(leap_fails, "leap_fails") \
    X(sleeps, "sleeps") \
    X(wakes, "wakes") \
    X(peak_depth, "peak")

#define COUNT_ONE(field, name) +1
enum { RUNTIME_COUNTERS = 0 WEFT_RUNTIME_COUNTERS(COUNT_ONE) };
#undef COUNT_ONE
enum { PEAK_COUNTER = RUNTIME_COUNTERS - 1 };
/* More than any build has: the runtime's and a scheduler's. */
#define MAX_COUNTERS 32u

/* The build's counter names: the runtime's, then the scheduler's. */
static unsigned counter_names(const char **names)
{
    unsigned n = 0;
#define NAME(field, name) names[n++] = name;
    WEFT_RUNTIME_COUNTERS(NAME)
#undef NAME
    for (unsigned i = 0; i < weft__sched_counter_count && n < MAX_COUNTERS; i++)
        names[n++] = weft__sched_counter_names[i].name;
    return n;
}

#if WEFT_STATS
/* One worker's counters, in counter_names' order.  Relaxed: a snapshot;
 * each value is some recent value. */
static void read_worker(const weft_worker *w, uint64_t *v)
{
    unsigned n = 0;
#define R(field, name) v[n++] = atomic_load_explicit(&w->ctr.field, memory_order_relaxed);
    WEFT_RUNTIME_COUNTERS(R)
#undef R
    const char *base = (const char *)&w->ctr.sched;
    for (unsigned i = 0; i < weft__sched_counter_count && n < MAX_COUNTERS; i++)
        v[n++] = atomic_load_explicit(
            (const _Atomic uint64_t *)(base + weft__sched_counter_names[i].offset),
            memory_order_relaxed);
}

static void zero_worker(weft_worker *w)
{
    /* Relaxed: racing increments by a running worker may survive. */
#define Z(field, name) atomic_store_explicit(&w->ctr.field, 0, memory_order_relaxed);
    WEFT_RUNTIME_COUNTERS(Z)
#undef Z
    char *base = (char *)&w->ctr.sched;
    for (unsigned i = 0; i < weft__sched_counter_count; i++)
        atomic_store_explicit((_Atomic uint64_t *)(base + weft__sched_counter_names[i].offset), 0,
                              memory_order_relaxed); /* as above */
}
#endif

/* The totals over all workers (peak: the maximum); the caller holds the
 * pool.  Returns the number of counters. */
static unsigned sum_counters(uint64_t *total)
{
    const char *names[MAX_COUNTERS];
    unsigned n = counter_names(names);
    memset(total, 0, n * sizeof *total);
#if WEFT_STATS
    weft_runtime *p = &weft__rt;
    for (unsigned k = 0; k < p->n_workers; k++) {
        uint64_t v[MAX_COUNTERS];
        read_worker(p->workers[k], v);
        for (unsigned i = 0; i < n; i++)
            total[i] = i == PEAK_COUNTER ? (v[i] > total[i] ? v[i] : total[i]) : total[i] + v[i];
    }
#endif
    return n;
}

/* weft_stats' fields from the totals (in counter_names' order): the
 * runtime's, and the scheduler's counters that name a field. */
static void fill_stats(weft_stats *out, const uint64_t *total)
{
    memset(out, 0, sizeof *out);
    unsigned n = 0;
#define F(field, name) out->field = total[n++];
    WEFT_RUNTIME_COUNTERS(F)
#undef F
    for (unsigned i = 0; i < weft__sched_counter_count && n < MAX_COUNTERS; i++, n++) {
        size_t at = weft__sched_counter_names[i].stats_offset;
        if (at != WEFT_STATS_NO_FIELD)
            memcpy((char *)out + at, &total[n], sizeof total[n]);
    }
}

void weft__stats_get_locked(weft_stats *out)
{
    uint64_t total[MAX_COUNTERS];
    sum_counters(total);
    fill_stats(out, total);
}

int weft_stats_get(weft_stats *out)
{
    if (!out) {
        weft__warn("weft_stats_get: out is NULL");
        return EINVAL;
    }
    bool held;
    if (!weft__lifecycle_hold(&held)) {
        memset(out, 0, sizeof *out); /* no pool: nothing counted */
        return WEFT_STATS ? 0 : ENOTSUP;
    }
    weft__stats_get_locked(out);
    weft__lifecycle_release(held);
    return WEFT_STATS ? 0 : ENOTSUP;
}

size_t weft_stats_counters(weft_counter *out, size_t max)
{
    if (!WEFT_STATS)
        return 0;
    if (!out && max > 0) {
        weft__warn("weft_stats_counters: out is NULL but max is %zu", max);
        return 0;
    }
    const char *names[MAX_COUNTERS];
    uint64_t total[MAX_COUNTERS];
    unsigned n = counter_names(names);
    bool held;
    if (weft__lifecycle_hold(&held)) {
        sum_counters(total);
        weft__lifecycle_release(held);
    } else {
        memset(total, 0, sizeof total); /* no pool: nothing counted */
    }
    for (unsigned i = 0; i < n && i < max; i++) {
        out[i].name = names[i];
        out[i].value = total[i];
    }
    return n;
}

void weft_stats_reset(void)
{
#if WEFT_STATS
    bool held;
    if (!weft__lifecycle_hold(&held))
        return; /* no pool: nothing to reset */
    weft_runtime *p = &weft__rt;
    for (unsigned i = 0; i < p->n_workers; i++)
        zero_worker(p->workers[i]);
    weft__lifecycle_release(held);
#endif
}

#if WEFT_STATS
static void print_row(FILE *out, const char *label, const char *const *names, const uint64_t *v,
                      unsigned n)
{
    fprintf(out, "%-6s", label);
    for (unsigned i = 0; i < n; i++) {
        int width = (int)strlen(names[i]) + 2;
        fprintf(out, " %*llu", width < 10 ? 10 : width, (unsigned long long)v[i]);
    }
    fputc('\n', out);
}
#endif

/* One header line naming the columns (parsers key on these names), a line
 * per worker, and "total". */
void weft__stats_print_locked(FILE *out)
{
#if WEFT_STATS
    weft_runtime *p = &weft__rt;
    const char *names[MAX_COUNTERS];
    unsigned n = counter_names(names);
    fprintf(out, "%-6s", "worker");
    for (unsigned i = 0; i < n; i++) {
        int width = (int)strlen(names[i]) + 2;
        fprintf(out, " %*s", width < 10 ? 10 : width, names[i]);
    }
    fputc('\n', out);
    for (unsigned k = 0; k < p->n_workers; k++) {
        uint64_t v[MAX_COUNTERS];
        read_worker(p->workers[k], v);
        char label[16];
        snprintf(label, sizeof label, "%u", k);
        print_row(out, label, names, v, n);
    }
    uint64_t total[MAX_COUNTERS];
    sum_counters(total);
    print_row(out, "total", names, total, n);
#else
    fprintf(out, "weft: counters not compiled in (configure with -DWEFT_STATS=ON)\n");
#endif
}

void weft_stats_print(FILE *out)
{
    if (!out) {
        weft__warn("weft_stats_print: out is NULL");
        return;
    }
    bool held;
    if (!weft__lifecycle_hold(&held)) {
        fprintf(out, "weft: no pool is running (counters are printed at stop with WEFT_STATS=1)\n");
        return;
    }
    weft__stats_print_locked(out);
    weft__lifecycle_release(held);
}
