// SPDX-License-Identifier: Apache-2.0
/* mm with the outermost loop as a tree of tasks: the row range is halved
 * recursively down to one row per task, n - 1 spawns per repetition (see
 * mm.h).  The repetitions run inside one root task, so the serialisation
 * between products costs a join, not a RUN from outside the pool. */
#include "mm.h"

#include <weft/weft.h>

WEFT_VOID_TASK_6(mm_rows, const double *, a, const double *, b, double *, c, int, n, int, lo, int,
                 hi)
{
    if (hi - lo == 1) {
        mm_row(a, b, c, n, lo);
        return;
    }
    int mid = lo + (hi - lo) / 2;
    WEFT_SPAWN(mm_rows, a, b, c, n, lo, mid);
    WEFT_CALL(mm_rows, a, b, c, n, mid, hi);
    WEFT_SYNC(mm_rows);
}

WEFT_VOID_TASK_5(mm_repeat, const double *, a, const double *, b, double *, c, int, n, long,
                 repetitions)
{
    for (long r = 0; r < repetitions; r++)
        WEFT_CALL(mm_rows, a, b, c, n, 0, n);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    mm_problem p = mm_setup(argc, argv, "[-w workers] <n> <repetitions>");
    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    WEFT_RUN(mm_repeat, p.a, p.b, p.c, p.n, p.repetitions);
    double seconds = bench_seconds_since(t0);
    mm_report(&p);
    bench_weft_finish(seconds);
    mm_free(&p);
    return 0;
}
