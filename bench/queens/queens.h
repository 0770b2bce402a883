// SPDX-License-Identifier: Apache-2.0
/* N-queens, shared by queens-seq.c and queens-weft.c: the board check,
 * the known solution counts and the command line.
 *
 * The algorithm is the classic Cilk/Lace nqueens, so that figures compare
 * with Lace's: a task for a board with queens on rows 0..row-1 tries every
 * column c of row `row`; for each, it copies the board into a fresh array
 * with the new queen and checks the whole board pairwise (queens_ok); each
 * legal board becomes a task (spawned in the weft version), and the task
 * sums what they return.  A full board counts 1.  The copies live in the
 * parent's frame until its syncs, so a task's arguments are just
 * (n, row, board): 171,129,071 spawned tasks for n = 15, as in the paper.
 */
#ifndef WEFT_BENCH_QUEENS_H
#define WEFT_BENCH_QUEENS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

/* Solutions for N = 0..QUEENS_MAX_N (OEIS A000170). */
#define QUEENS_MAX_N 18
static const long queens_known[QUEENS_MAX_N + 1] = {
    1,   1,    0,     0,     2,      10,      4,        40,       92,        352,
    724, 2680, 14200, 73712, 365596, 2279184, 14772512, 95815104, 666090624,
};

/* True if no two of the k queens a[0..k-1] (a[i] = column of row i) attack
 * each other: same column or same diagonal. */
static inline int queens_ok(int k, const signed char *a)
{
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++) {
            int d = j - i;
            if (a[j] == a[i] || a[j] == a[i] - d || a[j] == a[i] + d)
                return 0;
        }
    return 1;
}

/* Parses `[-c] <n>` (after -w was taken out by the caller); -c only where
 * allow_count.  Exits with usage on anything else. */
static inline int queens_args(int argc, char **argv, const char *usage, int allow_count, int *count)
{
    *count = allow_count && bench_take_flag(&argc, &argv, "-c");
    bench_expect_args(argc, argv, 1, 1, usage, NULL);
    return (int)bench_arg_long(argv[0], "n", argv[1], 1, QUEENS_MAX_N);
}

static inline void queens_check(int n, long r)
{
    BENCH_CHECK(r == queens_known[n], "queens(%d) = %ld, expected %ld", n, r, queens_known[n]);
}

#endif
