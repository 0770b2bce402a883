// SPDX-License-Identifier: Apache-2.0
/* ssf, sequential baseline: the plain loop over the positions (see ssf.h). */
#include "ssf.h"

int main(int argc, char **argv)
{
    ssf_problem p = ssf_setup(argc, argv, "<k> <repetitions>");
    double t0 = bench_now();
    for (long r = 0; r < p.repetitions; r++)
        for (int i = 0; i < p.n; i++)
            ssf_position(p.text, p.n, i, p.best_len, p.best_pos);
    double seconds = bench_seconds_since(t0);
    ssf_report(&p);
    bench_print_time(seconds);
    ssf_free(&p);
    return 0;
}
