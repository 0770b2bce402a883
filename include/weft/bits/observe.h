// SPDX-License-Identifier: Apache-2.0
/* The hooks the task macros (bits/task_macros.h) place for the profiler
 * and the tracer.  Each WEFT_PROFILE_*_ / WEFT_TRACE_*_ macro is one call
 * in a profiling (tracing) build and nothing at all otherwise.  Not part
 * of the API; docs/profiling.md explains what is measured.
 *
 * The profiler keeps, per worker, the work, span and burdened span of the
 * computation it runs, in cycles from that computation's start, and ends
 * a strand (adds the time since the last one ended to all three) at every
 * SPAWN, at a SYNC before and after the join, and where the running task
 * type changes (a task called or joined inline whose type differs from
 * its caller's), so that each type's work is its own strands' time:
 *
 *   SPAWN      end the strand; the slot's record keeps the path lengths
 *              here: the child's path starts at them
 *   SYNC       end the strand; keep the continuation's path (a local);
 *              the path now goes through the child: the SPAWN's lengths,
 *              the burdened one plus one steal's cost (the edge a thief
 *              would take)
 *     inline   the child's strands add to that path; after it, end the
 *              strand and take the longer of the two paths (Cilkscale's
 *              max at a sync, per joined child as weft's SYNC joins one)
 *     stolen   whoever ran it left its work and path lengths in the slot's
 *              record before DONE: add the work, take the longer path;
 *              the wait itself is no strand (the clock stops)
 *   a task the runtime starts (stolen, RUN, interrupt) saves the worker's
 *              figures, runs from zero, and hands its own on (the slot's
 *              record, a RUN's region) before the saved ones come back;
 *              a RUN inside a task continues its caller's figures, and
 *              what it added to them is its row's run
 */
#ifndef WEFT_BITS_OBSERVE_H
#define WEFT_BITS_OBSERVE_H

#include <weft/bits/worker.h>

/* The C++ API's tasks are named by their callable's type, for the profiler
 * and the tracer: demangled, and a longer name cut to its end (a lambda
 * reads "fib(int)::{lambda()#1}": the function it is written in). */
#if (WEFT_PROFILE || WEFT_TRACE) && defined(__cplusplus)
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <typeinfo>
#if defined(__GNUC__)
#include <cxxabi.h>
#endif
namespace weft {
namespace detail {
/* The name for a mangled type name in a fresh malloc'd string, or null
 * when memory is short.  A demangled name over 60 bytes keeps its end,
 * after "...", and a hash of the whole ("... #1a2b3c"): two types whose
 * names end alike stay two task types. */
inline char *cpp_task_name(const char *mangled) noexcept
{
    const char *name = mangled;
    char *demangled = nullptr;
#if defined(__GNUC__)
    int status = 0;
    demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    if (status == 0 && demangled)
        name = demangled;
#endif
    std::size_t len = std::strlen(name);
    char *out = static_cast<char *>(std::malloc(len > 60 ? 64 : len + 1));
    if (out && len <= 60) {
        std::memcpy(out, name, len + 1);
    } else if (out) {
        std::uint32_t h = 2166136261u; /* FNV-1a of the whole name */
        for (std::size_t i = 0; i < len; i++)
            h = (h ^ static_cast<unsigned char>(name[i])) * 16777619u;
        const char *tail = name + len - 49;
        while ((static_cast<unsigned char>(*tail) & 0xc0) == 0x80) /* a UTF-8 boundary */
            tail++;
        std::snprintf(out, 64, "...%s #%06x", tail, static_cast<unsigned>(h & 0xffffffu));
    }
    std::free(demangled);
    return out;
}
} // namespace detail
} // namespace weft
#endif

#if WEFT_PROFILE
#include <weft/bits/cycles.h>

WEFT_STATIC_ASSERT(sizeof(weft_profile_slot) == WEFT_TASK_SIZE,
                   "weft: a profile slot record is as large as a descriptor");

/* Runtime side (src/observe/profiler.c, profile_clock.c, profile_types.c). */
WEFT_BEGIN_DECLS
/* The id of a type whose first body starts on the worker of p (its
 * registration's time taken off the running strand). */
uint32_t weft__profile_register(weft_profile_worker *p, weft_profile_type *type);
/* The first body of a started task (or of a RUN inside a task) enters:
 * the running type is none (weft_profile_enter). */
void weft__profile_enter_started(weft_profile_worker *p, uint32_t id);
/* The record for task type `name` (a copy of the string is kept), one per
 * distinct name for the process; NULL when memory is short. */
weft_profile_type *weft__profile_type_named(const char *name);
/* A strand of d cycles that ended at `now` is long: returns the part of it
 * the thread spent on a CPU (docs/profiling.md: what is measured), and
 * reads the CPU clock again (sync). */
uint64_t weft__profile_long_strand(weft_profile_worker *p, uint64_t now, uint64_t d);
/* The thread's CPU clock is read again (after a long pause): sync_cycles
 * is the cycle count it is paired with, `now` (read before it; 0: read
 * here). */
void weft__profile_sync(weft_profile_worker *p, uint64_t now);
/* The same after a long pause (`now`: the pause's end): returns where the
 * next strand starts, after the reading, which is paired with it. */
uint64_t weft__profile_sync_resume(weft_profile_worker *p, uint64_t now);
/* weft_profile_end_strand when strands are timed or blocks counted
 * (profiler.c): returns when the strand ended.  Out of line, so that the
 * code of a body's profiled copy holds the counted strand's add alone at
 * each strand's end (docs/results/profiling.md, "Trimmed hooks"). */
uint64_t weft__profile_end_measured_strand(weft_profile_worker *p);
/* Counting strands (src/observe/count.c): the window of strands ends
 * where the work reached window_end, and the next opens; a window closes
 * at `now` (a pause). */
void weft__profile_strand_window(weft_profile_worker *p);
void weft__profile_window_close(weft_profile_worker *p, uint64_t now);
/* Counting basic blocks (src/observe/count.c; docs/profiling.md): the
 * calling thread's count, one per basic block of code compiled with
 * -fsanitize-coverage=trace-pc (its __sanitizer_cov_trace_pc).  Initial-exec
 * only in weft's shared libraries (src/sys/tls.h): a shared object that
 * links the static ones must not need glibc's static TLS reserve. */
#ifdef WEFT__SHARED_LIBRARY
extern __thread uint64_t weft__profile_blocks __attribute__((tls_model("initial-exec")));
#else
extern __thread uint64_t weft__profile_blocks;
#endif
WEFT_END_DECLS

/* Adds v to a figure only the calling worker writes: a relaxed load and
 * store, no read-modify-write (no other writer); the reports read a
 * recent value. */
static WEFT_ALWAYS_INLINE void weft_profile_owner_add(WEFT_ATOMIC(uint64_t) * figure, uint64_t v)
{
    atomic_store_explicit(figure, atomic_load_explicit(figure, memory_order_relaxed) + v,
                          memory_order_relaxed);
}

/* Adds d to one of the running figures, with a load and a store of its
 * own.  Left to themselves, compilers merge the adds to neighbouring
 * figures (work, span) into one 16-byte vector load and store; that load,
 * coming right after a SYNC's 8-byte stores to the same figures, cannot
 * take its value from the store buffer, and stalls at every strand's end
 * (docs/results/profiling.md, "A stall at a strand's end"). */
static WEFT_ALWAYS_INLINE void weft_profile_figure_add(uint64_t *figure, uint64_t d)
{
    volatile uint64_t *one = figure;
    *one = *one + d;
}

/* One of the running figures, read alone (as weft_profile_figure_add
 * writes it: a vector load of two would stall on the adds' stores). */
static WEFT_ALWAYS_INLINE uint64_t weft_profile_figure(const uint64_t *figure)
{
    return *(const volatile uint64_t *)figure;
}

/* Sets one of the figures (a running one, or a slot record's) with a store
 * of its own, as the hooks read them one at a time: left to themselves,
 * compilers pair neighbouring words into 16-byte stores and loads, and a
 * 16-byte load of two words just stored one at a time (a SPAWN's record
 * read at its SYNC after a short CALL) cannot take them from the store
 * buffer. */
static WEFT_ALWAYS_INLINE void weft_profile_figure_set(uint64_t *figure, uint64_t v)
{
    *(volatile uint64_t *)figure = v;
}

/* A strand of d on-CPU cycles ends in counting mode: its length is the
 * blocks counted since it began; the cycles go to the conversion ratio. */
static inline uint64_t weft_profile_count_strand(weft_profile_worker *p, uint64_t d)
{
    uint64_t c = weft__profile_blocks, b = c - p->count_start;
    p->count_start = c;
    weft_profile_owner_add(&p->counted_cycles, d);
    weft_profile_owner_add(&p->counted_blocks, b);
    return b;
}

static inline weft_profile_slot *weft_profile_slot_of(const weft_worker *w, weft_task *t)
{
    return (weft_profile_slot *)((char *)t + w->prof.slot_offset);
}

/* The running strand's length, and the next one starts: its on-CPU
 * cycles (a long one only the part of it spent on a CPU), or in counting
 * mode its blocks, or when counting strands 1: a work pool item's piece,
 * not timed (between items the thread searches; weft_profile_end_strand
 * times the fork-join strands, in windows). */
static inline uint64_t weft_profile_take_strand(weft_profile_worker *p)
{
    if (p->strands)
        return 1;
    uint64_t now = weft_cycles();
    uint64_t d = now - p->strand_start;
    if (WEFT_UNLIKELY(d > p->long_cycles)) {
        d = weft__profile_long_strand(p, now, d);
        now = p->sync_cycles; /* where the CPU clock's reading is paired: `now` */
    }
    p->strand_start = now;
    if (p->counting)
        d = weft_profile_count_strand(p, d);
    return d;
}

/* A counted strand ends: 1 to the work, which also counts the window's
 * strands (window_end), so that a strand's end stores one word
 * (docs/results/profiling.md, "The window counted by the work"); returns
 * the work after it. */
static WEFT_ALWAYS_INLINE uint64_t weft_profile_end_counted_strand(weft_profile_worker *p)
{
    uint64_t work = weft_profile_figure(&p->f.work) + 1;
    weft_profile_figure_set(&p->f.work, work);
    return work;
}

/* The work reached the window's end (or profiling is off: both are 0). */
static WEFT_ALWAYS_INLINE bool weft_profile_window_full(const weft_profile_worker *p)
{
    return (int64_t)(weft_profile_figure(&p->f.work) - p->window_end) >= 0;
}

/* Ends the running strand: its length goes to the work, and so to both
 * paths and the running type (weft_profile_running); returns when it
 * ended (counting strands: when the clock was last read, as strands are
 * not timed).  Counting strands, an add and a count inline, no branch: no
 * longest strand is kept (every strand is 1), and a full window ends at
 * the next body's entry (weft_profile_enter), where no call is made with
 * a SPAWN's arguments live across it. */
static WEFT_ALWAYS_INLINE uint64_t weft_profile_end_strand(weft_profile_worker *p)
{
    if (!p->strands)
        return weft__profile_end_measured_strand(p);
    weft_profile_end_counted_strand(p);
    return p->strand_start;
}

/* weft_profile_end_strand for the hooks that go on to read the paths or
 * settle the type: returns the work after the strand, so that they need
 * not read it again. */
static WEFT_ALWAYS_INLINE uint64_t weft_profile_end_strand_work(weft_profile_worker *p)
{
    if (!p->strands) {
        weft__profile_end_measured_strand(p);
        return weft_profile_figure(&p->f.work);
    }
    return weft_profile_end_counted_strand(p);
}

/* The running paths' lengths (weft_profile_running keeps them less the
 * work), and setting them. */
static WEFT_ALWAYS_INLINE uint64_t weft_profile_span(const weft_profile_worker *p)
{
    return weft_profile_figure(&p->f.work) + weft_profile_figure(&p->f.span_less_work);
}

static WEFT_ALWAYS_INLINE uint64_t weft_profile_bspan(const weft_profile_worker *p)
{
    return weft_profile_figure(&p->f.work) + weft_profile_figure(&p->f.bspan_less_work);
}

/* (`work`: the running work, as the caller has it.) */
static WEFT_ALWAYS_INLINE void weft_profile_set_paths_at(weft_profile_worker *p, uint64_t work,
                                                         uint64_t span, uint64_t bspan)
{
    weft_profile_figure_set(&p->f.span_less_work, span - work);
    weft_profile_figure_set(&p->f.bspan_less_work, bspan - work);
}

static WEFT_ALWAYS_INLINE void weft_profile_set_paths(weft_profile_worker *p, uint64_t span,
                                                      uint64_t bspan)
{
    weft_profile_set_paths_at(p, weft_profile_figure(&p->f.work), span, bspan);
}

/* The running type's work and bodies since its row was last added to go
 * there: before the running type changes, and where the figures are saved
 * or handed on.  (`work`: the running work, as the caller has it.) */
/* The running type's work and bodies count from here on (`work`,
 * `tasks`: the running ones): after its row was added to, or where a type
 * starts after none, whose row no report shows and so gets nothing. */
static WEFT_ALWAYS_INLINE void weft_profile_type_from(weft_profile_worker *p, uint64_t work,
                                                      uint64_t tasks)
{
    weft_profile_figure_set(&p->f.type_from, work);
    weft_profile_figure_set(&p->f.type_tasks_from, tasks);
}

static WEFT_ALWAYS_INLINE void weft_profile_type_settle_at(weft_profile_worker *p, uint64_t work)
{
    weft_profile_type_counts *row = &p->types[p->f.type];
    uint64_t tasks = p->f.tasks;
    weft_profile_owner_add(&row->work, work - weft_profile_figure(&p->f.type_from));
    weft_profile_owner_add(&row->count, tasks - weft_profile_figure(&p->f.type_tasks_from));
    weft_profile_type_from(p, work, tasks);
}

static WEFT_ALWAYS_INLINE void weft_profile_type_settle(weft_profile_worker *p)
{
    weft_profile_type_settle_at(p, weft_profile_figure(&p->f.work));
}

/* A task body starts; returns the type to restore when it returns. */
static WEFT_ALWAYS_INLINE uint32_t weft_profile_enter(weft_worker *w, weft_profile_type *type)
{
    weft_profile_worker *p = &w->prof;
    /* One test for two rare cases: profiling off (outer 0 = f.type 0: the
     * leave does nothing), and counting strands a full window, which ends
     * here (weft_profile_end_strand). */
    if (WEFT_UNLIKELY(weft_profile_window_full(p))) {
        if (p->off)
            return 0;
        weft__profile_strand_window(p);
    }
    /* Relaxed: the id is all we use; registration publishes the name to
     * the reports under a lock. */
    uint32_t id = atomic_load_explicit(&type->id, memory_order_relaxed);
    uint32_t outer = p->f.type;
    if (id != outer) { /* an unregistered record's id is no running type's */
        if (WEFT_UNLIKELY(id == WEFT__PROFILE_UNREGISTERED))
            id = weft__profile_register(p, type);
        if (WEFT_UNLIKELY(outer == 0))
            weft__profile_enter_started(p, id);
        else if (id != outer)
            weft_profile_type_settle_at(p, weft_profile_end_strand_work(p));
        p->f.type = id;
    }
    p->f.tasks++; /* the body is the running type's, which counts it when it changes */
    return outer;
}

static WEFT_ALWAYS_INLINE void weft_profile_leave(weft_worker *w, uint32_t outer)
{
    weft_profile_worker *p = &w->prof;
    if (outer != p->f.type) {
        weft_profile_type_settle_at(p, weft_profile_end_strand_work(p));
        p->f.type = outer;
    }
}

/* The spawn, SYNC and stolen-join hooks below are called only by the
 * fork-join core, after its test of profiling off (weft_fj_profiling,
 * bits/fork_join.h), so they do not test it again.  The pause and the
 * resume are called by the runtime as well (interrupts, sleeps) and test
 * it, as a task body's enter (above) does. */
static WEFT_ALWAYS_INLINE void weft_profile_spawn(weft_worker *w, weft_task *t)
{
    weft_profile_worker *p = &w->prof;
    uint64_t work = weft_profile_end_strand_work(p);
    weft_profile_slot *s = weft_profile_slot_of(w, t);
    weft_profile_figure_set(&s->spawn_span, work + weft_profile_figure(&p->f.span_less_work));
    weft_profile_figure_set(&s->spawn_bspan, work + weft_profile_figure(&p->f.bspan_less_work));
    p->f.spawns++;
}

/* The continuation's path lengths at a SYNC. */
typedef struct weft_profile_join {
    uint64_t span, bspan;
} weft_profile_join;

static WEFT_ALWAYS_INLINE weft_profile_join weft_profile_sync_begin(weft_worker *w, weft_task *t)
{
    weft_profile_worker *p = &w->prof;
    weft_profile_join j;
    uint64_t work = weft_profile_end_strand_work(p);
    j.span = work + weft_profile_figure(&p->f.span_less_work);
    j.bspan = work + weft_profile_figure(&p->f.bspan_less_work);
    const weft_profile_slot *s = weft_profile_slot_of(w, t);
    weft_profile_set_paths_at(p, work, weft_profile_figure(&s->spawn_span),
                              weft_profile_figure(&s->spawn_bspan) + p->burden);
    return j;
}

static WEFT_ALWAYS_INLINE void weft_profile_sync_inlined(weft_worker *w, const weft_profile_join *j)
{
    weft_profile_worker *p = &w->prof;
    uint64_t work = weft_profile_end_strand_work(p);
    /* Each path set only where the continuation's is longer (a max of
     * both at once is a vector instruction some tools cannot run). */
    if (j->span > work + weft_profile_figure(&p->f.span_less_work))
        weft_profile_figure_set(&p->f.span_less_work, j->span - work);
    if (j->bspan > work + weft_profile_figure(&p->f.bspan_less_work))
        weft_profile_figure_set(&p->f.bspan_less_work, j->bspan - work);
}

/* The clock stops (a wait, a park) and starts again. */
static inline void weft_profile_pause(weft_worker *w)
{
    if (WEFT_UNLIKELY(w->prof.off))
        return;
    if (w->prof.strands) {
        /* A counted strand goes on across the pause: the graph's strands
         * do not depend on the runtime's waits and wakes.  The window of
         * timed strands closes. */
        w->prof.paused_at = weft_cycles();
        weft__profile_window_close(&w->prof, w->prof.paused_at);
    } else {
        w->prof.paused_at = weft_profile_end_strand(&w->prof);
    }
    w->prof.strand_start = 0;
}

/* After a long pause (a wait, a sleep, a search) the CPU clock is read
 * again, so that the next long strand is charged only its own time off
 * the CPU. */
static inline void weft_profile_resume(weft_worker *w)
{
    weft_profile_worker *p = &w->prof;
    if (WEFT_UNLIKELY(p->off))
        return;
    uint64_t now = weft_cycles();
    if (WEFT_UNLIKELY(now - p->paused_at > p->long_cycles)) {
        now = weft__profile_sync_resume(p, now);
    }
    p->strand_start = now;
    p->count_start = weft__profile_blocks;
    if (p->strands) { /* a window of timed strands opens */
        p->window_start = now;
        p->window_end = weft_profile_figure(&p->f.work) + WEFT__PROFILE_STRAND_WINDOW;
    }
}

/* Around the SYNC slow path: the clock stops (WEFT_PROFILE_PAUSE_) while
 * it decides and while it waits; if the child was not stolen it runs
 * inline and the clock starts again here; a stolen child's figures are
 * taken by sync_stolen. */
static inline void weft_profile_sync_slow_done(weft_worker *w, bool inlined)
{
    if (inlined)
        weft_profile_resume(w);
}

/* Joins a stolen child that is done (its figures in slot record s): its
 * work and counts, and the longer of the path through it (from_span and
 * from_bspan up to its start) and the continuation's path cont. */
static inline void weft_profile_join_stolen(weft_profile_worker *p, const weft_profile_slot *s,
                                            uint64_t from_span, uint64_t from_bspan,
                                            const weft_profile_join *cont)
{
    /* The child's work is in its runner's rows of its types: not the
     * running type's. */
    /* (The window needs no move: the SYNC's or DROP's pause closed it,
     * and the resume after this opens the next from the joined work.) */
    p->f.work += s->child_work;
    p->f.type_from += s->child_work;
    p->f.tasks += s->child_tasks;
    p->f.type_tasks_from += s->child_tasks;
    p->f.spawns += s->child_spawns;
    if (p->strands) {
        /* Joined inline, a child of another type would have ended two
         * strands more on its path, each the running type's: one where
         * its body entered (the SYNC's strand had just ended) and one at
         * the SYNC after it (its own last ended where it returned).  They
         * are the graph's, so a stolen child has them too. */
        if (s->child_type != 0 && s->child_type != p->f.type) {
            p->f.work += 2;
            from_span += 2;
            from_bspan += 2;
        }
    } else if (s->child_longest > p->f.longest) {
        p->f.longest = s->child_longest;
    }
    uint64_t span = from_span + s->child_span, bspan = from_bspan + s->child_bspan;
    weft_profile_set_paths(p, span > cont->span ? span : cont->span,
                           bspan > cont->bspan ? bspan : cont->bspan);
}

/* The child was stolen and is done: its figures are in the slot record
 * (we saw DONE with acquire, after the thief wrote them).  The path to it
 * is the one sync_begin restored, plus the slow path's start. */
static inline void weft_profile_sync_stolen(weft_worker *w, weft_task *t,
                                            const weft_profile_join *j)
{
    weft_profile_worker *p = &w->prof;
    weft_profile_join_stolen(p, weft_profile_slot_of(w, t), weft_profile_span(p),
                             weft_profile_bspan(p), j);
    weft_profile_resume(w);
}

/* The C++ API's tasks (bits/cpp_*.hpp): a task type per callable type,
 * named as cpp_task_name (above) names it. */
#if defined(__cplusplus)
namespace weft {
namespace detail {
/* Sets up the record in `slot` for the type named `mangled`, once: every
 * thread that finds the slot empty builds a record, the first to publish
 * it wins and the others free theirs.  No C++ initialization guard: a
 * process forked while another thread sets up a record must not find
 * the guard held by a thread it does not have. */
inline weft_profile_type *profile_type_publish(std::atomic<weft_profile_type *> &slot,
                                               const char *mangled) noexcept
{
    static weft_profile_type unnamed = {"(C++ task)",
                                        WEFT__PROFILE_UNREGISTERED}; /* constant-initialized */
    char *name = mangled ? cpp_task_name(mangled) : nullptr;
    weft_profile_type *fresh =
        name ? new (std::nothrow) weft_profile_type{name, WEFT__PROFILE_UNREGISTERED} : nullptr;
    if (!fresh) {
        std::free(name);
        return &unnamed;
    }
    weft_profile_type *seen = nullptr;
    /* Release on success: a thread that loads the record (acquire, in
     * profile_type_of) sees its name written.  Acquire on failure: this
     * thread uses the winner's record and so reads its name. */
    if (slot.compare_exchange_strong(seen, fresh, std::memory_order_release,
                                     std::memory_order_acquire))
        return fresh; /* kept for the process: the profiler keeps the name */
    std::free(name);
    delete fresh;
    return seen;
}

template <class G>
inline weft_profile_type *profile_type_of() noexcept
{
    /* Constant-initialized (no guard), filled on first use. */
    static std::atomic<weft_profile_type *> slot{nullptr};
    /* Acquire: pairs with the release that published the record, so its
     * name is read whole. */
    weft_profile_type *type = slot.load(std::memory_order_acquire);
    if (WEFT_LIKELY(type != nullptr))
        return type;
#if defined(__GXX_RTTI) || defined(_CPPRTTI)
    return profile_type_publish(slot, typeid(G).name());
#else
    return profile_type_publish(slot, nullptr);
#endif
}

/* The body of a callable of type G runs in this scope. */
template <class G>
struct profile_body {
    weft_worker *w;
    uint32_t outer;
    explicit profile_body(weft_worker *w_) noexcept
        : w(w_), outer(weft_profile_enter(w_, profile_type_of<G>()))
    {}
    ~profile_body() { weft_profile_leave(w, outer); }
    profile_body(const profile_body &) = delete;
    profile_body &operator=(const profile_body &) = delete;
};

/* The same in a copy compiled for profiling on (PROFILED true) or off
 * (false: nothing). */
template <class G, bool Profiled>
struct profile_body_as : profile_body<G> {
    using profile_body<G>::profile_body;
};
template <class G>
struct profile_body_as<G, false> {
    explicit profile_body_as(weft_worker *) noexcept {}
};
} // namespace detail
} // namespace weft
#define WEFT_PROFILE_CPP_BODY_(w, G) ::weft::detail::profile_body<G> weft_pb_((w));
#define WEFT_PROFILE_CPP_BODY_AS_(PROFILED, w, G) \
    ::weft::detail::profile_body_as<G, (PROFILED)> weft_pb_((w));
#endif

#define WEFT_PROFILE_TYPE_(NAME) \
    static weft_profile_type NAME##_profile_type_ = {#NAME, WEFT__PROFILE_UNREGISTERED};
#define WEFT_PROFILE_ENTER_(w, NAME, var) \
    uint32_t var = weft_profile_enter((w), &NAME##_profile_type_);
#define WEFT_PROFILE_LEAVE_(w, var) weft_profile_leave((w), (var));
#define WEFT_PROFILE_SPAWN_(w, t) weft_profile_spawn((w), (t));
#define WEFT_PROFILE_PAUSE_(w) weft_profile_pause(w);
#define WEFT_PROFILE_SYNC_SLOW_DONE_(w, inlined) weft_profile_sync_slow_done((w), (inlined));
#else
#define WEFT_PROFILE_TYPE_(NAME)
#define WEFT_PROFILE_ENTER_(w, NAME, var)
#define WEFT_PROFILE_LEAVE_(w, var)
#define WEFT_PROFILE_SPAWN_(w, t)
#define WEFT_PROFILE_PAUSE_(w)
#define WEFT_PROFILE_SYNC_SLOW_DONE_(w, inlined)
#define WEFT_PROFILE_CPP_BODY_(w, G)
#define WEFT_PROFILE_CPP_BODY_AS_(PROFILED, w, G)
#endif

/* The tracer knows a task the runtime starts by its wrapper's address,
 * and its name from this table, filled before main: a constructor per
 * task (placed with main, away from the task code), so that nothing in
 * the task's own code changes. */
#if WEFT_TRACE
WEFT_BEGIN_DECLS
void weft__trace_name(uintptr_t wrapper, const char *name);
/* The library's copy of `name`, one per distinct text, kept for the
 * process (weft::named's names in a tracing build); NULL when memory is
 * short. */
const char *weft__trace_name_copy(const char *name);
WEFT_END_DECLS
#define WEFT_TRACE_NAME_(NAME) \
    __attribute__((constructor)) static void NAME##_trace_name_(void) \
    { \
        weft__trace_name((uintptr_t)&NAME##_WRAP, #NAME); \
    }
#else
#define WEFT_TRACE_NAME_(NAME)
#endif

/* A C++ task has no constructor of its own to name it: its wrapper (one
 * per job kind and callable type) names itself the first time the runtime
 * starts it -- a thief, a RUN's worker: the only starts a trace records --
 * with weft::named's name, else the callable type's as the profiler writes
 * it.  A callable type named twice keeps its first name. */
#if WEFT_TRACE && defined(__cplusplus)
namespace weft {
namespace detail {
/* The name weft::named gave f, or null (weft.hpp overloads it for
 * named_fn, found by argument-dependent lookup). */
template <class F>
inline const char *trace_given_name(const F &) noexcept
{
    return nullptr;
}

template <class Job, class G>
inline void trace_name_started(std::uintptr_t wrapper, const G &callable) noexcept
{
    /* Constant-initialized (no guard), set on the first start. */
    static std::atomic<bool> named{false};
    /* Relaxed: naming twice is harmless (weft__trace_name keeps a name
     * once), so the flag orders nothing. */
    if (WEFT_LIKELY(named.load(std::memory_order_relaxed)))
        return;
    if (const char *given = trace_given_name(callable)) {
        weft__trace_name(wrapper, given);
    } else {
#if defined(__GXX_RTTI) || defined(_CPPRTTI)
        char *name = cpp_task_name(typeid(G).name());
#else
        char *name = nullptr;
#endif
        weft__trace_name(wrapper, name ? name : "(C++ task)");
        std::free(name);
    }
    /* Relaxed: as above. */
    named.store(true, std::memory_order_relaxed);
}
} // namespace detail
} // namespace weft
#define WEFT_TRACE_CPP_STARTED_(Job, callable) \
    ::weft::detail::trace_name_started<Job>(::weft::detail::wrapper_address(&Job::wrapper), \
                                            (callable));
#else
#define WEFT_TRACE_CPP_STARTED_(Job, callable)
#endif

#endif
