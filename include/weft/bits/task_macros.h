/* Task declaration macros: WEFT_TASK_n / WEFT_VOID_TASK_n for 0..6 arguments
 * and their DECL/IMPL halves.  Not meant to be read for the API (see
 * weft.h); meant to be readable when you need to know what is generated.
 *
 * For a task `NAME` returning RT with argument types T1..Tn this generates
 *   NAME_frame     the task's view of a 64-byte descriptor: args | result
 *   NAME_CALL      the task body, called directly (also by an inlined SYNC)
 *   NAME_WRAP      runs the task from its descriptor (thieves, RUN, ...)
 *   NAME_SPAWN     write args into the slot at head, expose it; returns head+1
 *   NAME_SYNC      join the task at t (the new head): inline it or wait
 *   NAME_RUN, NAME_NEWFRAME, NAME_TOGETHER   entry points from any thread
 * Every generated function takes the worker and the deque head explicitly:
 * no thread-local lookup on the spawn/sync path.  The WEFT_PROFILE_*_ and
 * WEFT_TRACE_*_ hooks (bits/observe.h) are empty unless the build has the
 * profiler or the tracer.
 *
 * The only per-arity code is the table of one-line helpers below; the
 * templates are written once for value tasks and once for void tasks.
 */
#ifndef WEFT_BITS_TASK_MACROS_H
#define WEFT_BITS_TASK_MACROS_H

#include <weft/bits/sched.h>
#include <weft/bits/observe.h>

/* ---- per-arity helpers; positional names weft_a1..weft_a6 ---- */
/* Fields of the argument struct. */
#define WEFT_FIELDS_0() char weft_none_;
#define WEFT_FIELDS_1(T1) T1 weft_a1;
#define WEFT_FIELDS_2(T1, T2) T1 weft_a1; T2 weft_a2;
#define WEFT_FIELDS_3(T1, T2, T3) T1 weft_a1; T2 weft_a2; T3 weft_a3;
#define WEFT_FIELDS_4(T1, T2, T3, T4) T1 weft_a1; T2 weft_a2; T3 weft_a3; T4 weft_a4;
#define WEFT_FIELDS_5(T1, T2, T3, T4, T5) T1 weft_a1; T2 weft_a2; T3 weft_a3; T4 weft_a4; T5 weft_a5;
#define WEFT_FIELDS_6(T1, T2, T3, T4, T5, T6) T1 weft_a1; T2 weft_a2; T3 weft_a3; T4 weft_a4; T5 weft_a5; T6 weft_a6;
/* Parameter list on its own (RUN). */
#define WEFT_PARAMS_0() void
#define WEFT_PARAMS_1(T1) T1 weft_a1
#define WEFT_PARAMS_2(T1, T2) T1 weft_a1, T2 weft_a2
#define WEFT_PARAMS_3(T1, T2, T3) T1 weft_a1, T2 weft_a2, T3 weft_a3
#define WEFT_PARAMS_4(T1, T2, T3, T4) T1 weft_a1, T2 weft_a2, T3 weft_a3, T4 weft_a4
#define WEFT_PARAMS_5(T1, T2, T3, T4, T5) T1 weft_a1, T2 weft_a2, T3 weft_a3, T4 weft_a4, T5 weft_a5
#define WEFT_PARAMS_6(T1, T2, T3, T4, T5, T6) T1 weft_a1, T2 weft_a2, T3 weft_a3, T4 weft_a4, T5 weft_a5, T6 weft_a6
/* Parameter list after the (worker, head) pair. */
#define WEFT_CPARAMS_0()
#define WEFT_CPARAMS_1(T1) , WEFT_PARAMS_1(T1)
#define WEFT_CPARAMS_2(T1, T2) , WEFT_PARAMS_2(T1, T2)
#define WEFT_CPARAMS_3(T1, T2, T3) , WEFT_PARAMS_3(T1, T2, T3)
#define WEFT_CPARAMS_4(T1, T2, T3, T4) , WEFT_PARAMS_4(T1, T2, T3, T4)
#define WEFT_CPARAMS_5(T1, T2, T3, T4, T5) , WEFT_PARAMS_5(T1, T2, T3, T4, T5)
#define WEFT_CPARAMS_6(T1, T2, T3, T4, T5, T6) , WEFT_PARAMS_6(T1, T2, T3, T4, T5, T6)
/* Store the parameters into a frame f. */
#define WEFT_STORE_0(f)
#define WEFT_STORE_1(f) (f)->d.args.weft_a1 = weft_a1;
#define WEFT_STORE_2(f) WEFT_STORE_1(f) (f)->d.args.weft_a2 = weft_a2;
#define WEFT_STORE_3(f) WEFT_STORE_2(f) (f)->d.args.weft_a3 = weft_a3;
#define WEFT_STORE_4(f) WEFT_STORE_3(f) (f)->d.args.weft_a4 = weft_a4;
#define WEFT_STORE_5(f) WEFT_STORE_4(f) (f)->d.args.weft_a5 = weft_a5;
#define WEFT_STORE_6(f) WEFT_STORE_5(f) (f)->d.args.weft_a6 = weft_a6;
/* Arguments read back from a frame f, after the (worker, head) pair. */
#define WEFT_LOAD_0(f)
#define WEFT_LOAD_1(f) , (f)->d.args.weft_a1
#define WEFT_LOAD_2(f) WEFT_LOAD_1(f), (f)->d.args.weft_a2
#define WEFT_LOAD_3(f) WEFT_LOAD_2(f), (f)->d.args.weft_a3
#define WEFT_LOAD_4(f) WEFT_LOAD_3(f), (f)->d.args.weft_a4
#define WEFT_LOAD_5(f) WEFT_LOAD_4(f), (f)->d.args.weft_a5
#define WEFT_LOAD_6(f) WEFT_LOAD_5(f), (f)->d.args.weft_a6

#define WEFT_UNPAREN_(...) __VA_ARGS__

/* Runtime entry points used by the templates (src/runtime). */
void weft_run_task(weft_task *t, uintptr_t wrapper);
void weft_newframe_task(weft_task *t, uintptr_t wrapper);
void weft_together_task(weft_task *t, uintptr_t wrapper);
void weft_check_sync(weft_worker *w, weft_task *t, uintptr_t wrapper, const char *name);
WEFT_NORETURN void weft_unjoined_spawn(weft_worker *w, weft_task *head, const char *name);

/* WEFT_CHECKS (on in Debug builds; a translation unit may define it to 1
 * itself): every SYNC checks that it joins a task of its own name. */
#if WEFT_CHECKS
#define WEFT_CHECK_SYNC_(w, t, NAME) weft_check_sync((w), (t), (uintptr_t)&NAME##_WRAP, #NAME)
#define WEFT_CHECK_RETURN_(w, head, NAME) weft_check_return((w), (head), #NAME)
#else
#define WEFT_CHECK_SYNC_(w, t, NAME) ((void)0)
#define WEFT_CHECK_RETURN_(w, head, NAME) ((void)0)
#endif

/* A task returns with every SPAWN joined.  Slots from the deque top up are
 * EMPTY while a task runs, and a SYNC or DROP empties the slot it joins,
 * so the slot at the task's own head is EMPTY again when it returns unless
 * a SPAWN was left unjoined.  (Slot `end` exists and stays EMPTY, so a
 * task running at a full deque's top may be checked too.)  With
 * WEFT_CHECKS every task checks this as it returns; in every build the
 * runtime checks it when a task it started returns (a RUN, a stolen task,
 * an interrupt's task), so a SPAWN left unjoined is reported at the latest
 * when the RUN that contains it ends. */
static inline void weft_check_return(weft_worker *w, weft_task *head, const char *name)
{
    /* Relaxed: our own slot; a thief could only have changed it if the
     * task had left a SPAWN there, which is what this detects. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&head->state, memory_order_relaxed) !=
                      WEFT_STATE_EMPTY))
        weft_unjoined_spawn(w, head, name);
}

/* ---- templates ---- */

/* A descriptor on the caller's stack (RUN and friends): a union, so that it
 * is both a weft_task for the runtime and a NAME_frame for the task code
 * without type punning. */
#define WEFT_STACK_TASK_(NAME, var)                                                           \
    union {                                                                                   \
        weft_task task;                                                                       \
        NAME##_frame frame;                                                                   \
    } var

/* What every task has, whatever its result: the frame layout check, the
 * prototypes, SPAWN and the any-thread entry points that discard or keep
 * the result in the frame. */
#define WEFT_DECL_COMMON_(RT_OR_VOID, NAME, N, TYPES)                                         \
    _Static_assert(sizeof(NAME##_frame) <= WEFT_TASK_SIZE,                                    \
                   "weft: arguments/result of task " #NAME " exceed the 64-byte descriptor"); \
    _Static_assert(_Alignof(NAME##_frame) <= WEFT_CACHE_LINE,                                 \
                   "weft: task " #NAME " needs more than cache-line alignment");              \
    RT_OR_VOID NAME##_CALL(weft_worker *, weft_task * WEFT_CPARAMS_##N TYPES);                \
    WEFT_WRAPPER_ALIGN void NAME##_WRAP(weft_worker *, weft_task *, weft_task *);             \
    static inline WEFT_UNUSED weft_task *NAME##_SPAWN(weft_worker *w,                         \
                                                      weft_task *t WEFT_CPARAMS_##N TYPES)    \
    {                                                                                         \
        NAME##_frame *f WEFT_UNUSED = (NAME##_frame *)t;                                                  \
        weft_sched_reserve(w, t);                                                             \
        WEFT_PROFILE_SPAWN_(w, t)                                                             \
        WEFT_STORE_##N(f)                                                                     \
        weft_sched_push(w, t, (uintptr_t)&NAME##_WRAP);                                       \
        return t + 1;                                                                         \
    }                                                                                         \
    static inline WEFT_UNUSED void NAME##_TOGETHER(WEFT_PARAMS_##N TYPES)                     \
    {                                                                                         \
        WEFT_STACK_TASK_(NAME, u_);                                                           \
        NAME##_frame *f WEFT_UNUSED = &u_.frame;                                              \
        WEFT_STORE_##N(f)                                                                     \
        weft_together_task(&u_.task, (uintptr_t)&NAME##_WRAP);                                \
    }

#define WEFT_DECL_(RT, NAME, N, TYPES)                                                        \
    typedef struct NAME##_frame {                                                             \
        uintptr_t weft_state_; /* weft_task.state: accessed through weft_task only */         \
        union {                                                                               \
            struct { WEFT_FIELDS_##N TYPES } args;                                            \
            RT res;                                                                           \
        } d;                                                                                  \
    } NAME##_frame;                                                                           \
    WEFT_DECL_COMMON_(RT, NAME, N, TYPES)                                                     \
    static inline WEFT_UNUSED RT NAME##_SYNC(weft_worker *w, weft_task *t)                    \
    {                                                                                         \
        NAME##_frame *f = (NAME##_frame *)t;                                                  \
        WEFT_CHECK_SYNC_(w, t, NAME);                                                         \
        WEFT_PROFILE_SYNC_BEGIN_(w, t, weft_pj_)                                              \
        if (WEFT_LIKELY(weft_sched_pop_private(w, t)) ||                                      \
            !WEFT_PROFILE_SYNC_SLOW_(w, weft_sched_sync_slow(w, t))) {                        \
            RT weft_r_ = NAME##_CALL(w, t WEFT_LOAD_##N(f));                                  \
            WEFT_PROFILE_SYNC_INLINED_(w, weft_pj_)                                           \
            return weft_r_;                                                                   \
        }                                                                                     \
        WEFT_PROFILE_SYNC_STOLEN_(w, t, weft_pj_)                                             \
        return f->d.res;                                                                      \
    }                                                                                         \
    static inline WEFT_UNUSED RT NAME##_RUN(WEFT_PARAMS_##N TYPES)                            \
    {                                                                                         \
        WEFT_STACK_TASK_(NAME, u_);                                                           \
        NAME##_frame *f = &u_.frame;                                                          \
        WEFT_STORE_##N(f)                                                                     \
        weft_run_task(&u_.task, (uintptr_t)&NAME##_WRAP);                                     \
        return f->d.res;                                                                      \
    }                                                                                         \
    static inline WEFT_UNUSED RT NAME##_NEWFRAME(WEFT_PARAMS_##N TYPES)                       \
    {                                                                                         \
        WEFT_STACK_TASK_(NAME, u_);                                                           \
        NAME##_frame *f = &u_.frame;                                                          \
        WEFT_STORE_##N(f)                                                                     \
        weft_newframe_task(&u_.task, (uintptr_t)&NAME##_WRAP);                                \
        return f->d.res;                                                                      \
    }

#define WEFT_VOID_DECL_(NAME, N, TYPES)                                                       \
    typedef struct NAME##_frame {                                                             \
        uintptr_t weft_state_; /* weft_task.state: accessed through weft_task only */         \
        union {                                                                               \
            struct { WEFT_FIELDS_##N TYPES } args;                                            \
        } d;                                                                                  \
    } NAME##_frame;                                                                           \
    WEFT_DECL_COMMON_(void, NAME, N, TYPES)                                                   \
    static inline WEFT_UNUSED void NAME##_SYNC(weft_worker *w, weft_task *t)                  \
    {                                                                                         \
        NAME##_frame *f WEFT_UNUSED = (NAME##_frame *)t;                                      \
        WEFT_CHECK_SYNC_(w, t, NAME);                                                         \
        WEFT_PROFILE_SYNC_BEGIN_(w, t, weft_pj_)                                              \
        if (WEFT_LIKELY(weft_sched_pop_private(w, t)) ||                                      \
            !WEFT_PROFILE_SYNC_SLOW_(w, weft_sched_sync_slow(w, t))) {                        \
            NAME##_CALL(w, t WEFT_LOAD_##N(f));                                               \
            WEFT_PROFILE_SYNC_INLINED_(w, weft_pj_)                                           \
            return;                                                                           \
        }                                                                                     \
        WEFT_PROFILE_SYNC_STOLEN_(w, t, weft_pj_)                                             \
    }                                                                                         \
    static inline WEFT_UNUSED void NAME##_RUN(WEFT_PARAMS_##N TYPES)                          \
    {                                                                                         \
        WEFT_STACK_TASK_(NAME, u_);                                                           \
        NAME##_frame *f WEFT_UNUSED = &u_.frame;                                              \
        WEFT_STORE_##N(f)                                                                     \
        weft_run_task(&u_.task, (uintptr_t)&NAME##_WRAP);                                     \
    }                                                                                         \
    static inline WEFT_UNUSED void NAME##_NEWFRAME(WEFT_PARAMS_##N TYPES)                     \
    {                                                                                         \
        WEFT_STACK_TASK_(NAME, u_);                                                           \
        NAME##_frame *f WEFT_UNUSED = &u_.frame;                                              \
        WEFT_STORE_##N(f)                                                                     \
        weft_newframe_task(&u_.task, (uintptr_t)&NAME##_WRAP);                                \
    }

/* The definition: the wrapper, NAME_CALL (the body, then the return
 * check), then the head of the body; the user's body follows the macro.
 * UPARAMS is the user's parameter list with a leading comma, e.g.
 * (, int n); UARGS its names, e.g. (, n). */
#define WEFT_IMPL_(RT, NAME, N, UPARAMS, UARGS)                                               \
    WEFT_WRAPPER_ALIGN void NAME##_WRAP(weft_worker *w, weft_task *head, weft_task *t)        \
    {                                                                                         \
        NAME##_frame *f = (NAME##_frame *)t;                                                  \
        f->d.res = NAME##_CALL(w, head WEFT_LOAD_##N(f));                                     \
    }                                                                                         \
    WEFT_TRACE_NAME_(NAME)                                                                    \
    WEFT_PROFILE_TYPE_(NAME)                                                                  \
    static inline RT NAME##_BODY_(weft_worker *, weft_task * WEFT_UNPAREN_ UPARAMS);          \
    RT NAME##_CALL(weft_worker *weft_w, weft_task *weft_head WEFT_UNPAREN_ UPARAMS)           \
    {                                                                                         \
        WEFT_PROFILE_ENTER_(weft_w, NAME, weft_pt_)                                           \
        RT weft_r_ = NAME##_BODY_(weft_w, weft_head WEFT_UNPAREN_ UARGS);                     \
        WEFT_PROFILE_LEAVE_(weft_w, weft_pt_)                                                 \
        WEFT_CHECK_RETURN_(weft_w, weft_head, NAME);                                          \
        return weft_r_;                                                                       \
    }                                                                                         \
    static inline RT NAME##_BODY_(weft_worker *weft_w WEFT_UNUSED,                            \
                                  weft_task *weft_head WEFT_UNUSED WEFT_UNPAREN_ UPARAMS)

#define WEFT_VOID_IMPL_(NAME, N, UPARAMS, UARGS)                                              \
    WEFT_WRAPPER_ALIGN void NAME##_WRAP(weft_worker *w, weft_task *head, weft_task *t)        \
    {                                                                                         \
        NAME##_frame *f WEFT_UNUSED = (NAME##_frame *)t;                                      \
        NAME##_CALL(w, head WEFT_LOAD_##N(f));                                                \
    }                                                                                         \
    WEFT_TRACE_NAME_(NAME)                                                                    \
    WEFT_PROFILE_TYPE_(NAME)                                                                  \
    static inline void NAME##_BODY_(weft_worker *, weft_task * WEFT_UNPAREN_ UPARAMS);        \
    void NAME##_CALL(weft_worker *weft_w, weft_task *weft_head WEFT_UNPAREN_ UPARAMS)         \
    {                                                                                         \
        WEFT_PROFILE_ENTER_(weft_w, NAME, weft_pt_)                                           \
        NAME##_BODY_(weft_w, weft_head WEFT_UNPAREN_ UARGS);                                  \
        WEFT_PROFILE_LEAVE_(weft_w, weft_pt_)                                                 \
        WEFT_CHECK_RETURN_(weft_w, weft_head, NAME);                                          \
    }                                                                                         \
    static inline void NAME##_BODY_(weft_worker *weft_w WEFT_UNUSED,                          \
                                    weft_task *weft_head WEFT_UNUSED WEFT_UNPAREN_ UPARAMS)

/* ---- the public per-arity names ---- */
#define WEFT_TASK_DECL_0(RT, NAME) WEFT_DECL_(RT, NAME, 0, ())
#define WEFT_TASK_DECL_1(RT, NAME, T1) WEFT_DECL_(RT, NAME, 1, (T1))
#define WEFT_TASK_DECL_2(RT, NAME, T1, T2) WEFT_DECL_(RT, NAME, 2, (T1, T2))
#define WEFT_TASK_DECL_3(RT, NAME, T1, T2, T3) WEFT_DECL_(RT, NAME, 3, (T1, T2, T3))
#define WEFT_TASK_DECL_4(RT, NAME, T1, T2, T3, T4) WEFT_DECL_(RT, NAME, 4, (T1, T2, T3, T4))
#define WEFT_TASK_DECL_5(RT, NAME, T1, T2, T3, T4, T5) WEFT_DECL_(RT, NAME, 5, (T1, T2, T3, T4, T5))
#define WEFT_TASK_DECL_6(RT, NAME, T1, T2, T3, T4, T5, T6) WEFT_DECL_(RT, NAME, 6, (T1, T2, T3, T4, T5, T6))

#define WEFT_TASK_IMPL_0(RT, NAME) WEFT_IMPL_(RT, NAME, 0, (), ())
#define WEFT_TASK_IMPL_1(RT, NAME, T1, A1) WEFT_IMPL_(RT, NAME, 1, (, T1 A1), (, A1))
#define WEFT_TASK_IMPL_2(RT, NAME, T1, A1, T2, A2) WEFT_IMPL_(RT, NAME, 2, (, T1 A1, T2 A2), (, A1, A2))
#define WEFT_TASK_IMPL_3(RT, NAME, T1, A1, T2, A2, T3, A3) WEFT_IMPL_(RT, NAME, 3, (, T1 A1, T2 A2, T3 A3), (, A1, A2, A3))
#define WEFT_TASK_IMPL_4(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4) \
    WEFT_IMPL_(RT, NAME, 4, (, T1 A1, T2 A2, T3 A3, T4 A4), (, A1, A2, A3, A4))
#define WEFT_TASK_IMPL_5(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5) \
    WEFT_IMPL_(RT, NAME, 5, (, T1 A1, T2 A2, T3 A3, T4 A4, T5 A5), (, A1, A2, A3, A4, A5))
#define WEFT_TASK_IMPL_6(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5, T6, A6) \
    WEFT_IMPL_(RT, NAME, 6, (, T1 A1, T2 A2, T3 A3, T4 A4, T5 A5, T6 A6), (, A1, A2, A3, A4, A5, A6))

#define WEFT_TASK_0(RT, NAME) WEFT_TASK_DECL_0(RT, NAME) WEFT_TASK_IMPL_0(RT, NAME)
#define WEFT_TASK_1(RT, NAME, T1, A1) WEFT_TASK_DECL_1(RT, NAME, T1) WEFT_TASK_IMPL_1(RT, NAME, T1, A1)
#define WEFT_TASK_2(RT, NAME, T1, A1, T2, A2) \
    WEFT_TASK_DECL_2(RT, NAME, T1, T2) WEFT_TASK_IMPL_2(RT, NAME, T1, A1, T2, A2)
#define WEFT_TASK_3(RT, NAME, T1, A1, T2, A2, T3, A3) \
    WEFT_TASK_DECL_3(RT, NAME, T1, T2, T3) WEFT_TASK_IMPL_3(RT, NAME, T1, A1, T2, A2, T3, A3)
#define WEFT_TASK_4(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4) \
    WEFT_TASK_DECL_4(RT, NAME, T1, T2, T3, T4) WEFT_TASK_IMPL_4(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4)
#define WEFT_TASK_5(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5) \
    WEFT_TASK_DECL_5(RT, NAME, T1, T2, T3, T4, T5)                    \
    WEFT_TASK_IMPL_5(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5)
#define WEFT_TASK_6(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5, T6, A6) \
    WEFT_TASK_DECL_6(RT, NAME, T1, T2, T3, T4, T5, T6)                        \
    WEFT_TASK_IMPL_6(RT, NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5, T6, A6)

#define WEFT_VOID_TASK_DECL_0(NAME) WEFT_VOID_DECL_(NAME, 0, ())
#define WEFT_VOID_TASK_DECL_1(NAME, T1) WEFT_VOID_DECL_(NAME, 1, (T1))
#define WEFT_VOID_TASK_DECL_2(NAME, T1, T2) WEFT_VOID_DECL_(NAME, 2, (T1, T2))
#define WEFT_VOID_TASK_DECL_3(NAME, T1, T2, T3) WEFT_VOID_DECL_(NAME, 3, (T1, T2, T3))
#define WEFT_VOID_TASK_DECL_4(NAME, T1, T2, T3, T4) WEFT_VOID_DECL_(NAME, 4, (T1, T2, T3, T4))
#define WEFT_VOID_TASK_DECL_5(NAME, T1, T2, T3, T4, T5) WEFT_VOID_DECL_(NAME, 5, (T1, T2, T3, T4, T5))
#define WEFT_VOID_TASK_DECL_6(NAME, T1, T2, T3, T4, T5, T6) WEFT_VOID_DECL_(NAME, 6, (T1, T2, T3, T4, T5, T6))

#define WEFT_VOID_TASK_IMPL_0(NAME) WEFT_VOID_IMPL_(NAME, 0, (), ())
#define WEFT_VOID_TASK_IMPL_1(NAME, T1, A1) WEFT_VOID_IMPL_(NAME, 1, (, T1 A1), (, A1))
#define WEFT_VOID_TASK_IMPL_2(NAME, T1, A1, T2, A2) WEFT_VOID_IMPL_(NAME, 2, (, T1 A1, T2 A2), (, A1, A2))
#define WEFT_VOID_TASK_IMPL_3(NAME, T1, A1, T2, A2, T3, A3) WEFT_VOID_IMPL_(NAME, 3, (, T1 A1, T2 A2, T3 A3), (, A1, A2, A3))
#define WEFT_VOID_TASK_IMPL_4(NAME, T1, A1, T2, A2, T3, A3, T4, A4) \
    WEFT_VOID_IMPL_(NAME, 4, (, T1 A1, T2 A2, T3 A3, T4 A4), (, A1, A2, A3, A4))
#define WEFT_VOID_TASK_IMPL_5(NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5) \
    WEFT_VOID_IMPL_(NAME, 5, (, T1 A1, T2 A2, T3 A3, T4 A4, T5 A5), (, A1, A2, A3, A4, A5))
#define WEFT_VOID_TASK_IMPL_6(NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5, T6, A6) \
    WEFT_VOID_IMPL_(NAME, 6, (, T1 A1, T2 A2, T3 A3, T4 A4, T5 A5, T6 A6), (, A1, A2, A3, A4, A5, A6))

#define WEFT_VOID_TASK_0(NAME) WEFT_VOID_TASK_DECL_0(NAME) WEFT_VOID_TASK_IMPL_0(NAME)
#define WEFT_VOID_TASK_1(NAME, T1, A1) WEFT_VOID_TASK_DECL_1(NAME, T1) WEFT_VOID_TASK_IMPL_1(NAME, T1, A1)
#define WEFT_VOID_TASK_2(NAME, T1, A1, T2, A2) \
    WEFT_VOID_TASK_DECL_2(NAME, T1, T2) WEFT_VOID_TASK_IMPL_2(NAME, T1, A1, T2, A2)
#define WEFT_VOID_TASK_3(NAME, T1, A1, T2, A2, T3, A3) \
    WEFT_VOID_TASK_DECL_3(NAME, T1, T2, T3) WEFT_VOID_TASK_IMPL_3(NAME, T1, A1, T2, A2, T3, A3)
#define WEFT_VOID_TASK_4(NAME, T1, A1, T2, A2, T3, A3, T4, A4) \
    WEFT_VOID_TASK_DECL_4(NAME, T1, T2, T3, T4) WEFT_VOID_TASK_IMPL_4(NAME, T1, A1, T2, A2, T3, A3, T4, A4)
#define WEFT_VOID_TASK_5(NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5) \
    WEFT_VOID_TASK_DECL_5(NAME, T1, T2, T3, T4, T5)                    \
    WEFT_VOID_TASK_IMPL_5(NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5)
#define WEFT_VOID_TASK_6(NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5, T6, A6) \
    WEFT_VOID_TASK_DECL_6(NAME, T1, T2, T3, T4, T5, T6)                        \
    WEFT_VOID_TASK_IMPL_6(NAME, T1, A1, T2, A2, T3, A3, T4, A4, T5, A5, T6, A6)

#endif
