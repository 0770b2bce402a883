// SPDX-License-Identifier: Apache-2.0
/* The timeline tracer (weft/trace.h; docs/timeline.md).
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
 * A session lasts from weft_trace_start (or, for WEFT_TRACE, weft_start)
 * to weft_trace_stop or weft_stop, which writes it.
 * The fork-join workers' tracks live from the weft_start after tracing
 * began (or from weft_trace_start, if the pool runs) until weft_stop;
 * a work pool run's until the session that recorded it is written.
 * Shared state (the session, the list of pool runs, the RUNs of threads
 * outside the pool) is under `lock`; the task names are trace_names.c's.
 */
#include "runtime/diagnostics.h"
#include "runtime/env.h"
#include "runtime/memory.h"
#include "runtime/state.h"
#include "runtime/topology.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "observe/trace.h"

#include "observe/trace_names.h"
#include "observe/trace_perfetto.h"
#include "observe/trace_record.h"
#include "observe/trace_write.h"

#include <weft/trace.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_EVENTS ((uint64_t)1 << 19)
#define MIN_EVENTS 16u
/* How far ahead of the next event its owner asks for the ring's line. */
#define TRACE_PREFETCH_AHEAD 4u
#define MAX_EVENTS ((uint64_t)1 << 28)
/* Work pool runs kept in one trace; later runs are counted, not traced. */
#define MAX_POOL_RUNS 16u
/* RUNs from threads outside the pool kept in one trace: the store grows
 * from the first to at most EXTERNAL_RUNS_PER_EVENT per event a track
 * holds (WEFT_TRACE_EVENTS), and never below the floor. */
#define FIRST_EXTERNAL_RUNS 1024u
#define EXTERNAL_RUNS_FLOOR 4096u
#define EXTERNAL_RUNS_PER_EVENT 4u

/* ------------------------------------------------------------------------
 * Events and tracks
 * ------------------------------------------------------------------------ */


#if WEFT_TRACE

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Appends only while this is set.  Relaxed: a worker that sees the change
 * late records a few events more or fewer around a start or stop. */
static _Atomic uint32_t recording;
static struct {
    uint64_t id; /* 0: none yet; each weft_trace_start makes a new one */
    bool active;
    bool from_env;   /* started by WEFT_TRACE */
    bool streamed;   /* written as it records (a .pftrace path) */
    bool whole_pool; /* recording at the fork-join pool's start: its counters are the session's */
    char *path;
    uint64_t t0; /* ns: timestamps are written relative to it */
} session;
static const char *env_path;
/* What the session keeps for its file (under `lock`). */
static struct {
    uint64_t events_per_track;
    struct weft_trace_pool_run *pool_runs; /* of the session, newest first */
    unsigned pool_runs_kept, pool_runs_untraced;
    external_run *externals;
    size_t n_externals, cap_externals;
    uint64_t externals_dropped;
} kept = {.events_per_track = DEFAULT_EVENTS};
/* WEFT_TRACE's sessions in this process so far: each pool the program
 * starts again is written to a file of its own (env_session_path). */
static unsigned env_sessions;
/* The running fork-join pool's workers, as weft__trace_at_start gave them
 * (NULL while no pool runs), and whether they have tracks (freed at
 * stop). */
static weft_worker *const *fj_workers;
static unsigned fj_n;
static bool fork_join_tracks;
/* weft_stop wrote and ended the session (the workers' tracks go with the
 * pool): the next weft_trace_stop returns that write's result instead of
 * writing the file again without them. */
static bool ended_at_stop;
static int ended_at_stop_err;

/* A session whose file is Perfetto's format streams: a thread of its own
 * writes the tracks' events as they come and consumes them, so a long run
 * is recorded whole in buffers of bounded size.  Its file and the tracks
 * it drains are under `stream.lock` (taken after `lock`, never before it);
 * the thread takes only that one. */
#define STREAM_PERIOD_NS 10000000 /* how often the thread drains: 10 ms */
typedef struct stream_source {
    weft_trace_track *track; /* NULL once ended (it may be freed then) */
    weft__pf_track *encoder;
    bool ended;       /* drained to the end and closed */
    uint64_t dropped; /* once ended: what it dropped in the session */
} stream_source;
static struct {
    pthread_mutex_t lock;
    weft__pf *pf; /* NULL: the session does not stream */
    stream_source *src;
    size_t n_src, cap_src;
    bool thread_on;
    pthread_t thread;
} stream = {.lock = PTHREAD_MUTEX_INITIALIZER};

void weft__trace_forget_in_child(void)
{
    pthread_mutex_init(&lock, NULL);
    /* Relaxed: the child has one thread. */
    atomic_store_explicit(&recording, 0, memory_order_relaxed);
    session.active = false;
    kept.pool_runs = NULL;
    kept.pool_runs_kept = kept.pool_runs_untraced = 0;
    kept.n_externals = 0;
    /* The child's first pool is its first (its file: the parent's path,
     * or another if the parent is writing that). */
    env_sessions = 0;
    fork_join_tracks = false;
    fj_workers = NULL;
    fj_n = 0;
    ended_at_stop = false;
    /* The parent's stream is its own: the child writes nothing to it. */
    pthread_mutex_init(&stream.lock, NULL);
    stream.pf = NULL;
    stream.src = NULL;
    stream.n_src = stream.cap_src = 0;
    stream.thread_on = false;
}


/* A track is mapped, as the worker that points to it is: a pool left
 * running at exit keeps both, and a leak checker, which does not look
 * into mappings, finds no heap block that only a mapping points to. */
static weft_trace_track *track_new(void)
{
    weft_trace_track *tr = weft__map(sizeof *tr, 0, 0, -1);
    if (!tr)
        return NULL;
    tr->cap = (uint32_t)kept.events_per_track;
    tr->ev = weft__map((size_t)tr->cap * sizeof(trace_event), 0, 0, -1);
    if (!tr->ev) {
        weft__unmap(tr, sizeof *tr, 0, 0);
        return NULL;
    }
    return tr;
}

static void track_free(weft_trace_track *tr)
{
    if (!tr)
        return;
    weft__unmap(tr->ev, (size_t)tr->cap * sizeof(trace_event), 0, 0);
    weft__unmap(tr, sizeof *tr, 0, 0);
}

/* Owner: one event more, or one dropped.  After drops, a streamed
 * session's track says where they were (an EV_DROPPED event) before its
 * next event. */
static void append(weft_trace_track *tr, const trace_event *e)
{
    /* Relaxed: see `recording`. */
    if (!atomic_load_explicit(&recording, memory_order_relaxed))
        return;
    /* Relaxed: only we write it. */
    uint64_t n = atomic_load_explicit(&tr->n, memory_order_relaxed);
    uint64_t need = tr->unmarked ? 2 : 1;
    if (n + need > tr->room) {
        /* Acquire: the stream's reads of the events it consumed come
         * before we write over them (its release store). */
        tr->room = atomic_load_explicit(&tr->consumed, memory_order_acquire) + tr->cap;
        if (n + need > tr->room) {
            if (!tr->unmarked)
                tr->unmarked_from = e->start;
            tr->unmarked = true;
            /* Relaxed load + store: only we write it; writers read a recent value. */
            atomic_store_explicit(&tr->dropped,
                                  atomic_load_explicit(&tr->dropped, memory_order_relaxed) + 1,
                                  memory_order_relaxed);
            return;
        }
    }
    if (tr->unmarked) {
        /* Relaxed: our own count. */
        uint64_t dropped = atomic_load_explicit(&tr->dropped, memory_order_relaxed);
        tr->ev[tr->at] =
            (trace_event){tr->unmarked_from, e->start, 0, dropped, 0, EV_DROPPED, 0, 0};
        if (++tr->at == tr->cap)
            tr->at = 0;
        n++;
        tr->unmarked = false;
    }
    tr->ev[tr->at] = *e;
    if (++tr->at == tr->cap)
        tr->at = 0;
    /* The next lines were last touched a whole ring ago, or read since by
     * the stream's thread on another CPU: asked for a few events ahead,
     * so that the store does not wait for them. */
    uint32_t ahead = tr->at + TRACE_PREFETCH_AHEAD;
    weft_prefetch_for_write(&tr->ev[ahead < tr->cap ? ahead : ahead - tr->cap]);
    /* Release: the events' contents before a writer that reads the count. */
    atomic_store_explicit(&tr->n, n + 1, memory_order_release);
}

static bool counts_work(int state)
{
    return state == WEFT_TRACE_RUNNING || state == WEFT_TRACE_BATCH;
}

/* Owner: ends the open slice at `now` and opens one in `state`, its frame
 * `opened` as TRACE_OPENED_* says. */
static void switch_state(weft_trace_track *tr, int state, uintptr_t task, int how, int opened,
                         weft_trace_counts counts, uint64_t now)
{
    if (tr->state != WEFT_TRACE_NONE) {
        trace_event e = {tr->start, now, tr->task, 0, 0, tr->state, tr->how, tr->opened};
        if (counts_work(tr->state))
            e.count = counts.work == COUNT_UNKNOWN ? COUNT_UNKNOWN : counts.work - tr->base.work;
        else
            e.count = counts.fails - tr->base.fails;
        append(tr, &e);
    }
    tr->state = (uint8_t)state;
    tr->how = (uint8_t)how;
    tr->opened = (uint8_t)opened;
    tr->task = task;
    tr->start = now;
    tr->base = counts;
}

static void instant(weft_trace_track *tr, int kind, unsigned peer, uint64_t count, uintptr_t ptr,
                    uint64_t now)
{
    trace_event e = {now, now, ptr, count, peer, (uint8_t)kind, 0, 0};
    append(tr, &e);
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

void weft__trace_task_begin_slow(weft_worker *w, weft_trace_frame *f, int how, uintptr_t wrapper,
                                 weft_worker *victim, const void *task)
{
    weft_trace_track *tr = weft_trace_of(w);
    uint64_t now = weft_now_ns();
    save(tr, f);
    weft_trace_counts c = worker_counts(w, tr);
    switch_state(tr, WEFT_TRACE_NONE, 0, 0, TRACE_OPENED_PUSH, c, now);
    if (victim && (how == WEFT_TRACE_BY_STEAL || how == WEFT_TRACE_BY_LEAP))
        instant(tr, how == WEFT_TRACE_BY_LEAP ? EV_LEAP : EV_STEAL, victim->id, 0, 0, now);
    if (task && how == WEFT_TRACE_BY_RUN)
        instant(tr, EV_RUN_TAKEN, 0, 0, (uintptr_t)task, now);
    switch_state(tr, WEFT_TRACE_RUNNING, wrapper, how, TRACE_OPENED_PUSH, c, now);
}

void weft__trace_push_slow(weft_worker *w, weft_trace_frame *f, int state)
{
    weft_trace_track *tr = weft_trace_of(w);
    save(tr, f);
    switch_state(tr, state, 0, 0, TRACE_OPENED_PUSH, worker_counts(w, tr), weft_now_ns());
}

void weft__trace_pop_slow(weft_worker *w, const weft_trace_frame *f)
{
    weft_trace_track *tr = weft_trace_of(w);
    /* A task's slice taken up again is not started again: one slice per
     * steal, leap or RUN carries what started it. */
    int how = f->state == WEFT_TRACE_RUNNING ? WEFT_TRACE_RESUMED : f->how;
    switch_state(tr, f->state, f->task, how, TRACE_OPENED_POP, worker_counts(w, tr), weft_now_ns());
}

void weft__trace_set_slow(weft_worker *w, int state)
{
    weft_trace_track *tr = weft_trace_of(w);
    if (tr->state != state)
        switch_state(tr, state, 0, 0, TRACE_OPENED_SET, worker_counts(w, tr), weft_now_ns());
}

void weft__trace_steal_failed_slow(weft_worker *w) { weft_trace_of(w)->fails++; }

void weft__trace_wake_slow(weft_worker *self, weft_worker *woken)
{
    instant(weft_trace_of(self), EV_WAKE, woken->id, 0, 0, weft_now_ns());
}

void weft__trace_interrupt_slow(weft_worker *w, int newframe)
{
    instant(weft_trace_of(w), newframe ? EV_NEWFRAME : EV_TOGETHER, 0, 0, 0, weft_now_ns());
}

void weft__trace_worker_exit(weft_worker *w)
{
    weft_trace_track *tr = weft_trace_of(w);
    if (tr)
        switch_state(tr, WEFT_TRACE_NONE, 0, 0, TRACE_OPENED_SET, worker_counts(w, tr),
                     weft_now_ns());
}

bool weft__trace_external_on(void)
{
    /* Relaxed: see `recording`. */
    return atomic_load_explicit(&recording, memory_order_relaxed) != 0;
}

bool weft__trace_session_on(void)
{
    /* Acquire: pairs with end_session_locked's release. */
    return atomic_load_explicit(&recording, memory_order_acquire) != 0;
}

bool weft__trace_streaming_to(char *path, size_t cap)
{
    pthread_mutex_lock(&lock);
    bool on = session.active && session.streamed && session.path && cap > 0;
    if (on)
        snprintf(path, cap, "%s", session.path);
    pthread_mutex_unlock(&lock);
    return on;
}

/* The canonical name of a file that may not exist yet: its directory
 * resolved, its own name kept; false if the directory cannot be. */
static bool canonical_file_name(const char *path, char *out, size_t cap)
{
    if (realpath(path, out) != NULL)
        return true;
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    char resolved[PATH_MAX];
    if (realpath(dir, resolved) == NULL)
        return false;
    int n = snprintf(out, cap, "%s/%s", resolved, slash ? slash + 1 : path);
    return n > 0 && (size_t)n < cap;
}

/* Where the symbolic links from `path` lead, the last name possibly not
 * existing yet (at most 40 links, as the kernel follows); false if a link
 * cannot be read or the chain is longer. */
static bool follow_links(const char *path, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s", path);
    if (n < 0 || (size_t)n >= cap)
        return false;
    for (int links = 0; links < 40; links++) {
        struct stat st;
        if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode))
            return true;
        char target[PATH_MAX];
        ssize_t len = readlink(out, target, sizeof target - 1);
        if (len < 0)
            return false;
        target[len] = '\0';
        const char *slash = strrchr(out, '/');
        char next[PATH_MAX];
        if (target[0] == '/' || slash == NULL)
            n = snprintf(next, sizeof next, "%s", target);
        else
            n = snprintf(next, sizeof next, "%.*s/%s", (int)(slash - out), out, target);
        if (n < 0 || (size_t)n >= sizeof next || (size_t)n >= cap)
            return false;
        memcpy(out, next, (size_t)n + 1);
    }
    return false;
}

/* Do two paths name one file: the same file when both exist (a hard
 * link too), else the same name once links and directories are
 * resolved (a link to a file not written yet). */
static bool same_file(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return true;
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char la[PATH_MAX], lb[PATH_MAX], ca[PATH_MAX], cb[PATH_MAX];
    return follow_links(a, la, sizeof la) && follow_links(b, lb, sizeof lb) &&
           canonical_file_name(la, ca, sizeof ca) && canonical_file_name(lb, cb, sizeof cb) &&
           strcmp(ca, cb) == 0;
}

/* The files this process's earlier sessions wrote (a pool started again
 * writes its timeline to a file of its own: env_session_path), the
 * newest EARLIER_FILES of them, under `lock`. */
#define EARLIER_FILES 64u
static char *earlier_files[EARLIER_FILES];
static unsigned n_earlier_files;

static void remember_file_locked(const char *path)
{
    char *copy = path ? strdup(path) : NULL;
    if (!copy)
        return;
    unsigned slot = n_earlier_files++ % EARLIER_FILES;
    free(earlier_files[slot]);
    earlier_files[slot] = copy;
}

bool weft__trace_writes_to(const char *path)
{
    pthread_mutex_lock(&lock);
    bool same = path && session.active && session.path && same_file(session.path, path);
    unsigned kept_files = n_earlier_files < EARLIER_FILES ? n_earlier_files : EARLIER_FILES;
    for (unsigned i = 0; path && !same && i < kept_files; i++)
        same = same_file(earlier_files[i], path);
    pthread_mutex_unlock(&lock);
    return same;
}

/* The most RUNs from outside one trace keeps (they stay in memory until
 * it is written). */
static size_t max_external_runs(void)
{
    uint64_t n = kept.events_per_track * EXTERNAL_RUNS_PER_EVENT;
    return n > EXTERNAL_RUNS_FLOOR ? (size_t)n : EXTERNAL_RUNS_FLOOR;
}

/* Under `lock`: room for one more RUN from outside; false if none. */
static bool external_room_locked(void)
{
    if (kept.n_externals < kept.cap_externals)
        return true;
    size_t max = max_external_runs();
    if (kept.cap_externals >= max)
        return false;
    size_t cap = kept.cap_externals ? 2 * kept.cap_externals : FIRST_EXTERNAL_RUNS;
    if (cap > max)
        cap = max;
    external_run *grown = realloc(kept.externals, cap * sizeof *grown);
    if (!grown)
        return false;
    kept.externals = grown;
    kept.cap_externals = cap;
    return true;
}

void weft__trace_external_run(const void *task, uint64_t start, uint64_t end)
{
    long tid = (long)syscall(SYS_gettid);
    pthread_mutex_lock(&lock);
    if (external_room_locked())
        kept.externals[kept.n_externals++] = (external_run){tid, start, end, (uintptr_t)task};
    else
        kept.externals_dropped++;
    pthread_mutex_unlock(&lock);
}

/* The RUNs from outside a trace could not keep, said when it is written
 * (the file says so too: its end of trace's external_runs_dropped). */
static void warn_externals_dropped(const char *path)
{
    if (kept.externals_dropped == 0)
        return;
    weft__warn("tracing: %s: %llu RUNs from threads outside the pool are not in the trace: it "
               "keeps %zu of them (%u for each event a track holds, WEFT_TRACE_EVENTS=%llu, and "
               "at least %u); raise WEFT_TRACE_EVENTS to keep more",
               path, (unsigned long long)kept.externals_dropped, kept.n_externals,
               EXTERNAL_RUNS_PER_EVENT, (unsigned long long)kept.events_per_track,
               EXTERNAL_RUNS_FLOOR);
}

/* ------------------------------------------------------------------------
 * Streaming: a session whose file is Perfetto's
 * ------------------------------------------------------------------------ */

/* Relaxed: a request to return; what the thread writes is under stream.lock. */
static _Atomic bool stream_quit;
/* The thread's passes that have drained and flushed every source. */
static _Atomic uint64_t stream_passes;

uint64_t weft__trace_stream_passes(void)
{
    /* Acquire: pairs with the release after a pass: its flush is done. */
    return atomic_load_explicit(&stream_passes, memory_order_acquire);
}

/* Under stream.lock: the events of every source not written yet, then
 * consumed (the owners may write over them). */
static void stream_drain_locked(void)
{
    for (size_t i = 0; i < stream.n_src; i++) {
        stream_source *src = &stream.src[i];
        if (src->ended)
            continue;
        weft_trace_track *tr = src->track;
        /* Acquire: pairs with the owner's release of the count: the events
         * below it are written. */
        uint64_t n = atomic_load_explicit(&tr->n, memory_order_acquire);
        /* Relaxed: while the session streams only the stream stores it
         * (under stream.lock, which we hold). */
        uint64_t from = atomic_load_explicit(&tr->consumed, memory_order_relaxed);
        if (n == from)
            continue;
        weft__pf_records(stream.pf, src->encoder, tr->ev, tr->cap, from, n);
        /* Release: our reads of those events come before the owner, which
         * loads this with acquire, writes over them. */
        atomic_store_explicit(&tr->consumed, n, memory_order_release);
    }
    weft__pf_flush(stream.pf);
}

static void *stream_main(void *arg)
{
    (void)arg;
    /* Relaxed: see stream_quit. */
    while (!atomic_load_explicit(&stream_quit, memory_order_relaxed)) {
        struct timespec period = {0, STREAM_PERIOD_NS};
        nanosleep(&period, NULL);
        pthread_mutex_lock(&stream.lock);
        if (stream.pf)
            stream_drain_locked();
        pthread_mutex_unlock(&stream.lock);
        /* Release: a reader of the count sees this pass's flush done. */
        atomic_fetch_add_explicit(&stream_passes, 1, memory_order_release);
    }
    return NULL;
}

/* Under `lock`, as the session starts: its file, and the thread that
 * writes it (without the thread, the events are written at the end, and
 * what does not fit in the buffers is dropped). */
static int stream_start_locked(const char *path)
{
    int err = 0;
    weft__pf *pf = weft__pf_open(path, session.t0, &err);
    if (!pf)
        return err;
    pthread_mutex_lock(&stream.lock);
    stream.pf = pf;
    pthread_mutex_unlock(&stream.lock);
    /* Relaxed: see stream_quit (the thread starts after this store). */
    atomic_store_explicit(&stream_quit, false, memory_order_relaxed);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    /* Its own stack size: not the one `ulimit -s` would give. */
    pthread_attr_setstacksize(&attr, (size_t)256 << 10);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the program's signals are not for it */
    int e = pthread_create(&stream.thread, &attr, stream_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    stream.thread_on = e == 0;
    if (e)
        weft__warn("tracing: cannot start the thread that writes %s (%s): the events are written "
                   "at the end, and those that do not fit in the buffers are dropped",
                   path, strerror(e));
    return 0;
}

/* Under `lock`: a track whose events the stream writes, as worker `index`
 * of `group` (0: the fork-join pool; 1 + k: work pool run k), from its
 * next event on. */
static void stream_add_locked(weft_trace_track *tr, unsigned group, unsigned index,
                              const char *name)
{
    pthread_mutex_lock(&stream.lock);
    if (stream.n_src == stream.cap_src) {
        size_t cap = stream.cap_src ? 2 * stream.cap_src : 16;
        stream_source *src = realloc(stream.src, cap * sizeof *src);
        if (!src) {
            pthread_mutex_unlock(&stream.lock);
            weft__warn("tracing: no memory for a track of %s; it is not written", session.path);
            return;
        }
        stream.src = src;
        stream.cap_src = cap;
    }
    weft__pf_track *enc = weft__pf_track_new(stream.pf, group, index, name, tr->base_dropped);
    if (!enc) {
        pthread_mutex_unlock(&stream.lock);
        weft__warn("tracing: no memory for a track of %s; it is not written", session.path);
        return;
    }
    stream.src[stream.n_src++] = (stream_source){tr, enc, false, 0};
    pthread_mutex_unlock(&stream.lock);
}

/* Under stream.lock: a source's last events are written and its open
 * slices closed; the stream lets go of its track. */
static void stream_end_source_locked(stream_source *src)
{
    const weft_trace_track *tr = src->track;
    /* Relaxed: a count (its owner is done, or records no more once the
     * session ends). */
    uint64_t total = atomic_load_explicit(&tr->dropped, memory_order_relaxed);
    weft__pf_track_end(stream.pf, src->encoder, total);
    src->dropped = total - tr->base_dropped;
    src->ended = true;
    src->track = NULL;
}

/* Under `lock`: these tracks end (a work pool run is over, or the
 * fork-join workers' tracks are about to be freed). */
static void stream_end_group_locked(const weft_trace_track *const *tracks, size_t n)
{
    pthread_mutex_lock(&stream.lock);
    stream_drain_locked();
    for (size_t i = 0; i < stream.n_src; i++)
        for (size_t k = 0; k < n; k++)
            if (!stream.src[i].ended && stream.src[i].track == tracks[k])
                stream_end_source_locked(&stream.src[i]);
    weft__pf_flush(stream.pf);
    pthread_mutex_unlock(&stream.lock);
}

static void warn_stream_dropped(const char *path, uint64_t dropped, size_t tracks)
{
    weft__warn("tracing: %s: %llu events were dropped on %zu track%s, where the thread that "
               "writes the trace fell behind; the trace marks each gap (\"buffer full: events "
               "dropped\").  Each track holds WEFT_TRACE_EVENTS=%llu events between writes: "
               "raise it to keep more",
               path, (unsigned long long)dropped, tracks, tracks == 1 ? "" : "s",
               (unsigned long long)kept.events_per_track);
}

static int compare_external_start(const void *a, const void *b)
{
    const external_run *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Under `lock`: the streamed session's end: the thread stops, the rest is
 * written, then the outside threads' RUNs and the summary; 0 or errno. */
static int stream_finish_locked(const weft_stats *counters)
{
    /* Relaxed: see `recording` (what workers append after the last
     * drain is not the session's). */
    atomic_store_explicit(&recording, 0, memory_order_relaxed);
    if (stream.thread_on) {
        /* Relaxed: see stream_quit (pthread_join orders the rest). */
        atomic_store_explicit(&stream_quit, true, memory_order_relaxed);
        pthread_join(stream.thread, NULL);
        stream.thread_on = false;
    }
    pthread_mutex_lock(&stream.lock);
    stream_drain_locked();
    weft__pf_summary summary = {0, kept.externals_dropped, kept.pool_runs_untraced, counters};
    size_t dropping = 0;
    for (size_t i = 0; i < stream.n_src; i++) {
        if (!stream.src[i].ended)
            stream_end_source_locked(&stream.src[i]);
        summary.dropped += stream.src[i].dropped;
        dropping += stream.src[i].dropped != 0;
    }
    if (kept.n_externals)
        qsort(kept.externals, kept.n_externals, sizeof *kept.externals, compare_external_start);
    for (size_t k = 0; k < kept.n_externals; k++)
        weft__pf_external(stream.pf, &kept.externals[k]);
    int err = weft__pf_close(stream.pf, &summary);
    stream.pf = NULL;
    free(stream.src);
    stream.src = NULL;
    stream.n_src = stream.cap_src = 0;
    pthread_mutex_unlock(&stream.lock);
    if (!err && summary.dropped)
        warn_stream_dropped(session.path, summary.dropped, dropping);
    return err;
}

static bool streaming_locked(void)
{
    pthread_mutex_lock(&stream.lock);
    bool on = stream.pf != NULL;
    pthread_mutex_unlock(&stream.lock);
    return on;
}

/* A session not streamed, written in Perfetto's format from its buffers
 * (weft_trace_write, or a stop, to a .pftrace path); 0 or errno. */
static int write_perfetto_locked(const char *path, bool live, const weft_stats *counters)
{
    int err = 0;
    weft__pf *pf = weft__pf_open(path, session.t0, &err);
    if (!pf)
        return err;
    weft__pf_summary summary = {0, kept.externals_dropped, kept.pool_runs_untraced, counters};
    char label[128];
    if (live && fj_workers) {
        weft__trace_fork_join_label(label, sizeof label, fj_n);
        weft__pf_group(pf, 0, label);
    }
    for (unsigned i = 0; live && fj_workers && i < fj_n; i++) {
        /* Relaxed: published before (the pool is held or stopping). */
        weft_trace_track *tr = atomic_load_explicit(&fj_workers[i]->trace, memory_order_relaxed);
        if (!tr)
            continue;
        snprintf(label, sizeof label, "worker %u", i);
        weft__pf_track *enc = weft__pf_track_new(pf, 0, i, label, tr->base_dropped);
        /* Acquire: pairs with the owner's release of the count. */
        uint64_t n = atomic_load_explicit(&tr->n, memory_order_acquire);
        /* Relaxed: set under `lock`, which we hold. */
        uint64_t from = atomic_load_explicit(&tr->consumed, memory_order_relaxed);
        weft__pf_records(pf, enc, tr->ev, tr->cap, from < n ? from : n, n);
        /* Relaxed: a count. */
        uint64_t total = atomic_load_explicit(&tr->dropped, memory_order_relaxed);
        weft__pf_track_end(pf, enc, total);
        summary.dropped += total - tr->base_dropped;
    }
    /* The pool runs, oldest first (the list, of at most MAX_POOL_RUNS, is
     * newest first). */
    weft_trace_pool_run *oldest_first[MAX_POOL_RUNS];
    unsigned runs = 0;
    for (weft_trace_pool_run *r = kept.pool_runs; r && runs < MAX_POOL_RUNS; r = r->next)
        oldest_first[runs++] = r;
    for (unsigned k = runs; k-- > 0;) {
        weft_trace_pool_run *run = oldest_first[k];
        weft__trace_pool_run_label(label, sizeof label, run->index, run->queue, run->half,
                                   run->workers);
        weft__pf_group(pf, 1 + run->index, label);
        for (unsigned i = 0; i < run->workers; i++) {
            weft_trace_track *tr = run->tracks[i];
            snprintf(label, sizeof label, "pool worker %u", i);
            weft__pf_track *enc = weft__pf_track_new(pf, 1 + run->index, i, label, 0);
            /* Acquire: pairs with the owner's release of the count. */
            uint64_t n = atomic_load_explicit(&tr->n, memory_order_acquire);
            weft__pf_records(pf, enc, tr->ev, tr->cap, 0, n);
            /* Relaxed: a count; the run is over. */
            uint64_t total = atomic_load_explicit(&tr->dropped, memory_order_relaxed);
            weft__pf_track_end(pf, enc, total);
            summary.dropped += total;
        }
        weft__pf_pool_end(pf, 1 + run->index, run->ended, &run->stats);
    }
    if (kept.n_externals)
        qsort(kept.externals, kept.n_externals, sizeof *kept.externals, compare_external_start);
    for (size_t k = 0; k < kept.n_externals; k++)
        weft__pf_external(pf, &kept.externals[k]);
    err = weft__pf_close(pf, &summary);
    if (!err && summary.dropped)
        weft__warn("tracing: %s: %llu events did not fit and were dropped; each track holds "
                   "WEFT_TRACE_EVENTS=%llu events, raise it to keep more (a session started with "
                   "this file's name streams it, and keeps them all)",
                   path, (unsigned long long)summary.dropped,
                   (unsigned long long)kept.events_per_track);
    return err;
}

/* ------------------------------------------------------------------------
 * Tracks for the work pool (src/workpool)
 * ------------------------------------------------------------------------ */

void weft__trace_track_set(weft_trace_track *tr, int state, weft_trace_counts counts)
{
    if (tr->state != state)
        switch_state(tr, state, 0, 0, TRACE_OPENED_SET, counts, weft_now_ns());
}

void weft__trace_track_push(weft_trace_track *tr, weft_trace_frame *f, int state,
                            weft_trace_counts counts)
{
    save(tr, f);
    switch_state(tr, state, 0, 0, TRACE_OPENED_PUSH, counts, weft_now_ns());
}

void weft__trace_track_pop(weft_trace_track *tr, const weft_trace_frame *f,
                           weft_trace_counts counts)
{
    switch_state(tr, f->state, f->task, f->how, TRACE_OPENED_POP, counts, weft_now_ns());
}

void weft__trace_track_steal(weft_trace_track *tr, bool transfer, unsigned victim, uint64_t items,
                             weft_trace_counts counts)
{
    /* The items stolen are processed from here on: the batch starts at
     * the arrow. */
    uint64_t now = weft_now_ns();
    if (tr->state != WEFT_TRACE_BATCH)
        switch_state(tr, WEFT_TRACE_BATCH, 0, 0, TRACE_OPENED_SET, counts, now);
    instant(tr, transfer ? EV_POOL_TRANSFER : EV_POOL_STEAL, victim, items, 0, now);
}

void weft__trace_track_wake(weft_trace_track *tr, unsigned woken)
{
    instant(tr, EV_WAKE, woken, 0, 0, weft_now_ns());
}

static int start_session_locked(const char *path, bool from_env);

weft_trace_pool_run *weft__trace_pool_begin(unsigned workers, const char *queue, bool half)
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
    if (kept.pool_runs_kept == MAX_POOL_RUNS) {
        if (kept.pool_runs_untraced++ == 0)
            weft__warn("tracing: a trace keeps %u work pool runs; the later ones are counted in "
                       "it (pool_runs_not_traced), not traced",
                       MAX_POOL_RUNS);
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    run = calloc(1, sizeof *run + workers * sizeof run->tracks[0]);
    if (run) {
        run->index = kept.pool_runs_kept;
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
        kept.pool_runs_kept++;
        if (streaming_locked()) {
            char label[128];
            weft__trace_pool_run_label(label, sizeof label, run->index, run->queue, run->half,
                                       run->workers);
            pthread_mutex_lock(&stream.lock);
            weft__pf_group(stream.pf, 1 + run->index, label);
            pthread_mutex_unlock(&stream.lock);
            for (unsigned i = 0; i < workers; i++) {
                snprintf(label, sizeof label, "pool worker %u", i);
                stream_add_locked(run->tracks[i], 1 + run->index, i, label);
            }
        }
    } else {
        kept.pool_runs_untraced++;
        weft__warn("tracing: no memory for a work pool run's tracks; it is not traced");
    }
    pthread_mutex_unlock(&lock);
    return run;
}

weft_trace_track *weft__trace_pool_track(weft_trace_pool_run *run, unsigned worker)
{
    return run ? run->tracks[worker] : NULL;
}

static void free_pool_run(weft_trace_pool_run *run)
{
    for (unsigned i = 0; i < run->workers; i++)
        track_free(run->tracks[i]);
    free(run);
}

static int write_locked(const char *path, bool live, const weft_stats *counters, bool ending);

void weft__trace_pool_end(weft_trace_pool_run *run, const weft_trace_pool_counts *stats)
{
    if (!run)
        return;
    pthread_mutex_lock(&lock);
    if (!stats || !session.active || run->session != session.id) {
        /* It failed, or its session was written meanwhile: a stream
         * still draining its tracks lets go of them first. */
        if (session.active && run->session == session.id && streaming_locked())
            stream_end_group_locked((const weft_trace_track *const *)run->tracks, run->workers);
        free_pool_run(run);
    } else {
        run->stats = *stats;
        run->ended = weft_now_ns();
        run->finished = true;
        run->next = kept.pool_runs;
        kept.pool_runs = run;
        /* A program without the fork-join pool running: the file is
         * rewritten after each run (a streamed one has the run's end
         * written), so it is complete when the program ends; a fork-join
         * pool that runs writes it at its stop. */
        if (streaming_locked()) {
            /* Written: the run keeps only its counters. */
            stream_end_group_locked((const weft_trace_track *const *)run->tracks, run->workers);
            pthread_mutex_lock(&stream.lock);
            weft__pf_pool_end(stream.pf, 1 + run->index, run->ended, &run->stats);
            weft__pf_flush(stream.pf);
            pthread_mutex_unlock(&stream.lock);
            for (unsigned i = 0; i < run->workers; i++) {
                track_free(run->tracks[i]);
                run->tracks[i] = NULL;
            }
        } else if (session.from_env && session.path && !fj_workers)
            write_locked(session.path, false, NULL, false);
    }
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------------
 * Sessions
 * ------------------------------------------------------------------------ */

static void free_session_data_locked(void)
{
    while (kept.pool_runs) {
        weft_trace_pool_run *next = kept.pool_runs->next;
        free_pool_run(kept.pool_runs);
        kept.pool_runs = next;
    }
    kept.pool_runs_kept = kept.pool_runs_untraced = 0;
    kept.n_externals = 0;
    kept.externals_dropped = 0;
}

/* Gives the running pool's workers their tracks (they stay allocated
 * until weft__trace_at_stop, which takes the lock).  Existing tracks start
 * the session where they are. */
static int give_tracks_locked(void)
{
    for (unsigned i = 0; fj_workers && i < fj_n; i++) {
        weft_worker *w = fj_workers[i];
        /* Relaxed: only this function (under the lock) stores it. */
        weft_trace_track *tr = atomic_load_explicit(&w->trace, memory_order_relaxed);
        if (tr) {
            /* Acquire: pairs with the worker's release of the count. */
            uint64_t n = atomic_load_explicit(&tr->n, memory_order_acquire);
            /* Release: the session's start before the owner, which loads
             * it with acquire when its room runs out, uses the room. */
            atomic_store_explicit(&tr->consumed, n, memory_order_release);
            /* Relaxed: a count. */
            tr->base_dropped = atomic_load_explicit(&tr->dropped, memory_order_relaxed);
        } else {
            if (!(tr = track_new()))
                return ENOMEM;
            /* Release: the track's buffer before the worker that loads the
             * pointer (acquire, weft_trace_of) writes to it. */
            atomic_store_explicit(&w->trace, tr, memory_order_release);
            fork_join_tracks = true;
        }
        if (streaming_locked()) {
            char label[128];
            if (i == 0) {
                weft__trace_fork_join_label(label, sizeof label, fj_n);
                pthread_mutex_lock(&stream.lock);
                weft__pf_group(stream.pf, 0, label);
                pthread_mutex_unlock(&stream.lock);
            }
            snprintf(label, sizeof label, "worker %u", i);
            stream_add_locked(tr, 0, i, label);
        }
    }
    return 0;
}

static void end_session_locked(void);
static bool finish_registered;

/* At exit, WEFT_TRACE's session of a program that ran only work pools: a
 * streamed one is finished (its summary written, its drops reported); a
 * JSON one, rewritten after each traced run, is written once more if
 * runs were counted since, untraced. */
static void finish_at_exit(void)
{
    pthread_mutex_lock(&lock);
    if (session.active && session.streamed && !fj_workers) {
        stream_finish_locked(NULL);
        end_session_locked();
    } else if (session.active && session.from_env && session.path && !fj_workers &&
               kept.pool_runs_untraced > 0) {
        write_locked(session.path, false, NULL, false);
    }
    pthread_mutex_unlock(&lock);
}

/* The file of WEFT_TRACE's session number n (from 1) of this process: the
 * path itself for the first; for a pool the program starts again, the
 * path with ".<n>" before its extension (trace.2.pftrace; .trace.2 for a
 * name that starts with a dot), said once.
 * NULL when memory is short (then the path itself). */
static char *env_session_path(const char *path, unsigned n)
{
    if (n <= 1)
        return NULL;
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    if (dot == name) /* a name that starts with a dot (.trace): no extension */
        dot = NULL;
    size_t stem = dot ? (size_t)(dot - path) : strlen(path);
    size_t len = strlen(path) + 16;
    char *numbered = malloc(len);
    if (!numbered)
        return NULL;
    snprintf(numbered, len, "%.*s.%u%s", (int)stem, path, n, dot ? dot : "");
    if (n == 2)
        weft__warn("tracing: the program starts its pool again: each pool's trace goes to a file "
                   "of its own, this one's to %s (%s holds the first)",
                   numbered, path);
    return numbered;
}

/* 0, or the errno of a streamed session's file that cannot be opened (a
 * message given; no session then). */
static int start_session_locked(const char *path, bool from_env)
{
    free_session_data_locked();
    ended_at_stop = false;
    if (session.path)
        remember_file_locked(session.path);
    free(session.path);
    char *numbered = from_env && path ? env_session_path(path, ++env_sessions) : NULL;
    session.path = numbered ? numbered : path ? strdup(path) : NULL;
    path = session.path;
    session.from_env = from_env;
    session.whole_pool = false;
    session.active = true;
    session.id++;
    session.t0 = weft_now_ns();
    session.streamed = path && weft__pf_path(path);
    if (session.streamed) {
        int err = stream_start_locked(path);
        if (err) {
            session.active = false;
            session.streamed = false;
            return err;
        }
        /* Another process held `path`: the session's file is the one
         * written (its messages, weft_trace_write's test). */
        pthread_mutex_lock(&stream.lock);
        const char *file = weft__pf_file(stream.pf);
        if (strcmp(file, session.path) != 0) {
            char *copy = strdup(file);
            if (copy) {
                free(session.path);
                session.path = copy;
            }
        }
        pthread_mutex_unlock(&stream.lock);
    }
    if (from_env && !fj_workers && !finish_registered) {
        /* A program that runs only work pools has no stop that finishes
         * the file: its exit does. */
        finish_registered = atexit(finish_at_exit) == 0;
    }
    /* Relaxed: see `recording`. */
    atomic_store_explicit(&recording, 1, memory_order_relaxed);
    return 0;
}

int weft_trace_start(const char *path)
{
    pthread_mutex_lock(&lock);
    if (session.active) {
        pthread_mutex_unlock(&lock);
        return EBUSY;
    }
    int err = start_session_locked(path, false);
    if (err) {
        pthread_mutex_unlock(&lock);
        return err;
    }
    err = give_tracks_locked();
    if (err) {
        if (streaming_locked())
            stream_finish_locked(NULL);
        session.active = false;
        /* Relaxed: see `recording`. */
        atomic_store_explicit(&recording, 0, memory_order_relaxed);
        weft__warn("weft_trace_start: no memory for the workers' tracks");
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
    /* Release: a session's file (written before it ends, at weft_stop) is
     * whole when the exit handler sees it ended (weft__trace_session_on)
     * and lets the process end. */
    atomic_store_explicit(&recording, 0, memory_order_release);
    session.active = false;
    free_session_data_locked();
}

int weft_trace_stop(void)
{
    pthread_mutex_lock(&lock);
    if (!session.active) {
        int err = ended_at_stop ? ended_at_stop_err : EINVAL;
        ended_at_stop = false;
        pthread_mutex_unlock(&lock);
        return err;
    }
    int err = 0;
    if (session.path)
        err = write_locked(session.path, fj_workers != NULL, NULL, true);
    end_session_locked();
    pthread_mutex_unlock(&lock);
    return err;
}

int weft_trace_write(const char *path)
{
    if (!path) {
        weft__warn("weft_trace_write: path is NULL");
        return EINVAL;
    }
    pthread_mutex_lock(&lock);
    if (session.id == 0) {
        pthread_mutex_unlock(&lock);
        weft__warn("weft_trace_write: nothing has been traced (weft_trace_start, or "
                   "WEFT_TRACE=<file>)");
        return EINVAL;
    }
    int err;
    if (!session.active && session.streamed) {
        weft__warn("weft_trace_write: the last session was streamed to %s, which holds its "
                   "events; none are kept for another file",
                   session.path);
        err = EINVAL;
    } else if (!session.active) {
        /* Its events were let go of when it ended. */
        if (session.path)
            weft__warn("weft_trace_write: no recording is in progress; the last one was written "
                       "to %s when it ended (weft_trace_stop or weft_stop), and its events are "
                       "not kept: write before that",
                       session.path);
        else
            weft__warn("weft_trace_write: no recording is in progress; the last one ended "
                       "(weft_trace_stop or weft_stop) and its events are not kept: write "
                       "before that");
        err = EINVAL;
    } else {
        err = write_locked(path, fj_workers != NULL, NULL, false);
    }
    pthread_mutex_unlock(&lock);
    return err;
}

void weft__trace_at_start(weft_worker *const *workers, unsigned n)
{
    pthread_mutex_lock(&lock);
    fj_workers = workers;
    fj_n = n;
    if (!session.active && env_path)
        start_session_locked(env_path, true);
    session.whole_pool = session.active;
    if (session.active && give_tracks_locked() != 0) {
        /* The pool runs all the same, untraced: the session ends here (a
         * streamed file is finished, with what it holds). */
        weft__warn("%s: no memory for the workers' trace buffers (WEFT_TRACE_EVENTS=%llu events "
                   "each): the pool runs untraced; lower WEFT_TRACE_EVENTS to trace it",
                   weft__words()->start, (unsigned long long)kept.events_per_track);
        if (session.streamed)
            stream_finish_locked(NULL);
        end_session_locked();
    }
    pthread_mutex_unlock(&lock);
}

/* weft_stop, with the workers joined and still allocated: the session,
 * whichever call started it, is written with their tracks and ends (a
 * new one may start; the next pool is not traced without one). */
void weft__trace_at_stop(bool write, const weft_stats *counters)
{
    pthread_mutex_lock(&lock);
    if (write && session.active) {
        /* The pool's counters count from its start: a recording begun later
         * gets none rather than more than it holds. */
        const weft_stats *own = session.whole_pool ? counters : NULL;
        ended_at_stop_err = session.path ? write_locked(session.path, true, own, true) : 0;
        ended_at_stop = true;
        end_session_locked();
    }
    if (fork_join_tracks && fj_workers && streaming_locked()) {
        /* The session goes on without this pool: the stream lets go of
         * its tracks before they are freed. */
        for (unsigned i = 0; i < fj_n; i++) {
            /* Relaxed: the workers have been joined. */
            const weft_trace_track *tr =
                fj_workers[i] ? atomic_load_explicit(&fj_workers[i]->trace, memory_order_relaxed)
                              : NULL;
            if (tr)
                stream_end_group_locked(&tr, 1);
        }
    }
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

/* Writes the session to path (trace_write.c, or trace_perfetto.c for
 * its paths).  live: with the fork-join workers' tracks (fj_workers:
 * running, or stopping with its workers still allocated); counters: the
 * runtime's at a stop (NULL: none to compare); ending: the session ends
 * with this write; streamed: the session streams to its file (the
 * caller's one reading of streaming_locked).  A streamed session is
 * written as it goes: at its end it is finished, and before, its own path
 * is brought up to date. */
static int write_file_locked(const char *path, bool live, const weft_stats *counters, bool ending,
                             bool streamed);

static int write_locked(const char *path, bool live, const weft_stats *counters, bool ending)
{
    bool streamed = streaming_locked();
    int err = write_file_locked(path, live, counters, ending, streamed);
    if (!err && ending)
        warn_externals_dropped(streamed ? session.path : path);
    return err;
}

static int write_file_locked(const char *path, bool live, const weft_stats *counters, bool ending,
                             bool streamed)
{
    if (streamed) {
        if (ending)
            return stream_finish_locked(counters);
        if (strcmp(path, session.path) != 0) {
            weft__warn("weft_trace_write: this session streams to %s as it records and keeps no "
                       "events for another file; weft_trace_write(\"%s\") brings that file up to "
                       "date",
                       session.path, session.path);
            return EINVAL;
        }
        pthread_mutex_lock(&stream.lock);
        stream_drain_locked();
        int err = weft__pf_flush(stream.pf);
        pthread_mutex_unlock(&stream.lock);
        return err;
    }
    if (weft__pf_path(path))
        return write_perfetto_locked(path, live, counters);
    weft__trace_file file = {
        .t0 = session.t0,
        .workers = live ? fj_workers : NULL,
        .n_workers = live && fj_workers ? fj_n : 0,
        .pool_runs = kept.pool_runs,
        .pool_runs_untraced = kept.pool_runs_untraced,
        .externals = kept.externals,
        .n_externals = kept.n_externals,
        .externals_dropped = kept.externals_dropped,
        .events_per_track = kept.events_per_track,
        .counters = counters,
    };
    return weft__trace_write_file(path, &file);
}

#else /* !WEFT_TRACE */

void weft__trace_forget_in_child(void) {}

uint64_t weft__trace_stream_passes(void) { return 0; }

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

bool weft__trace_streaming_to(char *path, size_t cap)
{
    (void)path;
    (void)cap;
    return false;
}

bool weft__trace_writes_to(const char *path)
{
    (void)path;
    return false;
}

void weft__trace_at_start(weft_worker *const *workers, unsigned n)
{
    (void)workers;
    (void)n;
}

void weft__trace_at_stop(bool write, const weft_stats *counters)
{
    (void)write;
    (void)counters;
}

void weft__trace_worker_exit(weft_worker *w) { (void)w; }

weft_trace_pool_run *weft__trace_pool_begin(unsigned workers, const char *queue, bool half)
{
    (void)workers;
    (void)queue;
    (void)half;
    return NULL;
}

weft_trace_track *weft__trace_pool_track(weft_trace_pool_run *run, unsigned worker)
{
    (void)run;
    (void)worker;
    return NULL;
}

void weft__trace_pool_end(weft_trace_pool_run *run, const weft_trace_pool_counts *stats)
{
    (void)run;
    (void)stats;
}

#endif

/* WEFT_TRACE and WEFT_TRACE_EVENTS, read at start; checked in every build
 * so that a bad value is reported even where there is no tracer. */
int weft__trace_check_env(void)
{
    uint64_t events = DEFAULT_EVENTS;
    int err = weft__env_number("WEFT_TRACE_EVENTS", true, MIN_EVENTS, MAX_EVENTS, false, "events",
                               &events);
    const char *path = getenv("WEFT_TRACE");
#if WEFT_TRACE
    pthread_mutex_lock(&lock);
    kept.events_per_track = events;
    env_path = path && *path ? path : NULL;
    pthread_mutex_unlock(&lock);
#else
    if (path && *path)
        weft__warn("WEFT_TRACE is set, but this build has no tracer (%s)",
                   weft__trace_variant_advice(weft__words())); /* the caller's API's advice */
#endif
    return err;
}
