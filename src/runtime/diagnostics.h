// SPDX-License-Identifier: Apache-2.0
/* Messages for the user, shared by the fork-join runtime and the work
 * pool: every one is a line on stderr that starts with "weft: ".  Not
 * installed. */
#ifndef WEFT_RUNTIME_DIAGNOSTICS_H
#define WEFT_RUNTIME_DIAGNOSTICS_H

#include <weft/bits/lang.h>

#include <stdbool.h>

/* Exported from a shared libweft: part of the front-end seam (frontend.h),
 * and the dist library calls them. */
WEFT_BEGIN_DECLS

/* The words of an API, for the runtime's messages about its misuse (a
 * SYNC with no SPAWN, a full deque, a stack overflow, a RUN with no pool,
 * a second start ...): each message speaks the API of the call it is
 * about, so that a program is told what it wrote and which call of its
 * API fixes it, whichever other APIs it mixes in.  weft's C API and its
 * C++ API have theirs here; each Lace library has its own.  Each field is
 * a plain string. */
typedef struct weft__api_words {
    const char *prefix;      /* each line starts with "<prefix>: " */
    const char *sync_pre;    /* a SYNC of task NAME is sync_pre NAME sync_post: */
    const char *sync_post;   /*   "SYNC(" ")", or Lace 2's "" "_SYNC()" */
    const char *spawn;       /* "SPAWN", or Lace 2's "NAME_SPAWN()" */
    const char *join;        /* what joins a SPAWN: "SYNC or DROP" */
    const char *deque_size;  /* how to raise the deque size */
    const char *stack_size;  /* how to raise the workers' stack size */
    const char *barrier;     /* the barrier's name: "weft_barrier" */
    const char *together;    /* "TOGETHER" */
    const char *me;          /* "WEFT_ME used on a thread that is not a weft worker (...)" */
    const char *start;       /* the starting call: "weft_start", "weft::scheduler" */
    const char *stop;        /* the stopping call: "weft_stop" */
    const char *start_first; /* what a call before the start must do: "call weft_start first" */
    const char *not_running; /* the same for RUN, which also may not run during the stop */
    /* The pool this API starts, as another API's message names it (the
     * start of a second pool is refused): "the pool weft_start started",
     * and how the program stops it first: "call weft_stop first". */
    const char *pool;
    const char *stop_first;
    /* What a program of this API links to profile or trace itself, as the
     * advice of a run that asks for the profiler (WEFT_PROFILE) or the
     * tracer (WEFT_TRACE) where the library has none: "link the lace
     * package's profiling variant instead: ...".  NULL: weft's own advice
     * (weft__profile_variant_advice, weft__trace_variant_advice). */
    const char *profile_variant;
    const char *trace_variant;
    /* More workers than CPUs is said only if WEFT_OVERSUBSCRIBE=0 asks
     * (Lace prints nothing then; a tool comparing its stderr sees none). */
    bool quiet_oversubscription;
    /* A start that finds a pool running says nothing (EBUSY all the same):
     * the C++ default pool's, which then runs on the pool that won. */
    bool quiet_if_running;
    /* The pool this API starts is stopped by its own stop only (Lace's
     * lace_stop): another API's stop leaves it running, with a message,
     * as this API's stop leaves another's. */
    bool stops_only_itself;
} weft__api_words;

/* weft's C API's words, and its C++ API's: a weft::scheduler's start and
 * the default pool's (declared for the C++ API in <weft/bits/runtime.h>). */
extern const weft__api_words weft__c_words;
extern const weft__api_words weft__cpp_scheduler_words;
extern const weft__api_words weft__cpp_default_pool_words;

/* Who speaks.  A message speaks the words this thread speaks as, if it
 * was given some: a front-end sets its own around the runtime's calls it
 * makes for its user (lace_start around weft_start), the C++ API its own
 * around the starts it makes.  Otherwise a worker's messages -- about the
 * tasks it runs and the pool -- speak the API that started the pool, and
 * any other thread's speak weft's C API, whose calls it made. */

/* This thread speaks as `words` (NULL: as no API in particular) until the
 * next call; returns the words it spoke as, for the caller to put back.
 * For calls that run no tasks on this thread: a task's own messages are
 * its pool's. */
const weft__api_words *weft__speak_as(const weft__api_words *words);
/* The words of a message given now on this thread (above). */
const weft__api_words *weft__words(void);
/* The words of a call of weft's own API: those this thread speaks as (a
 * front-end made the call for its user), else weft's C API's. */
const weft__api_words *weft__caller_words(void);
/* weft__speak_as(weft__caller_words()): a call of weft's API that gives
 * its messages in its caller's words, also on a worker. */
const weft__api_words *weft__speak_as_caller(void);
/* This thread is a worker of the pool that `starter` started: its
 * messages speak that API unless it speaks as another (worker_main). */
void weft__worker_speaks(const weft__api_words *starter);
/* The API that started the running pool, or NULL when none runs: set by
 * the start, before any worker exists, and cleared by the stop. */
const weft__api_words *weft__pool_starter(void);
void weft__pool_started_by(const weft__api_words *starter);
/* The starter's words, or weft's when no pool runs: for what the start
 * chose (the deque and stack sizes). */
const weft__api_words *weft__pool_words(void);

/* Reports and goes on. */
void weft__warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Reports and aborts: for misuse that would otherwise corrupt memory. */
__attribute__((noreturn)) void weft__fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
WEFT_END_DECLS

/* The advice of `words` (profile_variant, trace_variant), or weft's: for
 * libweft's own messages, not exported. */
const char *weft__profile_variant_advice(const weft__api_words *words);
const char *weft__trace_variant_advice(const weft__api_words *words);
/* The note a front-end set for the profile's table and JSON
 * (runtime/frontend.h, weft__profile_set_frontend_note), or NULL. */
const char *weft__profile_frontend_note(void);

#endif
