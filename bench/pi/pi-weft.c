// SPDX-License-Identifier: Apache-2.0
/* pi: the samples split in halves into tasks down to the grain (see pi.h).
 *
 *   pi-weft [-w workers] <samples> <grain>
 */
#include "pi.h"

#include <weft/weft.h>

/* Hits among samples [lo, hi). */
WEFT_TASK_3(long, count_hits, long, lo, long, hi, long, grain)
{
    if (hi - lo <= grain)
        return pi_count(lo, hi);
    long mid = lo + (hi - lo) / 2;
    WEFT_SPAWN(count_hits, mid, hi, grain);
    long lower = WEFT_CALL(count_hits, lo, mid, grain);
    long upper = WEFT_SYNC(count_hits);
    return lower + upper;
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    pi_params p = pi_args(argc, argv, "[-w workers] <samples> <grain>");

    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    long hits = WEFT_RUN(count_hits, 0, p.samples, p.grain);
    double seconds = bench_seconds_since(t0);

    pi_print(&p, hits);
    pi_check(&p, hits);
    bench_weft_finish(seconds);
    return 0;
}
