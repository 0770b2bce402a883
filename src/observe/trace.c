/* The timeline tracer (weft/trace.h; docs/profiling.md).
 *
 * Every worker is, at every moment, in one state (observe.h): running a
 * task the runtime started, looking for work, waiting at a SYNC, asleep,
 * at a barrier, ...  The runtime's slow paths tell the tracer when the
 * state changes; each change ends one slice of the worker's track and
 * starts the next, so a track is a gapless sequence of slices that never
 * overlap.  Steals, wake-ups and interrupts are instants between slices.
 *
 * Recording costs nothing on SPAWN and SYNC, nor in a task's code: a
 * slice names the task the runtime started by its wrapper's address (the
 * names are registered before main, bits/observe.h), and the tasks it runs
 * inline are inside its slice.  While nothing is traced every hook is one
 * load of the worker's track pointer (NULL).
 *
 * Memory: each track has a buffer of events mapped when tracing starts,
 * WEFT_TRACE_EVENTS of them (pages are touched as it fills); a full
 * buffer drops further events and counts them.  Only the track's worker
 * appends (no lock): it writes the event, then publishes the count with a
 * release store; a writer reads the count with acquire and the events
 * below it, so a trace can be written while the workers run.
 *
 * The fork-join workers' tracks live from the weft_start after tracing
 * began (or from weft_trace_start, if the pool runs) until weft_stop;
 * a work pool run's until the session that recorded it is written.
 * Shared state (the session, the list of pool runs, the RUNs of threads
 * outside the pool) is under `lock`; the task names under `names_lock`.
 */
#include "runtime/internal.h"
#include "observe/hooks.h"
#include "observe/json.h"

#include <weft/trace.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DEFAULT_EVENTS ((uint64_t)1 << 19)
#define MIN_EVENTS 16u
#define MAX_EVENTS ((uint64_t)1 << 28)
/* Work pool runs kept in one trace; later runs are counted, not traced. */
#define MAX_POOL_RUNS 16u
/* RUNs from threads outside the pool kept in one trace. */
#define MAX_EXTERNAL_RUNS 65536u

/* ------------------------------------------------------------------------
 * Events and tracks
 * ------------------------------------------------------------------------ */

/* Event kinds: the states of observe.h are slices; these are instants. */
enum {
    EV_STEAL = 32,     /* peer: the victim */
    EV_LEAP,           /* peer: the victim (a thief of a blocked SYNC) */
    EV_WAKE,           /* peer: the worker woken */
    EV_TOGETHER,       /* an interrupt begins on this worker */
    EV_NEWFRAME,
    EV_RUN_TAKEN,      /* ptr: the descriptor of an outside thread's RUN */
    EV_POOL_STEAL,     /* peer: the victim; count: items */
    EV_POOL_TRANSFER,  /* a steal-half transfer: peer: the victim; count: items */
};

#define COUNT_UNKNOWN UINT64_MAX

typedef struct trace_event {
    uint64_t start, end; /* ns, CLOCK_MONOTONIC */
    uintptr_t ptr;       /* slices of tasks: the wrapper; EV_RUN_TAKEN: the descriptor */
    uint64_t count;      /* tasks: SPAWNs; pool batches: items; searching: failed steals */
    uint32_t peer;
    uint8_t kind, how;
} trace_event;

struct weft_trace_track {
    /* The owner's: the open slice. */
    uint8_t state, how;
    uintptr_t task;         /* RUNNING: the wrapper */
    uint64_t start;
    weft_trace_counts base; /* the counters when the slice opened */
    uint64_t fails;         /* failed steals so far (the fork-join's own count) */
    /* The buffer. */
    trace_event *ev;
    uint32_t cap;
    _Atomic uint32_t n;        /* events written (owner: release store) */
    _Atomic uint64_t dropped;  /* events that did not fit (owner-written) */
    /* The writer's (under `lock`): where the session began in this track. */
    uint32_t base_n;
    uint64_t base_dropped;
};

struct weft_trace_pool_run {
    unsigned index, workers;
    char queue[24];
    bool half;
    uint64_t session;          /* the session that recorded it */
    weft_trace_pool_counts stats; /* at its end */
    bool finished;
    struct weft_trace_pool_run *next;
    weft_trace_track *tracks[];
};

typedef struct external_run {
    long tid;
    uint64_t start, end;
    uintptr_t task;
} external_run;


#if WEFT_TRACE

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Appends only while this is set.  Relaxed: a worker that sees the change
 * late records a few events more or fewer around a start or stop. */
static _Atomic uint32_t recording;
static struct {
    uint64_t id;          /* 0: none yet; each weft_trace_start makes a new one */
    bool active;
    bool from_env;        /* started by WEFT_TRACE */
    char *path;
    uint64_t t0;          /* ns: timestamps are written relative to it */
} session;
static uint64_t events_per_track = DEFAULT_EVENTS;
static const char *env_path;
static struct weft_trace_pool_run *pool_runs; /* of the session, newest first */
static unsigned pool_runs_kept, pool_runs_untraced;
static external_run *externals;
static size_t n_externals;
static uint64_t externals_dropped;
/* The running fork-join pool's workers, as weft_trace_at_start gave them
 * (NULL while no pool runs), and whether they have tracks (freed at
 * stop). */
static weft_worker *const *fj_workers;
static unsigned fj_n;
static bool fork_join_tracks;

void weft_trace_forget_in_child(void)
{
    pthread_mutex_init(&lock, NULL);
    /* Relaxed: the child has one thread. */
    atomic_store_explicit(&recording, 0, memory_order_relaxed);
    session.active = false;
    pool_runs = NULL;
    pool_runs_kept = pool_runs_untraced = 0;
    n_externals = 0;
    fork_join_tracks = false;
    fj_workers = NULL;
    fj_n = 0;
}



static weft_trace_track *track_new(void)
{
    weft_trace_track *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->cap = (uint32_t)events_per_track;
    tr->ev = weft_map((size_t)tr->cap * sizeof(trace_event), 0, 0, -1);
    if (!tr->ev) {
        free(tr);
        return NULL;
    }
    return tr;
}

static void track_free(weft_trace_track *tr)
{
    if (!tr)
        return;
    weft_unmap(tr->ev, (size_t)tr->cap * sizeof(trace_event), 0, 0);
    free(tr);
}

/* Owner: one event more, or one dropped. */
static void append(weft_trace_track *tr, const trace_event *e)
{
    /* Relaxed: see `recording`. */
    if (!atomic_load_explicit(&recording, memory_order_relaxed))
        return;
    /* Relaxed: only we write it. */
    uint32_t n = atomic_load_explicit(&tr->n, memory_order_relaxed);
    if (n == tr->cap) {
        /* Relaxed load + store: only we write it; writers read a recent value. */
        atomic_store_explicit(&tr->dropped,
                              atomic_load_explicit(&tr->dropped, memory_order_relaxed) + 1,
                              memory_order_relaxed);
        return;
    }
    tr->ev[n] = *e;
    /* Release: the event's contents before a writer that reads the count. */
    atomic_store_explicit(&tr->n, n + 1, memory_order_release);
}

static bool counts_work(int state)
{
    return state == WEFT_TRACE_RUNNING || state == WEFT_TRACE_BATCH;
}

/* Owner: ends the open slice at `now` and opens one in `state`. */
static void switch_state(weft_trace_track *tr, int state, uintptr_t task, int how,
                         weft_trace_counts counts, uint64_t now)
{
    if (tr->state != WEFT_TRACE_NONE) {
        trace_event e = {tr->start, now, tr->task, 0, 0, tr->state, tr->how};
        if (counts_work(tr->state))
            e.count = counts.work == COUNT_UNKNOWN ? COUNT_UNKNOWN : counts.work - tr->base.work;
        else
            e.count = counts.fails - tr->base.fails;
        append(tr, &e);
    }
    tr->state = (uint8_t)state;
    tr->how = (uint8_t)how;
    tr->task = task;
    tr->start = now;
    tr->base = counts;
}

static void instant(weft_trace_track *tr, int kind, unsigned peer, uint64_t count, uintptr_t ptr,
                    uint64_t now)
{
    trace_event e = {now, now, ptr, count, peer, (uint8_t)kind, 0};
    append(tr, &e);
}

/* ------------------------------------------------------------------------
 * Task names: wrapper address -> name, registered before main by one
 * constructor per task (bits/observe.h)
 * ------------------------------------------------------------------------ */

typedef struct task_name_rec {
    uintptr_t wrapper;
    const char *name;
    struct task_name_rec *next;
} task_name_rec;
static task_name_rec *task_names; /* under names_lock */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

void weft_trace_name(uintptr_t wrapper, const char *name)
{
    task_name_rec *r = malloc(sizeof *r);
    if (!r)
        return; /* its slices are then named "task" */
    pthread_mutex_lock(&names_lock);
    *r = (task_name_rec){wrapper, name, task_names};
    task_names = r;
    pthread_mutex_unlock(&names_lock);
}

static const char *task_name(uintptr_t wrapper)
{
    const char *name = "task";
    pthread_mutex_lock(&names_lock);
    for (task_name_rec *r = task_names; r; r = r->next)
        if (r->wrapper == wrapper) {
            name = r->name;
            break;
        }
    pthread_mutex_unlock(&names_lock);
    return name;
}

/* ------------------------------------------------------------------------
 * The fork-join workers' hooks (observe.h)
 * ------------------------------------------------------------------------ */

static weft_trace_counts worker_counts(weft_worker *w, weft_trace_track *tr)
{
    weft_trace_counts c;
#if WEFT_STATS
    /* Relaxed: our own counter. */
    c.work = atomic_load_explicit(&w->ctr.tasks, memory_order_relaxed);
#else
    (void)w;
    c.work = COUNT_UNKNOWN;
#endif
    c.fails = tr->fails;
    return c;
}

static void save(weft_trace_track *tr, weft_trace_frame *f)
{
    f->state = tr->state;
    f->how = tr->how;
    f->task = tr->task;
}

void weft_trace_task_begin_slow(weft_worker *w, weft_trace_frame *f, int how, uintptr_t wrapper,
                                weft_worker *victim, const void *task)
{
    weft_trace_track *tr = weft_trace_of(w);
    uint64_t now = weft_now_ns();
    save(tr, f);
    weft_trace_counts c = worker_counts(w, tr);
    switch_state(tr, WEFT_TRACE_NONE, 0, 0, c, now);
    if (victim && (how == WEFT_TRACE_BY_STEAL || how == WEFT_TRACE_BY_LEAP))
        instant(tr, how == WEFT_TRACE_BY_LEAP ? EV_LEAP : EV_STEAL, victim->id, 0, 0, now);
    if (task && how == WEFT_TRACE_BY_RUN)
        instant(tr, EV_RUN_TAKEN, 0, 0, (uintptr_t)task, now);
    switch_state(tr, WEFT_TRACE_RUNNING, wrapper, how, c, now);
}

void weft_trace_push_slow(weft_worker *w, weft_trace_frame *f, int state)
{
    weft_trace_track *tr = weft_trace_of(w);
    save(tr, f);
    switch_state(tr, state, 0, 0, worker_counts(w, tr), weft_now_ns());
}

void weft_trace_pop_slow(weft_worker *w, const weft_trace_frame *f)
{
    weft_trace_track *tr = weft_trace_of(w);
    switch_state(tr, f->state, f->task, f->how, worker_counts(w, tr), weft_now_ns());
}

void weft_trace_set_slow(weft_worker *w, int state)
{
    weft_trace_track *tr = weft_trace_of(w);
    if (tr->state != state)
        switch_state(tr, state, 0, 0, worker_counts(w, tr), weft_now_ns());
}

void weft_trace_steal_failed_slow(weft_worker *w)
{
    weft_trace_of(w)->fails++;
}

void weft_trace_wake_slow(weft_worker *self, weft_worker *woken)
{
    instant(weft_trace_of(self), EV_WAKE, woken->id, 0, 0, weft_now_ns());
}

void weft_trace_interrupt_slow(weft_worker *w, int newframe)
{
    instant(weft_trace_of(w), newframe ? EV_NEWFRAME : EV_TOGETHER, 0, 0, 0, weft_now_ns());
}

void weft_trace_worker_exit(weft_worker *w)
{
    weft_trace_track *tr = weft_trace_of(w);
    if (tr)
        switch_state(tr, WEFT_TRACE_NONE, 0, 0, worker_counts(w, tr), weft_now_ns());
}

bool weft_trace_external_on(void)
{
    /* Relaxed: see `recording`. */
    return atomic_load_explicit(&recording, memory_order_relaxed) != 0;
}

void weft_trace_external_run(const void *task, uint64_t start, uint64_t end)
{
    long tid = (long)syscall(SYS_gettid);
    pthread_mutex_lock(&lock);
    if (!externals && !(externals = calloc(MAX_EXTERNAL_RUNS, sizeof *externals))) {
        externals_dropped++;
    } else if (n_externals == MAX_EXTERNAL_RUNS) {
        externals_dropped++;
    } else {
        externals[n_externals++] = (external_run){tid, start, end, (uintptr_t)task};
    }
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------------
 * Tracks for the work pool (src/workpool)
 * ------------------------------------------------------------------------ */

void weft_trace_track_set(weft_trace_track *tr, int state, weft_trace_counts counts)
{
    if (tr->state != state)
        switch_state(tr, state, 0, 0, counts, weft_now_ns());
}

void weft_trace_track_push(weft_trace_track *tr, weft_trace_frame *f, int state,
                           weft_trace_counts counts)
{
    save(tr, f);
    switch_state(tr, state, 0, 0, counts, weft_now_ns());
}

void weft_trace_track_pop(weft_trace_track *tr, const weft_trace_frame *f,
                          weft_trace_counts counts)
{
    switch_state(tr, f->state, f->task, f->how, counts, weft_now_ns());
}

void weft_trace_track_steal(weft_trace_track *tr, bool transfer, unsigned victim, uint64_t items,
                            weft_trace_counts counts)
{
    /* The items stolen are processed from here on: the batch starts at
     * the arrow. */
    uint64_t now = weft_now_ns();
    if (tr->state != WEFT_TRACE_BATCH)
        switch_state(tr, WEFT_TRACE_BATCH, 0, 0, counts, now);
    instant(tr, transfer ? EV_POOL_TRANSFER : EV_POOL_STEAL, victim, items, 0, now);
}

void weft_trace_track_wake(weft_trace_track *tr, unsigned woken)
{
    instant(tr, EV_WAKE, woken, 0, 0, weft_now_ns());
}

static void start_session_locked(const char *path, bool from_env);

weft_trace_pool_run *weft_trace_pool_begin(unsigned workers, const char *queue, bool half)
{
    pthread_mutex_lock(&lock);
    if (!session.active && env_path == NULL) {
        /* A program that runs only work pools: WEFT_TRACE is read here. */
        const char *p = getenv("WEFT_TRACE");
        if (p && *p)
            env_path = p;
    }
    if (!session.active && env_path)
        start_session_locked(env_path, true);
    weft_trace_pool_run *run = NULL;
    if (!session.active) {
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    if (pool_runs_kept == MAX_POOL_RUNS) {
        pool_runs_untraced++;
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    run = calloc(1, sizeof *run + workers * sizeof run->tracks[0]);
    if (run) {
        run->index = pool_runs_kept;
        run->workers = workers;
        run->half = half;
        run->session = session.id;
        snprintf(run->queue, sizeof run->queue, "%s", queue);
        for (unsigned i = 0; i < workers; i++)
            if (!(run->tracks[i] = track_new())) {
                for (unsigned j = 0; j < i; j++)
                    track_free(run->tracks[j]);
                free(run);
                run = NULL;
                break;
            }
    }
    if (run) {
        pool_runs_kept++;
    } else {
        pool_runs_untraced++;
        weft_warn("tracing: no memory for a work pool run's tracks; it is not traced");
    }
    pthread_mutex_unlock(&lock);
    return run;
}

weft_trace_track *weft_trace_pool_track(weft_trace_pool_run *run, unsigned worker)
{
    return run ? run->tracks[worker] : NULL;
}

static void free_pool_run(weft_trace_pool_run *run)
{
    for (unsigned i = 0; i < run->workers; i++)
        track_free(run->tracks[i]);
    free(run);
}

static int write_locked(const char *path, bool live, const weft_stats *counters);

void weft_trace_pool_end(weft_trace_pool_run *run, const weft_trace_pool_counts *stats)
{
    if (!run)
        return;
    pthread_mutex_lock(&lock);
    if (!stats || !session.active || run->session != session.id) {
        free_pool_run(run); /* it failed, or its session was written meanwhile */
    } else {
        run->stats = *stats;
        run->finished = true;
        run->next = pool_runs;
        pool_runs = run;
        /* A program without the fork-join pool running: the file is
         * rewritten after each run, so it is complete when the program
         * ends; a fork-join pool that runs writes it at its stop. */
        if (session.from_env && session.path && !fj_workers)
            write_locked(session.path, false, NULL);
    }
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------------
 * Sessions
 * ------------------------------------------------------------------------ */

static void free_session_data_locked(void)
{
    while (pool_runs) {
        weft_trace_pool_run *next = pool_runs->next;
        free_pool_run(pool_runs);
        pool_runs = next;
    }
    pool_runs_kept = pool_runs_untraced = 0;
    n_externals = 0;
    externals_dropped = 0;
}

/* Gives the running pool's workers their tracks (they stay allocated
 * until weft_trace_at_stop, which takes the lock).  Existing tracks start
 * the session where they are. */
static int give_tracks_locked(void)
{
    for (unsigned i = 0; fj_workers && i < fj_n; i++) {
        weft_worker *w = fj_workers[i];
        /* Relaxed: only this function (under the lock) stores it. */
        weft_trace_track *tr = atomic_load_explicit(&w->trace, memory_order_relaxed);
        if (tr) {
            /* Acquire: pairs with the worker's release of the count. */
            tr->base_n = atomic_load_explicit(&tr->n, memory_order_acquire);
            /* Relaxed: a count. */
            tr->base_dropped = atomic_load_explicit(&tr->dropped, memory_order_relaxed);
            continue;
        }
        if (!(tr = track_new()))
            return ENOMEM;
        /* Release: the track's buffer before the worker that loads the
         * pointer (acquire, weft_trace_of) writes to it. */
        atomic_store_explicit(&w->trace, tr, memory_order_release);
        fork_join_tracks = true;
    }
    return 0;
}

static void start_session_locked(const char *path, bool from_env)
{
    free_session_data_locked();
    free(session.path);
    session.path = path ? strdup(path) : NULL;
    session.from_env = from_env;
    session.active = true;
    session.id++;
    session.t0 = weft_now_ns();
    /* Relaxed: see `recording`. */
    atomic_store_explicit(&recording, 1, memory_order_relaxed);
}

int weft_trace_start(const char *path)
{
    pthread_mutex_lock(&lock);
    if (session.active) {
        pthread_mutex_unlock(&lock);
        return EBUSY;
    }
    start_session_locked(path, false);
    int err = give_tracks_locked();
    if (err) {
        session.active = false;
        /* Relaxed: see `recording`. */
        atomic_store_explicit(&recording, 0, memory_order_relaxed);
        weft_warn("weft_trace_start: no memory for the workers' tracks");
    }
    pthread_mutex_unlock(&lock);
    return err;
}

bool weft_trace_active(void)
{
    pthread_mutex_lock(&lock);
    bool a = session.active;
    pthread_mutex_unlock(&lock);
    return a;
}

static void end_session_locked(void)
{
    /* Relaxed: see `recording`. */
    atomic_store_explicit(&recording, 0, memory_order_relaxed);
    session.active = false;
    free_session_data_locked();
}

int weft_trace_stop(void)
{
    pthread_mutex_lock(&lock);
    if (!session.active) {
        pthread_mutex_unlock(&lock);
        return EINVAL;
    }
    int err = 0;
    if (session.path)
        err = write_locked(session.path, fj_workers != NULL, NULL);
    end_session_locked();
    pthread_mutex_unlock(&lock);
    return err;
}

int weft_trace_write(const char *path)
{
    if (!path) {
        weft_warn("weft_trace_write: path is NULL");
        return EINVAL;
    }
    pthread_mutex_lock(&lock);
    if (session.id == 0) {
        pthread_mutex_unlock(&lock);
        weft_warn("weft_trace_write: nothing has been traced (weft_trace_start, or "
                  "WEFT_TRACE=<file>)");
        return EINVAL;
    }
    int err = write_locked(path, fj_workers != NULL, NULL);
    pthread_mutex_unlock(&lock);
    return err;
}

int weft_trace_at_start(weft_worker *const *workers, unsigned n)
{
    pthread_mutex_lock(&lock);
    fj_workers = workers;
    fj_n = n;
    if (!session.active && env_path)
        start_session_locked(env_path, true);
    int err = session.active ? give_tracks_locked() : 0;
    if (err)
        weft_warn("weft_start: no memory for the workers' trace buffers (%llu events each)",
                  (unsigned long long)events_per_track);
    pthread_mutex_unlock(&lock);
    return err;
}

/* weft_stop, with the workers joined and still allocated. */
void weft_trace_at_stop(bool write, const weft_stats *counters)
{
    pthread_mutex_lock(&lock);
    if (write && session.active && session.path)
        write_locked(session.path, true, counters);
    if (write && session.active && session.from_env)
        end_session_locked();
    for (unsigned i = 0; fork_join_tracks && fj_workers && i < fj_n; i++) {
        weft_worker *w = fj_workers[i];
        if (!w)
            continue;
        /* Relaxed: the workers have been joined. */
        track_free(atomic_load_explicit(&w->trace, memory_order_relaxed));
        atomic_store_explicit(&w->trace, NULL, memory_order_relaxed);
    }
    fork_join_tracks = false;
    fj_workers = NULL;
    fj_n = 0;
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------------
 * The file: Chrome Trace Event JSON
 * ------------------------------------------------------------------------ */

static const char *const state_names[WEFT_TRACE_STATES] = {
    [WEFT_TRACE_NONE] = "?",
    [WEFT_TRACE_RUNNING] = "task",
    [WEFT_TRACE_SEARCH] = "looking for work",
    [WEFT_TRACE_JOIN] = "SYNC: stolen task not done, looking for work",
    [WEFT_TRACE_SLEEP] = "asleep",
    [WEFT_TRACE_BARRIER] = "interrupt barrier",
    [WEFT_TRACE_HELP] = "interrupt: looking for its work",
    [WEFT_TRACE_PARKED] = "suspended",
    [WEFT_TRACE_BATCH] = "items",
};
/* Categories: what the renderer colours (busy, steal, idle, ...). */
static const char *const state_cats[WEFT_TRACE_STATES] = {
    [WEFT_TRACE_NONE] = "unknown",   [WEFT_TRACE_RUNNING] = "task",
    [WEFT_TRACE_SEARCH] = "search",  [WEFT_TRACE_JOIN] = "join",
    [WEFT_TRACE_SLEEP] = "sleep",    [WEFT_TRACE_BARRIER] = "barrier",
    [WEFT_TRACE_HELP] = "search",    [WEFT_TRACE_PARKED] = "parked",
    [WEFT_TRACE_BATCH] = "task",
};
static const char *const how_names[] = {
    [WEFT_TRACE_BY_STEAL] = "steal",       [WEFT_TRACE_BY_LEAP] = "leap",
    [WEFT_TRACE_BY_RUN] = "RUN",           [WEFT_TRACE_BY_RUN_INSIDE] = "RUN inside a task",
    [WEFT_TRACE_BY_TOGETHER] = "TOGETHER", [WEFT_TRACE_BY_NEWFRAME] = "NEWFRAME",
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
    weft_json_string(wr->f, name);
    uint64_t rel = ts >= wr->t0 ? ts - wr->t0 : 0;
    fprintf(wr->f, ",\"cat\":\"%s\",\"ph\":\"%s\",\"ts\":%llu.%03u,\"pid\":%u,\"tid\":%ld", cat, ph,
            (unsigned long long)(rel / 1000), (unsigned)(rel % 1000), pid, tid);
}

static void fmt_us(FILE *f, const char *key, uint64_t ns)
{
    fprintf(f, ",\"%s\":%llu.%03u", key, (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}

static void meta(writer *wr, const char *what, unsigned pid, long tid, const char *value)
{
    fputs(wr->first ? "\n" : ",\n", wr->f);
    wr->first = false;
    fprintf(wr->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%ld,\"args\":{\"name\":", what,
            pid, tid);
    weft_json_string(wr->f, value);
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
    uint32_t *order; /* indices into ev, by start time */
    uint32_t n, at;
    unsigned pid;
    long tid;
} source;

/* qsort has no context argument; the writer runs under `lock`. */
static const trace_event *sort_events;

static int compare_start(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint64_t x = sort_events[i].start, y = sort_events[j].start;
    if (x != y)
        return x < y ? -1 : 1;
    return i < j ? -1 : i > j; /* stable: recorded order among equal times */
}

/* The session's events of tr, sorted; false without memory. */
static bool source_of(source *src, weft_trace_track *tr, unsigned pid, long tid)
{
    /* Acquire: pairs with the owner's release of the count. */
    uint32_t n = atomic_load_explicit(&tr->n, memory_order_acquire);
    uint32_t first = tr->base_n < n ? tr->base_n : n;
    *src = (source){tr->ev + first, NULL, n - first, 0, pid, tid};
    if (src->n == 0)
        return true;
    if (!(src->order = malloc(src->n * sizeof *src->order)))
        return false;
    for (uint32_t i = 0; i < src->n; i++)
        src->order[i] = i;
    sort_events = src->ev;
    qsort(src->order, src->n, sizeof *src->order, compare_start);
    return true;
}

static const trace_event *source_peek(const source *src)
{
    return src->at < src->n ? &src->ev[src->order[src->at]] : NULL;
}

/* The outside thread's RUN that passed this descriptor and was waiting at
 * this time: its index, or -1.  The RUNs are sorted by start (the writer
 * sorts them first): the match is among those that started before, most
 * likely the last ones. */
static long external_of(const trace_event *e)
{
    size_t lo = 0, hi = n_externals; /* the first RUN that started after e */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (externals[mid].start <= e->start)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k-- > 0;)
        if (externals[k].task == e->ptr && e->start <= externals[k].end)
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
        const char *name = state_names[e->kind];
        if (e->kind == WEFT_TRACE_RUNNING)
            name = task_name(e->ptr);
        ev_open(wr, name, state_cats[e->kind], "X", e->start, pid, tid);
        fmt_us(f, "dur", e->end - e->start);
        if (e->kind == WEFT_TRACE_RUNNING) {
            fprintf(f, ",\"args\":{\"started_by\":\"%s\"",
                    e->how < sizeof how_names / sizeof how_names[0] ? how_names[e->how] : "?");
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
    case EV_WAKE:
        flow(wr, "wake", "wake", pid, tid, e->start, (long)e->peer, e->start);
        break;
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
    default:
        break;
    }
}

/* An outside thread's RUN: its waiting slice and the start of the arrow
 * to the worker that ran it (if that worker's event is in the trace). */
static void write_external(writer *wr, size_t k)
{
    const external_run *x = &externals[k];
    ev_open(wr, "RUN (waiting)", "external", "X", x->start, 1, x->tid);
    fmt_us(wr->f, "dur", x->end - x->start);
    fputs("}", wr->f);
    ev_open(wr, "RUN", "run", "s", x->start, 1, x->tid);
    fprintf(wr->f, ",\"id\":%llu}", (unsigned long long)RUN_FLOW_ID(k));
}

static int compare_external(const void *a, const void *b)
{
    const external_run *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Writes the session to path.  live: with the fork-join workers' tracks
 * (fj_workers: running, or stopping with its workers still allocated);
 * counters: the runtime's at a stop (NULL: none to compare).  Every
 * track's events, merged in time order, so each track's events come in
 * time order in the file. */
static int write_locked(const char *path, bool live, const weft_stats *counters)
{
    unsigned workers = live && fj_workers ? fj_n : 0;
    unsigned runs = 0;
    for (weft_trace_pool_run *r = pool_runs; r; r = r->next)
        runs++;
    weft_trace_pool_run **run_list = calloc(runs ? runs : 1, sizeof *run_list);
    size_t max_sources = workers;
    unsigned k = runs;
    for (weft_trace_pool_run *r = pool_runs; r; r = r->next) {
        run_list[--k] = r; /* oldest first */
        max_sources += r->workers;
    }
    source *srcs = calloc(max_sources ? max_sources : 1, sizeof *srcs);
    uint64_t *dropped_of = calloc(max_sources ? max_sources : 1, sizeof *dropped_of);
    FILE *f = fopen(path, "w");
    int err = 0;
    if (!f) {
        err = errno;
        weft_warn("tracing: cannot open %s for writing: %s", path, strerror(err));
    } else if (!run_list || !srcs || !dropped_of) {
        err = ENOMEM;
        weft_warn("tracing: no memory to write %s", path);
    }
    size_t n_src = 0;
    uint64_t dropped = 0;
    char label[128];
    writer wr = {f, session.t0, 0, true};
    if (!err) {
        fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
        snprintf(label, sizeof label, "weft (%s scheduler, %u workers)", WEFT_SCHEDULER_NAME,
                 workers);
        meta(&wr, "process_name", 1, 0, label);
        for (unsigned i = 0; i < workers && !err; i++) {
            /* Relaxed: published before (the pool is held or stopping). */
            weft_trace_track *tr =
                atomic_load_explicit(&fj_workers[i]->trace, memory_order_relaxed);
            if (!tr)
                continue;
            snprintf(label, sizeof label, "worker %u", i);
            meta(&wr, "thread_name", 1, (long)i, label);
            /* Relaxed: a count. */
            dropped_of[n_src] =
                atomic_load_explicit(&tr->dropped, memory_order_relaxed) - tr->base_dropped;
            if (!source_of(&srcs[n_src++], tr, 1, (long)i))
                err = ENOMEM;
        }
        for (unsigned r = 0; r < runs && !err; r++) {
            weft_trace_pool_run *run = run_list[r];
            unsigned pid = 2 + run->index;
            snprintf(label, sizeof label, "work pool run %u (%s%s, %u workers)", run->index + 1,
                     run->queue, run->half ? ", steal-half" : "", run->workers);
            meta(&wr, "process_name", pid, 0, label);
            for (unsigned i = 0; i < run->workers && !err; i++) {
                snprintf(label, sizeof label, "pool worker %u", i);
                meta(&wr, "thread_name", pid, (long)i, label);
                /* Relaxed: a count; the run is over. */
                dropped_of[n_src] = atomic_load_explicit(&run->tracks[i]->dropped,
                                                         memory_order_relaxed);
                if (!source_of(&srcs[n_src++], run->tracks[i], pid, (long)i))
                    err = ENOMEM;
            }
        }
        if (n_externals) /* (none: externals may be NULL, which qsort must not get) */
            qsort(externals, n_externals, sizeof *externals, compare_external);
        for (size_t x = 0; x < n_externals && !err; x++) {
            bool named = false;
            for (size_t j = 0; j < x && !named; j++)
                named = externals[j].tid == externals[x].tid;
            if (!named) {
                snprintf(label, sizeof label, "thread %ld (outside the pool)", externals[x].tid);
                meta(&wr, "thread_name", 1, externals[x].tid, label);
            }
        }
    }
    if (!err) {
        /* The merge: the earliest next event of all sources, the outside
         * threads' RUNs among them. */
        size_t next_external = 0;
        for (;;) {
            source *best = NULL;
            const trace_event *best_e = NULL;
            for (size_t i = 0; i < n_src; i++) {
                const trace_event *e = source_peek(&srcs[i]);
                if (e && (!best_e || e->start < best_e->start))
                    best = &srcs[i], best_e = e;
            }
            if (next_external < n_externals &&
                (!best_e || externals[next_external].start <= best_e->start)) {
                write_external(&wr, next_external++);
                continue;
            }
            if (!best)
                break;
            write_event(&wr, best, best_e);
            best->at++;
        }
        for (size_t i = 0; i < n_src; i++)
            dropped += dropped_of[i];
        fprintf(f, "\n],\n\"otherData\":{\"weft_trace\":1,\"scheduler\":\"%s\",\"workers\":%u,"
                   "\"clock\":\"CLOCK_MONOTONIC\",\"events_per_track\":%llu,"
                   "\"dropped_events\":%llu,\"dropped_by_track\":{",
                WEFT_SCHEDULER_NAME, workers, (unsigned long long)events_per_track,
                (unsigned long long)dropped);
        for (size_t i = 0; i < n_src; i++)
            fprintf(f, "%s\"%u/%ld\":%llu", i ? "," : "", srcs[i].pid, srcs[i].tid,
                    (unsigned long long)dropped_of[i]);
        fprintf(f, "},\"external_runs_dropped\":%llu,\"pool_runs_not_traced\":%u",
                (unsigned long long)externals_dropped, pool_runs_untraced);
        if (workers && counters) {
            const weft_stats st = *counters;
            fprintf(f, ",\"counters\":{\"tasks\":%llu,\"steals\":%llu,\"leaps\":%llu,"
                       "\"steal_fails\":%llu,\"leap_fails\":%llu,\"sleeps\":%llu}",
                    (unsigned long long)st.tasks, (unsigned long long)st.steals,
                    (unsigned long long)st.leaps, (unsigned long long)st.steal_fails,
                    (unsigned long long)st.leap_fails, (unsigned long long)st.sleeps);
        }
        fputs(",\"pool_runs\":[", f);
        for (unsigned r = 0; r < runs; r++) {
            const weft_trace_pool_counts *st = &run_list[r]->stats;
            fprintf(f, "%s{\"pid\":%u,\"queue\":\"%s\",\"workers\":%u,\"processed\":%llu,"
                       "\"duplicates\":%llu,\"steals\":%llu,\"stolen_items\":%llu,"
                       "\"requests\":%llu,\"sleeps\":%llu}",
                    r ? "," : "", 2 + run_list[r]->index, run_list[r]->queue,
                    run_list[r]->workers, (unsigned long long)st->processed,
                    (unsigned long long)st->duplicates, (unsigned long long)st->steals,
                    (unsigned long long)st->stolen_items, (unsigned long long)st->requests,
                    (unsigned long long)st->sleeps);
        }
        fputs("]}}\n", f);
        if (ferror(f))
            err = EIO;
    }
    if (f && fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    if (err && err != ENOMEM && f)
        weft_warn("tracing: writing %s failed: %s", path, strerror(err));
    for (size_t i = 0; i < n_src; i++)
        free(srcs[i].order);
    free(srcs);
    free(dropped_of);
    free(run_list);
    return err;
}

#else /* !WEFT_TRACE */

void weft_trace_forget_in_child(void) {}

int weft_trace_start(const char *path)
{
    (void)path;
    return ENOTSUP;
}

int weft_trace_stop(void) { return ENOTSUP; }

int weft_trace_write(const char *path)
{
    (void)path;
    return ENOTSUP;
}

bool weft_trace_active(void) { return false; }

int weft_trace_at_start(weft_worker *const *workers, unsigned n)
{
    (void)workers;
    (void)n;
    return 0;
}

void weft_trace_at_stop(bool write, const weft_stats *counters)
{
    (void)write;
    (void)counters;
}

void weft_trace_worker_exit(weft_worker *w) { (void)w; }

weft_trace_pool_run *weft_trace_pool_begin(unsigned workers, const char *queue, bool half)
{
    (void)workers;
    (void)queue;
    (void)half;
    return NULL;
}

weft_trace_track *weft_trace_pool_track(weft_trace_pool_run *run, unsigned worker)
{
    (void)run;
    (void)worker;
    return NULL;
}

void weft_trace_pool_end(weft_trace_pool_run *run, const weft_trace_pool_counts *stats)
{
    (void)run;
    (void)stats;
}

#endif

/* WEFT_TRACE and WEFT_TRACE_EVENTS, read at start; checked in every build
 * so that a bad value is reported even where there is no tracer. */
int weft_trace_check_env(void)
{
    uint64_t events = DEFAULT_EVENTS;
    int err = weft_config_env_number("WEFT_TRACE_EVENTS", true, MIN_EVENTS, MAX_EVENTS, "events",
                                     &events);
    const char *path = getenv("WEFT_TRACE");
#if WEFT_TRACE
    pthread_mutex_lock(&lock);
    events_per_track = events;
    env_path = path && *path ? path : NULL;
    pthread_mutex_unlock(&lock);
#else
    if (path && *path)
        weft_warn("WEFT_TRACE is set, but this build has no tracer (configure with "
                  "-DWEFT_TRACE=ON)");
#endif
    return err;
}
