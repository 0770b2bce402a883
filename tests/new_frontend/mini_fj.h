// SPDX-License-Identifier: Apache-2.0
/* mini_fj: a throw-away fork-join front-end, written from docs/frontends.md
 * alone against an installed weft, to show that the guide is enough: a
 * front-end is a few names over weft's one fork-join core
 * (weft/bits/fork_join.h).  tests/new_frontend/check.sh builds it.
 *
 * A task takes one argument and returns a value; its body gets the
 * context explicitly, as a `mini_ctx *` named by the definition:
 *
 *     MINI_TASK(long, fib, int, n)
 *     {
 *         if (n < 2)
 *             return n;
 *         MINI_SPAWN(mini, fib, n - 1);
 *         long b = MINI_CALL(mini, fib, n - 2);
 *         return MINI_SYNC(mini, fib) + b;
 *     }
 *     ... weft_start(0, 0, 0); long r = MINI_RUN(fib, 30); weft_stop(); ...
 *
 * The context holds the worker and a copy of its deque's head (the first
 * EMPTY slot): MINI_SPAWN writes the task there and moves the copy up,
 * MINI_SYNC and MINI_DROP move it down and join the task there.  Another
 * API's body may hand its own head to a mini_ctx (MINI_CTX) and the other
 * way round; each is then a copy, and the core refuses a spawn or a join
 * made from a copy that another's spawn has made wrong (docs/design.md,
 * "Mixing the APIs on one worker").
 *
 * What is the front-end's own: the context, the names, where the argument
 * and the result sit in the descriptor (memcpy into the payload).  The
 * rest is the core's: the checked slot, publishing, joining, dropping,
 * running from any thread; the profiler's and tracer's hooks, and the
 * WEFT_CHECKS checks, are what the guide lists for them. */
#ifndef MINI_FJ_H
#define MINI_FJ_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <weft/weft.h>

#define MINI_UNUSED_ __attribute__((unused))

/* A task body's context: the worker running it and the head it holds. */
typedef struct mini_ctx {
    weft_worker *w;
    weft_task *head;
} mini_ctx;

/* A context from another API's worker and head (a weft task body's
 * weft_w and weft_head): a copy of that head. */
#define MINI_CTX(w, head) ((mini_ctx){(w), weft_fj_copy_head((w), (head))})

/* Defines task NAME: RT NAME(mini_ctx *, T ARG), followed by its body. */
#define MINI_TASK(RT, NAME, T, ARG) \
    _Static_assert(sizeof(T) <= sizeof(((weft_task *)0)->payload), \
                   "mini_fj: the argument of " #NAME " does not fit in a descriptor"); \
    _Static_assert(sizeof(RT) <= sizeof(((weft_task *)0)->payload), \
                   "mini_fj: the result of " #NAME " does not fit in a descriptor"); \
    static RT NAME##_mini_body(mini_ctx *, T); \
    WEFT_PROFILE_TYPE_(NAME) \
    /* The body, from wherever it runs: the profiler told, the return \
     * checked (with WEFT_CHECKS). */ \
    static MINI_UNUSED_ RT NAME(mini_ctx *c, T a) \
    { \
        weft_task *entry_head_ MINI_UNUSED_ = c->head; \
        WEFT_PROFILE_ENTER_(c->w, NAME, mini_pt_) \
        RT r = NAME##_mini_body(c, a); \
        WEFT_PROFILE_LEAVE_(c->w, mini_pt_) \
        MINI_CHECK_RETURN_(c->w, entry_head_, NAME); \
        return r; \
    } \
    /* The wrapper: runs the task in t (a thief's, a RUN's) with its own \
     * spawns from head; the result replaces the argument. */ \
    static WEFT_WRAPPER_ALIGN MINI_UNUSED_ void NAME##_mini_wrap(weft_worker *w, weft_task *head, \
                                                                 weft_task *t) \
    { \
        mini_ctx c = {w, head}; \
        T a; \
        memcpy(&a, t->payload, sizeof a); \
        RT r = NAME(&c, a); \
        memcpy(t->payload, &r, sizeof r); \
        weft_check_return(w, head, #NAME); \
    } \
    MINI_TRACE_NAME_(NAME) \
    static inline MINI_UNUSED_ void NAME##_mini_spawn(mini_ctx *c, T a) \
    { \
        weft_task *t = weft_fj_spawn_slot(c->w, c->head, "MINI_SPAWN(" #NAME ")"); \
        memcpy(t->payload, &a, sizeof a); \
        weft_fj_spawn_publish(c->w, t, (uintptr_t)&NAME##_mini_wrap); \
        c->head = t + 1; \
    } \
    static inline MINI_UNUSED_ RT NAME##_mini_sync(mini_ctx *c) \
    { \
        weft_task *t = weft_fj_join_slot(c->w, c->head - 1, "MINI_SYNC(" #NAME ")"); \
        c->head = t; \
        MINI_CHECK_SYNC_(c->w, t, NAME); \
        weft_fj_join j; \
        RT r; \
        if (weft_fj_join_begin(c->w, t, &j, "MINI_SYNC(" #NAME ")")) { \
            T a; \
            memcpy(&a, t->payload, sizeof a); \
            r = NAME(c, a); /* at head t: the slot is EMPTY again */ \
            weft_fj_join_inlined(c->w, &j); \
        } else { \
            memcpy(&r, t->payload, sizeof r); /* a thief ran it */ \
        } \
        return r; \
    } \
    static inline MINI_UNUSED_ bool NAME##_mini_drop(mini_ctx *c, RT *r) \
    { \
        weft_task *t = --c->head; \
        if (!weft__drop_as(c->w, t, #NAME "_mini_drop()")) \
            return false; \
        memcpy(r, t->payload, sizeof *r); \
        return true; \
    } \
    static inline MINI_UNUSED_ RT NAME##_mini_run(T a) \
    { \
        weft_task t; /* a descriptor on the stack; the runtime sets its state */ \
        memcpy(t.payload, &a, sizeof a); \
        weft__run_task(&t, (uintptr_t)&NAME##_mini_wrap); \
        RT r; \
        memcpy(&r, t.payload, sizeof r); \
        return r; \
    } \
    static RT NAME##_mini_body(mini_ctx *mini MINI_UNUSED_, T ARG)

/* Spawns NAME(arg) at the context's head: it may run on another worker. */
#define MINI_SPAWN(ctx, NAME, arg) NAME##_mini_spawn((ctx), (arg))
/* Joins the newest pending task of the context, a NAME; its result. */
#define MINI_SYNC(ctx, NAME) NAME##_mini_sync(ctx)
/* Joins the newest pending task (a NAME) without running it: true, and its
 * result in *resp, if a thief ran it; false if it did not run. */
#define MINI_DROP(ctx, NAME, resp) NAME##_mini_drop((ctx), (resp))
/* Runs NAME(arg) here, as a plain call. */
#define MINI_CALL(ctx, NAME, arg) NAME((ctx), (arg))
/* Runs NAME(arg) from any thread (in place on a worker; from outside, on
 * the pool while the caller waits) and returns its result. */
#define MINI_RUN(NAME, arg) NAME##_mini_run(arg)

/* With WEFT_CHECKS (the library's default from weft/config.h; Debug
 * builds): a join checks that it joins a task of its own name, and a body
 * that it returns with every spawn joined. */
#if WEFT_CHECKS
#define MINI_CHECK_SYNC_(w, t, NAME) weft__check_sync((w), (t), (uintptr_t)&NAME##_mini_wrap, #NAME)
#define MINI_CHECK_RETURN_(w, head, NAME) weft_check_return((w), (head), #NAME)
#else
#define MINI_CHECK_SYNC_(w, t, NAME) ((void)0)
#define MINI_CHECK_RETURN_(w, head, NAME) ((void)0)
#endif

/* With the tracing library (WEFT_TRACE): the timeline names a task the
 * runtime starts by its wrapper, registered before main. */
#if WEFT_TRACE
#define MINI_TRACE_NAME_(NAME) \
    __attribute__((constructor)) static void NAME##_mini_trace_name(void) \
    { \
        weft__trace_name((uintptr_t)&NAME##_mini_wrap, #NAME); \
    }
#else
#define MINI_TRACE_NAME_(NAME)
#endif

#endif
