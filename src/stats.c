/* Event counters: per worker, summed on demand.  Compiled in with
 * -DWEFT_STATS=ON; each counter is written by its worker only (relaxed
 * load + store, no RMW) and read here with relaxed loads. */
#include "internal.h"

#include <errno.h>
#include <string.h>

/* Every counter, in the order printed: X(field, printed name, width).
 * peak_depth is a maximum, the others are sums. */
#define WEFT_COUNTERS(X)                                                                      \
    X(tasks, "tasks", 14)                                                                     \
    X(steals, "steals", 10)                                                                   \
    X(steal_fails, "steal_fails", 12)                                                         \
    X(leaps, "leaps", 10)                                                                     \
    X(leap_fails, "leap_fails", 12)                                                           \
    X(grows, "grows", 10)                                                                     \
    X(shrinks, "shrinks", 10)                                                                 \
    X(sleeps, "sleeps", 8)                                                                    \
    X(wakes, "wakes", 8)                                                                      \
    X(peak_depth, "peak", 8)                                                                  \
    X(requests, "requests", 10)                                                               \
    X(transfers, "transfers", 10)

#if WEFT_STATS
static void read_worker(const weft_worker *w, weft_stats *s)
{
    /* Relaxed: a snapshot; each value is some recent value. */
#define R(field, name, width) s->field = atomic_load_explicit(&w->ctr.field, memory_order_relaxed);
    WEFT_COUNTERS(R)
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
        uint64_t peak = out->peak_depth > s.peak_depth ? out->peak_depth : s.peak_depth;
#define SUM(field, name, width) out->field += s.field;
        WEFT_COUNTERS(SUM)
#undef SUM
        out->peak_depth = peak;
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
#define Z(field, name, width) atomic_store_explicit(&c->field, 0, memory_order_relaxed);
        WEFT_COUNTERS(Z)
#undef Z
    }
    weft_lifecycle_release(held);
#endif
}

#if WEFT_STATS
static void print_row(FILE *out, const char *label, const weft_stats *s)
{
    fprintf(out, "%-6s", label);
#define P(field, name, width) fprintf(out, " %*llu", width, (unsigned long long)s->field);
    WEFT_COUNTERS(P)
#undef P
    fputc('\n', out);
}
#endif

/* One header line naming the columns (parsers key on these names), a line
 * per worker, and "total". */
void weft_stats_print_locked(FILE *out)
{
#if WEFT_STATS
    weft_runtime *p = &weft_rt;
    fprintf(out, "%-6s", "worker");
#define H(field, name, width) fprintf(out, " %*s", width, name);
    WEFT_COUNTERS(H)
#undef H
    fputc('\n', out);
    for (unsigned i = 0; i < p->n_workers; i++) {
        weft_stats s;
        read_worker(p->workers[i], &s);
        char label[16];
        snprintf(label, sizeof label, "%u", i);
        print_row(out, label, &s);
    }
    weft_stats t;
    sum_counters(&t);
    print_row(out, "total", &t);
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
