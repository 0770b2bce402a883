// SPDX-License-Identifier: Apache-2.0
/* pi written against Lace's API (<lace.h>): the same program as
 * pi-weft.c, run through weft's Lace layer. */
/* pi: the samples split in halves into tasks down to the grain (see pi.h).
 *
 *   pi-lace [-w workers] <samples> <grain>
 */
#include "pi.h"

#include <lace.h>

/* Hits among samples [lo, hi). */
TASK_3(long, count_hits, long, lo, long, hi, long, grain)
{
    if (hi - lo <= grain)
        return pi_count(lo, hi);
    long mid = lo + (hi - lo) / 2;
    SPAWN(count_hits, mid, hi, grain);
    long lower = CALL(count_hits, lo, mid, grain);
    long upper = SYNC(count_hits);
    return lower + upper;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    pi_params p = pi_args(argc, argv, "[-w workers] <samples> <grain>");

    lace_start(workers, 0);
    printf("workers: %u\n", lace_workers());
    double t0 = bench_now();
    long hits = RUN(count_hits, 0, p.samples, p.grain);
    double t1 = bench_now();

    pi_print(&p, hits);
    pi_check(&p, hits);
    bench_print_time(t1 - t0);
    lace_count_report_file(stdout);
    lace_stop();
    return 0;
}
