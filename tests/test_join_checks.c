// SPDX-License-Identifier: Apache-2.0
/* Misuse of SPAWN/SYNC that would give a wrong answer silently:
 *  - a task that returns with a SPAWN not joined is stopped with a
 *    message naming it: in every build when the RUN (or stolen task)
 *    containing it returns, and with WEFT_CHECKS as the task itself
 *    returns;
 *  - a SYNC naming another task than the last unjoined SPAWN is stopped
 *    with WEFT_CHECKS.
 * Built twice against the same library: with WEFT_CHECKS=0 and =1 defined
 * for this translation unit (a release install's users may turn the
 * checks on for their own code; -Werror: no "redefined" warning). */
#include "check.h"

#include <weft/weft.h>

#if !defined(WEFT_CHECKS)
#error "the build defines WEFT_CHECKS for this test"
#endif

#include "fib_task.h"

/* fib with its SYNC forgotten. */
WEFT_TASK_1(long, fib_forgets_sync, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(fib_forgets_sync, n - 1);
    return WEFT_CALL(fib_forgets_sync, n - 2);
}

WEFT_TASK_1(long, half, long, x) { return x / 2; }

/* SPAWN of pfib, SYNC of half: the slot holds pfib's arguments. */
WEFT_TASK_1(long, sync_wrong_task, int, n)
{
    WEFT_SPAWN(pfib, n);
    return WEFT_SYNC(half);
}

/* A second copy of the head (WEFT_ME in an inner block) spawns and leaves
 * its task pending: the body's own head is then stale, and its next SPAWN,
 * or a SYNC below the pending task, is refused in every build. */
WEFT_TASK_0(long, second_copy_spawn)
{
    {
        WEFT_ME;
        WEFT_SPAWN(pfib, 5);
    }
    WEFT_SPAWN(pfib, 6);
    return WEFT_SYNC(pfib);
}

WEFT_TASK_0(long, second_copy_sync)
{
    WEFT_SPAWN(pfib, 6);
    {
        WEFT_ME;
        WEFT_SPAWN(pfib, 5);
    }
    return WEFT_SYNC(pfib);
}

/* The same with a task below: the split deque shares a frame's first task
 * at once, and a join of a shared task takes the slow path anyway; the
 * task joined here is private, on the fast path unless the search that
 * made the second copy sent the joins below it to the slow one. */
WEFT_TASK_0(long, second_copy_sync_private)
{
    WEFT_SPAWN(pfib, 3);
    WEFT_SPAWN(pfib, 6);
    {
        WEFT_ME;
        WEFT_SPAWN(pfib, 5);
    }
    long a = WEFT_SYNC(pfib);
    return a + WEFT_SYNC(pfib);
}

/* A task that returns with its SPAWN not joined, above one its caller
 * then joins: the leaked task sits above the caller's empty slot, where
 * the check of a started task's slot at its return cannot see it. */
WEFT_TASK_1(long, leaks_above, int, n)
{
    WEFT_SPAWN(pfib, n);
    return n;
}

WEFT_TASK_0(long, calls_leaks_above)
{
    WEFT_SPAWN(pfib, 5);
    long a = WEFT_CALL(leaks_above, 10);
    return a + WEFT_SYNC(pfib);
}

static void leaks_above_child(void)
{
    CHECK(weft_start(1, 0, 0) == 0, "start");
    printf("%ld\n", WEFT_RUN(calls_leaks_above));
    printf("%ld\n", WEFT_RUN(calls_leaks_above));
}

static void second_copy_spawn_child(void)
{
    CHECK(weft_start(1, 0, 0) == 0, "start");
    printf("%ld\n", WEFT_RUN(second_copy_spawn));
}

static void second_copy_sync_child(void)
{
    CHECK(weft_start(1, 0, 0) == 0, "start");
    printf("%ld\n", WEFT_RUN(second_copy_sync));
}

static void second_copy_sync_private_child(void)
{
    CHECK(weft_start(1, 0, 0) == 0, "start");
    printf("%ld\n", WEFT_RUN(second_copy_sync_private));
}

static void forgets_sync_child(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    printf("%ld\n", WEFT_RUN(fib_forgets_sync, 20));
}

/* One worker: a stolen slot no longer names its task, so the mismatch is
 * caught only while the spawned task stays home. */
static WEFT_UNUSED void wrong_sync_child(void)
{
    CHECK(weft_start(1, 0, 0) == 0, "start");
    printf("%ld\n", WEFT_RUN(sync_wrong_task, 25));
}

int main(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(WEFT_RUN(pfib, 20) == 6765, "a correct program still works");
    weft_stop();
    expect_death(second_copy_spawn_child,
                 "SPAWN(pfib) on worker 0: its slot (0) holds a task still pending, spawned since "
                 "this task body read its head",
                 "a SPAWN above a task from another copy of the head");
    expect_death(second_copy_spawn_child, "or from another copy of the head",
                 "the message names the copy of the head");
    expect_death(second_copy_sync_child,
                 "SYNC(pfib) on worker 0 joins the task in slot 0 while the task above it, "
                 "spawned later, is still pending",
                 "a SYNC below a task from another copy of the head");
    expect_death(second_copy_sync_private_child,
                 "SYNC(pfib) on worker 0 joins the task in slot 1 while the task above it, "
                 "spawned later, is still pending",
                 "a SYNC of a private task below a task from another copy of the head");
#if WEFT_CHECKS
    expect_death(forgets_sync_child, "task fib_forgets_sync returned on worker",
                 "forgotten SYNC, checked as the task returns");
    expect_death(wrong_sync_child, "SYNC(half) on worker",
                 "SYNC of another task than the last SPAWN");
    expect_death(leaks_above_child, "task leaks_above returned on worker",
                 "a SPAWN left above the caller's joined one, checked as the task returns");
#else
    expect_death(forgets_sync_child, "task fib_forgets_sync returned on worker",
                 "forgotten SYNC, checked by name when the RUN or stolen task returns");
    expect_death(forgets_sync_child, "with a SPAWN not joined", "forgotten SYNC (message)");
    /* A SPAWN left above one the caller joined is caught where the
     * caller's join or a later SPAWN meets it, with this cause among those
     * named. */
    expect_death(leaks_above_child, "left by a task that returned without joining it",
                 "a SPAWN left above the caller's joined one");
    /* Without the checks a SYNC of another task is not caught: it is what
     * WEFT_CHECKS is for (docs/configuration.md). */
#endif
    return 0;
}
