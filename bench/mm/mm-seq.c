// SPDX-License-Identifier: Apache-2.0
/* mm, sequential baseline: the plain loop over the rows (see mm.h). */
#include "mm.h"

int main(int argc, char **argv)
{
    mm_problem p = mm_setup(argc, argv, "<n> <repetitions>");
    double t0 = bench_now();
    for (long r = 0; r < p.repetitions; r++)
        for (int i = 0; i < p.n; i++)
            mm_row(p.a, p.b, p.c, p.n, i);
    double seconds = bench_seconds_since(t0);
    mm_report(&p);
    bench_print_time(seconds);
    mm_free(&p);
    return 0;
}
