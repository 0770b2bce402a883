// SPDX-License-Identifier: Apache-2.0
/* The trace writer (weft/trace.h; docs/timeline.md): a session the
 * recorder (trace.c) kept, as a Chrome Trace Event JSON file.  Called by
 * the recorder under its lock, so one file is written at a time. */
#include "runtime/diagnostics.h"
#include "runtime/env.h"
#include "runtime/memory.h"
#include "runtime/state.h"
#include "runtime/topology.h"
#include "sys/clock.h"
#include "sys/output_file.h"
#include "observe/trace_write.h"

#include "observe/json.h"
#include "observe/trace_names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if WEFT_TRACE

/* The file being written (one at a time: the recorder's lock). */
static const weft__trace_file *cur;


/* Categories: what the renderer colours (busy, steal, idle, ...). */
static const char *const state_cats[WEFT_TRACE_STATES] = {
    [WEFT_TRACE_NONE] = "unknown", [WEFT_TRACE_RUNNING] = "task",  [WEFT_TRACE_SEARCH] = "search",
    [WEFT_TRACE_JOIN] = "join",    [WEFT_TRACE_SLEEP] = "sleep",   [WEFT_TRACE_BARRIER] = "barrier",
    [WEFT_TRACE_HELP] = "search",  [WEFT_TRACE_PARKED] = "parked", [WEFT_TRACE_BATCH] = "task",
};

typedef struct writer {
    FILE *f;
    uint64_t t0;
    uint64_t flows; /* flow ids so far */
    bool first;
} writer;


/* Opens one event object: the fields every event has. */
static void ev_open(writer *wr, const char *name, const char *cat, const char *ph, uint64_t ts,
                    unsigned pid, long tid)
{
    fputs(wr->first ? "\n" : ",\n", wr->f);
    wr->first = false;
    fputs("{\"name\":", wr->f);
    weft__json_string(wr->f, name);
    uint64_t rel = ts >= wr->t0 ? ts - wr->t0 : 0;
    fprintf(wr->f, ",\"cat\":\"%s\",\"ph\":\"%s\",\"ts\":%llu.%03u,\"pid\":%u,\"tid\":%ld", cat, ph,
            (unsigned long long)(rel / 1000), (unsigned)(rel % 1000), pid, tid);
}

static void fmt_us(FILE *f, const char *key, uint64_t ns)
{
    fprintf(f, ",\"%s\":%llu.%03u", key, (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}

/* A slice's duration, from where ev_open put its start: a slice begun
 * before the recording (a later recording on a running pool) starts at
 * the recording's start, and so is shortened by as much. */
static void fmt_dur(writer *wr, uint64_t start, uint64_t end)
{
    uint64_t from = start >= wr->t0 ? start : wr->t0;
    fmt_us(wr->f, "dur", end >= from ? end - from : 0);
}

static void meta(writer *wr, const char *what, unsigned pid, long tid, const char *value)
{
    fputs(wr->first ? "\n" : ",\n", wr->f);
    wr->first = false;
    fprintf(wr->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%ld,\"args\":{\"name\":", what,
            pid, tid);
    weft__json_string(wr->f, value);
    fputs("}}", wr->f);
}

/* A flow arrow from (from_tid, ts) to (to_tid, ts): two events, one id;
 * each end binds to the slice it falls in. */
static void flow(writer *wr, const char *name, const char *cat, unsigned pid, long from_tid,
                 uint64_t from_ts, long to_tid, uint64_t to_ts)
{
    uint64_t id = ++wr->flows;
    ev_open(wr, name, cat, "s", from_ts, pid, from_tid);
    fprintf(wr->f, ",\"id\":%llu}", (unsigned long long)id);
    ev_open(wr, name, cat, "f", to_ts, pid, to_tid);
    fprintf(wr->f, ",\"bp\":\"e\",\"id\":%llu}", (unsigned long long)id);
}

/* Arrows from outside threads' RUNs have ids of their own, above those
 * flow() hands out. */
#define RUN_FLOW_ID(k) (((uint64_t)1 << 40) + (uint64_t)(k))

/* One track's events in time order, for the merge below.  A track's
 * buffer is in the order events were recorded: slices when they end,
 * instants when they happen, so an instant inside a slice comes before it;
 * sorting by start time (stable) puts every track in time order. */
typedef struct source {
    const trace_event *ev;
    uint32_t *order;        /* the events' offsets from the session's first, by start time */
    uint32_t first_at, cap; /* the first's index in the ring ev, the ring's size */
    uint32_t n, at;
    unsigned pid;
    long tid;
    uint64_t last; /* ns: where its last kept event ends (drops, if any, come after) */
    bool marked;   /* the writer has marked where it began to drop */
} source;

/* The event at an offset from the session's first. */
static const trace_event *source_event(const source *src, uint32_t offset)
{
    uint32_t i = src->first_at + offset;
    return &src->ev[i >= src->cap ? i - src->cap : i];
}

/* qsort has no context argument; the writer runs under `lock`. */
static const source *sort_source;

static int compare_start(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint64_t x = source_event(sort_source, i)->start, y = source_event(sort_source, j)->start;
    if (x != y)
        return x < y ? -1 : 1;
    return i < j ? -1 : i > j; /* stable: recorded order among equal times */
}

/* The session's events of tr, sorted; false without memory.  They are
 * the ring's from `consumed` (where the session began) to the count. */
static bool source_of(source *src, weft_trace_track *tr, unsigned pid, long tid)
{
    /* Acquire: pairs with the owner's release of the count. */
    uint64_t n = atomic_load_explicit(&tr->n, memory_order_acquire);
    /* Relaxed: set under the recorder's lock, which the writer holds. */
    uint64_t first = atomic_load_explicit(&tr->consumed, memory_order_relaxed);
    if (first > n)
        first = n;
    *src = (source){
        tr->ev, NULL, (uint32_t)(first % tr->cap), tr->cap, (uint32_t)(n - first), 0, pid, tid,
        0,      false};
    if (src->n == 0)
        return true;
    if (!(src->order = malloc(src->n * sizeof *src->order)))
        return false;
    for (uint32_t i = 0; i < src->n; i++)
        src->order[i] = i;
    sort_source = src;
    qsort(src->order, src->n, sizeof *src->order, compare_start);
    return true;
}

static const trace_event *source_peek(const source *src)
{
    return src->at < src->n ? source_event(src, src->order[src->at]) : NULL;
}

/* The outside thread's RUN that passed this descriptor and was waiting at
 * this time: its index, or -1.  The RUNs are sorted by start (the writer
 * sorts them first): the match is among those that started before, most
 * likely the last ones. */
static long external_of(const trace_event *e)
{
    size_t lo = 0, hi = cur->n_externals; /* the first RUN that started after e */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cur->externals[mid].start <= e->start)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k-- > 0;)
        if (cur->externals[k].task == e->ptr && e->start <= cur->externals[k].end)
            return (long)k;
    return -1;
}

static void write_event(writer *wr, const source *src, const trace_event *e)
{
    FILE *f = wr->f;
    unsigned pid = src->pid;
    long tid = src->tid;
    char label[128];
    if (e->kind < WEFT_TRACE_STATES) {
        const char *name = weft__trace_state_names[e->kind];
        if (e->kind == WEFT_TRACE_RUNNING)
            name = weft__trace_task_name(e->ptr);
        ev_open(wr, name, state_cats[e->kind], "X", e->start, pid, tid);
        fmt_dur(wr, e->start, e->end);
        if (e->kind == WEFT_TRACE_RUNNING) {
            fprintf(f, ",\"args\":{\"started_by\":\"%s\"",
                    e->how < WEFT__TRACE_HOWS ? weft__trace_how_names[e->how] : "?");
            if (e->count != COUNT_UNKNOWN)
                fprintf(f, ",\"spawns\":%llu", (unsigned long long)e->count);
            fputs("}}", f);
        } else if (e->kind == WEFT_TRACE_BATCH) {
            fprintf(f, ",\"args\":{\"items\":%llu}}", (unsigned long long)e->count);
        } else if (e->kind == WEFT_TRACE_SEARCH || e->kind == WEFT_TRACE_JOIN ||
                   e->kind == WEFT_TRACE_HELP) {
            fprintf(f, ",\"args\":{\"failed_steals\":%llu}}", (unsigned long long)e->count);
        } else {
            fputs("}", f);
        }
        return;
    }
    switch (e->kind) {
    case EV_STEAL:
    case EV_LEAP:
        flow(wr, e->kind == EV_STEAL ? "steal" : "leap", e->kind == EV_STEAL ? "steal" : "leap",
             pid, (long)e->peer, e->start, tid, e->start);
        break;
    case EV_POOL_STEAL:
    case EV_POOL_TRANSFER:
        snprintf(label, sizeof label, "%s (%llu item%s)",
                 e->kind == EV_POOL_STEAL ? "steal" : "steal-half transfer",
                 (unsigned long long)e->count, e->count == 1 ? "" : "s");
        flow(wr, label, "steal", pid, (long)e->peer, e->start, tid, e->start);
        break;
    case EV_WAKE: flow(wr, "wake", "wake", pid, tid, e->start, (long)e->peer, e->start); break;
    case EV_TOGETHER:
    case EV_NEWFRAME:
        ev_open(wr, e->kind == EV_TOGETHER ? "TOGETHER" : "NEWFRAME", "interrupt", "i", e->start,
                pid, tid);
        fputs(",\"s\":\"t\"}", f);
        break;
    case EV_RUN_TAKEN: {
        /* The arrow's start was written with the outside thread's RUN. */
        long k = external_of(e);
        if (k >= 0) {
            ev_open(wr, "RUN", "run", "f", e->start, pid, tid);
            fprintf(f, ",\"bp\":\"e\",\"id\":%llu}", (unsigned long long)RUN_FLOW_ID(k));
        }
        break;
    }
    default: break;
    }
}

/* An outside thread's RUN: its waiting slice and the start of the arrow
 * to the worker that ran it (if that worker's event is in the trace). */
static void write_external(writer *wr, size_t k)
{
    const external_run *x = &cur->externals[k];
    ev_open(wr, "RUN (waiting)", "external", "X", x->start, 1, x->tid);
    fmt_dur(wr, x->start, x->end);
    fputs("}", wr->f);
    ev_open(wr, "RUN", "run", "s", x->start, 1, x->tid);
    fprintf(wr->f, ",\"id\":%llu}", (unsigned long long)RUN_FLOW_ID(k));
}

static int compare_external(const void *a, const void *b)
{
    const external_run *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Every track's events, merged in time order, so each track's events come
 * in time order in the file. */
/* What one file is laid out from: the pool runs oldest first, and a
 * source per track with the events it dropped. */
typedef struct layout {
    unsigned workers, runs;
    weft_trace_pool_run **run_list;
    source *srcs;
    uint64_t *dropped_of;
    uint64_t dropped; /* the sum of dropped_of */
    size_t n_src;
} layout;

/* The layout's arrays (NULL where memory ran out: the caller checks). */
static void layout_alloc(layout *l, const weft__trace_file *file)
{
    l->workers = file->workers ? file->n_workers : 0;
    l->runs = 0;
    for (weft_trace_pool_run *r = file->pool_runs; r; r = r->next)
        l->runs++;
    l->run_list = calloc(l->runs ? l->runs : 1, sizeof *l->run_list);
    size_t max_sources = l->workers;
    unsigned k = l->runs;
    for (weft_trace_pool_run *r = file->pool_runs; r; r = r->next) {
        if (l->run_list)
            l->run_list[--k] = r; /* oldest first */
        max_sources += r->workers;
    }
    l->srcs = calloc(max_sources ? max_sources : 1, sizeof *l->srcs);
    l->dropped_of = calloc(max_sources ? max_sources : 1, sizeof *l->dropped_of);
    l->n_src = 0;
    l->dropped = 0;
}

static void layout_free(layout *l)
{
    for (size_t i = 0; i < l->n_src; i++)
        free(l->srcs[i].order);
    free(l->srcs);
    free(l->dropped_of);
    free(l->run_list);
}

/* One track as a source of events; false without memory. */
static bool add_source(layout *l, weft_trace_track *tr, uint64_t dropped, unsigned pid, long tid)
{
    l->dropped_of[l->n_src] = dropped;
    l->dropped += dropped;
    source *src = &l->srcs[l->n_src++];
    if (!source_of(src, tr, pid, tid))
        return false;
    /* Where a full track's drops begin: its last kept event's end. */
    for (uint32_t i = 0; dropped && i < src->n; i++) {
        const trace_event *e = source_event(src, i);
        uint64_t end = e->kind < WEFT_TRACE_STATES ? e->end : e->start;
        if (end > src->last)
            src->last = end;
    }
    return true;
}

/* The names of the processes and threads, and the sources; 0 or ENOMEM. */
static int write_names(writer *wr, layout *l, const weft__trace_file *file)
{
    char label[128];
    int err = 0;
    weft__trace_fork_join_label(label, sizeof label, l->workers);
    meta(wr, "process_name", 1, 0, label);
    for (unsigned i = 0; i < l->workers && !err; i++) {
        /* Relaxed: published before (the pool is held or stopping). */
        weft_trace_track *tr = atomic_load_explicit(&file->workers[i]->trace, memory_order_relaxed);
        if (!tr)
            continue;
        snprintf(label, sizeof label, "worker %u", i);
        meta(wr, "thread_name", 1, (long)i, label);
        /* Relaxed: a count. */
        uint64_t dropped =
            atomic_load_explicit(&tr->dropped, memory_order_relaxed) - tr->base_dropped;
        if (!add_source(l, tr, dropped, 1, (long)i))
            err = ENOMEM;
    }
    for (unsigned r = 0; r < l->runs && !err; r++) {
        weft_trace_pool_run *run = l->run_list[r];
        unsigned pid = 2 + run->index;
        weft__trace_pool_run_label(label, sizeof label, run->index, run->queue, run->half,
                                   run->workers);
        meta(wr, "process_name", pid, 0, label);
        for (unsigned i = 0; i < run->workers && !err; i++) {
            snprintf(label, sizeof label, "pool worker %u", i);
            meta(wr, "thread_name", pid, (long)i, label);
            /* Relaxed: a count; the run is over. */
            uint64_t dropped = atomic_load_explicit(&run->tracks[i]->dropped, memory_order_relaxed);
            if (!add_source(l, run->tracks[i], dropped, pid, (long)i))
                err = ENOMEM;
        }
    }
    return err;
}

/* The outside threads' names (their RUNs sorted by start first). */
static void write_external_names(writer *wr, const weft__trace_file *file)
{
    char label[128];
    if (file->n_externals) /* (none: externals may be NULL, which qsort must not get) */
        qsort(file->externals, file->n_externals, sizeof *file->externals, compare_external);
    for (size_t x = 0; x < file->n_externals; x++) {
        bool named = false;
        for (size_t j = 0; j < x && !named; j++)
            named = file->externals[j].tid == file->externals[x].tid;
        if (!named) {
            snprintf(label, sizeof label, "thread %ld (outside the pool)", file->externals[x].tid);
            meta(wr, "thread_name", 1, file->externals[x].tid, label);
        }
    }
}

/* Where a full buffer began to drop: after its last kept event.  Written
 * in the merge before the first event (of any track: an arrow's tail lands
 * on its victim's track) that comes later, earliest first, so the file
 * stays in time order.  `before` is that event's time (UINT64_MAX: the
 * end, where every marker left is written). */
static void mark_drops(writer *wr, layout *l, uint64_t before)
{
    while (l->dropped) {
        source *next = NULL;
        uint64_t dropped = 0;
        for (size_t i = 0; i < l->n_src; i++) {
            source *src = &l->srcs[i];
            if (l->dropped_of[i] && !src->marked && (!next || src->last < next->last))
                next = src, dropped = l->dropped_of[i];
        }
        if (!next || (next->last >= before && before != UINT64_MAX))
            return;
        ev_open(wr, "buffer full: later events dropped", "dropped", "i", next->last, next->pid,
                next->tid);
        fprintf(wr->f, ",\"s\":\"t\",\"args\":{\"dropped\":%llu}}", (unsigned long long)dropped);
        next->marked = true;
    }
}

/* The merge: the earliest next event of all sources, the outside threads'
 * RUNs among them; 0, or the errno of a write that failed. */
static int write_events(writer *wr, layout *l, const weft__trace_file *file)
{
    size_t next_external = 0;
    for (;;) {
        source *best = NULL;
        const trace_event *best_e = NULL;
        for (size_t i = 0; i < l->n_src; i++) {
            const trace_event *e = source_peek(&l->srcs[i]);
            if (e && (!best_e || e->start < best_e->start))
                best = &l->srcs[i], best_e = e;
        }
        if (next_external < file->n_externals &&
            (!best_e || file->externals[next_external].start <= best_e->start)) {
            mark_drops(wr, l, file->externals[next_external].start);
            write_external(wr, next_external++);
            continue;
        }
        if (!best)
            break;
        mark_drops(wr, l, best_e->start);
        write_event(wr, best, best_e);
        best->at++;
        /* A full device: the errno of the write that failed, now, before
         * later calls can change it (the flush at the end may find the
         * buffer empty and only the stream's error flag set). */
        if (ferror(wr->f))
            return errno ? errno : EIO;
    }
    mark_drops(wr, l, UINT64_MAX);
    return ferror(wr->f) ? (errno ? errno : EIO) : 0;
}

/* The pool runs' counters, in "otherData". */
static void write_pool_run_counts(FILE *f, const layout *l)
{
    fputs(",\"pool_runs\":[", f);
    for (unsigned r = 0; r < l->runs; r++) {
        const weft_trace_pool_counts *st = &l->run_list[r]->stats;
        fprintf(f,
                "%s{\"pid\":%u,\"queue\":\"%s\",\"workers\":%u,\"processed\":%llu,"
                "\"duplicates\":%llu,\"steals\":%llu,\"stolen_items\":%llu,"
                "\"requests\":%llu,\"sleeps\":%llu}",
                r ? "," : "", 2 + l->run_list[r]->index, l->run_list[r]->queue,
                l->run_list[r]->workers, (unsigned long long)st->processed,
                (unsigned long long)st->duplicates, (unsigned long long)st->steals,
                (unsigned long long)st->stolen_items, (unsigned long long)st->requests,
                (unsigned long long)st->sleeps);
    }
    fputs("]", f);
}

/* The end of the file: what was dropped, the counters. */
static void write_other_data(FILE *f, const layout *l, const weft__trace_file *file)
{
    fprintf(f,
            "\n],\n\"otherData\":{\"weft_trace\":1,\"scheduler\":\"%s\",\"workers\":%u,"
            "\"clock\":\"CLOCK_MONOTONIC\",\"events_per_track\":%llu,"
            "\"dropped_events\":%llu,\"dropped_by_track\":{",
            WEFT_SCHEDULER_NAME, l->workers, (unsigned long long)file->events_per_track,
            (unsigned long long)l->dropped);
    for (size_t i = 0; i < l->n_src; i++)
        fprintf(f, "%s\"%u/%ld\":%llu", i ? "," : "", l->srcs[i].pid, l->srcs[i].tid,
                (unsigned long long)l->dropped_of[i]);
    fputs("},\"dropped_from_us\":{", f);
    bool first = true;
    for (size_t i = 0; i < l->n_src; i++) {
        if (!l->dropped_of[i])
            continue;
        uint64_t rel = l->srcs[i].last >= file->t0 ? l->srcs[i].last - file->t0 : 0;
        fprintf(f, "%s\"%u/%ld\":%llu.%03u", first ? "" : ",", l->srcs[i].pid, l->srcs[i].tid,
                (unsigned long long)(rel / 1000), (unsigned)(rel % 1000));
        first = false;
    }
    fprintf(f, "},\"external_runs_dropped\":%llu,\"pool_runs_not_traced\":%u",
            (unsigned long long)file->externals_dropped, file->pool_runs_untraced);
    if (l->workers && file->counters) {
        const weft_stats st = *file->counters;
        fprintf(f,
                ",\"counters\":{\"tasks\":%llu,\"steals\":%llu,\"leaps\":%llu,"
                "\"steal_fails\":%llu,\"leap_fails\":%llu,\"sleeps\":%llu}",
                (unsigned long long)st.tasks, (unsigned long long)st.steals,
                (unsigned long long)st.leaps, (unsigned long long)st.steal_fails,
                (unsigned long long)st.leap_fails, (unsigned long long)st.sleeps);
    }
    write_pool_run_counts(f, l);
    fputs("}}\n", f);
}

/* The whole file on an open stream; 0, or errno. */
static int write_body(FILE *f, layout *l, const weft__trace_file *file)
{
    writer wr = {f, file->t0, 0, true};
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
    int err = write_names(&wr, l, file);
    if (err)
        return err;
    write_external_names(&wr, file);
    err = write_events(&wr, l, file);
    write_other_data(f, l, file);
    /* A full device fails the buffered writes: the flush of what is left
     * reports the write's errno (ENOSPC); a write that failed earlier left
     * its errno (cleared after fopen), while the flush may find the buffer
     * empty and only the error flag set. */
    if ((fflush(f) != 0 || ferror(f)) && !err)
        err = errno ? errno : EIO;
    return err;
}

/* A trace with drops says so where it is written: how many, from when on
 * in each track that filled (the first few), and how to keep them. */
static void warn_dropped(const char *path, const layout *l, const weft__trace_file *file)
{
    enum { SHOWN = 3 };
    if (!l->dropped)
        return;
    size_t full = 0;
    char where[SHOWN * 80 + 16] = "";
    size_t len = 0;
    for (size_t i = 0; i < l->n_src; i++) {
        if (!l->dropped_of[i])
            continue;
        if (full++ < SHOWN && len < sizeof where) {
            const source *src = &l->srcs[i];
            double at = src->last >= file->t0 ? (double)(src->last - file->t0) / 1e6 : 0.0;
            char track[48];
            if (src->pid == 1)
                snprintf(track, sizeof track, "worker %ld", src->tid);
            else /* pool run k is process k + 1 (write_names) */
                snprintf(track, sizeof track, "pool run %u worker %ld", src->pid - 1, src->tid);
            int k =
                snprintf(where + len, sizeof where - len, "%s%s from %.*f %s on", len ? ", " : "",
                         track, at < 1e3 ? 2 : 3, at < 1e3 ? at : at / 1e3, at < 1e3 ? "ms" : "s");
            len += k > 0 ? (size_t)k : 0;
        }
    }
    weft__warn("tracing: %s: %llu events did not fit and were dropped, so %zu track%s end%s "
               "early (%s%s); each track holds WEFT_TRACE_EVENTS=%llu events, raise it to keep "
               "more",
               path, (unsigned long long)l->dropped, full, full == 1 ? "" : "s",
               full == 1 ? "s" : "", where, full > SHOWN ? ", ..." : "",
               (unsigned long long)file->events_per_track);
}

int weft__trace_write_file(const char *path, const weft__trace_file *file)
{
    cur = file;
    layout l;
    layout_alloc(&l, file);
    weft__file_size_guard size_guard;
    weft__file_size_guard_begin(&size_guard);
    FILE *f = weft__fopen_for_writing(path);
    int err = 0;
    if (!f) {
        err = errno;
        weft__warn("tracing: cannot open %s for writing: %s", path, weft__open_error(err));
    } else if (!l.run_list || !l.srcs || !l.dropped_of) {
        err = ENOMEM;
        weft__warn("tracing: no memory to write %s", path);
    }
    errno = 0; /* a write error found below is that write's */
    if (!err)
        err = write_body(f, &l, file);
    if (f && fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    weft__file_size_guard_end(&size_guard);
    if (err && err != ENOMEM && f)
        weft__warn("tracing: writing %s failed: %s", path, strerror(err));
    if (!err)
        warn_dropped(path, &l, file);
    layout_free(&l);
    return err;
}

#endif
