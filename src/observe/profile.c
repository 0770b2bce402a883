// SPDX-License-Identifier: Apache-2.0
/* The work/span profiler (weft/profile.h; docs/profiling.md): the hooks'
 * runtime side, the regions, the task types and the reports.
 *
 * The inline hooks (include/weft/bits/observe.h) keep each worker's
 * figures for the computation it runs.  This file handles the tasks the
 * runtime starts: a stolen task's figures go into its owner's slot record
 * before DONE (the SYNC takes them from there), a RUN's become a run of a
 * region.  Everything is counted in cycles of weft_cycles and converted
 * with the calibration below only when reported; in counting mode
 * (count.c) strands are counted in basic blocks instead, converted with
 * the run's on-CPU time per block.
 *
 * Shared data and how it is protected:
 *   the type names, the regions, the folded per-type counts of stopped
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
#include "observe/count.h"
#include "observe/hooks.h"
#include "observe/json.h"

#include <weft/profile.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The steal cost charged per SPAWN edge when nothing says otherwise:
 * about the steal+join of bench/stealcost at 2 workers on the machine the
 * profiler was written on (410-476 ns; docs/profiling.md: how to measure
 * yours). */
#define DEFAULT_BURDEN_NS 450.0
#define MAX_BURDEN_NS 1e9
#define MAX_REGIONS 128u
#define REGION_NAME_MAX 64u
/* Speedup bounds are reported for 1 .. this many workers. */
#define SPEEDUP_WORKERS 64u
/* A strand (or a pause) longer than this is checked against the thread's
 * CPU clock: a read costs about 0.7 us on the KVM guests weft is tested
 * on, so at most ~4 % of a strand this long, and a descheduling (a few ms
 * under a loaded CPU's time slices) always makes a strand longer. */
#define LONG_STRAND_NS 20000.0

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* The burden: weft_profile_set_burden_ns's, else WEFT_PROFILE_BURDEN_NS at
 * the last start, else the default (< 0: not set). */
static double burden_set_ns = -1.0, burden_env_ns = -1.0;
#if WEFT_PROFILE
static bool print_at_stop;
static const char *json_at_stop;
static bool env_read;       /* weft__profile_check_env has run */
static bool report_at_exit; /* a pool-only program's report is due at exit */
#endif

/* How much of each worker's slot records is touched at start. */
#define PRETOUCHED_RECORD_BYTES ((size_t)1 << 20)

/* ------------------------------------------------------------------------
 * Configuration
 * ------------------------------------------------------------------------ */

int weft__profile_check_env(void)
{
    int err = 0;
    bool print = false;
    err |= weft__env_flag("WEFT_PROFILE", &print);
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
            weft__warn("WEFT_PROFILE%s is set, but this build has no profiler (link the "
                       "installed profiling variant instead: weft::weft_profile, pkg-config "
                       "weft-profile; or configure weft with -DWEFT_PROFILE=ON)",
                       print ? "" : "_JSON");
        return err;
    }
#if WEFT_PROFILE
    pthread_mutex_lock(&lock);
    print_at_stop = print;
    json_at_stop = json && *json ? json : NULL;
    env_read = true;
    burden_env_ns = have_burden && !err ? (double)burden : -1.0;
    pthread_mutex_unlock(&lock);
    err |= weft__count_check_env();
#else
    (void)have_burden;
#endif
    return err;
}

/* A JSON string: quotes, backslashes and control bytes escaped (the
 * profile's and the trace's files). */
void weft__profile_forget_in_child(void) { pthread_mutex_init(&lock, NULL); }

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
 * The clock: cycles to nanoseconds
 * ------------------------------------------------------------------------ */

static pthread_once_t calibrate_once = PTHREAD_ONCE_INIT;
static uint64_t calib_cycles0, calib_ns0;
static double calib_ticks_per_ns = 1.0;

/* A reading of both clocks at one moment: the cycle counter read on both
 * sides of the monotonic clock, the closest pair of a few (a thread that
 * loses its CPU between two reads would otherwise skew the rate by the
 * time it waited). */
static void clock_pair(uint64_t *cycles, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    *cycles = *ns = 0;
    for (int i = 0; i < 16; i++) {
        uint64_t c1 = weft_cycles(), n = weft_now_ns(), c2 = weft_cycles();
        if (c2 - c1 < best) {
            best = c2 - c1;
            *cycles = c1 + (c2 - c1) / 2;
            *ns = n;
        }
    }
}

/* Counts cycles against the monotonic clock for a few milliseconds, once
 * per process: enough to convert a burden and the CPU clock to cycles at
 * start; reports use the whole time since (ticks_per_ns). */
static void calibrate(void)
{
    clock_pair(&calib_cycles0, &calib_ns0);
    uint64_t ns = 0, cycles = 0;
    do
        clock_pair(&cycles, &ns);
    while (ns - calib_ns0 < 5000000u);
    calib_ticks_per_ns = (double)(cycles - calib_cycles0) / (double)(ns - calib_ns0);
    if (!(calib_ticks_per_ns > 0.0))
        calib_ticks_per_ns = 1.0;
}

static double ticks_per_ns(void)
{
    pthread_once(&calibrate_once, calibrate);
    uint64_t ns = 0, cycles = 0;
    clock_pair(&cycles, &ns);
    if (ns - calib_ns0 < 100000000u) /* under 0.1 s: the first measurement */
        return calib_ticks_per_ns;
    return (double)(cycles - calib_cycles0) / (double)(ns - calib_ns0);
}

/* ------------------------------------------------------------------------
 * Shared state
 * ------------------------------------------------------------------------ */


/* The workers whose per-type counts and off-CPU totals the reports add
 * up: registered by weft__profile_worker_init, taken out (their counts
 * folded) by weft__profile_worker_destroy, both under `lock`. */
static weft_profile_worker *live_workers;
static struct {
    uint64_t cycles, strands;
} folded_off_cpu;

typedef struct region_rec {
    char name[REGION_NAME_MAX];
    uint64_t runs;
    weft_profile_figures sum;
} region_rec;

static const char *type_names[WEFT_PROFILE_MAX_TYPES];
static uint32_t n_types = 1; /* id 0: no task (the runtime between tasks) */
static struct {
    uint64_t work, count;
} folded[WEFT_PROFILE_MAX_TYPES]; /* per-type counts of pools that stopped */
static region_rec regions[MAX_REGIONS];
static unsigned n_regions;
static uint64_t regions_lost;              /* runs of regions beyond MAX_REGIONS names */
static weft_profile_figures outside_total; /* every RUN from outside the pool, in sequence */

/* ------------------------------------------------------------------------
 * Task types
 * ------------------------------------------------------------------------ */

uint32_t weft__profile_register(weft_profile_type *type)
{
    pthread_mutex_lock(&lock);
    /* Relaxed: under the lock that every registration takes. */
    uint32_t id = atomic_load_explicit(&type->id, memory_order_relaxed);
    if (id == 0) {
        for (uint32_t i = 1; i < n_types && id == 0; i++)
            if (strcmp(type_names[i], type->name) == 0)
                id = i; /* the same name from another record: one type */
        if (id == 0 && n_types < WEFT_PROFILE_MAX_TYPES - 1) {
            id = n_types;
            type_names[n_types++] = type->name;
        } else if (id == 0) {
            id = WEFT_PROFILE_MAX_TYPES - 1;
            type_names[id] = "(other task types)";
        }
        /* Relaxed: readers use only the number (the name is read under
         * the lock). */
        atomic_store_explicit(&type->id, id, memory_order_relaxed);
    }
    pthread_mutex_unlock(&lock);
    return id;
}

/* ------------------------------------------------------------------------
 * Workers
 * ------------------------------------------------------------------------ */

int weft__profile_worker_init(weft_worker *w)
{
    pthread_once(&calibrate_once, calibrate);
    weft_profile_worker *p = &w->prof;
    memset(p, 0, sizeof *p);
    size_t bytes = weft__deque_bytes(w->deque_slots);
    p->slots = weft__map(bytes, 0, 0, weft__topology_placement(w->id));
    /* Mapped like the slot records (zeroed): a pool that is never stopped
     * (C++'s default pool lives until exit) leaves nothing on the heap. */
    p->types =
        weft__map(WEFT_PROFILE_MAX_TYPES * sizeof *p->types, 0, 0, weft__topology_placement(w->id));
    if (!p->slots || !p->types) {
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
    p->burden = (uint64_t)(weft_profile_burden_ns() * calib_ticks_per_ns + 0.5);
    weft__count_worker_init(p, p->burden);
    p->long_cycles = (uint64_t)(LONG_STRAND_NS * calib_ticks_per_ns);
    pthread_mutex_lock(&lock);
    p->next = live_workers;
    live_workers = p;
    pthread_mutex_unlock(&lock);
    return 0;
}

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
        /* Relaxed: likewise. */
        folded_off_cpu.cycles += atomic_load_explicit(&p->off_cpu, memory_order_relaxed);
        folded_off_cpu.strands += atomic_load_explicit(&p->off_cpu_strands, memory_order_relaxed);
        weft__count_fold_locked(p);
    }
    pthread_mutex_unlock(&lock);
    if (p->types)
        weft__unmap(p->types, WEFT_PROFILE_MAX_TYPES * sizeof *p->types, 0, 0);
    if (p->slots)
        weft__unmap(p->slots, weft__deque_bytes(w->deque_slots), 0, 0);
    memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------------------
 * On-CPU time
 * ------------------------------------------------------------------------ */

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Names the thread whose CPU clock a worker's sync reading is (a thread
 * outside the pool may run a RUN as a borrowed worker). */
static __thread char cpu_clock_tag;

/* The cycle counter is read after the CPU clock, so that the pair's
 * difference to the next pair does not count the read itself as time off
 * the CPU. */
void weft__profile_sync(weft_profile_worker *p, uint64_t now)
{
    (void)now;
    p->sync_cpu_ns = thread_cpu_ns();
    p->sync_cycles = weft_cycles();
    p->sync_thread = &cpu_clock_tag;
    weft__count_update_burden(p);
}

/* Since the last reading of the CPU clock (a long strand's end or a long
 * pause's), the thread ran only strands shorter than long_cycles and
 * pauses shorter than that: the wall time it spent off the CPU since then
 * was spent in this strand, short of at most those short pieces. */
uint64_t weft__profile_long_strand(weft_profile_worker *p, uint64_t now, uint64_t d)
{
    (void)now;
    uint64_t cpu_then = p->sync_cpu_ns, cycles_then = p->sync_cycles;
    bool known = p->sync_thread == &cpu_clock_tag && cpu_then != 0;
    weft__profile_sync(p, now);
    uint64_t cpu = p->sync_cpu_ns, cycles = p->sync_cycles;
    if (!known || cpu < cpu_then || cycles < cycles_then)
        return d; /* no earlier reading on this thread: nothing to compare */
    uint64_t wall = cycles - cycles_then;
    uint64_t on = (uint64_t)((double)(cpu - cpu_then) * calib_ticks_per_ns);
    if (on >= wall)
        return d;
    uint64_t off = wall - on;
    if (off > d)
        off = d;
    /* Relaxed load + store: only this worker writes them. */
    atomic_store_explicit(&p->off_cpu,
                          atomic_load_explicit(&p->off_cpu, memory_order_relaxed) + off,
                          memory_order_relaxed);
    atomic_store_explicit(&p->off_cpu_strands,
                          atomic_load_explicit(&p->off_cpu_strands, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    return d - off;
}

void weft__profile_root_begin(weft_worker *w, weft_profile_saved *s)
{
    weft_profile_worker *p = &w->prof;
    s->running = p->strand_start != 0;
    if (s->running) /* a RUN or an interrupt inside a task: its strand ends here */
        weft_profile_end_strand(p);
    s->f = p->f;
    memset(&p->f, 0, sizeof p->f);
    s->borrowed = p->sync_thread != &cpu_clock_tag;
    if (s->borrowed) /* a worker this thread borrows */
        weft__profile_sync(p, 0);
    if (s->running) {
        p->strand_start = weft_cycles();
        p->count_start = weft__profile_blocks;
    } else
        weft_profile_resume(w); /* after a search or a wait */
}

/* The started task's figures; the saved ones back.  Its last strand ended
 * when its body returned (a change of type, to none). */
static weft_profile_figures root_end(weft_worker *w, const weft_profile_saved *s)
{
    weft_profile_worker *p = &w->prof;
    weft_profile_figures f = p->f;
    p->f = s->f;
    uint64_t now = weft_cycles();
    p->strand_start = s->running ? now : 0;
    p->count_start = weft__profile_blocks;
    if (!s->running)
        p->paused_at = now;
    if (s->borrowed) { /* the worker's own thread reads its clock again */
        p->sync_thread = NULL;
        p->paused_at = 0;
    }
    return f;
}

void weft__profile_stolen_done(weft_worker *w, weft_profile_saved *s, weft_worker *victim,
                               weft_task *t)
{
    weft_profile_figures f = root_end(w, s);
    /* Plain stores: the owner reads them after it sees the DONE that our
     * caller stores next (release / acquire). */
    weft_profile_slot *rec = weft_profile_slot_of(victim, t);
    rec->child_work = f.work;
    rec->child_span = f.span;
    rec->child_bspan = f.bspan;
    rec->child_tasks = f.tasks;
    rec->child_spawns = f.spawns;
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

/* Under the lock: one more run of the region `name`. */
static void record_region_locked(const char *name, const weft_profile_figures *f)
{
    region_rec *r = NULL;
    for (unsigned i = 0; i < n_regions && !r; i++)
        if (strcmp(regions[i].name, name) == 0)
            r = &regions[i];
    if (!r) {
        if (n_regions == MAX_REGIONS) {
            regions_lost++;
            return;
        }
        r = &regions[n_regions++];
        memset(r, 0, sizeof *r);
        weft__utf8_copy(r->name, sizeof r->name, name);
    }
    r->runs++;
    add_figures(&r->sum, f);
}

void weft__profile_run_done(weft_worker *w, weft_profile_saved *s, weft_profile_start from)
{
    weft_profile_figures f = root_end(w, s);
    uint32_t type = f.root_type;
    if (from == WEFT_PROFILE_IN_PLACE) /* a call, for the caller's figures */
        add_figures(&w->prof.f, &f);
    pthread_mutex_lock(&lock);
    record_region_locked(type ? type_names[type] : "(no task)", &f);
    if (from == WEFT_PROFILE_FROM_OUTSIDE)
        add_figures(&outside_total, &f);
    pthread_mutex_unlock(&lock);
}

void weft__profile_dropped(weft_worker *w, weft_task *t, bool stolen)
{
    weft_profile_worker *p = &w->prof;
    if (stolen) { /* it ran: a DROP joins it as a SYNC would */
        const weft_profile_slot *rec = weft_profile_slot_of(w, t);
        weft_profile_join cont = {p->f.span, p->f.bspan};
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
static void pool_unit(void) { (void)weft__count_check_env(); }

void weft__profile_pool_meter_init(weft_profile_pool_meter *m)
{
    pthread_once(&calibrate_once, calibrate);
    pthread_once(&pool_unit_once, pool_unit);
    memset(m, 0, sizeof *m);
    weft__count_worker_init(&m->clock, 0);
    m->clock.long_cycles = (uint64_t)(LONG_STRAND_NS * calib_ticks_per_ns);
}

/* The running item's piece since its start or its last push: on-CPU
 * cycles, or in counting mode blocks (as weft_profile_end_strand). */
static uint64_t pool_piece(weft_profile_pool_meter *m)
{
    return weft_profile_take_strand(&m->clock);
}

void weft__profile_pool_item_begin(weft_profile_pool_meter *m, uint64_t base)
{
    weft_profile_worker *p = &m->clock;
    uint64_t now = weft_cycles();
    /* After a long search or sleep (or the first item) the CPU clock is
     * read again, so that a long item is compared with its own time. */
    if (m->last_end == 0 || now - m->last_end > p->long_cycles) {
        weft__profile_sync(p, now);
        now = p->sync_cycles;
    }
    p->strand_start = now;
    p->count_start = weft__profile_blocks;
    m->base = base;
    m->done = 0;
}

uint64_t weft__profile_pool_item_path(weft_profile_pool_meter *m)
{
    m->done += pool_piece(m);
    return m->base + m->done;
}

void weft__profile_pool_item_end(weft_profile_pool_meter *m)
{
    uint64_t d = m->done + pool_piece(m);
    uint64_t path = m->base + d;
    m->work += d;
    if (path > m->span)
        m->span = path;
    if (d > m->longest)
        m->longest = d;
    m->items++;
    m->last_end = m->clock.strand_start;
}

void weft__profile_pool_collect(weft_profile_pool_meter *m, weft_profile_figures *f)
{
    f->work += m->work;
    if (m->span > f->span)
        f->span = m->span;
    f->bspan = f->span; /* no steal cost is charged on a pool's edges */
    f->tasks += m->items;
    if (m->longest > f->longest)
        f->longest = m->longest;
    weft_profile_worker *p = &m->clock;
    pthread_mutex_lock(&lock);
    /* Relaxed: the worker's thread has been joined. */
    folded_off_cpu.cycles += atomic_load_explicit(&p->off_cpu, memory_order_relaxed);
    folded_off_cpu.strands += atomic_load_explicit(&p->off_cpu_strands, memory_order_relaxed);
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

void weft__profile_pool_record(const char *name, const weft_profile_figures *f)
{
    pthread_mutex_lock(&lock);
    record_region_locked(name, f);
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

static weft_profile_mark mark_of(const weft_profile_figures *f, uintptr_t where)
{
    return (weft_profile_mark){f->work, f->span, f->bspan, f->tasks, f->spawns, f->longest, where};
}

weft_profile_mark weft_profile_begin(void)
{
    weft_worker *w = weft__tls_worker;
    if (w) {
        weft_profile_end_strand(&w->prof);
        weft_profile_mark m = mark_of(&w->prof.f, (uintptr_t)w);
        w->prof.f.longest = 0; /* the region's own; end puts the larger back */
        return m;
    }
    pthread_mutex_lock(&lock);
    weft_profile_mark m = mark_of(&outside_total, (uintptr_t)&outside_thread_tag);
    pthread_mutex_unlock(&lock);
    return m;
}

int weft_profile_end(const weft_profile_mark *m, const char *name)
{
    if (!m || !name) {
        weft__warn("weft_profile_end: %s is NULL", m ? "name" : "mark");
        return EINVAL;
    }
    weft_worker *w = weft__tls_worker;
    uintptr_t here = w ? (uintptr_t)w : (uintptr_t)&outside_thread_tag;
    if (m->where != here) {
        weft__warn("weft_profile_end(\"%s\"): the mark was taken on another %s", name,
                   w ? "worker or outside the pool" : "thread or inside a task");
        return EINVAL;
    }
    weft_profile_figures now;
    if (w) {
        weft_profile_worker *p = &w->prof;
        weft_profile_end_strand(p);
        now = p->f;
        if (m->longest > p->f.longest)
            p->f.longest = m->longest;
    }
    pthread_mutex_lock(&lock);
    if (!w)
        now = outside_total;
    weft_profile_figures f = {now.work - m->work,
                              now.span - m->span,
                              now.bspan - m->bspan,
                              now.tasks - m->tasks,
                              now.spawns - m->spawns,
                              now.longest,
                              0,
                              0};
    record_region_locked(name, &f);
    pthread_mutex_unlock(&lock);
    return 0;
}

/* ------------------------------------------------------------------------
 * Reading the figures
 * ------------------------------------------------------------------------ */

/* Nanoseconds per basic block: the on-CPU time of every counted strand
 * over their blocks, over every worker since the last reset (0: none). */
static double ns_per_block(void)
{
    uint64_t cycles = 0, blocks = 0;
    pthread_mutex_lock(&lock);
    weft__count_add_locked(NULL, &cycles, &blocks);
    for (weft_profile_worker *p = live_workers; p; p = p->next)
        weft__count_add_locked(p, &cycles, &blocks);
    pthread_mutex_unlock(&lock);
    return weft__count_ns_per_block(cycles, blocks, ticks_per_ns());
}

/* The figures' units per nanosecond: cycles, or in counting mode blocks. */
static double units_per_ns(void)
{
    double npb = weft__count_blocks() ? ns_per_block() : 0.0;
    return npb > 0.0 ? 1.0 / npb : ticks_per_ns();
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
    o.longest_strand_ns = (double)r->sum.longest / tpn;
    return o;
}

size_t weft_profile_regions(weft_profile_region *out, size_t max)
{
    if (!out && max > 0) {
        weft__warn("weft_profile_regions: out is NULL but max is %zu", max);
        return 0;
    }
    double tpn = units_per_ns();
    pthread_mutex_lock(&lock);
    size_t n = n_regions;
    for (size_t i = 0; i < n && i < max; i++)
        out[i] = region_out(&regions[i], tpn);
    pthread_mutex_unlock(&lock);
    return n;
}

/* The per-type counts: the folded ones plus the registered workers',
 * into work[] and count[]; returns the number of type ids in use. */
static uint32_t collect_types(uint64_t *work, uint64_t *count)
{
    pthread_mutex_lock(&lock);
    uint32_t n = type_names[WEFT_PROFILE_MAX_TYPES - 1] ? WEFT_PROFILE_MAX_TYPES : n_types;
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

/* Time taken off strands because their thread was off the CPU: cycles and
 * strands, over every worker so far. */
static void collect_off_cpu(uint64_t *cycles, uint64_t *strands)
{
    pthread_mutex_lock(&lock);
    *cycles = folded_off_cpu.cycles;
    *strands = folded_off_cpu.strands;
    for (weft_profile_worker *p = live_workers; p; p = p->next) {
        /* Relaxed: recent values of counters their worker writes. */
        *cycles += atomic_load_explicit(&p->off_cpu, memory_order_relaxed);
        *strands += atomic_load_explicit(&p->off_cpu_strands, memory_order_relaxed);
    }
    pthread_mutex_unlock(&lock);
}

static size_t task_types_out(weft_profile_task_type *out, size_t max)
{
    uint64_t work[WEFT_PROFILE_MAX_TYPES], count[WEFT_PROFILE_MAX_TYPES];
    uint32_t n = collect_types(work, count);
    double tpn = units_per_ns();
    size_t k = 0;
    pthread_mutex_lock(&lock);
    for (uint32_t i = 1; i < n; i++) {
        if (!type_names[i])
            continue;
        if (k < max)
            out[k] = (weft_profile_task_type){type_names[i], count[i], (double)work[i] / tpn};
        k++;
    }
    pthread_mutex_unlock(&lock);
    return k;
}

size_t weft_profile_task_types(weft_profile_task_type *out, size_t max)
{
    if (!out && max > 0) {
        weft__warn("weft_profile_task_types: out is NULL but max is %zu", max);
        return 0;
    }
    return task_types_out(out, max);
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
            atomic_store_explicit(&p->types[i].work, 0, memory_order_relaxed);
            atomic_store_explicit(&p->types[i].count, 0, memory_order_relaxed);
        }
        /* Relaxed: as above. */
        atomic_store_explicit(&p->off_cpu, 0, memory_order_relaxed);
        atomic_store_explicit(&p->off_cpu_strands, 0, memory_order_relaxed);
        weft__count_reset_locked(p);
    }
    weft__count_reset_locked(NULL);
    pthread_mutex_unlock(&lock);
}

#else /* !WEFT_PROFILE: the API answers that there is nothing */

weft_profile_mark weft_profile_begin(void)
{
    weft_profile_mark m;
    memset(&m, 0, sizeof m);
    return m;
}

int weft_profile_end(const weft_profile_mark *mark, const char *name)
{
    (void)mark;
    (void)name;
    return ENOTSUP;
}

size_t weft_profile_regions(weft_profile_region *out, size_t max)
{
    (void)out;
    (void)max;
    return 0;
}

size_t weft_profile_task_types(weft_profile_task_type *out, size_t max)
{
    (void)out;
    (void)max;
    return 0;
}

void weft_profile_reset(void) {}

int weft__profile_worker_init(weft_worker *w)
{
    (void)w;
    return 0;
}

void weft__profile_worker_destroy(weft_worker *w) { (void)w; }

void weft__profile_at_stop(void) {}

#endif

double weft_profile_speedup_bound(const weft_profile_region *r, unsigned workers)
{
    if (!r || workers == 0 || !(r->work_ns > 0.0))
        return 0.0;
    return r->parallelism < (double)workers ? r->parallelism : (double)workers;
}

double weft_profile_burdened_speedup(const weft_profile_region *r, unsigned workers)
{
    if (!r || workers == 0 || !(r->work_ns > 0.0))
        return 0.0;
    return r->work_ns / (r->work_ns / workers + r->burdened_span_ns);
}

#if WEFT_PROFILE
/* ------------------------------------------------------------------------
 * Reports
 * ------------------------------------------------------------------------ */

/* A duration in the largest unit it reaches, 3 significant digits. */
static const char *fmt_ns(char *buf, size_t size, double ns)
{
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1.0}};
    double mag = ns < 0 ? -ns : ns; /* (no libm) */
    unsigned u = 0;
    while (u < 3 && mag < units[u].scale)
        u++;
    double v = mag / units[u].scale;
    snprintf(buf, size, "%s%.*f %s", ns < 0 ? "-" : "",
             v >= 99.95   ? 0
             : v >= 9.995 ? 1
                          : 2,
             v, units[u].unit);
    return buf;
}

/* The worker counts of the table's speedup columns. */
static const unsigned table_workers[] = {1, 2, 4, 8, 16, 32, 64};
#define TABLE_WORKERS (sizeof table_workers / sizeof table_workers[0])

/* What a report shows: the regions and the task types, copied. */
typedef struct snapshot {
    weft_profile_region *r;
    size_t n;
    weft_profile_task_type *t;
    size_t nt;
    double off_cpu_ns; /* taken off strands: their thread was off the CPU */
    uint64_t off_cpu_strands;
    bool blocks;         /* counting mode: figures were basic blocks */
    double ns_per_block; /* their conversion (0: nothing was counted) */
} snapshot;

static int snapshot_take(snapshot *sn)
{
    sn->n = weft_profile_regions(NULL, 0);
    sn->r = calloc(sn->n ? sn->n : 1, sizeof *sn->r);
    sn->t = calloc(WEFT_PROFILE_MAX_TYPES, sizeof *sn->t);
    if (!sn->r || !sn->t) {
        free(sn->r);
        free(sn->t);
        return ENOMEM;
    }
    sn->n = weft_profile_regions(sn->r, sn->n); /* (finished regions only grow) */
    sn->nt = task_types_out(sn->t, WEFT_PROFILE_MAX_TYPES);
    uint64_t off;
    collect_off_cpu(&off, &sn->off_cpu_strands);
    sn->off_cpu_ns = (double)off / ticks_per_ns();
    sn->blocks = weft__count_blocks();
    sn->ns_per_block = sn->blocks ? ns_per_block() : 0.0;
    return 0;
}

static void snapshot_free(snapshot *sn)
{
    free(sn->r);
    free(sn->t);
}

static void print_report(FILE *out, const snapshot *sn)
{
    const weft_profile_region *r = sn->r;
    const weft_profile_task_type *t = sn->t;
    size_t n = sn->n, nt = sn->nt;
    char a[32], b[32], c[32], d[32];
    fprintf(out,
            "weft profile: scheduler %s, clock %s (%.3f ticks/ns), burden %s per SPAWN "
            "edge\n",
            WEFT_SCHEDULER_NAME, WEFT_CYCLES_SOURCE, ticks_per_ns(),
            fmt_ns(a, sizeof a, weft_profile_burden_ns()));
    fprintf(out,
            "times are on-CPU time: %s off the CPU taken out of %llu strands longer than "
            "%s\n",
            fmt_ns(a, sizeof a, sn->off_cpu_ns), (unsigned long long)sn->off_cpu_strands,
            fmt_ns(b, sizeof b, LONG_STRAND_NS));
    if (sn->blocks && sn->ns_per_block > 0.0)
        fprintf(out,
                "unit: basic blocks (%s; code compiled with -fsanitize-coverage=trace-pc), "
                "times converted from blocks at %.3f ns each (the on-CPU time of the "
                "strands over their blocks)\n",
                weft__count_how(), sn->ns_per_block);
    else if (sn->blocks)
        fprintf(out,
                "unit: basic blocks (%s; code compiled with -fsanitize-coverage=trace-pc); "
                "no block counted yet\n",
                weft__count_how());
    else
        fprintf(out, "unit: on-CPU time (%s)\n", weft__count_how());
    /* The name column fits the longest name (names are cut at 63 bytes). */
    int w = 20;
    for (size_t i = 0; i < n; i++)
        if ((int)strlen(r[i].name) > w)
            w = (int)strlen(r[i].name);
    for (size_t i = 0; i < nt; i++)
        if ((int)strlen(t[i].name) > w)
            w = (int)strlen(t[i].name);
    fprintf(out, "%-*s %6s %11s %11s %12s %13s %13s %15s %14s %12s\n", w, "region", "runs", "work",
            "span", "parallelism", "burdened-span", "burdened-par", "longest-strand", "tasks",
            "spawns");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%-*s %6llu %11s %11s %12.2f %13s %13.2f %15s %14llu %12llu\n", w, r[i].name,
                (unsigned long long)r[i].runs, fmt_ns(a, sizeof a, r[i].work_ns),
                fmt_ns(b, sizeof b, r[i].span_ns), r[i].parallelism,
                fmt_ns(c, sizeof c, r[i].burdened_span_ns), r[i].burdened_parallelism,
                fmt_ns(d, sizeof d, r[i].longest_strand_ns), (unsigned long long)r[i].tasks,
                (unsigned long long)r[i].spawns);
    if (n == 0)
        fprintf(out, "(no region has finished)\n");
    if (sn->blocks && sn->ns_per_block > 0.0) {
        fprintf(out, "%-*s %14s %14s %14s %15s   (basic blocks)\n", w, "region", "work", "span",
                "burdened-span", "longest-strand");
        double k = 1.0 / sn->ns_per_block;
        for (size_t i = 0; i < n; i++)
            fprintf(out, "%-*s %14.0f %14.0f %14.0f %15.0f\n", w, r[i].name, r[i].work_ns * k,
                    r[i].span_ns * k, r[i].burdened_span_ns * k, r[i].longest_strand_ns * k);
    }
    if (n > 0) {
        fprintf(out,
                "speedup on P workers: at most min(P, parallelism) / burdened estimate "
                "work/(work/P + burdened span)\n%-*s",
                w, "region");
        for (size_t k = 0; k < TABLE_WORKERS; k++)
            fprintf(out, " %13s%-2u", "P=", table_workers[k]);
        fputc('\n', out);
        for (size_t i = 0; i < n; i++) {
            fprintf(out, "%-*s", w, r[i].name);
            for (size_t k = 0; k < TABLE_WORKERS; k++) {
                char cell[40];
                snprintf(cell, sizeof cell, "%.1f/%.1f",
                         weft_profile_speedup_bound(&r[i], table_workers[k]),
                         weft_profile_burdened_speedup(&r[i], table_workers[k]));
                fprintf(out, " %15s", cell);
            }
            fputc('\n', out);
        }
    }
    double total = 0;
    for (size_t i = 0; i < nt; i++)
        total += t[i].work_ns;
    fprintf(out, "%-*s %14s %11s %7s\n", w, "task type", "count", "work", "share");
    for (size_t i = 0; i < nt; i++)
        fprintf(out, "%-*s %14llu %11s %6.1f%%\n", w, t[i].name, (unsigned long long)t[i].count,
                fmt_ns(a, sizeof a, t[i].work_ns), total > 0 ? 100.0 * t[i].work_ns / total : 0.0);
}


static void write_json(FILE *out, const snapshot *sn)
{
    const weft_profile_region *r = sn->r;
    const weft_profile_task_type *t = sn->t;
    size_t n = sn->n, nt = sn->nt;
    pthread_mutex_lock(&lock);
    unsigned long long lost = (unsigned long long)regions_lost;
    pthread_mutex_unlock(&lock);
    char time[96];
    if (sn->blocks)
        snprintf(time, sizeof time, "ns (from basic blocks at %.4f ns each)", sn->ns_per_block);
    else
        snprintf(time, sizeof time, "on-CPU ns");
    fprintf(out,
            "{\"weft_profile\": 1, \"scheduler\": \"%s\", \"clock\": \"%s\", "
            "\"ticks_per_ns\": %.6f, \"unit\": \"%s\", \"unit_chosen\": \"%s\", "
            "\"ns_per_block\": %.6f, \"time\": \"%s\", \"off_cpu_ns\": %.1f, "
            "\"off_cpu_strands\": %llu, \"long_strand_ns\": %.1f, "
            "\"burden_ns\": %.1f, \"regions_not_recorded\": %llu,\n"
            " \"regions\": [",
            WEFT_SCHEDULER_NAME, WEFT_CYCLES_SOURCE, ticks_per_ns(),
            sn->blocks ? "basic blocks" : "time", weft__count_how(), sn->ns_per_block, time,
            sn->off_cpu_ns, (unsigned long long)sn->off_cpu_strands, LONG_STRAND_NS,
            weft_profile_burden_ns(), lost);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        weft__json_string(out, r[i].name);
        fprintf(out,
                ", \"runs\": %llu, \"work_ns\": %.1f, \"span_ns\": %.1f, "
                "\"burdened_span_ns\": %.1f, \"parallelism\": %.4f, "
                "\"burdened_parallelism\": %.4f, \"longest_strand_ns\": %.1f, "
                "\"tasks\": %llu, \"spawns\": %llu, "
                "\"strands\": %llu,",
                (unsigned long long)r[i].runs, r[i].work_ns, r[i].span_ns, r[i].burdened_span_ns,
                r[i].parallelism, r[i].burdened_parallelism, r[i].longest_strand_ns,
                (unsigned long long)r[i].tasks, (unsigned long long)r[i].spawns,
                (unsigned long long)r[i].strands);
        if (sn->blocks && sn->ns_per_block > 0.0)
            fprintf(out,
                    " \"work_blocks\": %.0f, \"span_blocks\": %.0f, "
                    "\"burdened_span_blocks\": %.0f, \"longest_strand_blocks\": %.0f,",
                    r[i].work_ns / sn->ns_per_block, r[i].span_ns / sn->ns_per_block,
                    r[i].burdened_span_ns / sn->ns_per_block,
                    r[i].longest_strand_ns / sn->ns_per_block);
        fprintf(out, "\n   \"speedup\": [");
        for (unsigned p = 1; p <= SPEEDUP_WORKERS; p++)
            fprintf(out, "%s{\"workers\": %u, \"bound\": %.3f, \"burdened\": %.3f}",
                    p > 1 ? ", " : "", p, weft_profile_speedup_bound(&r[i], p),
                    weft_profile_burdened_speedup(&r[i], p));
        fprintf(out, "]}");
    }
    fprintf(out, "],\n \"task_types\": [");
    for (size_t i = 0; i < nt; i++) {
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        weft__json_string(out, t[i].name);
        fprintf(out, ", \"count\": %llu, \"work_ns\": %.1f}", (unsigned long long)t[i].count,
                t[i].work_ns);
    }
    fprintf(out, "]}\n");
}

/* A report: the snapshot, formatted; 0, ENOMEM or EIO. */
static int report(FILE *out, void (*format)(FILE *, const snapshot *))
{
    snapshot sn;
    if (snapshot_take(&sn) != 0)
        return ENOMEM;
    format(out, &sn);
    snapshot_free(&sn);
    return ferror(out) ? EIO : 0;
}

/* A report from any thread. */
static int report_to(FILE *out, void (*format)(FILE *, const snapshot *), const char *what)
{
    if (!out) {
        weft__warn("%s: out is NULL", what);
        return EINVAL;
    }
    return report(out, format);
}

int weft_profile_print(FILE *out) { return report_to(out, print_report, "weft_profile_print"); }

int weft_profile_write_json(FILE *out)
{
    return report_to(out, write_json, "weft_profile_write_json");
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
        report(stderr, print_report);
    if (path) {
        FILE *f = fopen(path, "w");
        if (!f) {
            weft__warn("WEFT_PROFILE_JSON=%s: cannot open it for writing: %s", path,
                       strerror(errno));
            return;
        }
        int err = report(f, write_json);
        if (fclose(f) != 0 || err)
            weft__warn("WEFT_PROFILE_JSON=%s: writing failed", path);
    }
}

#else

int weft_profile_print(FILE *out)
{
    if (!out) {
        weft__warn("weft_profile_print: out is NULL");
        return EINVAL;
    }
    fprintf(out, "weft: the profiler is not compiled in (link the installed profiling variant "
                 "instead: weft::weft_profile, pkg-config weft-profile; or configure weft with "
                 "-DWEFT_PROFILE=ON)\n");
    return ENOTSUP;
}

int weft_profile_write_json(FILE *out)
{
    if (!out) {
        weft__warn("weft_profile_write_json: out is NULL");
        return EINVAL;
    }
    return ENOTSUP;
}

#endif
