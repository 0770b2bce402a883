// SPDX-License-Identifier: Apache-2.0
/* Task declaration macros: WEFT_TASK_n / WEFT_VOID_TASK_n for 0..9 arguments
 * (the templates serve 0..10: the Lace flavour has 10)
 * and their DECL/IMPL halves.  Not meant to be read for the API (see
 * weft.h); meant to be readable when you need to know what is generated.
 *
 * For a task `NAME` returning RT with argument types T1..Tn this generates
 *   NAME_frame     the task's view of a descriptor: args | result
 *   NAME_CALL      the task body, called directly (also by an inlined SYNC)
 *   NAME_WRAP      runs the task from its descriptor (thieves, RUN, ...)
 *   NAME_SPAWN     write args into the slot at head, expose it; returns head+1
 *   NAME_SYNC      join the task at t (the new head): inline it or wait
 *   NAME_RUN, NAME_NEWFRAME, NAME_TOGETHER   entry points from any thread
 * Every generated function takes the worker and the deque head explicitly:
 * no thread-local lookup on the spawn/sync path.
 *
 * The only per-arity code is the table of one-line helpers below; the
 * templates are written once for value tasks and once for void tasks.  The
 * WEFT_PROFILE_*_ and WEFT_TRACE_*_ hooks (bits/observe.h) are empty
 * unless the build has the profiler or the tracer.
 *
 * Flavours.  The templates serve weft's own names and the Lace layer
 * (include/weft-lace/lace.h) alike.  A flavour FL is a prefix naming:
 *   FL##_TASK_T        the descriptor type NAME_CALL/SPAWN/SYNC take
 *   FL##_WORKER_T      the worker type they take: weft_worker, or a type
 *                      that views the same object (a pointer cast)
 *   FL##_W, FL##_HEAD  the hidden parameters of a task body
 *   FL##_RUN, FL##_NEWFRAME, FL##_TOGETHER   the entry points the any-thread
 *                      functions hand a descriptor on the stack to
 *   FL##_THREW         (C++) stops the program when an exception leaves a
 *                      task body: weft__task_threw or weft__lace_task_threw
 *   FL##_MORE(RT, NAME, N, TYPES), FL##_MORE_VOID(NAME, N, TYPES)
 *                      whatever else the flavour generates per task
 * weft's flavour is WEFT_NATIVE: weft_task, weft_w, weft_head, the
 * runtime's entry points, nothing more.  The wrapper (NAME_WRAP) always
 * has the runtime's type.
 */
#ifndef WEFT_BITS_TASK_MACROS_H
#define WEFT_BITS_TASK_MACROS_H

#include <weft/bits/fork_join.h>

/* A C++ exception thrown in the body of a task defined with these macros
 * (in a C++ file) cannot reach its joiner: a stolen task returns through
 * the runtime's C code.  It stops the program at the task's end, with one
 * message naming the task and the exception, whoever runs the task (the
 * C++ API's join, task_group and algorithms do pass exceptions on), in
 * the words of the flavour (FL##_THREW).  WEFT_TASK_TRY_ and
 * WEFT_TASK_CATCH_ bracket the body's call. */
#if defined(__cplusplus) && (defined(__cpp_exceptions) || defined(__EXCEPTIONS))
#include <cstdio>
#include <cstdlib>
#include <exception>
extern "C++" {
/* The text of the exception being handled (inside a catch block). */
inline const char *weft__caught_exception_text() noexcept
{
    try {
        throw;
    } catch (const std::exception &e) {
        return e.what();
    } catch (...) {
    }
    return "not a std::exception";
}

/* Stops the program: "<speaker>: a C++ exception (...) left task
 * <name><advice>" (inside a catch block). */
[[noreturn]] inline void weft__task_exception_stop(const char *speaker, const char *name,
                                                   const char *advice) noexcept
{
    const char *what = weft__caught_exception_text();
    std::fprintf(stderr, "%s: a C++ exception (%s) left task %s%s\n", speaker, what, name, advice);
    std::fflush(stderr);
    std::abort();
}

/* weft's own tasks: the C++ API is the way to pass exceptions. */
[[noreturn]] inline void weft__task_threw(const char *name) noexcept
{
    weft__task_exception_stop("weft", name,
                              ", which is defined with the C task macros: catch it in the task, "
                              "or use the C++ API (weft/weft.hpp), whose join passes exceptions "
                              "to the joiner");
}

/* Lace's tasks, of either layer: Lace has no way to pass one on. */
[[noreturn]] inline void weft__lace_task_threw(const char *name) noexcept
{
    weft__task_exception_stop("lace", name,
                              ": catch it in the task (a Lace task cannot pass an exception on "
                              "to the task that joins it)");
}
}
#define WEFT_TASK_TRY_ try {
#define WEFT_TASK_CATCH_(FL, NAME) \
    } \
    catch (...) { FL##_THREW(#NAME); }
#else
#define WEFT_TASK_TRY_ {
#define WEFT_TASK_CATCH_(FL, NAME) }
#endif

/* ---- per-arity helpers; positional names weft_a1..weft_a10 ---- */
/* Fields of the argument struct. */
#define WEFT_FIELDS_0() char weft_none_;
#define WEFT_FIELDS_1(T1) T1 weft_a1;
#define WEFT_FIELDS_2(T1, T2) WEFT_FIELDS_1(T1) T2 weft_a2;
#define WEFT_FIELDS_3(T1, T2, T3) WEFT_FIELDS_2(T1, T2) T3 weft_a3;
#define WEFT_FIELDS_4(T1, T2, T3, T4) WEFT_FIELDS_3(T1, T2, T3) T4 weft_a4;
#define WEFT_FIELDS_5(T1, T2, T3, T4, T5) WEFT_FIELDS_4(T1, T2, T3, T4) T5 weft_a5;
#define WEFT_FIELDS_6(T1, T2, T3, T4, T5, T6) WEFT_FIELDS_5(T1, T2, T3, T4, T5) T6 weft_a6;
#define WEFT_FIELDS_7(T1, T2, T3, T4, T5, T6, T7) WEFT_FIELDS_6(T1, T2, T3, T4, T5, T6) T7 weft_a7;
#define WEFT_FIELDS_8(T1, T2, T3, T4, T5, T6, T7, T8) \
    WEFT_FIELDS_7(T1, T2, T3, T4, T5, T6, T7) T8 weft_a8;
#define WEFT_FIELDS_9(T1, T2, T3, T4, T5, T6, T7, T8, T9) \
    WEFT_FIELDS_8(T1, T2, T3, T4, T5, T6, T7, T8) T9 weft_a9;
#define WEFT_FIELDS_10(T1, T2, T3, T4, T5, T6, T7, T8, T9, T10) \
    WEFT_FIELDS_9(T1, T2, T3, T4, T5, T6, T7, T8, T9) T10 weft_a10;
/* Parameter list on its own (RUN). */
#define WEFT_PARAMS_0() void
#define WEFT_PARAMS_1(T1) T1 weft_a1
#define WEFT_PARAMS_2(T1, T2) WEFT_PARAMS_1(T1), T2 weft_a2
#define WEFT_PARAMS_3(T1, T2, T3) WEFT_PARAMS_2(T1, T2), T3 weft_a3
#define WEFT_PARAMS_4(T1, T2, T3, T4) WEFT_PARAMS_3(T1, T2, T3), T4 weft_a4
#define WEFT_PARAMS_5(T1, T2, T3, T4, T5) WEFT_PARAMS_4(T1, T2, T3, T4), T5 weft_a5
#define WEFT_PARAMS_6(T1, T2, T3, T4, T5, T6) WEFT_PARAMS_5(T1, T2, T3, T4, T5), T6 weft_a6
#define WEFT_PARAMS_7(T1, T2, T3, T4, T5, T6, T7) WEFT_PARAMS_6(T1, T2, T3, T4, T5, T6), T7 weft_a7
#define WEFT_PARAMS_8(T1, T2, T3, T4, T5, T6, T7, T8) \
    WEFT_PARAMS_7(T1, T2, T3, T4, T5, T6, T7), T8 weft_a8
#define WEFT_PARAMS_9(T1, T2, T3, T4, T5, T6, T7, T8, T9) \
    WEFT_PARAMS_8(T1, T2, T3, T4, T5, T6, T7, T8), T9 weft_a9
#define WEFT_PARAMS_10(T1, T2, T3, T4, T5, T6, T7, T8, T9, T10) \
    WEFT_PARAMS_9(T1, T2, T3, T4, T5, T6, T7, T8, T9), T10 weft_a10
/* Parameter list after the (worker, head) pair. */
#define WEFT_CPARAMS_0()
#define WEFT_CPARAMS_1(...) , WEFT_PARAMS_1(__VA_ARGS__)
#define WEFT_CPARAMS_2(...) , WEFT_PARAMS_2(__VA_ARGS__)
#define WEFT_CPARAMS_3(...) , WEFT_PARAMS_3(__VA_ARGS__)
#define WEFT_CPARAMS_4(...) , WEFT_PARAMS_4(__VA_ARGS__)
#define WEFT_CPARAMS_5(...) , WEFT_PARAMS_5(__VA_ARGS__)
#define WEFT_CPARAMS_6(...) , WEFT_PARAMS_6(__VA_ARGS__)
#define WEFT_CPARAMS_7(...) , WEFT_PARAMS_7(__VA_ARGS__)
#define WEFT_CPARAMS_8(...) , WEFT_PARAMS_8(__VA_ARGS__)
#define WEFT_CPARAMS_9(...) , WEFT_PARAMS_9(__VA_ARGS__)
#define WEFT_CPARAMS_10(...) , WEFT_PARAMS_10(__VA_ARGS__)
/* Store the parameters into a frame f, where vectors of 32 bytes exist
 * (AVX) one store each: f goes through an empty asm between them, so that
 * the compiler cannot merge neighbouring stores into one such vector.  A
 * 32-byte vector value in a function makes GCC realign its stack frame on
 * every call (a frame pointer and about six more instructions), so a body
 * that inlines a SPAWN of four word arguments would pay that on every
 * call, spawning or not (docs/results/profiling.md, "A vector of
 * arguments").  Lace 2's layer stores its own the same way. */
#if defined(__AVX__)
#define WEFT_STORE_APART_(f) __asm__("" : "+r"(f));
#else
#define WEFT_STORE_APART_(f)
#endif
#define WEFT_STORE_0(f)
#define WEFT_STORE_1(f) (f)->d.args.weft_a1 = weft_a1;
#define WEFT_STORE_2(f) WEFT_STORE_1(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a2 = weft_a2;
#define WEFT_STORE_3(f) WEFT_STORE_2(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a3 = weft_a3;
#define WEFT_STORE_4(f) WEFT_STORE_3(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a4 = weft_a4;
#define WEFT_STORE_5(f) WEFT_STORE_4(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a5 = weft_a5;
#define WEFT_STORE_6(f) WEFT_STORE_5(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a6 = weft_a6;
#define WEFT_STORE_7(f) WEFT_STORE_6(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a7 = weft_a7;
#define WEFT_STORE_8(f) WEFT_STORE_7(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a8 = weft_a8;
#define WEFT_STORE_9(f) WEFT_STORE_8(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a9 = weft_a9;
#define WEFT_STORE_10(f) WEFT_STORE_9(f) WEFT_STORE_APART_(f)(f)->d.args.weft_a10 = weft_a10;
/* Arguments read back from a frame f, after the (worker, head) pair. */
#define WEFT_LOAD_0(f)
#define WEFT_LOAD_1(f) , (f)->d.args.weft_a1
#define WEFT_LOAD_2(f) WEFT_LOAD_1(f), (f)->d.args.weft_a2
#define WEFT_LOAD_3(f) WEFT_LOAD_2(f), (f)->d.args.weft_a3
#define WEFT_LOAD_4(f) WEFT_LOAD_3(f), (f)->d.args.weft_a4
#define WEFT_LOAD_5(f) WEFT_LOAD_4(f), (f)->d.args.weft_a5
#define WEFT_LOAD_6(f) WEFT_LOAD_5(f), (f)->d.args.weft_a6
#define WEFT_LOAD_7(f) WEFT_LOAD_6(f), (f)->d.args.weft_a7
#define WEFT_LOAD_8(f) WEFT_LOAD_7(f), (f)->d.args.weft_a8
#define WEFT_LOAD_9(f) WEFT_LOAD_8(f), (f)->d.args.weft_a9
#define WEFT_LOAD_10(f) WEFT_LOAD_9(f), (f)->d.args.weft_a10

#define WEFT_UNPAREN_(...) __VA_ARGS__

WEFT_BEGIN_DECLS

/* Runtime entry points used by the templates (src/runtime). */
void weft__run_task(weft_task *t, uintptr_t wrapper);
/* weft__run_task, except that from outside the pool, with no pool running
 * (never started, stopped, or stopping), it returns false having run
 * nothing instead of stopping the program (the C++ API then starts its
 * default pool and tries again). */
bool weft__run_task_if_running(weft_task *t, uintptr_t wrapper);
void weft__newframe_task(weft_task *t, uintptr_t wrapper);
void weft__together_task(weft_task *t, uintptr_t wrapper);
void weft__check_sync(weft_worker *w, weft_task *t, uintptr_t wrapper, const char *name);
WEFT_NORETURN void weft__unjoined_spawn(weft_worker *w, weft_task *head, const char *name);

/* WEFT_CHECKS (on in Debug builds; a translation unit may define it to 1
 * itself): every SYNC checks that it joins a task of its own name (while
 * the slot is not stolen: a thief overwrites the name), and every task
 * checks as it returns that its SPAWNs were joined; so that a C++
 * task_group's run() in a task called from the group's frame (a CALL at
 * that frame's head) is not taken for a run() of that frame, which would
 * leave its spawn in the task, each task's body is a frame of its own
 * there (weft_worker's root_serial), as a task the runtime starts is in
 * every build. */
#if WEFT_CHECKS
#define WEFT_CHECK_ENTER_(w) uint64_t weft_outer_root_ = weft_check_enter(w);
#define WEFT_CHECK_SYNC_(w, t, NAME) weft__check_sync((w), (t), (uintptr_t)&NAME##_WRAP, #NAME)
#define WEFT_CHECK_RETURN_(w, head, NAME) \
    (weft_check_return((w), (head), #NAME), (w)->root_serial = weft_outer_root_)
#else
#define WEFT_CHECK_ENTER_(w)
#define WEFT_CHECK_SYNC_(w, t, NAME) ((void)0)
#define WEFT_CHECK_RETURN_(w, head, NAME) ((void)0)
#endif

/* A task's body begins a frame of its own (WEFT_CHECKS): returns the
 * number of the frame it runs in, which its return puts back. */
static inline uint64_t weft_check_enter(weft_worker *w)
{
    uint64_t outer = w->root_serial;
    w->root_serial = ++w->roots_begun;
    return outer;
}

/* A task returns with every SPAWN joined.  Slots from the deque top up are
 * EMPTY while a task runs, and a SYNC or DROP empties the slot it joins,
 * so the slot at the task's own head is EMPTY again when it returns unless
 * a SPAWN was left unjoined.  (Slot `end` exists and stays EMPTY, so a
 * task running at a full deque's top may be checked too.)  With
 * WEFT_CHECKS every task checks this as it returns; in every build a task
 * the runtime starts (a RUN, a stolen task, an interrupt's task) checks it
 * in its wrapper, by name, so a SPAWN left unjoined is reported at the
 * latest when the RUN that contains it ends. */
static inline void weft_check_return(weft_worker *w, weft_task *head, const char *name)
{
    /* Relaxed: our own slot; a thief could only have changed it if the
     * task had left a SPAWN there, which is what this detects. */
    uintptr_t s = atomic_load_explicit(&head->state, memory_order_relaxed);
    if (WEFT_UNLIKELY(s != WEFT_STATE_EMPTY) && s != WEFT_STATE_END)
        weft__unjoined_spawn(w, head, name);
}

WEFT_END_DECLS

/* ---- weft's own flavour ---- */
#define WEFT_NATIVE_TASK_T weft_task
#define WEFT_NATIVE_WORKER_T weft_worker
#define WEFT_NATIVE_W weft_w
#define WEFT_NATIVE_HEAD weft_head
#define WEFT_NATIVE_RUN weft__run_task
#define WEFT_NATIVE_NEWFRAME weft__newframe_task
#define WEFT_NATIVE_TOGETHER weft__together_task
#define WEFT_NATIVE_THREW weft__task_threw
#define WEFT_NATIVE_MORE(RT, NAME, N, TYPES)
#define WEFT_NATIVE_MORE_VOID(NAME, N, TYPES)

/* ---- templates ---- */

/* A descriptor on the caller's stack (RUN and friends): a union, so that it
 * is both a weft_task for the runtime and a NAME_frame for the task code
 * without type punning.  (In C++ the union has a constructor that leaves
 * it uninitialised, as in C: std::atomic is not trivially constructible
 * from C++20 on.) */
#ifdef __cplusplus
#define WEFT_STACK_TASK_(NAME, var) \
    union NAME##_stack_ { \
        weft_task task; \
        NAME##_frame frame; \
        NAME##_stack_() {} \
    } var
#else
#define WEFT_STACK_TASK_(NAME, var) \
    union { \
        weft_task task; \
        NAME##_frame frame; \
    } var
#endif

/* An entry point from any thread: the arguments go into a descriptor on
 * the stack, which ENTRY runs; a value task's result is read back. */
#define WEFT_ENTRY_(RT, NAME, N, TYPES, SUFFIX, ENTRY) \
    static inline WEFT_UNUSED RT NAME##SUFFIX(WEFT_PARAMS_##N TYPES) \
    { \
        WEFT_STACK_TASK_(NAME, u_); \
        NAME##_frame *f = &u_.frame; \
        WEFT_STORE_##N(f) ENTRY(&u_.task, (uintptr_t)&NAME##_WRAP); \
        return f->d.res; \
    }
#define WEFT_VOID_ENTRY_(NAME, N, TYPES, SUFFIX, ENTRY) \
    static inline WEFT_UNUSED void NAME##SUFFIX(WEFT_PARAMS_##N TYPES) \
    { \
        WEFT_STACK_TASK_(NAME, u_); \
        NAME##_frame *f WEFT_UNUSED = &u_.frame; \
        WEFT_STORE_##N(f) ENTRY(&u_.task, (uintptr_t)&NAME##_WRAP); \
    }

/* In a profiling build: WEFT_IF_PROFILE_ keeps its argument;
 * WEFT_TO_PROFILED_ in a plain copy (PROFILED false) runs its last
 * argument (the call of the profiled copy, and the return) when profiling
 * is on; WEFT_ENTER_AS_ and WEFT_LEAVE_AS_ tell the profiler a task body
 * starts and ends, in the profiled copy only.  Without the profiler, all
 * are empty. */
#if WEFT_PROFILE
#define WEFT_IF_PROFILE_(...) __VA_ARGS__
#define WEFT_TO_PROFILED_(PROFILED, w, ...) \
    if (!(PROFILED) && WEFT_UNLIKELY(weft_fj_profiling(w))) { \
        __VA_ARGS__; \
    }
#define WEFT_ENTER_AS_(PROFILED, w, NAME) \
    uint32_t weft_pt_ = (PROFILED) ? weft_profile_enter((w), &NAME##_profile_type_) : 0;
#define WEFT_LEAVE_AS_(PROFILED, w) \
    if (PROFILED) \
        weft_profile_leave((w), weft_pt_);
#else
#define WEFT_IF_PROFILE_(...)
#define WEFT_TO_PROFILED_(PROFILED, w, ...)
#define WEFT_ENTER_AS_(PROFILED, w, NAME)
#define WEFT_LEAVE_AS_(PROFILED, w)
#endif

/* A task's body.  In a profiling build of C it is compiled twice: inlined
 * into NAME##_CALL, and into NAME##_CALL_PROFILED_ with its hidden
 * parameter weft_body_profiled_ 1.  There its SPAWNs, SYNCs and CALLs are
 * the forms with the profiler's hooks inline (WEFT_SPAWN_FN_ and the
 * others below) and a called task's profiled entry, so a profiled run
 * makes no test of whether profiling is on and no extra call per task
 * (docs/results/profiling.md, "The body compiled twice").  Each recursive
 * CALL of the profiled copy is a call of NAME##_CALL_PROFILED_, never
 * inlined, so that a frame holds one level of the body.
 *
 * In C++ a lambda in a body could not read the parameter without
 * capturing it, so a C++ body is one function of its own, reached from
 * both entries, whose SPAWNs and SYNCs test whether profiling is on. */
#if WEFT_PROFILE
#define WEFT_CHILD_CALL_(PROFILED, NAME) ((PROFILED) ? NAME##_CALL_PROFILED_ : NAME##_CALL)
/* A front-end's SPAWN, SYNC and CALL of task NAME: in the profiled copy
 * of a body, the forms with the hooks and the profiled entry; elsewhere
 * the plain forms, which test whether profiling is on. */
#define WEFT_SPAWN_FN_(NAME, w, head, ...) \
    (WEFT_BODY_PROFILED_ ? NAME##_SPAWN_HOOKED_ : NAME##_SPAWN)(w, head, ##__VA_ARGS__)
#define WEFT_SYNC_FN_(NAME) (WEFT_BODY_PROFILED_ ? NAME##_SYNC_HOOKED_ : NAME##_SYNC)
#define WEFT_CALL_FN_(NAME) WEFT_CHILD_CALL_(WEFT_BODY_PROFILED_, NAME)
#ifdef __cplusplus
#define WEFT_BODY_LINKAGE_ static WEFT_NOINLINE
#else
#define WEFT_BODY_LINKAGE_ static WEFT_ALWAYS_INLINE
#define WEFT_BODY_PROFILED_TYPE_ , const int
#define WEFT_BODY_PROFILED_PARAM_ , const int weft_body_profiled_ WEFT_UNUSED
#define WEFT_BODY_PROFILED_ARG_(PROFILED) , (PROFILED)
/* Outside a task body weft_body_profiled_ is this function, which
 * WEFT_BODY_PROFILED_ reads as 0; inside one, the body's parameter of the
 * same name hides it.  A function, not a variable, so that the parameter
 * hides it without a -Wshadow warning. */
static inline WEFT_UNUSED int weft_body_profiled_(void) { return 0; }
#define WEFT_BODY_PROFILED_ _Generic(weft_body_profiled_, int : weft_body_profiled_, default : 0)
#endif
#else
#define WEFT_CHILD_CALL_(PROFILED, NAME) NAME##_CALL
#define WEFT_SPAWN_FN_(NAME, w, head, ...) NAME##_SPAWN(w, head, ##__VA_ARGS__)
#define WEFT_SYNC_FN_(NAME) NAME##_SYNC
#define WEFT_CALL_FN_(NAME) NAME##_CALL
#define WEFT_BODY_LINKAGE_ static inline
#endif
/* A body compiled once (C++, or no profiler): no hidden parameter, and
 * the plain forms everywhere. */
#ifndef WEFT_BODY_PROFILED_
#define WEFT_BODY_PROFILED_TYPE_
#define WEFT_BODY_PROFILED_PARAM_
#define WEFT_BODY_PROFILED_ARG_(PROFILED)
#define WEFT_BODY_PROFILED_ 0
#endif

/* A task's SPAWN, NAME##SUFFIX: NAME##_SPAWN (PROFILED false), which tells
 * the profiler if it is on, and in a profiling build NAME##_SPAWN_HOOKED_,
 * the profiled copy's, with the hook inline. */
#define WEFT_SPAWN_AS_(FL, NAME, N, TYPES, SUFFIX, PROFILED, STORAGE) \
    STORAGE FL##_TASK_T *NAME##SUFFIX(FL##_WORKER_T *w_, FL##_TASK_T *head WEFT_CPARAMS_##N TYPES) \
    { \
        weft_worker *w = (weft_worker *)w_; \
        weft_task *t = weft_fj_spawn_slot_as(w, (weft_task *)head, "SPAWN(" #NAME ")", false); \
        NAME##_frame *f WEFT_UNUSED = (NAME##_frame *)t; \
        WEFT_STORE_##N(f) return (FL##_TASK_T *)weft_fj_spawn_publish_as( \
            w, t, (uintptr_t)&NAME##_WRAP, PROFILED); \
    }

/* A task's SYNC, NAME##SUFFIX.  In a profiling build each task has one
 * with the profiler's hooks (PROFILED true: WEFT_PROFILED_SYNCS_ below),
 * and NAME##_SYNC without them, which goes to NAME##_SYNC_PROFILED_ when
 * profiling is on (bits/fork_join.h, "The profiler's hooks"); the one
 * with the hooks runs the child inline by its profiled entry. */
#define WEFT_SYNC_AS_(FL, RT, NAME, N, SUFFIX, PROFILED, STORAGE) \
    STORAGE RT NAME##SUFFIX(FL##_WORKER_T *w_, FL##_TASK_T *slot) \
    { \
        weft_worker *w = (weft_worker *)w_; \
        WEFT_TO_PROFILED_(PROFILED, w, return NAME##_SYNC_PROFILED_(w_, slot)) \
        weft_task *t = weft_fj_join_slot(w, (weft_task *)slot, "SYNC(" #NAME ")"); \
        NAME##_frame *f = (NAME##_frame *)t; \
        WEFT_CHECK_SYNC_(w, t, NAME); \
        weft_fj_join weft_j_; \
        if (!weft_fj_join_begin_as(w, t, &weft_j_, "SYNC(" #NAME ")", PROFILED)) \
            return f->d.res; \
        RT weft_r_ = WEFT_CHILD_CALL_(PROFILED, NAME)(w_, slot WEFT_LOAD_##N(f)); \
        weft_fj_join_inlined_as(w, &weft_j_, PROFILED); \
        return weft_r_; \
    }
#define WEFT_VOID_SYNC_AS_(FL, NAME, N, SUFFIX, PROFILED, STORAGE) \
    STORAGE void NAME##SUFFIX(FL##_WORKER_T *w_, FL##_TASK_T *slot) \
    { \
        weft_worker *w = (weft_worker *)w_; \
        WEFT_TO_PROFILED_(PROFILED, w, NAME##_SYNC_PROFILED_(w_, slot); return ) \
        weft_task *t = weft_fj_join_slot(w, (weft_task *)slot, "SYNC(" #NAME ")"); \
        NAME##_frame *f WEFT_UNUSED = (NAME##_frame *)t; \
        WEFT_CHECK_SYNC_(w, t, NAME); \
        weft_fj_join weft_j_; \
        if (!weft_fj_join_begin_as(w, t, &weft_j_, "SYNC(" #NAME ")", PROFILED)) \
            return; \
        WEFT_CHILD_CALL_(PROFILED, NAME)(w_, slot WEFT_LOAD_##N(f)); \
        weft_fj_join_inlined_as(w, &weft_j_, PROFILED); \
    }
/* A profiling build's two SYNCs with the hooks: NAME##_SYNC_HOOKED_,
 * inline in the profiled copy of a body, and NAME##_SYNC_PROFILED_, the
 * same out of line, where the plain SYNC goes when profiling is on. */
#define WEFT_PROFILED_SYNCS_(FL, RT, NAME, N) \
    static WEFT_NOINLINE WEFT_UNUSED RT NAME##_SYNC_PROFILED_(FL##_WORKER_T *, FL##_TASK_T *); \
    WEFT_SYNC_AS_(FL, RT, NAME, N, _SYNC_HOOKED_, true, static WEFT_ALWAYS_INLINE WEFT_UNUSED) \
    static RT NAME##_SYNC_PROFILED_(FL##_WORKER_T *w_, FL##_TASK_T *slot) \
    { \
        return NAME##_SYNC_HOOKED_(w_, slot); \
    }
#define WEFT_VOID_PROFILED_SYNCS_(FL, NAME, N) \
    static WEFT_NOINLINE WEFT_UNUSED void NAME##_SYNC_PROFILED_(FL##_WORKER_T *, FL##_TASK_T *); \
    WEFT_VOID_SYNC_AS_(FL, NAME, N, _SYNC_HOOKED_, true, static WEFT_ALWAYS_INLINE WEFT_UNUSED) \
    static void NAME##_SYNC_PROFILED_(FL##_WORKER_T *w_, FL##_TASK_T *slot) \
    { \
        NAME##_SYNC_HOOKED_(w_, slot); \
    }
/* What every task has, whatever its result: the frame layout check, the
 * prototypes, SPAWN and TOGETHER (whose copies' results are dropped). */
#define WEFT_DECL_COMMON_(FL, RT_OR_VOID, NAME, N, TYPES) \
    WEFT_STATIC_ASSERT(sizeof(NAME##_frame) <= WEFT_TASK_SIZE, \
                       "weft: arguments/result of task " #NAME " exceed the descriptor"); \
    WEFT_STATIC_ASSERT(WEFT_ALIGNOF(NAME##_frame) <= WEFT_CACHE_LINE, \
                       "weft: task " #NAME " needs more than cache-line alignment"); \
    WEFT_EXTERN_C WEFT_TASK_CODE_ALIGN RT_OR_VOID NAME##_CALL( \
        FL##_WORKER_T *, FL##_TASK_T *WEFT_CPARAMS_##N TYPES); \
    WEFT_IF_PROFILE_(WEFT_EXTERN_C RT_OR_VOID NAME##_CALL_PROFILED_( \
                         FL##_WORKER_T *, FL##_TASK_T *WEFT_CPARAMS_##N TYPES);) \
    WEFT_EXTERN_C WEFT_WRAPPER_ALIGN void NAME##_WRAP(weft_worker *, weft_task *, weft_task *); \
    WEFT_SPAWN_AS_(FL, NAME, N, TYPES, _SPAWN, false, static inline WEFT_UNUSED) \
    WEFT_IF_PROFILE_(WEFT_SPAWN_AS_(FL, NAME, N, TYPES, _SPAWN_HOOKED_, true, \
                                    static WEFT_ALWAYS_INLINE WEFT_UNUSED)) \
    WEFT_VOID_ENTRY_(NAME, N, TYPES, _TOGETHER, FL##_TOGETHER)

#define WEFT_DECL_(FL, RT, NAME, N, TYPES) \
    typedef struct NAME##_frame { \
        uintptr_t weft_state_; /* weft_task.state: accessed through weft_task only */ \
        union { \
            struct { \
                WEFT_FIELDS_##N TYPES \
            } args; \
            RT res; \
        } d; \
    } NAME##_frame; \
    WEFT_DECL_COMMON_(FL, RT, NAME, N, TYPES) \
    WEFT_IF_PROFILE_(WEFT_PROFILED_SYNCS_(FL, RT, NAME, N)) \
    WEFT_SYNC_AS_(FL, RT, NAME, N, _SYNC, false, static inline WEFT_UNUSED) \
    WEFT_ENTRY_(RT, NAME, N, TYPES, _RUN, FL##_RUN) \
    WEFT_ENTRY_(RT, NAME, N, TYPES, _NEWFRAME, FL##_NEWFRAME) \
    FL##_MORE(RT, NAME, N, TYPES)

#define WEFT_VOID_DECL_(FL, NAME, N, TYPES) \
    typedef struct NAME##_frame { \
        uintptr_t weft_state_; /* weft_task.state: accessed through weft_task only */ \
        union { \
            struct { \
                WEFT_FIELDS_##N TYPES \
            } args; \
        } d; \
    } NAME##_frame; \
    WEFT_DECL_COMMON_(FL, void, NAME, N, TYPES) \
    WEFT_IF_PROFILE_(WEFT_VOID_PROFILED_SYNCS_(FL, NAME, N)) \
    WEFT_VOID_SYNC_AS_(FL, NAME, N, _SYNC, false, static inline WEFT_UNUSED) \
    WEFT_VOID_ENTRY_(NAME, N, TYPES, _RUN, FL##_RUN) \
    WEFT_VOID_ENTRY_(NAME, N, TYPES, _NEWFRAME, FL##_NEWFRAME) \
    FL##_MORE_VOID(NAME, N, TYPES)

/* A task's entry NAME##SUFFIX: its body, then the return check.  In a
 * profiling build each task has two, as its SYNC does: NAME##_CALL_PROFILED_
 * with the body between the profiler's enter and leave (PROFILED true),
 * and NAME##_CALL, which goes there when profiling is on and runs the
 * body alone when it is off. */
#define WEFT_CALL_AS_(FL, RT, NAME, UPARAMS, UARGS, SUFFIX, PROFILED, STORAGE) \
    STORAGE RT NAME##SUFFIX(FL##_WORKER_T *FL##_W, FL##_TASK_T *FL##_HEAD WEFT_UNPAREN_ UPARAMS) \
    { \
        WEFT_TO_PROFILED_(PROFILED, (weft_worker *)FL##_W, \
                          return NAME##_CALL_PROFILED_(FL##_W, FL##_HEAD WEFT_UNPAREN_ UARGS)) \
        WEFT_ENTER_AS_(PROFILED, (weft_worker *)FL##_W, NAME) \
        WEFT_CHECK_ENTER_((weft_worker *)FL##_W) \
        WEFT_TASK_TRY_ \
        RT weft_r_ = \
            NAME##_BODY_(FL##_W, FL##_HEAD WEFT_BODY_PROFILED_ARG_(PROFILED) WEFT_UNPAREN_ UARGS); \
        WEFT_LEAVE_AS_(PROFILED, (weft_worker *)FL##_W) \
        WEFT_CHECK_RETURN_((weft_worker *)FL##_W, (weft_task *)FL##_HEAD, NAME); \
        return weft_r_; \
        WEFT_TASK_CATCH_(FL, NAME) \
    }
#define WEFT_VOID_CALL_AS_(FL, NAME, UPARAMS, UARGS, SUFFIX, PROFILED, STORAGE) \
    STORAGE void NAME##SUFFIX(FL##_WORKER_T *FL##_W, FL##_TASK_T *FL##_HEAD WEFT_UNPAREN_ UPARAMS) \
    { \
        WEFT_TO_PROFILED_(PROFILED, (weft_worker *)FL##_W, \
                          NAME##_CALL_PROFILED_(FL##_W, FL##_HEAD WEFT_UNPAREN_ UARGS); \
                          return ) \
        WEFT_ENTER_AS_(PROFILED, (weft_worker *)FL##_W, NAME) \
        WEFT_CHECK_ENTER_((weft_worker *)FL##_W) \
        WEFT_TASK_TRY_ \
        NAME##_BODY_(FL##_W, FL##_HEAD WEFT_BODY_PROFILED_ARG_(PROFILED) WEFT_UNPAREN_ UARGS); \
        WEFT_LEAVE_AS_(PROFILED, (weft_worker *)FL##_W) \
        WEFT_CHECK_RETURN_((weft_worker *)FL##_W, (weft_task *)FL##_HEAD, NAME); \
        WEFT_TASK_CATCH_(FL, NAME) \
    }

/* The definition: the wrapper, NAME_CALL (the body, then the return
 * check), then the head of the body; the user's body follows the macro.
 * UPARAMS is the user's parameter list with a leading comma, e.g.
 * (, int n); UARGS its names, e.g. (, n). */
#define WEFT_IMPL_(FL, RT, NAME, N, UPARAMS, UARGS) \
    WEFT_WRAPPER_ALIGN void NAME##_WRAP(weft_worker *w, weft_task *head, weft_task *t) \
    { \
        NAME##_frame *f = (NAME##_frame *)t; \
        f->d.res = NAME##_CALL((FL##_WORKER_T *)w, (FL##_TASK_T *)head WEFT_LOAD_##N(f)); \
        weft_check_return(w, head, #NAME); /* names the task in every build */ \
    } \
    WEFT_TRACE_NAME_(NAME) \
    WEFT_PROFILE_TYPE_(NAME) \
    WEFT_TASK_CODE_ALIGN WEFT_BODY_LINKAGE_ RT NAME##_BODY_( \
        FL##_WORKER_T *, FL##_TASK_T *WEFT_BODY_PROFILED_TYPE_ WEFT_UNPAREN_ UPARAMS); \
    WEFT_IF_PROFILE_( \
        WEFT_CALL_AS_(FL, RT, NAME, UPARAMS, UARGS, _CALL_PROFILED_, true, WEFT_NOINLINE)) \
    WEFT_CALL_AS_(FL, RT, NAME, UPARAMS, UARGS, _CALL, false, WEFT_TASK_CODE_ALIGN) \
    WEFT_BODY_LINKAGE_ RT NAME##_BODY_( \
        FL##_WORKER_T *FL##_W WEFT_UNUSED, \
        FL##_TASK_T *FL##_HEAD WEFT_UNUSED WEFT_BODY_PROFILED_PARAM_ WEFT_UNPAREN_ UPARAMS)

#define WEFT_VOID_IMPL_(FL, NAME, N, UPARAMS, UARGS) \
    WEFT_WRAPPER_ALIGN void NAME##_WRAP(weft_worker *w, weft_task *head, weft_task *t) \
    { \
        NAME##_frame *f WEFT_UNUSED = (NAME##_frame *)t; \
        NAME##_CALL((FL##_WORKER_T *)w, (FL##_TASK_T *)head WEFT_LOAD_##N(f)); \
        weft_check_return(w, head, #NAME); /* names the task in every build */ \
    } \
    WEFT_TRACE_NAME_(NAME) \
    WEFT_PROFILE_TYPE_(NAME) \
    WEFT_TASK_CODE_ALIGN WEFT_BODY_LINKAGE_ void NAME##_BODY_( \
        FL##_WORKER_T *, FL##_TASK_T *WEFT_BODY_PROFILED_TYPE_ WEFT_UNPAREN_ UPARAMS); \
    WEFT_IF_PROFILE_( \
        WEFT_VOID_CALL_AS_(FL, NAME, UPARAMS, UARGS, _CALL_PROFILED_, true, WEFT_NOINLINE)) \
    WEFT_VOID_CALL_AS_(FL, NAME, UPARAMS, UARGS, _CALL, false, WEFT_TASK_CODE_ALIGN) \
    WEFT_BODY_LINKAGE_ void NAME##_BODY_( \
        FL##_WORKER_T *FL##_W WEFT_UNUSED, \
        FL##_TASK_T *FL##_HEAD WEFT_UNUSED WEFT_BODY_PROFILED_PARAM_ WEFT_UNPAREN_ UPARAMS)

/* ---- per-arity front ends, for any flavour ----
 * WEFT_GEN_DECL_n(FL, RT, NAME, T1..Tn), WEFT_GEN_IMPL_n(FL, RT, NAME, T1, A1, ...),
 * and their VOID forms: the argument lists a template wants. */
#define WEFT_GEN_DECL_0(FL, RT, NAME) WEFT_DECL_(FL, RT, NAME, 0, ())
#define WEFT_GEN_DECL_1(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 1, (__VA_ARGS__))
#define WEFT_GEN_DECL_2(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 2, (__VA_ARGS__))
#define WEFT_GEN_DECL_3(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 3, (__VA_ARGS__))
#define WEFT_GEN_DECL_4(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 4, (__VA_ARGS__))
#define WEFT_GEN_DECL_5(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 5, (__VA_ARGS__))
#define WEFT_GEN_DECL_6(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 6, (__VA_ARGS__))
#define WEFT_GEN_DECL_7(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 7, (__VA_ARGS__))
#define WEFT_GEN_DECL_8(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 8, (__VA_ARGS__))
#define WEFT_GEN_DECL_9(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 9, (__VA_ARGS__))
#define WEFT_GEN_DECL_10(FL, RT, NAME, ...) WEFT_DECL_(FL, RT, NAME, 10, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_0(FL, NAME) WEFT_VOID_DECL_(FL, NAME, 0, ())
#define WEFT_GEN_VOID_DECL_1(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 1, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_2(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 2, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_3(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 3, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_4(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 4, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_5(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 5, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_6(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 6, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_7(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 7, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_8(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 8, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_9(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 9, (__VA_ARGS__))
#define WEFT_GEN_VOID_DECL_10(FL, NAME, ...) WEFT_VOID_DECL_(FL, NAME, 10, (__VA_ARGS__))

/* (T1, A1, ..., Tn, An) -> (, T1 A1, ..., Tn An) and (, A1, ..., An) */
#define WEFT_UP_0()
#define WEFT_UP_1(T1, A1) , T1 A1
#define WEFT_UP_2(T1, A1, ...) , T1 A1 WEFT_UP_1(__VA_ARGS__)
#define WEFT_UP_3(T1, A1, ...) , T1 A1 WEFT_UP_2(__VA_ARGS__)
#define WEFT_UP_4(T1, A1, ...) , T1 A1 WEFT_UP_3(__VA_ARGS__)
#define WEFT_UP_5(T1, A1, ...) , T1 A1 WEFT_UP_4(__VA_ARGS__)
#define WEFT_UP_6(T1, A1, ...) , T1 A1 WEFT_UP_5(__VA_ARGS__)
#define WEFT_UP_7(T1, A1, ...) , T1 A1 WEFT_UP_6(__VA_ARGS__)
#define WEFT_UP_8(T1, A1, ...) , T1 A1 WEFT_UP_7(__VA_ARGS__)
#define WEFT_UP_9(T1, A1, ...) , T1 A1 WEFT_UP_8(__VA_ARGS__)
#define WEFT_UP_10(T1, A1, ...) , T1 A1 WEFT_UP_9(__VA_ARGS__)
#define WEFT_UA_0()
#define WEFT_UA_1(T1, A1) , A1
#define WEFT_UA_2(T1, A1, ...) , A1 WEFT_UA_1(__VA_ARGS__)
#define WEFT_UA_3(T1, A1, ...) , A1 WEFT_UA_2(__VA_ARGS__)
#define WEFT_UA_4(T1, A1, ...) , A1 WEFT_UA_3(__VA_ARGS__)
#define WEFT_UA_5(T1, A1, ...) , A1 WEFT_UA_4(__VA_ARGS__)
#define WEFT_UA_6(T1, A1, ...) , A1 WEFT_UA_5(__VA_ARGS__)
#define WEFT_UA_7(T1, A1, ...) , A1 WEFT_UA_6(__VA_ARGS__)
#define WEFT_UA_8(T1, A1, ...) , A1 WEFT_UA_7(__VA_ARGS__)
#define WEFT_UA_9(T1, A1, ...) , A1 WEFT_UA_8(__VA_ARGS__)
#define WEFT_UA_10(T1, A1, ...) , A1 WEFT_UA_9(__VA_ARGS__)
/* (T1, A1, ..., Tn, An) -> T1, ..., Tn */
#define WEFT_UT_0()
#define WEFT_UT_1(T1, A1) T1
#define WEFT_UT_2(T1, A1, ...) T1, WEFT_UT_1(__VA_ARGS__)
#define WEFT_UT_3(T1, A1, ...) T1, WEFT_UT_2(__VA_ARGS__)
#define WEFT_UT_4(T1, A1, ...) T1, WEFT_UT_3(__VA_ARGS__)
#define WEFT_UT_5(T1, A1, ...) T1, WEFT_UT_4(__VA_ARGS__)
#define WEFT_UT_6(T1, A1, ...) T1, WEFT_UT_5(__VA_ARGS__)
#define WEFT_UT_7(T1, A1, ...) T1, WEFT_UT_6(__VA_ARGS__)
#define WEFT_UT_8(T1, A1, ...) T1, WEFT_UT_7(__VA_ARGS__)
#define WEFT_UT_9(T1, A1, ...) T1, WEFT_UT_8(__VA_ARGS__)
#define WEFT_UT_10(T1, A1, ...) T1, WEFT_UT_9(__VA_ARGS__)

#define WEFT_GEN_IMPL_(FL, RT, NAME, N, ...) \
    WEFT_IMPL_(FL, RT, NAME, N, (WEFT_UP_##N(__VA_ARGS__)), (WEFT_UA_##N(__VA_ARGS__)))
#define WEFT_GEN_VOID_IMPL_(FL, NAME, N, ...) \
    WEFT_VOID_IMPL_(FL, NAME, N, (WEFT_UP_##N(__VA_ARGS__)), (WEFT_UA_##N(__VA_ARGS__)))
/* Both halves at once (TASK_n): the declaration's types are the T's. */
#define WEFT_GEN_TASK_(FL, RT, NAME, N, ...) \
    WEFT_DECL_(FL, RT, NAME, N, (WEFT_UT_##N(__VA_ARGS__))) \
    WEFT_GEN_IMPL_(FL, RT, NAME, N, __VA_ARGS__)
#define WEFT_GEN_VOID_TASK_(FL, NAME, N, ...) \
    WEFT_VOID_DECL_(FL, NAME, N, (WEFT_UT_##N(__VA_ARGS__))) \
    WEFT_GEN_VOID_IMPL_(FL, NAME, N, __VA_ARGS__)

/* ---- weft's public per-arity names (n = 0..9) ---- */
#define WEFT_TASK_DECL_0(RT, NAME) WEFT_GEN_DECL_0(WEFT_NATIVE, RT, NAME)
#define WEFT_TASK_DECL_1(RT, NAME, ...) WEFT_GEN_DECL_1(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_TASK_DECL_2(RT, NAME, ...) WEFT_GEN_DECL_2(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_TASK_DECL_3(RT, NAME, ...) WEFT_GEN_DECL_3(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_TASK_DECL_4(RT, NAME, ...) WEFT_GEN_DECL_4(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_TASK_DECL_5(RT, NAME, ...) WEFT_GEN_DECL_5(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_TASK_DECL_6(RT, NAME, ...) WEFT_GEN_DECL_6(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_TASK_DECL_7(RT, NAME, ...) WEFT_GEN_DECL_7(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_TASK_DECL_8(RT, NAME, ...) WEFT_GEN_DECL_8(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_TASK_DECL_9(RT, NAME, ...) WEFT_GEN_DECL_9(WEFT_NATIVE, RT, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_0(NAME) WEFT_GEN_VOID_DECL_0(WEFT_NATIVE, NAME)
#define WEFT_VOID_TASK_DECL_1(NAME, ...) WEFT_GEN_VOID_DECL_1(WEFT_NATIVE, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_2(NAME, ...) WEFT_GEN_VOID_DECL_2(WEFT_NATIVE, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_3(NAME, ...) WEFT_GEN_VOID_DECL_3(WEFT_NATIVE, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_4(NAME, ...) WEFT_GEN_VOID_DECL_4(WEFT_NATIVE, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_5(NAME, ...) WEFT_GEN_VOID_DECL_5(WEFT_NATIVE, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_6(NAME, ...) WEFT_GEN_VOID_DECL_6(WEFT_NATIVE, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_7(NAME, ...) WEFT_GEN_VOID_DECL_7(WEFT_NATIVE, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_8(NAME, ...) WEFT_GEN_VOID_DECL_8(WEFT_NATIVE, NAME, __VA_ARGS__)
#define WEFT_VOID_TASK_DECL_9(NAME, ...) WEFT_GEN_VOID_DECL_9(WEFT_NATIVE, NAME, __VA_ARGS__)

#define WEFT_TASK_IMPL_0(RT, NAME) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 0, )
#define WEFT_TASK_IMPL_1(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 1, __VA_ARGS__)
#define WEFT_TASK_IMPL_2(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 2, __VA_ARGS__)
#define WEFT_TASK_IMPL_3(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 3, __VA_ARGS__)
#define WEFT_TASK_IMPL_4(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 4, __VA_ARGS__)
#define WEFT_TASK_IMPL_5(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 5, __VA_ARGS__)
#define WEFT_TASK_IMPL_6(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 6, __VA_ARGS__)
#define WEFT_TASK_IMPL_7(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 7, __VA_ARGS__)
#define WEFT_TASK_IMPL_8(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 8, __VA_ARGS__)
#define WEFT_TASK_IMPL_9(RT, NAME, ...) WEFT_GEN_IMPL_(WEFT_NATIVE, RT, NAME, 9, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_0(NAME) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 0, )
#define WEFT_VOID_TASK_IMPL_1(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 1, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_2(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 2, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_3(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 3, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_4(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 4, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_5(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 5, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_6(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 6, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_7(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 7, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_8(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 8, __VA_ARGS__)
#define WEFT_VOID_TASK_IMPL_9(NAME, ...) WEFT_GEN_VOID_IMPL_(WEFT_NATIVE, NAME, 9, __VA_ARGS__)

#define WEFT_TASK_0(RT, NAME) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 0, )
#define WEFT_TASK_1(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 1, __VA_ARGS__)
#define WEFT_TASK_2(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 2, __VA_ARGS__)
#define WEFT_TASK_3(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 3, __VA_ARGS__)
#define WEFT_TASK_4(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 4, __VA_ARGS__)
#define WEFT_TASK_5(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 5, __VA_ARGS__)
#define WEFT_TASK_6(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 6, __VA_ARGS__)
#define WEFT_TASK_7(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 7, __VA_ARGS__)
#define WEFT_TASK_8(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 8, __VA_ARGS__)
#define WEFT_TASK_9(RT, NAME, ...) WEFT_GEN_TASK_(WEFT_NATIVE, RT, NAME, 9, __VA_ARGS__)
#define WEFT_VOID_TASK_0(NAME) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 0, )
#define WEFT_VOID_TASK_1(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 1, __VA_ARGS__)
#define WEFT_VOID_TASK_2(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 2, __VA_ARGS__)
#define WEFT_VOID_TASK_3(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 3, __VA_ARGS__)
#define WEFT_VOID_TASK_4(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 4, __VA_ARGS__)
#define WEFT_VOID_TASK_5(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 5, __VA_ARGS__)
#define WEFT_VOID_TASK_6(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 6, __VA_ARGS__)
#define WEFT_VOID_TASK_7(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 7, __VA_ARGS__)
#define WEFT_VOID_TASK_8(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 8, __VA_ARGS__)
#define WEFT_VOID_TASK_9(NAME, ...) WEFT_GEN_VOID_TASK_(WEFT_NATIVE, NAME, 9, __VA_ARGS__)

#endif
