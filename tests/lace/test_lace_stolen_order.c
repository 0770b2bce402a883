// SPDX-License-Identifier: Apache-2.0
/* Lace's order of stolen tasks: a worker's pending spawns that
 * TASK_IS_STOLEN calls stolen are always its oldest ones.  Sylvan's
 * garbage collection relies on it: inside a TOGETHER, each worker walks
 * the tasks it spawned from the oldest and stops at the first one not
 * stolen, marking the results of those stolen and completed; a younger
 * task stolen and completed above one not stolen would have its result
 * freed.
 *
 * A parallel recursion keeps, per worker, the Tasks its SPAWNs returned,
 * as Sylvan does, and makes every third level's call a RUN inside the
 * task, as Sylvan's operations are called.  Now and then a leaf collects as Sylvan's does (a flag,
 * NEWFRAME; the others wait for the frame and yield to it), and the
 * collection's TOGETHER copies walk their worker's spawns and count the
 * tasks stolen above one that is not.  Every scheduler, 1 to 32 workers:
 * none, and the recursion's sum right.
 *
 * Usage: test_lace_stolen_order
 */
#include "../check.h"

#include <lace.h>
#include <stdatomic.h>
#include <stdint.h>

enum { MAX_PENDING = 64, DEPTH = 14, ROUNDS = 4, COLLECT_EVERY = 300 };

static __thread Task *pending[MAX_PENDING];
static __thread int n_pending;
static _Atomic int collecting;
static _Atomic uint64_t collections, walked, out_of_order, out_of_order_done, leaves;

VOID_TASK_0(walk_own_spawns)
{
    int first_not_stolen = -1;
    for (int i = 0; i < n_pending; i++) {
        Task *t = pending[i];
        atomic_fetch_add_explicit(&walked, 1, memory_order_relaxed);
        if (!TASK_IS_STOLEN(t)) {
            if (first_not_stolen < 0)
                first_not_stolen = i;
            continue;
        }
        if (first_not_stolen >= 0) {
            atomic_fetch_add_explicit(&out_of_order, 1, memory_order_relaxed);
            if (TASK_IS_COMPLETED(t))
                atomic_fetch_add_explicit(&out_of_order_done, 1, memory_order_relaxed);
        }
    }
}

VOID_TASK_0(collect_go)
{
    atomic_fetch_add_explicit(&collections, 1, memory_order_relaxed);
    TOGETHER(walk_own_spawns);
}

/* As Sylvan's collection starts: one worker runs the frame, the others
 * wait until it shows and take part. */
VOID_TASK_0(collect)
{
    int zero = 0;
    if (atomic_compare_exchange_strong(&collecting, &zero, 1)) {
        NEWFRAME(collect_go);
        atomic_store(&collecting, 0);
        return;
    }
    /* (The frame may be over before it is seen: then nothing waits.) */
    for (long k = 0; atomic_load_explicit(&lace_newframe.t, memory_order_relaxed) == NULL; k++)
        if (k > 1000000 || atomic_load(&collecting) == 0)
            return;
    lace_yield(__lace_worker, __lace_dq_head);
}

TASK_2(uint64_t, tree, int, depth, uint64_t, id)
{
    if (depth == 0) {
        if (atomic_fetch_add_explicit(&leaves, 1, memory_order_relaxed) % COLLECT_EVERY == 0)
            CALL(collect);
        else
            YIELD_NEWFRAME();
        return id;
    }
    CHECK(n_pending < MAX_PENDING, "too deep");
    pending[n_pending++] = SPAWN(tree, depth - 1, 2 * id);
    /* Every third level a RUN inside the task, as Sylvan's operations are
     * called (a frame of its own, above the spawns below it). */
    uint64_t right =
        depth % 3 == 0 ? RUN(tree, depth - 1, 2 * id + 1) : CALL(tree, depth - 1, 2 * id + 1);
    uint64_t left = SYNC(tree);
    n_pending--;
    return left + right;
}

int main(void)
{
    static const unsigned workers[] = {1, 2, 3, 8, 32};
    for (size_t wi = 0; wi < sizeof workers / sizeof workers[0]; wi++) {
        lace_start(workers[wi], 0);
        for (int r = 0; r < ROUNDS; r++) {
            /* The leaves' ids are 2^DEPTH .. 2^(DEPTH+1) - 1. */
            uint64_t n = (uint64_t)1 << DEPTH, want = (n + 2 * n - 1) * n / 2;
            uint64_t got = RUN(tree, DEPTH, 1);
            CHECK(got == want, "%u workers: the sum is %llu, not %llu", workers[wi],
                  (unsigned long long)got, (unsigned long long)want);
        }
        lace_stop();
        CHECK(atomic_load(&out_of_order) == 0,
              "%u workers: %llu tasks stolen above a pending one not stolen (%llu of them "
              "completed: results a collection walking from the oldest would not mark)",
              workers[wi], (unsigned long long)atomic_load(&out_of_order),
              (unsigned long long)atomic_load(&out_of_order_done));
        printf("ok: %u workers: %llu collections walked %llu pending spawns, stolen ones first\n",
               workers[wi], (unsigned long long)atomic_load(&collections),
               (unsigned long long)atomic_load(&walked));
        atomic_store(&collections, 0);
        atomic_store(&walked, 0);
    }
    return 0;
}
