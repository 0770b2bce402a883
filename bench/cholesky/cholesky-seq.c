// SPDX-License-Identifier: Apache-2.0
/* cholesky, sequential baseline: the recursion of cholesky.h with plain
 * calls; each repetition copies the input, factors the copy and frees it. */
#include "cholesky.h"

int main(int argc, char **argv)
{
    chol_problem p = chol_setup(argc, argv, "<n> <nonzeros> [repetitions]");
    double t0 = bench_now();
    for (long r = 0; r < p.repetitions; r++) {
        chol_block *work = chol_copy(p.input, p.order);
        chol_factor_seq(work, p.order);
        if (r + 1 < p.repetitions)
            chol_free(work, p.order);
        else
            p.result = work;
    }
    double seconds = bench_seconds_since(t0);
    chol_report(&p);
    bench_print_time(seconds);
    chol_problem_free(&p);
    return 0;
}
