// SPDX-License-Identifier: Apache-2.0
/* The work/span profiler (weft/profile.h; docs/profiling.md): the hooks'
 * runtime side, the regions and the figures the reports show.  Its other
 * rooms: the clocks (profile_clock.c), the task types (profile_types.c),
 * the reports' formats (profile_report.c), the API without the profiler
 * (profile_off.c).
 *
 * The inline hooks (include/weft/bits/observe.h) keep each worker's
 * figures for the computation it runs.  This file handles the tasks the
 * runtime starts: a stolen task's figures go into its owner's slot record
 * before DONE (the SYNC takes them from there), a RUN's become a run of a
 * region.  Everything is counted in cycles of weft_cycles and converted
 * with the calibration (profile_clock.c) only when reported; in counting mode
 * (count.c) strands are counted in basic blocks instead, converted with
 * the run's on-CPU time per block.
 *
 * Shared data and how it is protected:
 *   the regions, the folded per-type counts of stopped
 *   pools, the outside threads' total     `lock`
 *   a worker's per-type counts            written by the worker (relaxed
 *                                         load + store), read relaxed
 *   a slot record's child figures         written before DONE (release),
 *                                         read after DONE (acquire)
 */
#include "runtime/diagnostics.h"
#include "runtime/env.h"
#include "runtime/memory.h"
#include "runtime/state.h"
#include "runtime/topology.h"
#include "sys/clock.h"
#include "sys/output_file.h"
#include "observe/count.h"
#include "observe/json.h"
#include "observe/profiler.h"
#include "observe/profile_clock.h"
#include "observe/profile_report.h"
#include "observe/profile_types.h"
#include "observe/trace.h"

#include <weft/profile.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The steal cost charged per SPAWN edge when nothing says otherwise:
 * about the steal+join of bench/stealcost at 2 workers on the machine the
 * profiler was written on (410-476 ns; docs/profiling.md: how to measure
 * yours). */
#define DEFAULT_BURDEN_NS 450.0
#define MAX_BURDEN_NS 1e9
#define MAX_REGIONS 128u
/* Region names kept; the runs of further ones go to one row per kind,
 * "(other regions)" and its twins, in the slots left. */
#define MAX_NAMED_REGIONS (MAX_REGIONS - 3u)
#define REGION_NAME_MAX 64u

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* The burden: weft_profile_set_burden_ns's, else WEFT_PROFILE_BURDEN_NS at
 * the last start, else the default (< 0: not set). */
static double burden_set_ns = -1.0, burden_env_ns = -1.0;
#if WEFT_PROFILE
static bool print_at_stop;
static const char *json_at_stop;
static bool env_read;       /* weft__profile_check_env has run */
static bool report_at_exit; /* a pool-only program's report is due at exit */
/* WEFT_PROFILE_OFF=1: chosen once per process, at its first weft_start
 * (or first pool run), so that every worker of the process agrees. */
static bool off_chosen, profiling_off;
#endif

/* How much of each worker's slot records is touched at start. */
#define PRETOUCHED_RECORD_BYTES ((size_t)1 << 20)

/* ------------------------------------------------------------------------
 * Configuration
 * ------------------------------------------------------------------------ */

#if WEFT_PROFILE
/* True the first time `path` is found unwritable at a start (or the first
 * time after another path was). */
static bool first_unwritable(const char *path)
{
    static char *said; /* the last path said, under `lock` */
    pthread_mutex_lock(&lock);
    bool first = said == NULL || strcmp(said, path) != 0;
    if (first) {
        free(said);
        said = strdup(path); /* NULL when short of memory: said again next time */
    }
    pthread_mutex_unlock(&lock);
    return first;
}
#endif

int weft__profile_check_env(void)
{
    int err = 0;
    bool print = false, off = false;
    err |= weft__env_flag("WEFT_PROFILE", &print);
    err |= weft__env_flag("WEFT_PROFILE_OFF", &off);
    const char *json = getenv("WEFT_PROFILE_JSON");
    uint64_t burden = 0;
    bool have_burden = false;
    const char *b = getenv("WEFT_PROFILE_BURDEN_NS");
    if (b && *b) {
        err |= weft__env_number("WEFT_PROFILE_BURDEN_NS", false, 0, (uint64_t)MAX_BURDEN_NS, false,
                                "nanoseconds", &burden);
        have_burden = true;
    }
    if (!WEFT_PROFILE) {
        if (print || (json && *json))
            /* In the words of the API whose call this is: lace_start's
             * advice names the lace package's variant. */
            weft__warn("WEFT_PROFILE%s is set, but this build has no profiler (%s)",
                       print ? "" : "_JSON", weft__profile_variant_advice(weft__words()));
        return err;
    }
#if WEFT_PROFILE
    pthread_mutex_lock(&lock);
    if (!off_chosen && !err) {
        off_chosen = true;
        profiling_off = off;
    }
    bool unanswered = profiling_off && (print || (json && *json));
    if (profiling_off) {
        print = false;
        json = NULL;
    }
    print_at_stop = print;
    json_at_stop = json && *json ? json : NULL;
    env_read = true;
    burden_env_ns = have_burden && !err ? (double)burden : -1.0;
    pthread_mutex_unlock(&lock);
    if (unanswered)
        weft__warn("WEFT_PROFILE_OFF=1 turned profiling off in this process: WEFT_PROFILE=1 and "
                   "WEFT_PROFILE_JSON have nothing to report");
    /* Said now, not only when the run is over and its profile is due; once
     * for a path, not at every start of a program that starts many times
     * (each stop still says where its profile went). */
    int json_err = json && *json ? weft__output_file_check(json) : 0;
    if (json_err && first_unwritable(json))
        weft__warn("WEFT_PROFILE_JSON=%s: it cannot be written (%s): the profile will be printed "
                   "on stderr at the end instead",
                   json, weft__open_error(json_err));
    err |= weft__count_check_env();
#else
    (void)have_burden;
#endif
    return err;
}

void weft__profile_forget_in_child(void)
{
    pthread_mutex_init(&lock, NULL);
#if WEFT_PROFILE
    weft__profile_types_forget_in_child();
#endif
}

int weft_profile_set_burden_ns(double ns)
{
    if (!WEFT_PROFILE)
        return ENOTSUP;
    if (!(ns >= 0.0 && ns <= MAX_BURDEN_NS)) {
        weft__warn("weft_profile_set_burden_ns: %g ns is out of range: 0 to %g", ns, MAX_BURDEN_NS);
        return EINVAL;
    }
    pthread_mutex_lock(&lock);
    burden_set_ns = ns;
    pthread_mutex_unlock(&lock);
    return 0;
}

double weft_profile_burden_ns(void)
{
    pthread_mutex_lock(&lock);
    double b = burden_set_ns >= 0   ? burden_set_ns
               : burden_env_ns >= 0 ? burden_env_ns
                                    : DEFAULT_BURDEN_NS;
    pthread_mutex_unlock(&lock);
    return b;
}

#if WEFT_PROFILE

/* ------------------------------------------------------------------------
 * Shared state
 * ------------------------------------------------------------------------ */


/* The workers whose per-type counts and off-CPU totals the reports add
 * up: registered by weft__profile_worker_init, taken out (their counts
 * folded) by weft__profile_worker_destroy, both under `lock`. */
static weft_profile_worker *live_workers;
/* Time taken off strands because their thread was off the CPU: cycles and
 * strands summed, the threads they came from, and the most from one thread
 * (at most that thread's lifetime). */
typedef struct off_cpu_totals {
    uint64_t cycles, strands, threads, max_cycles;
} off_cpu_totals;
static off_cpu_totals folded_off_cpu; /* of the clocks taken out */

/* Adds one thread's off-CPU figures to t; under `lock`. */
static void off_cpu_add(off_cpu_totals *t, const weft_profile_worker *p)
{
    /* Relaxed: a left or joined thread's last values, or a live worker's
     * recent ones (counters it writes alone). */
    uint64_t cycles = atomic_load_explicit(&p->off_cpu, memory_order_relaxed);
    /* Relaxed: likewise. */
    uint64_t strands = atomic_load_explicit(&p->off_cpu_strands, memory_order_relaxed);
    t->cycles += cycles;
    t->strands += strands;
    if (strands > 0)
        t->threads++;
    if (cycles > t->max_cycles)
        t->max_cycles = cycles;
}

typedef struct region_rec {
    char name[REGION_NAME_MAX];
    int kind; /* WEFT_PROFILE_REGION_*: a name may have rows of two kinds */
    uint64_t runs;
    weft_profile_figures sum;
    uint64_t longest_run_span;
} region_rec;

/* A worker's RUNs inside tasks of one task type: a row of the table kept
 * by the worker (a RUN from inside a task runs as often as the finest
 * task, so it takes no lock); the reports add the workers' rows to the
 * table, a stopping worker's are folded into it.  Written by the worker
 * (relaxed load + store), read by the reports. */
typedef struct calls_rec {
    WEFT_ATOMIC(uint64_t) runs, work, span, bspan, tasks, spawns, longest, longest_run_span;
} calls_rec;

static struct {
    uint64_t work, count;
} folded[WEFT_PROFILE_MAX_TYPES]; /* per-type counts of pools that stopped */
static region_rec regions[MAX_REGIONS];
static unsigned n_regions;
static uint64_t
    regions_lost; /* runs of regions beyond MAX_NAMED_REGIONS names: in the other rows */
static weft_profile_figures outside_total; /* every RUN from outside the pool, in sequence */

/* WEFT_PROFILE_OFF=1 was chosen. */
static bool is_off(void)
{
    pthread_mutex_lock(&lock);
    bool off = profiling_off;
    pthread_mutex_unlock(&lock);
    return off;
}

/* ------------------------------------------------------------------------
 * Workers
 * ------------------------------------------------------------------------ */

int weft__profile_worker_init(weft_worker *w)
{
    weft_profile_worker *p = &w->prof;
    memset(p, 0, sizeof *p);
    if (is_off()) { /* the hooks return before they look at anything else */
        p->off = true;
        return 0;
    }
    double tpn = weft__profile_calibrated(); /* (5 ms of counting, once) */
    size_t bytes = weft__deque_bytes(w->deque_slots);
    p->slots = weft__map(bytes, 0, 0, weft__topology_placement(w->id));
    /* Mapped like the slot records (zeroed): a pool that is never stopped
     * (C++'s default pool lives until exit) leaves nothing on the heap. */
    p->types =
        weft__map(WEFT_PROFILE_MAX_TYPES * sizeof *p->types, 0, 0, weft__topology_placement(w->id));
    p->calls = weft__map(WEFT_PROFILE_MAX_TYPES * sizeof(calls_rec), 0, 0,
                         weft__topology_placement(w->id));
    if (!p->slots || !p->types || !p->calls) {
        weft__profile_worker_destroy(w);
        return ENOMEM;
    }
    /* The records of the first slots are touched now, so that strands do
     * not take their first-touch page faults (each a few microseconds of
     * kernel time); deeper slots are rare and fault when first used.  All
     * of them would commit the deque's size again per worker (64 MiB by
     * default) at every start. */
    memset(p->slots, 0, bytes < PRETOUCHED_RECORD_BYTES ? bytes : PRETOUCHED_RECORD_BYTES);
    p->slot_offset = (char *)p->slots - (char *)w->dq;
    p->burden = (uint64_t)(weft_profile_burden_ns() * tpn + 0.5);
    weft__count_worker_init(p, p->burden);
    p->long_cycles = (uint64_t)(LONG_STRAND_NS * tpn);
    pthread_mutex_lock(&lock);
    p->next = live_workers;
    live_workers = p;
    pthread_mutex_unlock(&lock);
    return 0;
}

static void fold_calls_locked(const weft_profile_worker *p);

void weft__profile_worker_destroy(weft_worker *w)
{
    weft_profile_worker *p = &w->prof;
    pthread_mutex_lock(&lock);
    for (weft_profile_worker **q = &live_workers; *q; q = &(*q)->next)
        if (*q == p) {
            *q = p->next;
            break;
        }
    if (p->types) {
        for (unsigned i = 0; i < WEFT_PROFILE_MAX_TYPES; i++) {
            /* Relaxed: the worker's thread has been joined. */
            folded[i].work += atomic_load_explicit(&p->types[i].work, memory_order_relaxed);
            folded[i].count += atomic_load_explicit(&p->types[i].count, memory_order_relaxed);
        }
        off_cpu_add(&folded_off_cpu, p);
        weft__count_fold_locked(p);
    }
    if (p->calls)
        fold_calls_locked(p);
    pthread_mutex_unlock(&lock);
    if (p->types)
        weft__unmap(p->types, WEFT_PROFILE_MAX_TYPES * sizeof *p->types, 0, 0);
    if (p->calls)
        weft__unmap(p->calls, WEFT_PROFILE_MAX_TYPES * sizeof(calls_rec), 0, 0);
    if (p->slots)
        weft__unmap(p->slots, weft__deque_bytes(w->deque_slots), 0, 0);
    memset(p, 0, sizeof *p);
}

/* The running figures as the reports read them: the paths' lengths. */
static weft_profile_figures figures_of(const weft_profile_running *r)
{
    return (weft_profile_figures){
        .work = r->work,
        .span = r->work + r->span_less_work,
        .bspan = r->work + r->bspan_less_work,
        .tasks = r->tasks,
        .spawns = r->spawns,
        .longest = r->longest,
        .type = r->type,
        .root_type = r->root_type,
    };
}

/* The work moved from `before` to `after` other than by this worker's
 * strands' ends: the window's end moves with it, so that the window
 * counts only the strands this worker ended. */
static void work_moved(weft_profile_worker *p, uint64_t before, uint64_t after)
{
    p->window_end += after - before;
}

/* The running figures, saved one word at a time: they are saved just
 * after the strand's end and the type's settle stored some of them one
 * word at a time, and a block copy's 16-byte loads of such words cannot
 * take them from the store buffer (docs/results/profiling.md, "A stall
 * at a strand's end"). */
static void running_save(weft_profile_running *to, const weft_profile_running *from)
{
    to->work = weft_profile_figure(&from->work);
    to->span_less_work = weft_profile_figure(&from->span_less_work);
    to->bspan_less_work = weft_profile_figure(&from->bspan_less_work);
    to->tasks = weft_profile_figure(&from->tasks);
    to->spawns = weft_profile_figure(&from->spawns);
    to->longest = weft_profile_figure(&from->longest);
    to->type_from = weft_profile_figure(&from->type_from);
    to->type_tasks_from = weft_profile_figure(&from->type_tasks_from);
    to->type = *(const volatile uint32_t *)&from->type;
    to->root_type = *(const volatile uint32_t *)&from->root_type;
}

/* Adds the figures of a computation that ran inside the running one (a
 * call's, a work pool's): their work is in their own types' rows, not the
 * running type's. */
static void running_add(weft_profile_worker *p, const weft_profile_figures *f)
{
    weft_profile_running *r = &p->f;
    weft_profile_figures now = figures_of(r);
    work_moved(p, r->work, r->work + f->work);
    r->work += f->work;
    r->type_from += f->work;
    r->type_tasks_from += f->tasks;
    r->span_less_work = now.span + f->span - r->work;
    r->bspan_less_work = now.bspan + f->bspan - r->work;
    r->tasks += f->tasks;
    r->spawns += f->spawns;
    if (f->longest > r->longest)
        r->longest = f->longest;
}

uint64_t weft__profile_end_measured_strand(weft_profile_worker *p)
{
    uint64_t d = weft_profile_take_strand(p);
    weft_profile_figure_add(&p->f.work, d);
    if (d > p->f.longest)
        p->f.longest = d;
    return p->strand_start; /* where the next strand starts: this one's end */
}

/* A started task's first strand begins here.  Timed, what ran before it
 * (the runtime's start) is a strand of its own; counted, it is none of
 * the program's graph, and not counting it keeps a stolen task's strands
 * those it has inline. */
void weft__profile_enter_started(weft_profile_worker *p, uint32_t id)
{
    uint64_t work = p->strands ? weft_profile_figure(&p->f.work) : weft_profile_end_strand_work(p);
    weft_profile_type_from(p, work, weft_profile_figure(&p->f.tasks)); /* after none */
    p->f.root_type = id;
}

void weft__profile_root_begin(weft_worker *w, weft_profile_saved *s)
{
    weft_profile_worker *p = &w->prof;
    s->as_call = false;
    if (p->off)
        return;
    s->running = p->strand_start != 0;
    if (s->running) /* a RUN or an interrupt inside a task: its strand ends here */
        weft_profile_end_strand(p);
    weft_profile_type_settle(p);
    running_save(&s->f, &p->f);
    memset(&p->f, 0, sizeof p->f);
    work_moved(p, s->f.work, 0);
    s->computation = p->computation;
    p->computation = ++p->computations_begun;
    s->borrowed = !weft__profile_clock_is_this_threads(p);
    if (s->borrowed) { /* a worker this thread borrows: its clock is now this thread's */
        uint64_t start = weft__profile_sync_resume(p, 0);
        if (!s->running)
            p->paused_at = start; /* (read: the resume below need not read it again) */
    }
    if (s->running) {
        p->strand_start = weft_cycles();
        p->count_start = weft__profile_blocks;
    } else
        weft_profile_resume(w); /* after a search or a wait */
}

void weft__profile_run_begin(weft_worker *w, weft_profile_saved *s, bool in_place)
{
    weft_profile_worker *p = &w->prof;
    if (p->off)
        return;
    /* A call needs its caller's strand running on this thread's clock;
     * anything else (a paused clock, a borrowed worker) starts a root. */
    s->as_call = in_place && p->strand_start != 0 && weft__profile_clock_is_this_threads(p);
    if (!s->as_call) {
        weft__profile_root_begin(w, s);
        return;
    }
    /* The caller's strand ends; the call's first starts at its end. */
    weft_profile_type_settle_at(p, weft_profile_end_strand_work(p));
    running_save(&s->f, &p->f);
    /* The call's own longest strand and task type; the sums run on. */
    p->f.longest = 0;
    p->f.type = 0;
    p->f.root_type = 0;
}

/* A call's figures: what it added to the running ones since
 * run_begin; the caller's type and longest strand back.  Its last strand
 * ended when its body returned (a change of type, to none), and the
 * caller's next strand starts there. */
static weft_profile_figures call_end(weft_worker *w, const weft_profile_saved *s)
{
    weft_profile_worker *p = &w->prof;
    weft_profile_running *r = &p->f;
    uint64_t work = weft_profile_figure(&r->work);
    uint64_t tasks = weft_profile_figure(&r->tasks);
    /* The call's body left to no type (weft_profile_leave settled its
     * own); a type still running (a body that did not return through its
     * leave) settles here. */
    if (r->type != 0)
        weft_profile_type_settle_at(p, work);
    else
        weft_profile_type_from(p, work, tasks);
    uint64_t added = work - s->f.work;
    weft_profile_figures f = {
        .work = added,
        .span = weft_profile_figure(&r->span_less_work) - s->f.span_less_work + added,
        .bspan = weft_profile_figure(&r->bspan_less_work) - s->f.bspan_less_work + added,
        .tasks = tasks - s->f.tasks,
        .spawns = weft_profile_figure(&r->spawns) - s->f.spawns,
        .longest = weft_profile_figure(&r->longest),
        .root_type = r->root_type,
    };
    if (s->f.longest > f.longest)
        weft_profile_figure_set(&r->longest, s->f.longest);
    r->type = s->f.type;
    r->root_type = s->f.root_type;
    return f;
}

/* The started task's figures; the saved ones back.  Its last strand ended
 * when its body returned (a change of type, to none). */
static weft_profile_figures root_end(weft_worker *w, const weft_profile_saved *s)
{
    weft_profile_worker *p = &w->prof;
    weft_profile_type_settle(p);
    weft_profile_running running;
    running_save(&running, &p->f);
    weft_profile_figures f = figures_of(&running);
    p->f = s->f;
    work_moved(p, running.work, s->f.work);
    p->computation = s->computation;
    uint64_t now = weft_cycles();
    p->strand_start = s->running ? now : 0;
    p->count_start = weft__profile_blocks;
    if (!s->running) {
        p->paused_at = now;
        if (p->strands) /* the worker goes back to its search: a pause */
            weft__profile_window_close(p, now);
    }
    if (s->borrowed) { /* the worker's own thread reads its clock again */
        p->sync_thread = NULL;
        p->paused_at = 0;
    }
    return f;
}

void weft__profile_stolen_done(weft_worker *w, weft_profile_saved *s, weft_worker *victim,
                               weft_task *t)
{
    if (w->prof.off)
        return;
    weft_profile_figures f = root_end(w, s);
    /* Plain stores: the owner reads them after it sees the DONE that our
     * caller stores next (release / acquire). */
    weft_profile_slot *rec = weft_profile_slot_of(victim, t);
    rec->child_work = f.work;
    rec->child_span = f.span;
    rec->child_bspan = f.bspan;
    rec->child_tasks = f.tasks;
    rec->child_spawns = f.spawns;
    if (w->prof.strands)
        rec->child_type = f.root_type; /* weft_profile_join_stolen */
    else
        rec->child_longest = f.longest;
}

static void add_figures(weft_profile_figures *to, const weft_profile_figures *f)
{
    to->work += f->work;
    to->span += f->span;
    to->bspan += f->bspan;
    to->tasks += f->tasks;
    to->spawns += f->spawns;
    if (f->longest > to->longest)
        to->longest = f->longest;
}

/* A region's name as the table keeps it: whole below REGION_NAME_MAX
 * bytes; a longer one cut at a character boundary and marked with a hash
 * of the whole, so that two long names that differ after the cut stay
 * two regions, and the runs of one long name stay one. */
static void region_key(char key[REGION_NAME_MAX], const char *name)
{
    size_t len = strlen(name);
    if (len < REGION_NAME_MAX) {
        memcpy(key, name, len + 1);
        return;
    }
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    char mark[16];
    int n = snprintf(mark, sizeof mark, " #%06x", (unsigned)(h & 0xffffffu));
    size_t kept = weft__utf8_copy(key, REGION_NAME_MAX - (size_t)n, name);
    memcpy(key + kept, mark, (size_t)n + 1);
}

/* The row of a kind's regions past the names kept. */
static const char *other_regions_name(int kind)
{
    return kind == WEFT_PROFILE_REGION_NAMED         ? "(other ranges)"
           : kind == WEFT_PROFILE_REGION_INSIDE_TASK ? "(other RUNs inside tasks)"
                                                     : "(other regions)";
}

/* `runs` more runs of the region `name` of that kind, summing to `sum`,
 * into the table (*n rows, *lost runs in the other rows); past
 * MAX_NAMED_REGIONS names, into its kind's other row, so that the table
 * still holds all the work. */
static void record_runs(region_rec *table, unsigned *n, uint64_t *lost, const char *whole_name,
                        int kind, uint64_t runs, const weft_profile_figures *sum,
                        uint64_t longest_run_span)
{
    char key[REGION_NAME_MAX];
    region_key(key, whole_name);
    const char *name = key;
    region_rec *r = NULL;
    for (unsigned i = 0; i < *n && !r; i++)
        if (table[i].kind == kind && strcmp(table[i].name, name) == 0)
            r = &table[i];
    if (!r && *n >= MAX_NAMED_REGIONS) {
        *lost += runs;
        name = other_regions_name(kind);
        for (unsigned i = MAX_NAMED_REGIONS; i < *n && !r; i++)
            if (table[i].kind == kind)
                r = &table[i];
    }
    if (!r) {
        r = &table[(*n)++]; /* a name's, or one of the three other rows' */
        memset(r, 0, sizeof *r);
        weft__utf8_copy(r->name, sizeof r->name, name);
        r->kind = kind;
    }
    r->runs += runs;
    add_figures(&r->sum, sum);
    if (longest_run_span > r->longest_run_span)
        r->longest_run_span = longest_run_span;
}

/* Under the lock: one more run of the region `name` of that kind. */
static void record_region_locked(const char *whole_name, int kind, const weft_profile_figures *f)
{
    record_runs(regions, &n_regions, &regions_lost, whole_name, kind, 1, f, f->span);
}

/* Raises a figure only the calling worker writes to v: relaxed load and
 * store, as weft_profile_owner_add. */
static void owner_max(WEFT_ATOMIC(uint64_t) * figure, uint64_t v)
{
    if (v > atomic_load_explicit(figure, memory_order_relaxed))
        atomic_store_explicit(figure, v, memory_order_relaxed);
}

/* The name of the rows of RUNs of type `type` inside tasks. */
static const char *calls_name(uint32_t type)
{
    const char *name = type ? weft__profile_type_name(type) : NULL;
    return name ? name : "(no task)";
}

/* Under the lock: the table has a row for RUNs of `type` inside tasks
 * (where their names stay, in the order they first finished). */
static void calls_row_locked(uint32_t type)
{
    static const weft_profile_figures none;
    record_runs(regions, &n_regions, &regions_lost, calls_name(type),
                WEFT_PROFILE_REGION_INSIDE_TASK, 0, &none, 0);
}

/* A RUN inside a task of type `type` returned, on p's worker. */
static WEFT_ALWAYS_INLINE void calls_add(weft_profile_worker *p, uint32_t type,
                                         const weft_profile_figures *f)
{
    calls_rec *c = (calls_rec *)p->calls + type;
    /* Relaxed: the worker's own row. */
    if (atomic_load_explicit(&c->runs, memory_order_relaxed) == 0) {
        pthread_mutex_lock(&lock);
        calls_row_locked(type);
        pthread_mutex_unlock(&lock);
    }
    weft_profile_owner_add(&c->runs, 1);
    weft_profile_owner_add(&c->work, f->work);
    weft_profile_owner_add(&c->span, f->span);
    weft_profile_owner_add(&c->bspan, f->bspan);
    weft_profile_owner_add(&c->tasks, f->tasks);
    weft_profile_owner_add(&c->spawns, f->spawns);
    owner_max(&c->longest, f->longest);
    owner_max(&c->longest_run_span, f->span);
}

/* Under the lock: p's rows of RUNs inside tasks, added to a table. */
static void calls_add_to(region_rec *table, unsigned *n, uint64_t *lost,
                         const weft_profile_worker *p)
{
    const calls_rec *c = (const calls_rec *)p->calls;
    for (uint32_t i = 0; i < WEFT_PROFILE_MAX_TYPES; i++) {
        /* Relaxed (all): recent values of rows their worker writes. */
        uint64_t runs = atomic_load_explicit(&c[i].runs, memory_order_relaxed);
        if (runs == 0)
            continue;
        weft_profile_figures sum = {atomic_load_explicit(&c[i].work, memory_order_relaxed),
                                    atomic_load_explicit(&c[i].span, memory_order_relaxed),
                                    atomic_load_explicit(&c[i].bspan, memory_order_relaxed),
                                    atomic_load_explicit(&c[i].tasks, memory_order_relaxed),
                                    atomic_load_explicit(&c[i].spawns, memory_order_relaxed),
                                    atomic_load_explicit(&c[i].longest, memory_order_relaxed),
                                    0,
                                    0};
        record_runs(table, n, lost, calls_name(i), WEFT_PROFILE_REGION_INSIDE_TASK, runs, &sum,
                    atomic_load_explicit(&c[i].longest_run_span, memory_order_relaxed));
    }
}

/* Under the lock: a stopping worker's rows join the table. */
static void fold_calls_locked(const weft_profile_worker *p)
{
    calls_add_to(regions, &n_regions, &regions_lost, p);
}

/* Under the lock: p's rows back to zero (a running worker's concurrent
 * addition may survive, as with the per-type counts). */
static void calls_reset_locked(weft_profile_worker *p)
{
    calls_rec *c = (calls_rec *)p->calls;
    for (uint32_t i = 0; i < WEFT_PROFILE_MAX_TYPES; i++) {
        /* Relaxed (all): as above.  A row never used is left alone (its
         * page stays untouched). */
        if (atomic_load_explicit(&c[i].runs, memory_order_relaxed) == 0)
            continue;
        atomic_store_explicit(&c[i].runs, 0, memory_order_relaxed);
        atomic_store_explicit(&c[i].work, 0, memory_order_relaxed);
        atomic_store_explicit(&c[i].span, 0, memory_order_relaxed);
        atomic_store_explicit(&c[i].bspan, 0, memory_order_relaxed);
        atomic_store_explicit(&c[i].tasks, 0, memory_order_relaxed);
        atomic_store_explicit(&c[i].spawns, 0, memory_order_relaxed);
        atomic_store_explicit(&c[i].longest, 0, memory_order_relaxed);
        atomic_store_explicit(&c[i].longest_run_span, 0, memory_order_relaxed);
    }
}

/* Under the lock: the table as the reports show it, the live workers'
 * rows of RUNs inside tasks added (into `view`, which the lock guards;
 * its row i is the table's row i, whose name stays valid); its rows, and
 * the runs in the other rows in *lost. */
static region_rec view[MAX_REGIONS];
static unsigned table_view_locked(uint64_t *lost)
{
    /* Every row the workers have is in the table (a reset racing a
     * worker's first call may have taken it out). */
    for (weft_profile_worker *p = live_workers; p; p = p->next)
        for (uint32_t i = 0; i < WEFT_PROFILE_MAX_TYPES; i++)
            /* Relaxed: a recent value of a row its worker writes. */
            if (atomic_load_explicit(&((const calls_rec *)p->calls)[i].runs,
                                     memory_order_relaxed) != 0)
                calls_row_locked(i);
    unsigned n = n_regions;
    memcpy(view, regions, n * sizeof *view);
    *lost = regions_lost;
    for (weft_profile_worker *p = live_workers; p; p = p->next)
        calls_add_to(view, &n, lost, p);
    /* A row past the table's (a worker's first call racing a reset
     * between the two loops above) has no name that stays valid: it is
     * left to the next report. */
    return n_regions;
}

/* A finished run of region `name` (a RUN's, or an adopted thread's) goes
 * to the table; one from outside the pool to the outside total too. */
static void record_run(const char *name, const weft_profile_figures *f, bool from_outside)
{
    pthread_mutex_lock(&lock);
    record_region_locked(name, WEFT_PROFILE_REGION_RUN, f);
    if (from_outside)
        add_figures(&outside_total, f);
    pthread_mutex_unlock(&lock);
}

void weft__profile_run_done(weft_worker *w, weft_profile_saved *s, weft_profile_start from)
{
    if (w->prof.off)
        return;
    if (s->as_call) { /* a RUN inside a task, already in its caller's figures */
        weft_profile_figures f = call_end(w, s);
        calls_add(&w->prof, f.root_type, &f);
        return;
    }
    weft_profile_figures f = root_end(w, s);
    uint32_t type = f.root_type;
    if (from == WEFT_PROFILE_IN_PLACE) { /* a call, for the caller's figures */
        running_add(&w->prof, &f);
        calls_add(&w->prof, type, &f);
        return;
    }
    const char *name = type ? weft__profile_type_name(type) : NULL;
    record_run(name ? name : "(no task)", &f, from == WEFT_PROFILE_FROM_OUTSIDE);
}

void weft__profile_thread_done(weft_worker *w, weft_profile_saved *s, const char *region)
{
    if (w->prof.off)
        return;
    weft_profile_figures f = root_end(w, s);
    record_run(region, &f, true);
}

void weft__profile_dropped(weft_worker *w, weft_task *t, bool stolen)
{
    weft_profile_worker *p = &w->prof;
    if (p->off)
        return;
    if (stolen) { /* it ran: a DROP joins it as a SYNC would */
        const weft_profile_slot *rec = weft_profile_slot_of(w, t);
        weft_profile_join cont = {weft_profile_span(p), weft_profile_bspan(p)};
        weft_profile_join_stolen(p, rec, rec->spawn_span, rec->spawn_bspan + p->burden, &cont);
    }
    weft_profile_resume(w);
}

/* ------------------------------------------------------------------------
 * Work pool runs (hooks.h; docs/profiling.md, "Work pool runs")
 * ------------------------------------------------------------------------ */

/* A program that only runs pools never calls weft_start: its first pool
 * run chooses the unit (WEFT_PROFILE_UNIT, else automatic). */
static pthread_once_t pool_unit_once = PTHREAD_ONCE_INIT;
static void pool_unit(void) { (void)weft__profile_check_env(); }

void weft__profile_pool_meter_init(weft_profile_pool_meter *m)
{
    pthread_once(&pool_unit_once, pool_unit);
    memset(m, 0, sizeof *m);
    if (is_off()) {
        m->clock.off = true;
        return;
    }
    double tpn = weft__profile_calibrated();
    weft__count_worker_init(&m->clock, 0);
    m->clock.long_cycles = (uint64_t)(LONG_STRAND_NS * tpn);
}

/* The running item's length so far (its path to a push): on-CPU cycles,
 * or in counting mode blocks (as weft_profile_end_strand); counting
 * strands, 1: an item is one strand, whatever it pushes or RUNs. */
static uint64_t pool_item_length(weft_profile_pool_meter *m)
{
    if (m->clock.strands)
        return 1;
    m->done += weft_profile_take_strand(&m->clock);
    return m->done;
}

/* The item this thread is processing (NULL between items, and while a
 * RUN made from the item has stopped its clock). */
static __thread weft_profile_pool_meter *tls_item_meter;

void weft__profile_pool_item_begin(weft_profile_pool_meter *m, uint64_t base)
{
    weft_profile_worker *p = &m->clock;
    if (p->off)
        return;
    tls_item_meter = m;
    uint64_t now = weft_cycles();
    /* After a long search or sleep (or the first item) the CPU clock is
     * read again, so that a long item is compared with its own time. */
    if (m->last_end == 0 || now - m->last_end > p->long_cycles) {
        now = weft__profile_sync_resume(p, now);
    }
    p->strand_start = now;
    p->count_start = weft__profile_blocks;
    m->base = base;
    m->done = 0;
}

uint64_t weft__profile_pool_item_path(weft_profile_pool_meter *m)
{
    if (m->clock.off)
        return 0;
    return m->base + pool_item_length(m);
}

void weft__profile_pool_item_end(weft_profile_pool_meter *m)
{
    if (m->clock.off)
        return;
    tls_item_meter = NULL;
    uint64_t d = pool_item_length(m);
    uint64_t path = m->base + d;
    m->work += d;
    if (path > m->span)
        m->span = path;
    if (d > m->longest)
        m->longest = d;
    m->items++;
    m->last_end = m->clock.strand_start;
}

weft_profile_pool_meter *weft__profile_pool_item_pause(void)
{
    weft_profile_pool_meter *m = tls_item_meter;
    if (!m)
        return NULL;
    (void)pool_item_length(m); /* its length up to here: the RUN's time is not its own */
    m->clock.paused_at = m->clock.strand_start;
    tls_item_meter = NULL; /* a pool run inside the RUN on this thread has items of its own */
    return m;
}

void weft__profile_pool_item_resume(weft_profile_pool_meter *m)
{
    if (!m)
        return;
    weft_profile_worker *p = &m->clock;
    uint64_t now = weft_cycles();
    if (now - p->paused_at > p->long_cycles) { /* as weft_profile_resume */
        now = weft__profile_sync_resume(p, now);
    }
    p->strand_start = now;
    p->count_start = weft__profile_blocks;
    tls_item_meter = m;
}

void weft__profile_pool_collect(weft_profile_pool_meter *m, weft_profile_figures *f)
{
    if (m->clock.off)
        return;
    f->work += m->work;
    if (m->span > f->span)
        f->span = m->span;
    f->bspan = f->span; /* no steal cost is charged on a pool's edges */
    f->tasks += m->items;
    if (m->longest > f->longest)
        f->longest = m->longest;
    weft_profile_worker *p = &m->clock;
    pthread_mutex_lock(&lock);
    off_cpu_add(&folded_off_cpu, p);
    weft__count_fold_locked(p);
    pthread_mutex_unlock(&lock);
}

static void report_at_exit_if_due(void)
{
    pthread_mutex_lock(&lock);
    bool due = report_at_exit;
    pthread_mutex_unlock(&lock);
    if (due)
        weft__profile_at_stop();
}

void weft__profile_pool_record(const char *name, const weft_profile_figures *f, weft_worker *caller)
{
    if (is_off())
        return;
    bool in_task = caller != NULL && !caller->prof.off;
    if (in_task) /* a call: its work is the task's, counted once */
        running_add(&caller->prof, f);
    pthread_mutex_lock(&lock);
    record_region_locked(name, in_task ? WEFT_PROFILE_REGION_INSIDE_TASK : WEFT_PROFILE_REGION_RUN,
                         f);
    /* A program that runs only work pools has no weft_stop to report at:
     * WEFT_PROFILE and WEFT_PROFILE_JSON are read at its first pool run,
     * and the report is made at exit, unless a weft_stop makes it first. */
    bool first = !env_read && live_workers == NULL;
    pthread_mutex_unlock(&lock);
    if (first)
        (void)weft__profile_check_env();
    pthread_mutex_lock(&lock);
    bool wanted = live_workers == NULL && (print_at_stop || json_at_stop);
    bool register_exit = wanted && !report_at_exit;
    report_at_exit = report_at_exit || wanted;
    pthread_mutex_unlock(&lock);
    if (register_exit && atexit(report_at_exit_if_due) != 0)
        weft__warn("the profile of the work pool runs cannot be reported at exit");
}

/* ------------------------------------------------------------------------
 * Regions of the program's own
 * ------------------------------------------------------------------------ */

/* A thread outside the pool is named by the address of a thread-local. */
static __thread char outside_thread_tag;

static weft_profile_mark mark_of(const weft_profile_figures *f, uintptr_t where,
                                 uint64_t computation)
{
    return (weft_profile_mark){f->work,   f->span,    f->bspan, f->tasks,
                               f->spawns, f->longest, where,    computation};
}

weft_profile_mark weft_profile_begin(void)
{
    weft_worker *w = weft__tls_worker;
    if (is_off()) {
        weft_profile_mark m;
        memset(&m, 0, sizeof m);
        return m;
    }
    if (w) {
        weft_profile_end_strand(&w->prof);
        weft_profile_figures now = figures_of(&w->prof.f);
        weft_profile_mark m = mark_of(&now, (uintptr_t)w, w->prof.computation);
        w->prof.f.longest = 0; /* the region's own; end puts the larger back */
        return m;
    }
    pthread_mutex_lock(&lock);
    weft_profile_mark m = mark_of(&outside_total, (uintptr_t)&outside_thread_tag, 0);
    outside_total.longest = 0; /* as a worker's: the range's own, end puts the larger back */
    pthread_mutex_unlock(&lock);
    return m;
}

int weft_profile_end(const weft_profile_mark *m, const char *name)
{
    if (!m || !name) {
        weft__warn("weft_profile_end: %s is NULL", m ? "name" : "mark");
        return EINVAL;
    }
    if (strcmp(name, other_regions_name(WEFT_PROFILE_REGION_NAMED)) == 0) {
        /* Two rows of one name, which the reports and a diff of two
         * profiles could not tell apart. */
        weft__warn("weft_profile_end(\"%s\"): that name is the profiler's own row of the ranges "
                   "past its first %u names; give the range another",
                   name, MAX_NAMED_REGIONS);
        return EINVAL;
    }
    if (is_off())
        return ENOTSUP;
    weft_worker *w = weft__tls_worker;
    uintptr_t here = w ? (uintptr_t)w : (uintptr_t)&outside_thread_tag;
    if (m->where != here) {
        weft__warn("weft_profile_end(\"%s\"): the mark was taken on another %s", name,
                   w ? "worker or outside the pool" : "thread or inside a task");
        return EINVAL;
    }
    if (w && m->computation != w->prof.computation) {
        /* Its figures count from another computation's start. */
        weft__warn("weft_profile_end(\"%s\"): the mark was taken in another task on this "
                   "worker (a range ends in the task that began it)",
                   name);
        return EINVAL;
    }
    weft_profile_figures now;
    if (w) {
        weft_profile_worker *p = &w->prof;
        weft_profile_end_strand(p);
        now = figures_of(&p->f);
        if (m->longest > p->f.longest)
            p->f.longest = m->longest;
    }
    pthread_mutex_lock(&lock);
    if (!w) {
        now = outside_total;
        if (m->longest > outside_total.longest)
            outside_total.longest = m->longest;
    }
    weft_profile_figures f = {now.work - m->work,
                              now.span - m->span,
                              now.bspan - m->bspan,
                              now.tasks - m->tasks,
                              now.spawns - m->spawns,
                              now.longest,
                              0,
                              0};
    record_region_locked(name, WEFT_PROFILE_REGION_NAMED, &f);
    pthread_mutex_unlock(&lock);
    return 0;
}

/* ------------------------------------------------------------------------
 * Reading the figures
 * ------------------------------------------------------------------------ */

/* Nanoseconds per basic block (per strand): the on-CPU time of every
 * counted strand over their blocks (of the timed windows of strands over
 * their strands), over every worker since the last reset (0: none);
 * *counted (if not NULL) gets the blocks (the strands timed). */
static double ns_per_counted_block(uint64_t *counted)
{
    uint64_t cycles = 0, blocks = 0;
    pthread_mutex_lock(&lock);
    weft__count_add_locked(NULL, &cycles, &blocks);
    for (weft_profile_worker *p = live_workers; p; p = p->next)
        weft__count_add_locked(p, &cycles, &blocks);
    pthread_mutex_unlock(&lock);
    if (counted)
        *counted = blocks;
    double tpn = weft__profile_ticks_per_ns();
    double npb = weft__count_ns_per_block(cycles, blocks, tpn);
    /* Counting strands with none timed (only work pool items ran, which
     * are not): the first guess, which the reports say (counted is 0). */
    if (npb <= 0.0 && weft__count_unit() == WEFT__PROFILE_UNIT_STRANDS && tpn > 0.0)
        npb = WEFT__COUNT_GUESS_CYCLES_PER_STRAND / tpn;
    return npb;
}

/* The figures' units per nanosecond: cycles, or in counting mode blocks. */
static double units_per_ns(void)
{
    double npb = weft__count_blocks() ? ns_per_counted_block(NULL) : 0.0;
    return npb > 0.0 ? 1.0 / npb : weft__profile_ticks_per_ns();
}

static weft_profile_region region_out(const region_rec *r, double tpn)
{
    weft_profile_region o;
    o.name = r->name;
    o.runs = r->runs;
    o.work_ns = (double)r->sum.work / tpn;
    o.span_ns = (double)r->sum.span / tpn;
    o.burdened_span_ns = (double)r->sum.bspan / tpn;
    o.parallelism = r->sum.span ? (double)r->sum.work / (double)r->sum.span : 0.0;
    o.burdened_parallelism = r->sum.bspan ? (double)r->sum.work / (double)r->sum.bspan : 0.0;
    o.tasks = r->sum.tasks;
    o.spawns = r->sum.spawns;
    o.strands = r->sum.tasks + 2 * r->sum.spawns;
    /* Counted strands all have length 1: the longest is not measured. */
    o.longest_strand_ns =
        weft__count_unit() == WEFT__PROFILE_UNIT_STRANDS ? 0.0 : (double)r->sum.longest / tpn;
    o.kind = r->kind;
    o.longest_run_span_ns = (double)r->longest_run_span / tpn;
    return o;
}

size_t weft_profile_regions(weft_profile_region *out, size_t max)
{
    if (!out && max > 0) {
        weft__warn("weft_profile_regions: out is NULL but max is %zu", max);
        return 0;
    }
    double tpn = units_per_ns();
    uint64_t lost;
    pthread_mutex_lock(&lock);
    size_t n = table_view_locked(&lost);
    for (size_t i = 0; i < n && i < max; i++) {
        out[i] = region_out(&view[i], tpn);
        out[i].name = regions[i].name; /* (valid until a reset) */
    }
    pthread_mutex_unlock(&lock);
    return n;
}

/* The per-type counts: the folded ones plus the registered workers',
 * into work[] and count[]; returns the number of type ids in use. */
static uint32_t collect_types(uint64_t *work, uint64_t *count)
{
    uint32_t n = weft__profile_types_in_use();
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; i < WEFT_PROFILE_MAX_TYPES; i++) {
        work[i] = folded[i].work;
        count[i] = folded[i].count;
    }
    for (weft_profile_worker *p = live_workers; p; p = p->next)
        for (uint32_t i = 0; i < WEFT_PROFILE_MAX_TYPES; i++) {
            /* Relaxed: a recent value of a counter its worker writes. */
            work[i] += atomic_load_explicit(&p->types[i].work, memory_order_relaxed);
            count[i] += atomic_load_explicit(&p->types[i].count, memory_order_relaxed);
        }
    pthread_mutex_unlock(&lock);
    return n;
}

/* The off-CPU totals over every thread so far. */
static off_cpu_totals collect_off_cpu(void)
{
    pthread_mutex_lock(&lock);
    off_cpu_totals t = folded_off_cpu;
    for (weft_profile_worker *p = live_workers; p; p = p->next)
        off_cpu_add(&t, p);
    pthread_mutex_unlock(&lock);
    return t;
}

/* The task types' figures, converted at tpn units per ns (a report's
 * one rate for its regions and types). */
static size_t task_types_out(weft_profile_task_type *out, size_t max, double tpn)
{
    /* On the heap: the calling thread's stack may be small. */
    uint64_t *work = calloc(WEFT_PROFILE_MAX_TYPES, sizeof *work);
    uint64_t *count = calloc(WEFT_PROFILE_MAX_TYPES, sizeof *count);
    if (!work || !count) {
        free(work);
        free(count);
        return 0;
    }
    uint32_t n = collect_types(work, count);
    size_t k = 0;
    for (uint32_t i = 1; i < n; i++) {
        const char *name = weft__profile_type_name(i);
        if (!name)
            continue;
        if (k < max)
            out[k] = (weft_profile_task_type){name, count[i], (double)work[i] / tpn};
        k++;
    }
    free(work);
    free(count);
    return k;
}

size_t weft_profile_task_types(weft_profile_task_type *out, size_t max)
{
    if (!out && max > 0) {
        weft__warn("weft_profile_task_types: out is NULL but max is %zu", max);
        return 0;
    }
    return task_types_out(out, max, units_per_ns());
}

void weft_profile_reset(void)
{
    pthread_mutex_lock(&lock);
    n_regions = 0;
    regions_lost = 0;
    memset(&outside_total, 0, sizeof outside_total);
    memset(folded, 0, sizeof folded);
    memset(&folded_off_cpu, 0, sizeof folded_off_cpu);
    for (weft_profile_worker *p = live_workers; p; p = p->next) {
        /* Relaxed: a running worker's concurrent increment may survive. */
        for (uint32_t i = 0; i < WEFT_PROFILE_MAX_TYPES; i++) {
            /* (A row never used is left alone: its page stays untouched.) */
            if (atomic_load_explicit(&p->types[i].work, memory_order_relaxed) == 0 &&
                atomic_load_explicit(&p->types[i].count, memory_order_relaxed) == 0)
                continue;
            atomic_store_explicit(&p->types[i].work, 0, memory_order_relaxed);
            atomic_store_explicit(&p->types[i].count, 0, memory_order_relaxed);
        }
        /* Relaxed: as above. */
        atomic_store_explicit(&p->off_cpu, 0, memory_order_relaxed);
        atomic_store_explicit(&p->off_cpu_strands, 0, memory_order_relaxed);
        weft__count_reset_locked(p);
        calls_reset_locked(p);
    }
    weft__count_reset_locked(NULL);
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------------
 * Reports (their formats: profile_report.c)
 * ------------------------------------------------------------------------ */

static int snapshot_take(weft__profile_snapshot *sn)
{
    /* Room for every region there can be: another thread may finish a
     * region's first run, or reset the profile, between a sizing call and
     * the copy. */
    sn->r = calloc(MAX_REGIONS, sizeof *sn->r);
    sn->t = calloc(WEFT_PROFILE_MAX_TYPES, sizeof *sn->t);
    if (!sn->r || !sn->t) {
        free(sn->r);
        free(sn->t);
        return ENOMEM;
    }
    /* One conversion for the regions' times, the task types' and the
     * counts the reports give beside them (each reading of the rate is a
     * fresh one, and a region of one type must read its type's work). */
    sn->blocks = weft__count_blocks();
    sn->strands = weft__count_unit() == WEFT__PROFILE_UNIT_STRANDS;
    sn->counted = 0;
    sn->ns_per_block = sn->blocks ? ns_per_counted_block(&sn->counted) : 0.0;
    double region_tpn =
        sn->ns_per_block > 0.0 ? 1.0 / sn->ns_per_block : weft__profile_ticks_per_ns();
    uint64_t lost;
    pthread_mutex_lock(&lock);
    sn->n = table_view_locked(&lost);
    for (size_t i = 0; i < sn->n; i++) {
        sn->r[i] = region_out(&view[i], region_tpn);
        sn->r[i].name = regions[i].name;
    }
    sn->runs_in_other_regions = lost;
    sn->note = weft__profile_frontend_note();
    pthread_mutex_unlock(&lock);
    sn->names_kept = MAX_NAMED_REGIONS;
    sn->nt = task_types_out(sn->t, WEFT_PROFILE_MAX_TYPES, region_tpn);
    off_cpu_totals off = collect_off_cpu();
    /* One rate for both: each reading of it is a fresh measurement, and a
     * thread's share must not come out above the sum it is part of. */
    double tpn = weft__profile_ticks_per_ns();
    sn->off_cpu_ns = (double)off.cycles / tpn;
    sn->off_cpu_strands = off.strands;
    sn->off_cpu_threads = off.threads;
    sn->off_cpu_max_thread_ns = (double)off.max_cycles / tpn;
    sn->burden_ns = weft_profile_burden_ns();
    return 0;
}

static void snapshot_free(weft__profile_snapshot *sn)
{
    free(sn->r);
    free(sn->t);
}

/* A report: the snapshot, formatted; 0, ENOMEM, or the error of a write
 * that failed (a report longer than the stream's buffer meets it here,
 * not at the close: ENOSPC on a full disk), EIO if none was given. */
static int report_snapshot(FILE *out, void (*format)(FILE *, const weft__profile_snapshot *))
{
    weft__profile_snapshot sn;
    if (snapshot_take(&sn) != 0)
        return ENOMEM;
    errno = 0;
    format(out, &sn);
    int write_error = errno;
    snapshot_free(&sn);
    return ferror(out) ? (write_error ? write_error : EIO) : 0;
}

/* A report from any thread. */
static int report_to(FILE *out, void (*format)(FILE *, const weft__profile_snapshot *),
                     const char *what)
{
    if (!out) {
        weft__warn("%s: out is NULL", what);
        return EINVAL;
    }
    return report_snapshot(out, format);
}

int weft_profile_print(FILE *out)
{
    if (out && is_off()) {
        fprintf(out, "weft: profiling is off in this process (WEFT_PROFILE_OFF=1 at its first "
                     "start): no figures\n");
        return ENOTSUP;
    }
    return report_to(out, weft__profile_print_table, "weft_profile_print");
}

int weft_profile_write_json(FILE *out)
{
    if (out && is_off())
        return ENOTSUP;
    return report_to(out, weft__profile_print_json, "weft_profile_write_json");
}

/* weft_stop, with the workers joined and still allocated. */
void weft__profile_at_stop(void)
{
    pthread_mutex_lock(&lock);
    report_at_exit = false;
    bool print = print_at_stop;
    const char *path = json_at_stop;
    pthread_mutex_unlock(&lock);
    if (print)
        report_snapshot(stderr, weft__profile_print_table);
    if (path && weft__trace_writes_to(path)) {
        weft__warn("WEFT_PROFILE_JSON=%s names a file a timeline of this process is written "
                   "to: the profile is not written, so that the timeline stays whole; give each a "
                   "file of its own",
                   path);
        return;
    }
    if (path) {
        weft__file_size_guard size_guard;
        weft__file_size_guard_begin(&size_guard);
        FILE *f = weft__fopen_for_writing(path);
        int err = f ? report_snapshot(f, weft__profile_print_json) : errno;
        if (f && fclose(f) != 0 && !err)
            err = errno ? errno : EIO;
        weft__file_size_guard_end(&size_guard);
        if (err) {
            /* The run's profile is not lost: the table, on stderr. */
            weft__warn("WEFT_PROFILE_JSON=%s: %s: %s; the profile follows on stderr instead", path,
                       f ? "writing failed" : "cannot open it for writing", weft__open_error(err));
            if (!print)
                report_snapshot(stderr, weft__profile_print_table);
        }
    }
}

#endif
