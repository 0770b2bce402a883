// SPDX-License-Identifier: Apache-2.0
/* Counters: exact where the count is known, consistent elsewhere; and
 * ENOTSUP when they are compiled out. */
#include "check.h"

#include <errno.h>
#include <weft/weft.h>

#include "fib_task.h"

int main(void)
{
    weft_stats s;
#if WEFT_STATS
    for (size_t wi = 0; wi < N_TEST_WORKER_COUNTS; wi++) {
        unsigned n = test_worker_counts[wi];
        CHECK(weft_start(n, 0, 0) == 0, "start");
        CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "warm-up");
        weft_stats_reset();
        CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "fib");
        CHECK(weft_stats_get(&s) == 0, "stats");
        /* pfib(20) spawns once per call with n >= 2: fib(21) - 1 times. */
        CHECK_EQ_U64(s.tasks, fib_ref(21) - 1);
        CHECK(s.steals + s.leaps <= s.tasks, "more steals than tasks");
        CHECK(s.peak_depth >= 1 && s.peak_depth <= 20, "peak depth %llu",
              (unsigned long long)s.peak_depth);
        if (n == 1)
            CHECK(s.steals == 0 && s.leaps == 0 && s.grows == 0, "one worker never steals");
        CHECK(weft_stop() == 0, "stop");
    }
    printf("ok: counters (tasks exact, steals bounded)\n");
#else
    CHECK(weft_stats_get(&s) == ENOTSUP && s.tasks == 0, "compiled out: ENOTSUP");
    printf("ok: counters compiled out report ENOTSUP\n");
#endif
    return 0;
}
