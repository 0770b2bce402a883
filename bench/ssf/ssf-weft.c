// SPDX-License-Identifier: Apache-2.0
/* ssf with the loop over positions as a tree of tasks: the position range
 * is halved recursively down to one position per task, N - 1 spawns per
 * repetition (see ssf.h).  The repetitions run inside one root task. */
#include "ssf.h"

#include <weft/weft.h>

WEFT_VOID_TASK_6(ssf_positions, const char *, text, int, n, int *, best_len, int *, best_pos, int,
                 lo, int, hi)
{
    if (hi - lo == 1) {
        ssf_position(text, n, lo, best_len, best_pos);
        return;
    }
    int mid = lo + (hi - lo) / 2;
    WEFT_SPAWN(ssf_positions, text, n, best_len, best_pos, lo, mid);
    WEFT_CALL(ssf_positions, text, n, best_len, best_pos, mid, hi);
    WEFT_SYNC(ssf_positions);
}

WEFT_VOID_TASK_5(ssf_repeat, const char *, text, int, n, int *, best_len, int *, best_pos, long,
                 repetitions)
{
    for (long r = 0; r < repetitions; r++)
        WEFT_CALL(ssf_positions, text, n, best_len, best_pos, 0, n);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    ssf_problem p = ssf_setup(argc, argv, "[-w workers] <k> <repetitions>");
    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    WEFT_RUN(ssf_repeat, p.text, p.n, p.best_len, p.best_pos, p.repetitions);
    double seconds = bench_seconds_since(t0);
    ssf_report(&p);
    bench_weft_finish(seconds);
    ssf_free(&p);
    return 0;
}
