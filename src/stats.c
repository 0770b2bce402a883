/* Event counters: per worker, summed on demand.  Compiled in with
 * -DWEFT_STATS=ON; each counter is written by its worker only (relaxed
 * load + store, no RMW) and read here with relaxed loads. */
#include "internal.h"

#include <errno.h>
#include <string.h>

#if WEFT_STATS
static void read_worker(const weft_worker *w, weft_stats *s)
{
    /* Relaxed: a snapshot; each value is some recent value. */
#define R(field) s->field = atomic_load_explicit(&w->ctr.field, memory_order_relaxed)
    R(tasks);
    R(steals);
    R(steal_fails);
    R(leaps);
    R(leap_fails);
    R(grows);
    R(shrinks);
    R(sleeps);
    R(wakes);
    R(peak_depth);
#undef R
}
#endif

static int sum_counters(weft_stats *out)
{
    memset(out, 0, sizeof *out);
#if WEFT_STATS
    weft_runtime *p = &weft_rt;
    for (unsigned i = 0; i < p->n_workers; i++) {
        weft_stats s;
        read_worker(p->workers[i], &s);
        out->tasks += s.tasks;
        out->steals += s.steals;
        out->steal_fails += s.steal_fails;
        out->leaps += s.leaps;
        out->leap_fails += s.leap_fails;
        out->grows += s.grows;
        out->shrinks += s.shrinks;
        out->sleeps += s.sleeps;
        out->wakes += s.wakes;
        if (s.peak_depth > out->peak_depth)
            out->peak_depth = s.peak_depth;
    }
    return 0;
#else
    return ENOTSUP;
#endif
}

int weft_stats_get(weft_stats *out)
{
    bool held;
    if (!weft_lifecycle_hold(&held)) {
        memset(out, 0, sizeof *out); /* no pool: nothing counted */
        return WEFT_STATS ? 0 : ENOTSUP;
    }
    int r = sum_counters(out);
    weft_lifecycle_release(held);
    return r;
}

void weft_stats_reset(void)
{
#if WEFT_STATS
    bool held;
    if (!weft_lifecycle_hold(&held))
        return; /* no pool: nothing to reset */
    weft_runtime *p = &weft_rt;
    for (unsigned i = 0; i < p->n_workers; i++) {
        weft_counters *c = &p->workers[i]->ctr;
        /* Relaxed: racing increments by a running worker may survive. */
#define Z(field) atomic_store_explicit(&c->field, 0, memory_order_relaxed)
        Z(tasks);
        Z(steals);
        Z(steal_fails);
        Z(leaps);
        Z(leap_fails);
        Z(grows);
        Z(shrinks);
        Z(sleeps);
        Z(wakes);
        Z(peak_depth);
#undef Z
    }
    weft_lifecycle_release(held);
#endif
}

void weft_stats_print_locked(FILE *out)
{
#if WEFT_STATS
    weft_runtime *p = &weft_rt;
    static const char *const fmt = "%-6s %14s %10s %12s %10s %12s %10s %10s %8s %8s %8s\n";
    fprintf(out, fmt, "worker", "tasks", "steals", "steal_fails", "leaps", "leap_fails", "grows",
            "shrinks", "sleeps", "wakes", "peak");
    for (unsigned i = 0; i < p->n_workers; i++) {
        weft_stats s;
        read_worker(p->workers[i], &s);
        fprintf(out, "%-6u %14llu %10llu %12llu %10llu %12llu %10llu %10llu %8llu %8llu %8llu\n", i,
                (unsigned long long)s.tasks, (unsigned long long)s.steals,
                (unsigned long long)s.steal_fails, (unsigned long long)s.leaps,
                (unsigned long long)s.leap_fails, (unsigned long long)s.grows,
                (unsigned long long)s.shrinks, (unsigned long long)s.sleeps,
                (unsigned long long)s.wakes, (unsigned long long)s.peak_depth);
    }
    weft_stats t;
    sum_counters(&t);
    fprintf(out, "%-6s %14llu %10llu %12llu %10llu %12llu %10llu %10llu %8llu %8llu %8llu\n", "total",
            (unsigned long long)t.tasks, (unsigned long long)t.steals,
            (unsigned long long)t.steal_fails, (unsigned long long)t.leaps,
            (unsigned long long)t.leap_fails, (unsigned long long)t.grows,
            (unsigned long long)t.shrinks, (unsigned long long)t.sleeps,
            (unsigned long long)t.wakes, (unsigned long long)t.peak_depth);
#else
    fprintf(out, "weft: counters not compiled in (configure with -DWEFT_STATS=ON)\n");
#endif
}

void weft_stats_print(FILE *out)
{
    bool held;
    if (!weft_lifecycle_hold(&held)) {
        fprintf(out, "weft: no pool is running (counters are printed at stop with WEFT_STATS=1)\n");
        return;
    }
    weft_stats_print_locked(out);
    weft_lifecycle_release(held);
}
