// SPDX-License-Identifier: Apache-2.0
/* Messages for the user: every one is a line on stderr that starts with
 * "weft: " (or the prefix of the API it speaks, weft__words). */
#include "runtime/diagnostics.h"

#include "runtime/frontend.h"
#include "sys/tls.h" /* WEFT__TLS_MODEL */

#include <weft/bits/lang.h>

#include <stdarg.h>
#include <stdio.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* weft's C API's words for its tasks and its calls (WEFT_RUN, WEFT_ME,
 * ...).  The C++ API starts the pool in two ways (include/weft/weft.hpp,
 * "The pool"), and a pool it started runs C tasks too: its words differ
 * in the start and in how to size or stop the pool. */
#define WEFT_C_TASK_WORDS \
    .prefix = "weft", .sync_pre = "SYNC(", .sync_post = ")", .spawn = "SPAWN", \
    .join = "SYNC or DROP", .barrier = "weft_barrier", .together = "TOGETHER", \
    .me = "WEFT_ME used on a thread that is not a weft worker (use WEFT_RUN to enter the pool)", \
    .stop = "weft_stop", .start_first = "call weft_start first", \
    .not_running = "call weft_start first, and do not RUN during or after weft_stop; from C++, " \
                   "a weft::scheduler or the first weft:: call starts the pool"

const weft__api_words weft__c_words = {
    WEFT_C_TASK_WORDS,
    .deque_size = "weft_start's deque_size or WEFT_DEQUE_SIZE",
    .stack_size = "weft_start's stack_size or WEFT_STACK_SIZE",
    .start = "weft_start",
    .pool = "the pool weft_start started",
    .stop_first = "call weft_stop first",
};

/* The C++ API's programs link its own targets over the variants. */
#define WEFT_CPP_VARIANT_WORDS \
    .profile_variant = "link the installed profiling variant instead: weft::cpp_profile, " \
                       "pkg-config weft-profile; or configure weft with -DWEFT_PROFILE=ON", \
    .trace_variant = "link the installed tracing variant instead: weft::cpp_trace, pkg-config " \
                     "weft-trace; or configure weft with -DWEFT_TRACE=ON"

const weft__api_words weft__cpp_scheduler_words = {
    WEFT_C_TASK_WORDS,
    WEFT_CPP_VARIANT_WORDS,
    .deque_size = "the weft::scheduler's weft_config (deque_size) or WEFT_DEQUE_SIZE",
    .stack_size = "the weft::scheduler's weft_config (stack_size) or WEFT_STACK_SIZE",
    .start = "weft::scheduler",
    .pool = "the pool a weft::scheduler started",
    .stop_first = "destroy the weft::scheduler first",
};

const weft__api_words weft__cpp_default_pool_words = {
    WEFT_C_TASK_WORDS,
    WEFT_CPP_VARIANT_WORDS,
    .deque_size = "WEFT_DEQUE_SIZE, or a weft::scheduler's weft_config",
    .stack_size = "WEFT_STACK_SIZE, or a weft::scheduler's weft_config",
    .start = "weft's C++ default pool",
    .pool = "weft's C++ default pool (the first weft:: call started it)",
    .stop_first = "call weft_stop first, or start the pool before the first weft:: call, which "
                  "then runs on it",
    .quiet_if_running = true,
};

/* The words this thread speaks as (weft__speak_as), and a worker's: its
 * pool's starter's.  Initial-exec: read by the SIGSEGV handler. */
static __thread const weft__api_words *tls_speaks_as WEFT__TLS_MODEL;
static __thread const weft__api_words *tls_worker_speaks WEFT__TLS_MODEL;

/* Relaxed: a pointer to a constant object, written under the start's and
 * the stop's lock; its readers (a front-end's check before its start, the
 * C++ default pool's) only look, and the runtime decides under the lock.
 * The workers read it after their thread was created (which orders it). */
static WEFT_ATOMIC(const weft__api_words *) pool_starter;

const weft__api_words *weft__speak_as(const weft__api_words *w)
{
    const weft__api_words *was = tls_speaks_as;
    tls_speaks_as = w;
    return was;
}

const weft__api_words *weft__words(void)
{
    if (tls_speaks_as != NULL)
        return tls_speaks_as;
    if (tls_worker_speaks != NULL)
        return tls_worker_speaks;
    return &weft__c_words;
}

const weft__api_words *weft__caller_words(void)
{
    return tls_speaks_as != NULL ? tls_speaks_as : &weft__c_words;
}

const weft__api_words *weft__speak_as_caller(void) { return weft__speak_as(weft__caller_words()); }

void weft__worker_speaks(const weft__api_words *starter) { tls_worker_speaks = starter; }

const weft__api_words *weft__pool_starter(void)
{
    return atomic_load_explicit(&pool_starter, memory_order_relaxed);
}

void weft__pool_started_by(const weft__api_words *starter)
{
    atomic_store_explicit(&pool_starter, starter, memory_order_relaxed);
}

const weft__api_words *weft__pool_words(void)
{
    const weft__api_words *w = weft__pool_starter();
    return w != NULL ? w : &weft__c_words;
}

const char *weft__profile_variant_advice(const weft__api_words *words)
{
    if (words != NULL && words->profile_variant != NULL)
        return words->profile_variant;
    return "link the installed profiling variant instead: weft::weft_profile, pkg-config "
           "weft-profile; or configure weft with -DWEFT_PROFILE=ON";
}

const char *weft__trace_variant_advice(const weft__api_words *words)
{
    if (words != NULL && words->trace_variant != NULL)
        return words->trace_variant;
    return "link the installed tracing variant instead: weft::trace, pkg-config weft-trace; or "
           "configure weft with -DWEFT_TRACE=ON";
}

/* Writes [s, s + len) to stderr, going on after a partial write. */
static void write_all(const char *s, size_t len)
{
    for (size_t at = 0; at < len;) {
        ssize_t w = write(STDERR_FILENO, s + at, len - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        at += (size_t)w;
    }
}

/* One write(2) per message: the line is not interleaved with other
 * threads' output, and no stdio lock is taken (a message may come from a
 * signal handler that interrupted stdio, e.g. weft_stop's EDEADLK).
 * Every message is written whole, however long the value or path it
 * quotes (a path may have PATH_MAX bytes, an environment value more): a
 * line longer than the buffer on the stack is formatted again into
 * memory of its length.  Only such a line, which quotes a value or a
 * path of the user's, calls malloc: the messages a signal handler may
 * give quote none and fit the buffer.  Without that memory the line is
 * written in parts, still whole. */
static void vreport(const char *fmt, va_list ap)
{
    char buf[768];
    const char *prefix = weft__words()->prefix;
    va_list again;
    va_copy(again, ap);
    int n = snprintf(buf, sizeof buf, "%s: ", prefix);
    if (n < 0 || (size_t)n >= sizeof buf)
        n = 0; /* a prefix is a word or two */
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m); /* the line without its '\n' */
    if (len < sizeof buf) {
        buf[len] = '\n'; /* in place of the NUL */
        write_all(buf, len + 1);
    } else {
        char *line = malloc(len + 1);
        if (line) {
            memcpy(line, buf, (size_t)n);
            vsnprintf(line + n, len + 1 - (size_t)n, fmt, again);
            line[len] = '\n';
            write_all(line, len + 1);
            free(line);
        } else {
            write_all(buf, (size_t)n);
            vdprintf(STDERR_FILENO, fmt, again);
            write_all("\n", 1);
        }
    }
    va_end(again);
}

void weft__warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
}

void weft__fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    abort();
}

/* Every scheduler's reserve, from the SPAWN fast path (bits/worker.h):
 * the task at slot `used` does not fit; the slots below it hold the tasks
 * spawned and not yet synced on this worker (stolen ones too).  Declared
 * in bits/worker.h (which this base module does not include), so it is
 * exported from a shared libweft here. */
__attribute__((noreturn, visibility("default"))) void
weft__deque_overflow(unsigned worker, size_t used, size_t slots)
{
    weft__fatal("task deque overflow on worker %u: %zu tasks spawned and not yet synced fill "
                "its deque of %zu slots, and one more does not fit. Raise the deque size "
                "(%s), or sync tasks sooner.",
                worker, used, slots, weft__pool_words()->deque_size);
}

/* The profile's note of a front-end (runtime/frontend.h).  Acquire and
 * release: the string is static, written before the pointer is set. */
static _Atomic(const char *) frontend_note;

void weft__profile_set_frontend_note(const char *line)
{
    /* Release: a reader that sees the pointer sees the string. */
    atomic_store_explicit(&frontend_note, line, memory_order_release);
}

const char *weft__profile_frontend_note(void)
{
    /* Acquire: pairs with the setter's release. */
    return atomic_load_explicit(&frontend_note, memory_order_acquire);
}
