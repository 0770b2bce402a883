/* Schedule perturbation: race points at the racy steps of the deque, steal
 * and sleep protocols (build option WEFT_PERTURB; src/perturb.c).
 *
 * In a perturb build every WEFT_RACE_POINT(id) (src/internal.h) calls
 * weft_race_point(id), which by default delays the calling thread at
 * random (environment WEFT_PERTURB=<probability>[,<seed>]) so that the
 * ordinary concurrency tests explore many more interleavings.  A test may
 * instead install a hook that sees every point and can stall a thread
 * there until another thread has reached some other point
 * (tests/test_races.c).  In a normal build the macro expands to nothing
 * and this file only names the points.
 *
 * Not part of the API: tests include it through src/internal.h.
 */
#ifndef WEFT_PERTURB_H
#define WEFT_PERTURB_H

/* Every racy point.  "Thief" and "owner" are the split deque's roles. */
typedef enum weft_race_point_id {
    /* split_deque.c, thief side (Figure 4 lines 1-9) */
    WEFT_RP_STEAL_READ_TS,    /* read (tail,split) with tail < split, before the CAS */
    WEFT_RP_STEAL_WON,        /* the CAS succeeded, before the descriptor is read */
    WEFT_RP_STEAL_LOST,       /* the CAS failed (line 7) */
    WEFT_RP_STEAL_ASK,        /* nothing shared, before raising splitreq (line 8) */
    /* split_deque.c, owner side */
    WEFT_RP_GROW_BEFORE_MOVE, /* grow_shared, before moving split up (line 38) */
    WEFT_RP_GROW_MOVED,       /* grow_shared, split moved, before clearing splitreq */
    WEFT_RP_SHRINK_READ_TS,   /* shrink_shared, read (tail,split), before moving split */
    WEFT_RP_SHRINK_MOVED,     /* shrink_shared, split moved and tail re-read, before line 52 */
    WEFT_RP_PUSH_SHARED,      /* push after allstolen, (tail,split) stored, before the rest */
    WEFT_RP_POP_STOLEN,       /* pop_stolen, before resetting allstolen */
    /* steal.c */
    WEFT_RP_STEAL_TAKEN,      /* thief holds a task (state STOLEN), before running it */
    WEFT_RP_BEFORE_DONE,      /* thief ran it and wrote the result, before storing DONE */
    WEFT_RP_AFTER_DONE,       /* DONE stored, before waking a sleeping joiner */
    WEFT_RP_JOIN_POLL,        /* joiner of a stolen task, before reading its state */
    /* sleep.c */
    WEFT_RP_SLEEP_ANNOUNCED,  /* sleeper: word, count and requests published, before the last look */
    WEFT_RP_SLEEP_WILL_WAIT,  /* sleeper: the last look found nothing, before futex_wait */
    WEFT_RP_WAKE_PEEKED,      /* waker: saw a sleeper, before the claiming CAS */
    WEFT_RP_WAKE_CLAIMED,     /* waker: claimed it, before futex_wake */
    WEFT_RP_COUNT
} weft_race_point_id;

/* A test's hook: called at every race point instead of the random delay.
 * It may block the calling thread (e.g. until another thread's hook saw
 * some point); it runs inside the runtime, so it must not spawn, sync or
 * call back into weft. */
typedef void (*weft_race_hook_fn)(weft_race_point_id id);

/* Installs (or, with NULL, removes) the hook.  Call it while no worker
 * runs (before weft_start, after weft_stop): thread creation publishes it. */
void weft_race_set_hook(weft_race_hook_fn hook);

/* "STEAL_READ_TS" etc., for messages. */
const char *weft_race_point_name(weft_race_point_id id);

/* The call behind WEFT_RACE_POINT in a perturb build. */
void weft_race_point(weft_race_point_id id);

#endif
