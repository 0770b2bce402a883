// SPDX-License-Identifier: Apache-2.0
/* pi, sequential baseline: all samples counted in one loop (see pi.h).
 *
 *   pi-seq <samples> <grain>
 *
 * Its check is the estimate's closeness to pi (its count is the
 * sequential count the parallel version is checked against). */
#include "pi.h"

int main(int argc, char **argv)
{
    pi_params p = pi_args(argc, argv, "<samples> <grain>");

    double t0 = bench_now();
    long hits = pi_count(0, p.samples);
    double seconds = bench_seconds_since(t0);

    pi_print(&p, hits);
    pi_check_estimate(&p, hits);
    bench_print_time(seconds);
    return 0;
}
